/// Which issues by state, for GitHub's `state` parameter and the cache's filter alike.
public enum IssueStateFilter: String, Hashable, Sendable, CaseIterable {
  /// Open issues (GitHub's default).
  case open
  /// Closed issues.
  case closed
  /// Both.
  case all
}
