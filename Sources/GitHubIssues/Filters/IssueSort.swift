/// What a list of issues is ordered by, for GitHub's `sort` parameter and the cache's filter alike.
public enum IssueSort: String, Hashable, Sendable, CaseIterable {
  /// By last update.
  case updated
  /// By creation time.
  case created
  /// By number of comments.
  case comments
}
