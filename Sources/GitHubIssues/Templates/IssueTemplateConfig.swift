/// What a repository's `.github/ISSUE_TEMPLATE/config.yml` says about its template chooser.
package struct IssueTemplateConfig: Hashable, Sendable {
  /// A link the chooser offers instead of an issue (a forum, a security policy).
  package struct ContactLink: Hashable, Sendable {
    /// What the link is called.
    package var name: String
    /// Where it goes.
    package var url: String
    /// What it is for.
    package var about: String

    /// A link.
    package init(name: String, url: String, about: String) {
      self.name = name
      self.url = url
      self.about = about
    }
  }

  /// Whether an issue may be filed without a template (`blank_issues_enabled:`, true when the
  /// file does not say).
  package var blankIssuesEnabled: Bool
  /// The contact links, in the file's order.
  package var contactLinks: [ContactLink]

  /// A configuration; the defaults are GitHub's when a repository has no `config.yml`.
  package init(blankIssuesEnabled: Bool = true, contactLinks: [ContactLink] = []) {
    self.blankIssuesEnabled = blankIssuesEnabled
    self.contactLinks = contactLinks
  }
}
