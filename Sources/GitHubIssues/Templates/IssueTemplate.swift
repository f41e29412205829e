/// One way a repository asks for an issue, read from a file in `.github/ISSUE_TEMPLATE/`: a
/// Markdown template (a body to edit) or an issue form (fields to answer), with what it sets on
/// the issue it files.
public struct IssueTemplate: Hashable, Sendable {
  /// What the person fills in.
  public enum Content: Hashable, Sendable {
    /// A Markdown template: the body the issue starts from, edited as a whole.
    case markdown(String)
    /// An issue form: fields answered one by one, composed into the body as GitHub composes them.
    case form(IssueForm)
  }

  /// The file's name in `.github/ISSUE_TEMPLATE/` (`bug_report.yml`): what `--template` also
  /// matches, and the order GitHub lists templates in.
  public var file: String
  /// The name the chooser shows (`name:`).
  public var name: String
  /// What it is for (`about:` of a Markdown template, `description:` of a form).
  public var about: String
  /// The title the issue starts with (`title:`), often a prefix such as `[Bug]: `; empty when
  /// the template sets none.
  public var title: String
  /// The labels the issue is filed with.
  public var labels: [String]
  /// The logins the issue is assigned to.
  public var assignees: [String]
  /// The projects (`OWNER/NUMBER`) a form adds the issue to, which `issues` cannot do: said
  /// when the form is chosen, never silently dropped.
  public var projects: [String]
  /// The issue type a form sets (`type:`), if any.
  public var type: String?
  /// The body or the form.
  public var content: Content

  /// A template as its file describes it.
  public init(
    file: String, name: String, about: String, title: String = "", labels: [String] = [],
    assignees: [String] = [], projects: [String] = [], type: String? = nil, content: Content
  ) {
    self.file = file
    self.name = name
    self.about = about
    self.title = title
    self.labels = labels
    self.assignees = assignees
    self.projects = projects
    self.type = type
    self.content = content
  }

  /// The form, when the template is one.
  public var form: IssueForm? {
    if case .form(let form) = content { form } else { nil }
  }
}
