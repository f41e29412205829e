import Foundation

/// What a count query answers.
struct IssueCountPayload: RateLimitedPayload {
  struct Repository: Decodable, Sendable {
    struct Count: Decodable, Sendable { var totalCount: Int }
    var issues: Count?
  }
  var rateLimit: GraphQLRateLimit?
  var repository: Repository?
}

extension IssueSynchronizer {
  /// The most issues deleted during one listing that its end looks for; more are left to the
  /// next `sync --full` (and said so).
  static let maximumDeletionSearches = 20

  /// Finds the issues GitHub deleted (or transferred) while a full listing (a sync's or a
  /// mirror's) listed them: listed, so no unlisted-item check sees them, yet no longer on
  /// GitHub.
  ///
  /// GitHub's `totalCount` of issues updated at or after a time (`count`) tells when to look: a
  /// count below the cache's means some cached issue at or after that time is gone. A binary
  /// search over the cached `updatedAt`s finds the latest time where the cache holds more than
  /// GitHub counts (a point a probe, about 17 for 100,000 issues), and the issues cached at
  /// exactly that time are asked for one by one (REST); each one GitHub answers `404`, `410` or
  /// elsewhere for is taken out of the listing's seen set, so that the unlisted-item check
  /// (``confirmUnlisted(in:pages:)``) and the listing's end delete it with the rest. An edit
  /// racing the probes can only hide a deletion (GitHub then counts more), never make a present
  /// issue look gone: nothing is deleted without its own answer.
  ///
  /// - Returns: How many deleted issues are left unfound (more than
  ///   ``maximumDeletionSearches``, or hidden by edits during the search).
  func findIssuesDeletedDuringListing(
    in owner: RepositoryName, requests: inout Int,
    count: (Date?) async throws(GitHubError) -> Int
  ) async throws(GitHubError) -> Int {
    let serverTotal = try await count(nil)
    var removed: [Date] = []
    let cachedTotal = try cacheStep("read") { try cache.issueCount(updatedSince: nil) }
    guard cachedTotal > serverTotal else { return 0 }
    let times = try cacheStep("read") { try cache.issueUpdateTimes() }
    var searches = 0
    while cachedTotal - removed.count > serverTotal, searches < Self.maximumDeletionSearches,
      !times.isEmpty
    {
      searches += 1
      // The latest cached time at or after which the cache holds more than GitHub counts.
      var low = 0
      var high = times.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        let time = times[middle]
        let cached =
          try cacheStep("read") { try cache.issueCount(updatedSince: time) }
          - removed.count { $0 >= time }
        let counted = try await count(time)
        if cached > counted { low = middle } else { high = middle - 1 }
      }
      let candidates = try cacheStep("read") { try cache.issues(updatedAt: times[low]) }
      let gone = try await confirmGone(candidates, in: owner, pages: &requests)
      guard !gone.isEmpty else { break }
      try cacheStep("write") { try cache.forgetSeen(gone) }
      removed += Array(repeating: times[low], count: gone.count)
    }
    return max(0, cachedTotal - removed.count - serverTotal)
  }
}

extension MirrorSession {
  /// GitHub's count of the repository's issues updated at or after `since` (1 point).
  func issueCount(since: Date?, in owner: RepositoryName) async throws(GitHubError) -> Int {
    let response = try await send("MirrorIssueCount", as: IssueCountPayload.self) { _ in
      (
        MirrorQuery.issueCount,
        [
          "owner": .string(owner.owner), "name": .string(owner.name),
          "since": since.map { .string(GitHubDate.iso8601($0)) } ?? .null,
        ], 1
      )
    }
    guard let total = response.data?.repository?.issues?.totalCount else {
      throw GitHubError(
        .decoding, method: "POST", url: "issue count of \(owner) (GraphQL)",
        detail: response.errors.first?.message ?? "no count in the answer")
    }
    return total
  }
}
