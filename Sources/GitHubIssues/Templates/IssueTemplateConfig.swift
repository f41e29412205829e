/// What a repository's `.github/ISSUE_TEMPLATE/config.yml` says about its template chooser.
public struct IssueTemplateConfig: Hashable, Sendable {
  /// A link the chooser offers instead of an issue (a forum, a security policy).
  public struct ContactLink: Hashable, Sendable {
    /// What the link is called.
    public var name: String
    /// Where it goes.
    public var url: String
    /// What it is for.
    public var about: String

    /// A link.
    public init(name: String, url: String, about: String) {
      self.name = name
      self.url = url
      self.about = about
    }
  }

  /// Whether an issue may be filed without a template (`blank_issues_enabled:`, true when the
  /// file does not say).
  public var blankIssuesEnabled: Bool
  /// The contact links, in the file's order.
  public var contactLinks: [ContactLink]

  /// A configuration; the defaults are GitHub's when a repository has no `config.yml`.
  public init(blankIssuesEnabled: Bool = true, contactLinks: [ContactLink] = []) {
    self.blankIssuesEnabled = blankIssuesEnabled
    self.contactLinks = contactLinks
  }
}
