import Foundation

/// What a count query answers.
struct IssueCountPayload: RateLimitedPayload {
  struct Repository: Decodable, Sendable {
    struct Count: Decodable, Sendable { var totalCount: Int }
    var issues: Count?
    var pullRequests: Count?
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
  /// elsewhere for is returned. A full listing takes them out of its seen set, so that the
  /// unlisted-item check (``confirmUnlisted(in:pages:)``) and the listing's end delete them with
  /// the rest; a mirror's later sync deletes them at once (``IssueCache/deleteGone(_:)``). An
  /// edit racing the probes can only hide a deletion (GitHub then counts more), never make a
  /// present issue look gone: nothing is deleted without its own answer.
  ///
  /// - Returns: The issues GitHub confirmed gone, and how many deleted ones are left unfound
  ///   (more than ``maximumDeletionSearches``, or hidden by edits during the search).
  func findDeletedIssues(
    in owner: RepositoryName, requests: inout Int,
    count: (Date?) async throws(GitHubError) -> Int
  ) async throws(GitHubError) -> (gone: [Int64], unfound: Int) {
    let serverTotal = try await count(nil)
    var removed: [Date] = []
    let cachedTotal = try cacheStep("read") { try cache.issueCount(updatedSince: nil) }
    guard cachedTotal > serverTotal else { return ([], 0) }
    let times = try cacheStep("read") { try cache.issueUpdateTimes() }
    var searches = 0
    var all: [Int64] = []
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
      let found = Set(all)
      let candidates = try cacheStep("read") { try cache.issues(updatedAt: times[low]) }
        .filter { !found.contains($0.id) }
      let gone = try await confirmGone(candidates, in: owner, pages: &requests)
      guard !gone.isEmpty else { break }
      all += gone
      removed += Array(repeating: times[low], count: gone.count)
    }
    return (all, max(0, cachedTotal - removed.count - serverTotal))
  }

  /// The most pages of pull-request numbers one search for deleted pull requests walks.
  static let maximumPullRequestNumberPages = 2_000

  /// Finds the cached pull requests GitHub no longer has, when it counts fewer than the cache
  /// holds.
  ///
  /// GraphQL counts a repository's pull requests but cannot count them from a time, so the
  /// issues' binary search does not apply: the numbers are walked instead, oldest created first
  /// (an order no edit changes), a hundred a point, bounded by the count GitHub announced. Each
  /// cached pull request the walk did not meet is asked for on its own (REST), and only those
  /// answered `404`, `410` or elsewhere are returned: a walk that missed one (a deletion
  /// shifting a cursor) costs a request, never a row.
  ///
  /// - Returns: The pull requests GitHub confirmed gone, and how many it counts fewer than the
  ///   cache still holds without them.
  func findDeletedPullRequests(
    in owner: RepositoryName, counted: Int, session: MirrorSession, requests: inout Int
  ) async throws(GitHubError) -> (gone: [Int64], unfound: Int) {
    let cached = try cacheStep("read") { try cache.cachedPullRequests() }
    guard cached.count > counted else { return ([], 0) }
    var listed: Set<Int> = []
    var cursor: String?
    var pages = 0
    let bound = min(Self.maximumPullRequestNumberPages, counted / 100 + 3)
    repeat {
      pages += 1
      let page = try await session.pullRequestNumbers(in: owner, after: cursor)
      listed.formUnion(page.numbers)
      cursor = page.hasNextPage ? page.endCursor : nil
    } while cursor != nil && pages < bound
    let candidates = cached.filter { !listed.contains($0.number) }
    guard candidates.count <= Self.maximumUnlistedChecks else {
      throw GitHubError(
        .incompleteListing, url: "pull requests of \(owner)",
        detail:
          "\(candidates.count) cached pull requests were not listed, more than can be checked one by one"
      )
    }
    let gone = try await confirmGone(candidates, in: owner, pages: &requests)
    return (gone, max(0, cached.count - gone.count - counted))
  }
}

extension MirrorSession {
  /// GitHub's count of the repository's issues updated at or after `since` (1 point).
  func issueCount(since: Date?, in owner: RepositoryName) async throws(GitHubError) -> Int {
    try await itemCounts(since: since, in: owner).issues
  }

  /// GitHub's counts of the repository's issues updated at or after `since`, and of all its
  /// pull requests (1 point).
  func itemCounts(
    since: Date? = nil, in owner: RepositoryName
  ) async throws(GitHubError) -> (issues: Int, pullRequests: Int?) {
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
    return (total, response.data?.repository?.pullRequests?.totalCount)
  }

  /// A page of the repository's pull-request numbers, oldest created first (1 point).
  func pullRequestNumbers(
    in owner: RepositoryName, after cursor: String?
  ) async throws(GitHubError) -> (numbers: [Int], hasNextPage: Bool, endCursor: String?) {
    let response = try await send("MirrorPullRequestNumbers", as: PullRequestNumbersPayload.self) {
      _ in
      (
        MirrorQuery.pullRequestNumbers,
        [
          "owner": .string(owner.owner), "name": .string(owner.name), "first": .int(100),
          "after": cursor.map { .string($0) } ?? .null,
        ], 1
      )
    }
    guard let connection = response.data?.repository?.pullRequests else {
      throw GitHubError(
        .decoding, method: "POST", url: "pull requests of \(owner) (GraphQL)",
        detail: response.errors.first?.message ?? "no pull requests in the answer")
    }
    // A node GitHub could not give (null) leaves its number unmet: it is asked for on its own.
    let numbers = connection.nodes.compactMap { $0?.number }
    let hasNext = connection.pageInfo.hasNextPage && connection.pageInfo.endCursor != nil
    return (numbers, hasNext, connection.pageInfo.endCursor)
  }
}

/// What a page of pull-request numbers answers.
struct PullRequestNumbersPayload: RateLimitedPayload {
  struct Repository: Decodable, Sendable {
    struct Connection: Decodable, Sendable {
      struct PageInfo: Decodable, Sendable {
        var hasNextPage: Bool
        var endCursor: String?
      }
      struct Node: Decodable, Sendable { var number: Int }
      var pageInfo: PageInfo
      var nodes: [Node?]
    }
    var pullRequests: Connection?
  }
  var rateLimit: GraphQLRateLimit?
  var repository: Repository?
}
