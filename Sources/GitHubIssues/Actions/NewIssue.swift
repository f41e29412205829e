/// An issue to file: what `POST /repos/{owner}/{repo}/issues` sends, queued in the outbox as
/// ``QueuedAction/Operation-swift.enum/create(_:)`` until GitHub numbers it.
public struct NewIssue: Hashable, Sendable, Codable {
  /// The title.
  public var title: String
  /// The body, in Markdown (a template's, or a form's answers as GitHub composes them).
  public var body: String
  /// Label names.
  public var labels: [String]
  /// Assignees' logins.
  public var assignees: [String]
  /// The milestone's number.
  public var milestone: Int?
  /// The issue type's name.
  public var type: String?
  /// The form's fields as the person filled them, when a form composed the body: never sent,
  /// kept so that a draft of it reopens filled (``Draft/Words/newIssue(_:)``).
  public var form: FilledForm?

  /// An issue to file.
  public init(
    title: String, body: String = "", labels: [String] = [], assignees: [String] = [],
    milestone: Int? = nil, type: String? = nil, form: FilledForm? = nil
  ) {
    self.title = title
    self.body = body
    self.labels = labels
    self.assignees = assignees
    self.milestone = milestone
    self.type = type
    self.form = form
  }
}
