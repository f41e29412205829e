import Foundation

extension MirrorSynchronizer {
  /// What fetching pull requests' details did.
  package struct PullRequestDetailsSummary: Hashable, Sendable {
    /// Pull requests whose details were fetched and written.
    package var fetched: Int
    /// GraphQL points spent.
    package var pointsSpent: Int
    /// GraphQL queries sent.
    package var queries: Int
    /// What could not be read, with the reason (fetched again next time).
    package var skipped: [SkippedItem]
  }

  /// Fetches the details (review decision, requested reviewers, latest reviews, checks,
  /// mergeability, branches, size) of every open pull request whose details are missing or
  /// older than the pull request, and of the newest such closed or merged ones
  /// (``IssueCache/closedDetailsPerSync`` a sync), several to a query, within the budget.
  ///
  /// A plain sync calls this after its REST listing when there is a token: a quiet repository
  /// has nothing to fetch and costs nothing.
  package func fetchPullRequestDetails(progress: @Sendable (SyncProgress) -> Void = { _ in })
    async throws(GitHubError) -> PullRequestDetailsSummary
  {
    let (_, lock) = try await begin()
    defer { withExtendedLifetime(lock) {} }
    let session = makeSession()
    // What the details cost is the mirror's, as `--status` counts it, however the run ends.
    defer { _ = try? cache.recordMirror(pointsSpent: session.spent, isMirror: false) }
    var queue = try step("read") { try cache.pullRequestsNeedingDetails() }[...]
    var summary = PullRequestDetailsSummary(
      fetched: 0, pointsSpent: 0, queries: 0, skipped: [])
    let size = MirrorQuery.bestPageSize(
      nested: MirrorQuery.pullRequestDetailRequests, fixed: 0, limit: 50)
    while !queue.isEmpty {
      let batch = Array(queue.prefix(size))
      let response: GraphQLResponse<AliasedPullRequests>
      do {
        response = try await sendDetailsQuery(for: batch, size: size, session: session)
      } catch  where error.code == .rateLimited && error.rateLimit == .budget {
        // The sync's own budget (`--points`) is spent: what was fetched is kept, and the rest
        // is the next sync's. GitHub's own limit stays a failure.
        summary.skipped.append(
          SkippedItem(
            id: nil, number: nil,
            reason: "\(queue.count) pull requests' reviews and checks were left for the next "
              + "sync: "
              + (pointLimit != nil
                ? "the points this run may spend (--points) are spent"
                : error.detail ?? "the points this sync keeps are spent")))
        break
      }
      let answered = response.data?.entries ?? [:]
      var details: [PullRequestDetails] = []
      var handled = 0
      for (index, number) in batch.enumerated() {
        // The aliases a shrunk query did not ask are asked again in the next one.
        guard let entry = answered["p\(index)"] else { break }
        handled += 1
        if let pull = entry, pull.number == number {
          details.append(pull.details)
        } else {
          summary.skipped.append(
            SkippedItem(
              id: nil, number: number, reason: "its pull request details could not be read"))
        }
      }
      guard handled > 0 else {
        // Nothing answered: left for the next sync rather than asked forever.
        let reason = response.errors.first?.message ?? "no answer"
        summary.skipped += batch.map {
          SkippedItem(
            id: nil, number: $0,
            reason: "its pull request details could not be read (\(reason.prefix(200)))")
        }
        break
      }
      try step("written") { try cache.writePullRequestDetails(details) }
      summary.fetched += details.count
      queue = queue.dropFirst(handled)
      var report = SyncProgress(
        phase: .pullRequests, pages: session.queries, items: summary.fetched)
      report.points = (session.spent, session.remaining)
      progress(report)
    }
    summary.pointsSpent = session.spent
    summary.queries = session.queries
    return summary
  }

  /// Sends one query for the details of `batch`'s pull requests, at the session's sizes.
  private func sendDetailsQuery(for batch: [Int], size: Int, session: MirrorSession)
    async throws(GitHubError) -> GraphQLResponse<AliasedPullRequests>
  {
    try await session.send("MirrorPullRequestDetails", as: AliasedPullRequests.self) { sizes in
      let count = min(batch.count, sizes.page(size))
      var variables: [String: GraphQLValue] = [
        "owner": .string(repository.owner), "name": .string(repository.name),
      ]
      for (index, number) in batch.prefix(count).enumerated() {
        variables["n\(index)"] = .int(number)
      }
      return (
        MirrorQuery.pullRequestDetails(count: count), variables,
        MirrorQuery.points(requests: count * MirrorQuery.pullRequestDetailRequests)
      )
    }
  }
}
