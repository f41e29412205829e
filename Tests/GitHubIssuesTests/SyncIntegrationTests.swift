import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// The real URLSession transport against a local GitHub serving recorded responses.
@Suite(.serialized) struct SyncIntegrationTests {
  let hub4j = RepositoryName(owner: "hub4j", name: "github-api")
  let betamax = RepositoryName(owner: "betamaxpy", name: "betamax")

  private func synchronizer(
    _ github: LocalGitHub, _ repository: RepositoryName, cache: IssueCache,
    timeout: Double = LocalGitHub.patientTimeout
  ) async -> IssueSynchronizer {
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: timeout))
    client.initialBackoff = .milliseconds(10)
    return IssueSynchronizer(client: client, cache: cache, repository: repository)
  }

  let acme = RepositoryName(owner: "acme", name: "tracker")

  /// A local GitHub serving a synthetic `acme/tracker` with sub-issues, and its first parent.
  private func servedSubIssues(
    itemCount: Int = 250
  ) async throws -> (LocalGitHub, SyntheticRepository, parent: Int) {
    let github = try await LocalGitHub.start()
    let synthetic = SyntheticRepository(itemCount: itemCount, milestoneCount: 3, seed: 5)
    try await github.serve(synthetic: synthetic, as: acme)
    let parent = try #require(SyntheticRepository.subIssues(of: synthetic.make().issues).keys.min())
    return (github, synthetic, parent)
  }

  /// Every row of the data tables, to compare before and after.
  private func dump(_ cache: IssueCache) throws -> String {
    let issues = try cache.issues(IssueFilter(state: .all, kind: .both))
    let milestones = try cache.milestones()
    return "\(issues)\n\(milestones)\n\(try cache.labels())"
  }

  @Test func subIssuesAreFetchedForTheirParentsAndAskedAgainConditionally() async throws {
    let (github, synthetic, parent) = try await servedSubIssues(itemCount: 450)
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    let summary = try await synchronizer(github, acme, cache: cache).sync()
    #expect(summary.skipped.isEmpty)
    let expected = SyntheticRepository.subIssues(of: synthetic.make().issues)
    #expect(expected.count > 1)
    #expect(try cache.subIssues() == expected)
    let row = try #require(try cache.issue(number: parent))
    #expect(row.subIssues?.total == expected[parent]?.count)
    #expect(
      await github.requestCount(pathPrefix: "/repos/acme/tracker/issues/\(parent)/sub_issues") == 1)

    // The next sync sees the parents of its margin again, unchanged: no list is asked for.
    var before = await github.requests.count
    _ = try await synchronizer(github, acme, cache: cache).sync()
    var again = await github.requests.dropFirst(before).filter { $0.target.contains("/sub_issues") }
    #expect(again.isEmpty)
    // A parent that changed is asked again, conditionally (an unchanged list answers 304).
    await github.touch(numbers: [parent], in: acme)
    before = await github.requests.count
    _ = try await synchronizer(github, acme, cache: cache).sync()
    again = await github.requests.dropFirst(before).filter { $0.target.contains("/sub_issues") }
    #expect(again.map(\.target) == ["/repos/acme/tracker/issues/\(parent)/sub_issues?per_page=100"])
    #expect(again.allSatisfy { $0.headers["if-none-match"] != nil })
    #expect(try cache.subIssues() == expected)
  }

  @Test func aSubIssueListThatFailsIsReportedAndTheSyncCompletes() async throws {
    let (github, _, parent) = try await servedSubIssues()
    defer { Task { await github.stop() } }
    await github.inject(
      .status(500), path: "/repos/acme/tracker/issues/\(parent)/sub_issues", times: 10)
    let cache = try IssueCache()
    let summary = try await synchronizer(github, acme, cache: cache).sync()
    #expect(summary.skipped.map(\.number) == [parent])
    #expect(try cache.subIssues()[parent] == nil)
    #expect(try cache.syncState().lastSyncedAt != nil)
  }

  @Test func aSubIssueListThatNeverEndsStopsAfterThePagesItsCountNeeds() async throws {
    let (github, _, parent) = try await servedSubIssues()
    defer { Task { await github.stop() } }
    let path = "/repos/acme/tracker/issues/\(parent)/sub_issues"
    await github.inject(.endlessPages, path: path, times: .max)
    let cache = try IssueCache()
    let summary = try await synchronizer(github, acme, cache: cache).sync()
    #expect(summary.skipped.map(\.number) == [parent])
    #expect(summary.skipped.first?.reason.contains("pagination") == true)
    // Up to five sub-issues: one page, one to spare, and the one that shows it goes on.
    #expect(await github.requestCount(pathPrefix: path) == 3)
    #expect(try cache.syncState().lastSyncedAt != nil)
  }

  @Test func subIssuesOfOtherRepositoriesAndUnreadableOnesAreLeftOut() async throws {
    let (github, synthetic, parent) = try await servedSubIssues()
    defer { Task { await github.stop() } }
    var own = try #require(
      synthetic.make().issues.first { $0.number > parent + 10 && !$0.isPullRequest })
    own.htmlURL = "https://github.com/acme/tracker/issues/\(own.number)"
    // A sub-issue of another repository whose number is one of ours, a null, and an element
    // that is not an issue: only `own` is recorded.
    var foreign = own
    foreign.number = own.number + 1
    foreign.htmlURL = "https://github.com/elsewhere/repo/issues/\(foreign.number)"
    let encode = { (issue: GitHubIssue) in
      String(decoding: try GitHubJSON.encoder.encode(issue), as: UTF8.self)
    }
    let body = "[\(try encode(own)), null, {\"id\": \"x\"}, \(try encode(foreign))]"
    await github.serve("/repos/acme/tracker/issues/\(parent)/sub_issues", body: Data(body.utf8))
    let cache = try IssueCache()
    _ = try await synchronizer(github, acme, cache: cache).sync()
    #expect(try cache.subIssues()[parent] == [own.number])
  }

  @Test func theTwentyOnePageRecordingYields606Items() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.load(recording: "hub4j__github_api_closed_issues_21_pages.json")
    let cache = try IssueCache()
    let pages = Counter()
    let summary = try await synchronizer(github, hub4j, cache: cache).sync { progress in
      if progress.phase == .issues { pages.increment() }
    }
    #expect(summary.wasFull)
    #expect(summary.items == 606)
    #expect(pages.value == 21)
    #expect(try cache.issues(IssueFilter(state: .all)).count == 243)
    #expect(try cache.issues(IssueFilter(state: .all, kind: .pullRequests)).count == 363)
    // A first sync builds the search index once at its end: every title is found by its words.
    #expect(try cache.rebuildDeferredSearchIndex() == false)
    for issue in try cache.issues(IssueFilter(state: .all, kind: .both)).prefix(40) {
      guard let word = issue.title.split(separator: " ").first(where: { $0.count > 4 }) else {
        continue
      }
      let found = try cache.issues(IssueFilter(state: .all, kind: .both, text: String(word)))
      #expect(found.contains { $0.number == issue.number }, "\(word) in #\(issue.number)")
    }
    let first = try #require(await github.requests.first { $0.target.contains("/issues") })
    #expect(first.headers["authorization"] == "Bearer test-token")
    #expect(first.headers["x-github-api-version"] == "2022-11-28")
  }

  @Test func betamaxYields150ItemsWith19InFourMilestones() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serveBetamax()
    let cache = try IssueCache()
    let summary = try await synchronizer(github, betamax, cache: cache).sync()
    #expect(summary.items == 150)
    let all = try cache.issues(IssueFilter(state: .all, kind: .both))
    #expect(all.count == 150)
    #expect(all.filter { $0.milestoneNumber != nil }.count == 19)
    #expect(try cache.milestones().count == 4)
    #expect(try cache.repository()?.fullName == "betamaxpy/betamax")
    // Open ones first (none has a due date, so by number), then closed ones.
    #expect(try cache.milestones().map(\.title) == ["1.0.0", "0.7.0", "0.5.0", "0.6.0"])
    #expect(EntryCounts(try cache.listEntries(IssueFilter(state: .all))).all == 83)
  }

  @Test func aSecondSyncWithNothingChangedRewritesNothing() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serveBetamax()
    let cache = try IssueCache()
    let sync = await synchronizer(github, betamax, cache: cache)
    try await sync.sync()
    let before = try dump(cache)
    let second = try await sync.sync()
    #expect(!second.wasFull)
    #expect(!second.milestonesChanged)  // 304
    #expect(second.items <= 1)  // only what changed within the safety margin
    #expect(try dump(cache) == before)
    let conditional = await github.requests.filter {
      $0.target.hasPrefix("/repos/betamaxpy/betamax/milestones")
    }
    #expect(conditional.count == 2)
    #expect(conditional.last?.headers["if-none-match"] != nil)
    let incremental = await github.requests.last {
      $0.target.contains("/issues") && $0.target.contains("since=")
    }
    #expect(incremental != nil)
  }

  @Test func aFaultOnPageTwelveKeepsThePagesBeforeIt() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.load(recording: "hub4j__github_api_closed_issues_21_pages.json")
    let cache = try IssueCache()
    await github.inject(.status(500), path: "/repositories/617210/issues", page: 12, times: 10)
    let sync = await synchronizer(github, hub4j, cache: cache)
    await #expect(throws: GitHubError.self) { try await sync.sync() }
    let kept = try cache.syncState()
    #expect(kept.itemCount == 11 * 30)
    #expect(kept.lastSyncedAt == nil)
    // The recording is not in `updated_at` order, as the sync asked: its pages prove no resume
    // point, so the next sync lists from the start again and completes.
    #expect(kept.highWaterMark == nil)
    await github.clearFaults()
    try await sync.sync()
    #expect(try cache.syncState().itemCount == 606)
  }

  @Test func cancellingASyncKeepsWhatItWroteAndLeavesTheCacheConsistent() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.load(recording: "hub4j__github_api_closed_issues_21_pages.json")
    await github.inject(.stall(seconds: 3), path: "/repositories/617210/issues", page: 5)
    let cache = try IssueCache()
    let sync = await synchronizer(github, hub4j, cache: cache)
    let started = Counter()
    let task = Task {
      try await sync.sync { progress in
        if progress.phase == .issues { started.increment() }
      }
    }
    while started.value < 4 { try await Task.sleep(for: .milliseconds(10)) }
    task.cancel()
    let result = await task.result
    #expect(throws: GitHubError.self) { try result.get() }
    #expect(try cache.syncState().itemCount == 4 * 30)
    #expect(try cache.syncState().lastSyncedAt == nil)
    #expect(try cache.lastSyncedAt() == nil, "a sync that failed part-way did not finish")
  }

  @Test func faultsBecomeTypedErrors() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.load(recording: "github3py__betamax_issues_state_all.json")
    let cache = try IssueCache()
    // Long enough that a loaded machine answers the faults' requests in time (a request timed
    // out would leave its fault for the next step); each step clears what it left.
    let sync = await synchronizer(github, betamax, cache: cache, timeout: 4)
    let issues = "/repos/betamaxpy/betamax/issues"
    let reset = Date(timeIntervalSince1970: 2_000_000_000)

    await github.inject(.rateLimit(reset: reset), path: issues)
    do {
      try await sync.sync()
      Issue.record("expected a rate limit")
    } catch {
      #expect(error.code == .rateLimited)
      #expect(error.resetAt == reset)
    }
    await github.clearFaults()
    await github.inject(.retryAfter(seconds: 30), path: issues)
    await #expect(throws: GitHubError.self) { try await sync.sync() }
    await github.clearFaults()
    await github.inject(.validation, path: issues)
    do {
      try await sync.sync()
    } catch {
      #expect(error.code == .validation)
      #expect(error.detail == "Validation Failed: Label color invalid")
    }
    await github.clearFaults()
    await github.inject(.truncatedJSON, path: issues)
    do {
      try await sync.sync()
    } catch {
      #expect(error.code == .decoding)
      #expect(error.url.contains("/repos/betamaxpy/betamax/issues"))
    }
    await github.clearFaults()
    await github.inject(.stall(seconds: 9), path: issues, times: 3)
    do {
      try await sync.sync()
    } catch {
      #expect(error.code == .offline)
      #expect(error.detail?.hasPrefix("no answer in") == true)
    }
    #expect(try cache.syncState().itemCount == 0)
    await github.clearFaults()
    #expect(try await sync.sync().items == 150)
  }

  @Test func aMissingRepositoryIsNotFound() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    do {
      try await synchronizer(github, RepositoryName(owner: "no", name: "such"), cache: cache).sync()
      Issue.record("expected not found")
    } catch {
      #expect(error.code == .notFound)
      #expect(error.description.contains("the token can see it"))
    }
  }
}
