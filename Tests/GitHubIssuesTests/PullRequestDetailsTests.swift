import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// Pull requests' details through GraphQL after a REST sync, against the local GitHub.
@Suite(.serialized) struct PullRequestDetailsTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")
  let synthetic = SyntheticRepository(itemCount: 700, milestoneCount: 4, seed: 5)

  private func setUp() async throws -> (LocalGitHub, GitHubClient, IssueCache) {
    let github = try await LocalGitHub.start()
    try await github.serve(synthetic: synthetic, as: acme)
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(10)
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, client, cache)
  }

  /// Every open pull request is asked first, then the newest closed and merged ones, at most
  /// a budget of them a sync: a backlog that fits, all of it; a larger one, only those closed
  /// lately (the rest are read when printed); one read before and changed since, always.
  @Test func closedPullRequestsAreAskedWithinABudgetNewestFirst() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let pulls = synthetic.make().issues.filter(\.isPullRequest)
      .sorted { ($0.updatedAt, $0.number) > ($1.updatedAt, $1.number) }
    let open = pulls.filter { $0.state == .open }.map(\.number)
    let closedPulls = pulls.filter { $0.state == .closed }
    let closed = closedPulls.map(\.number)
    #expect(closed.count > 5)
    #expect(try cache.pullRequestsNeedingDetails(closedLimit: 0) == open)
    #expect(try cache.pullRequestsNeedingDetails() == open + closed)
    // A backlog larger than a sync asks (5 here): those closed in the last 30 days.
    let latest = try #require(closedPulls.compactMap(\.closedAt).max())
    let now = latest.addingTimeInterval(IssueCache.recentlyClosed / 2)
    let recent = closedPulls.filter {
      ($0.closedAt ?? .distantPast) >= now.addingTimeInterval(-IssueCache.recentlyClosed)
    }.map(\.number)
    #expect(!recent.isEmpty)
    #expect(
      try cache.pullRequestsNeedingDetails(closedLimit: 5, now: now) == open + recent.prefix(5))
    let later = latest.addingTimeInterval(2 * IssueCache.recentlyClosed)
    #expect(try cache.pullRequestsNeedingDetails(closedLimit: 5, now: later) == open)
    // Read once, then changed on GitHub: asked again however long ago it closed.
    _ = try await MirrorSynchronizer(client: client, cache: cache, repository: acme)
      .fetchPullRequestDetails()
    let changed = closed[2]
    await github.touch(numbers: [changed], in: acme)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    #expect(try cache.pullRequestsNeedingDetails(closedLimit: 5, now: later) == [changed])
  }

  @Test func pullRequestsGetTheirReviewsAndChecksOnceUntilTheyChange() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let served = synthetic.make().issues
    // Open, closed and merged alike: gh prints every one's branches, size and review.
    let open = served.filter { $0.isPullRequest }
    #expect(open.count > 15 && open.contains { $0.state == .closed })
    let mirror = MirrorSynchronizer(client: client, cache: cache, repository: acme)
    let first = try await mirror.fetchPullRequestDetails()
    #expect(first.fetched == open.count)
    #expect(first.skipped.isEmpty)
    // Seven pull requests a point (21 connection requests each).
    #expect(first.pointsSpent == (open.count + 6) / 7)
    #expect(await github.graphQLState.spent == first.pointsSpent)
    for pull in open {
      let details = try #require(try cache.pullRequestDetails(number: pull.number))
      let json = try #require(await github.itemJSON(number: pull.number, in: acme))
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      let expected = LocalGitHub.pullRequestDetails(object)
      #expect(details.reviewDecision?.rawValue == expected["reviewDecision"] as? String)
      #expect(details.headRef == "feature/\(pull.number)" && details.baseRef == "main")
      #expect(details.additions == (pull.number * 37) % 500)
      #expect(details.checks == [.passing, .failing, .pending][pull.number % 3])
      #expect(details.requestedReviewers.contains("acme/core") == (pull.number % 6 == 0))
      Self.expectLatestReviewsAndTeams(details)
    }
    // Drafts and merges came with the REST rows.
    let rows = try cache.issues(numbers: served.filter(\.isPullRequest).map(\.number))
    for row in rows {
      let pull = try #require(served.first { $0.number == row.number })
      #expect(row.isDraft == pull.isDraft)
      // The cache keeps milliseconds.
      #expect(
        row.mergedAt?.timeIntervalSince1970.rounded()
          == pull.mergedAt?.timeIntervalSince1970.rounded())
    }
    // Nothing changed: nothing asked, nothing spent.
    let second = try await mirror.fetchPullRequestDetails()
    #expect(second.fetched == 0 && second.queries == 0 && second.pointsSpent == 0)
    // One changes on GitHub: after the REST sync sees it, only it is asked again.
    let changed = open[3].number
    await github.touch(numbers: [changed], in: acme)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    #expect(try cache.pullRequestsNeedingDetails() == [changed])
    let third = try await mirror.fetchPullRequestDetails()
    #expect(third.fetched == 1 && third.pointsSpent == 1)
  }

  @Test func aPullRequestGitHubCannotResolveIsSkippedAndTheRestWritten() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let open = try cache.pullRequestsNeedingDetails()
    // GitHub no longer has one of them (deleted between the REST listing and the query).
    await github.removeItems(numbers: [open[1]], in: acme)
    let summary = try await MirrorSynchronizer(client: client, cache: cache, repository: acme)
      .fetchPullRequestDetails()
    #expect(summary.fetched == open.count - 1)
    #expect(summary.skipped.map(\.number) == [open[1]])
    #expect(try cache.pullRequestsNeedingDetails() == [open[1]])
  }

  @Test func dashboardQueriesReadTheDetails() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    _ = try await MirrorSynchronizer(client: client, cache: cache, repository: acme)
      .fetchPullRequestDetails()
    let dashboard = Dashboard(repositories: [
      .init(source: DashboardSource(host: .github, repository: acme), cache: cache, me: "octocat")
    ])
    let pulls = synthetic.make().issues.filter(\.isPullRequest)
    let open = pulls.filter { $0.state == .open }
    func numbers(_ query: String) throws -> Set<Int> {
      Set(try dashboard.entries(SearchQuery(parsing: query)).map(\.number))
    }
    #expect(
      try numbers("is:open is:pr review-requested:@me")
        == Set(open.filter { $0.number % 4 == 0 }.map(\.number)))
    #expect(
      try numbers("is:pr status:failure review:approved")
        == Set(pulls.filter { $0.number % 3 == 1 && $0.number % 4 == 0 }.map(\.number)))
    #expect(
      try numbers("is:pr review-requested:acme/core")
        == Set(pulls.filter { $0.number % 6 == 0 }.map(\.number)))
    #expect(try numbers("is:draft") == Set(open.filter(\.isDraft).map(\.number)))
    let merged = synthetic.make().issues.filter { $0.mergedAt != nil }
    #expect(!merged.isEmpty)
    #expect(try numbers("is:merged") == Set(merged.map(\.number)))
  }
}

extension PullRequestDetailsTests {
  /// The latest review of each reviewer and the teams' names as the local GitHub serves them,
  /// whether GraphQL or REST brought the details: the two must agree.
  static func expectLatestReviewsAndTeams(_ details: PullRequestDetails) {
    let number = details.number
    let time = { (offset: Int) in
      Date(timeIntervalSince1970: 1_650_000_000 + Double(number * 1_000 + offset))
    }
    let expected: [PullRequestDetails.Review] =
      switch number % 4 {
      case 0:
        [
          .init(
            author: "hubot", state: "APPROVED", authorAssociation: "MEMBER",
            body: "Looks good to me.", submittedAt: time(10))
        ]
      case 1:
        [
          .init(
            author: "mona", state: "CHANGES_REQUESTED", authorAssociation: "MEMBER",
            body: "Please cover the empty case.", submittedAt: time(10)),
          .init(
            author: "octocat", state: "COMMENTED", authorAssociation: "MEMBER", body: "",
            submittedAt: time(20)),
        ]
      default: []
      }
    #expect(details.reviews == expected, "#\(number)")
    #expect(
      details.teamNames == (number % 6 == 0 ? ["acme/core": "Core maintainers"] : [:]),
      "#\(number)")
    // The person first, then the team, as GitHub lists them.
    let person = number % 4 == 0 ? "octocat" : "mona"
    let asked: [String] =
      number % 2 == 1 ? [] : number % 6 == 0 ? [person, "acme/core"] : [person]
    #expect(details.requestedReviewers == asked, "#\(number)")
  }
}
