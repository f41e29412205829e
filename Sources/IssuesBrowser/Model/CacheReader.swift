import GitHubIssues

/// Reads from the cache, saying each failure rather than dropping it: a failing cache shows
/// why on the status line, not a blank reader or an Enter that does nothing.
struct CacheReader {
  let cache: IssueCache
  /// Shows a failure to the person.
  let report: @MainActor (String) -> Void

  /// Reads with `read`, reporting a failure.
  ///
  /// - Parameters:
  ///   - what: What is read, for the message: "the comments of #12".
  ///   - read: The read.
  /// - Returns: What `read` returns, or `nil` after reporting why it failed.
  @MainActor
  func callAsFunction<Value>(_ what: String, _ read: (IssueCache) throws -> Value?) -> Value? {
    do {
      return try read(cache)
    } catch {
      report("Could not read \(what) from the cache: \(error)")
      return nil
    }
  }

  /// An issue with its body, or `nil` (a failure reported).
  @MainActor
  func issue(_ number: Int) -> CachedIssue? {
    self("#\(number)") { try $0.issue(number: number) }
  }

  /// The issue a list row shows, with its body, or `nil` (a failure reported).
  @MainActor
  func issue(of item: ListItem) -> CachedIssue? {
    switch item {
    case .issue(let key): self("the focused issue") { try $0.issue(key: key) }
    case .subIssue(let number, _): issue(number)
    }
  }

  /// A pull request's details when they were fetched; `nil` for an issue (nothing read).
  @MainActor
  func pullRequestDetails(_ issue: CachedIssue) -> PullRequestDetails? {
    guard issue.isPullRequest else { return nil }
    return self("the details of #\(issue.number)") {
      try $0.pullRequestDetails(number: issue.number)
    }
  }
}
