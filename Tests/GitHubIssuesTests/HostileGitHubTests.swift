import Foundation
import GitHubTestSupport
import Testing

@testable import GitHubIssues

/// A misbehaving GitHub: links and redirects to other hosts, loops, nulls, dropped connections,
/// silent servers, secondary limits, deleted milestones, concurrent syncs.
///
/// Each scenario runs the real URLSession transport against the local GitHub, and checks the
/// milestone identity ("All" = "No milestone" + Σ milestones) after every sync.
@Suite(.serialized) struct HostileGitHubTests {
  let repository = RepositoryName(owner: "acme", name: "tracker")
  let issuesPath = "/repos/acme/tracker/issues"
  /// 3,000 items in 30 pages of 100, as GitHub pages them.
  let synthetic = SyntheticRepository(itemCount: 3_000, milestoneCount: 12, seed: 11)

  private func start() async throws -> LocalGitHub {
    let github = try await LocalGitHub.start()
    try await github.serve(synthetic: synthetic, as: repository)
    return github
  }

  private func synchronizer(
    _ github: LocalGitHub, cache: IssueCache, timeout: Double = 5,
    repository: RepositoryName? = nil
  ) async -> IssueSynchronizer {
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: timeout))
    client.initialBackoff = .milliseconds(10)
    return IssueSynchronizer(
      client: client, cache: cache, repository: repository ?? self.repository)
  }

  /// "All" is always "No milestone" plus the sum of the milestones, for every state.
  private func expectMilestoneIdentity(
    _ cache: IssueCache, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let milestones = try cache.milestones()
    for state in IssueStateFilter.allCases {
      // Counted over the milestones the cache lists: an issue left in a deleted one breaks it.
      let counts = EntryCounts(try cache.listEntries(IssueFilter(state: state)))
      let inMilestones = milestones.map { counts.byMilestone[$0.number, default: 0] }
      #expect(
        counts.all == counts.noMilestone + inMilestones.reduce(0, +),
        sourceLocation: sourceLocation)
    }
  }

  private func fullySynced(_ github: LocalGitHub) async throws -> IssueCache {
    let cache = try IssueCache()
    try await synchronizer(github, cache: cache).sync()
    #expect(try cache.syncState().itemCount == 3_000)
    try expectMilestoneIdentity(cache)
    return cache
  }

  // MARK: Security and data loss

  @Test func aNextLinkToAnotherHostIsNeverFollowedAndAFullSyncDeletesNothing() async throws {
    let github = try await start()
    let foreign = try await LocalGitHub.start()
    defer {
      Task {
        await github.stop(); await foreign.stop()
      }
    }
    let cache = try await fullySynced(github)
    let elsewhere = await foreign.baseURL.absoluteString + issuesPath + "?page=3"
    // The listing asks by key, not by link: a link elsewhere is never followed. On the last
    // page it claims more items elsewhere: refused, and nothing is deleted.
    await github.inject(.nextLink(elsewhere), path: issuesPath, times: 100)
    do {
      try await synchronizer(github, cache: cache).sync(full: true)
      Issue.record("expected the foreign link to be refused")
    } catch {
      #expect(error.code == .untrustedURL)
      #expect(error.description.contains(elsewhere))
    }
    #expect(await foreign.requests.isEmpty)
    #expect(try cache.syncState().itemCount == 3_000)
    #expect(try cache.syncState().pendingFullListing != nil)
    try expectMilestoneIdentity(cache)
  }

  @Test func aListingCutShortKeepsEveryRowAndSaysSo() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    // The third page claims to be the last: 300 items of 3,000.
    await github.inject(.noLinks, path: issuesPath, after: 2)
    do {
      try await synchronizer(github, cache: cache).sync(full: true)
      Issue.record("expected an incomplete listing")
    } catch {
      #expect(error.code == .incompleteListing)
      #expect(error.detail?.contains("announced") == true)
    }
    #expect(try cache.syncState().itemCount == 3_000)
    // The next full sync resumes the pending listing and finishes it: nothing was gone.
    let summary = try await synchronizer(github, cache: cache).sync(full: true)
    #expect(summary.deleted == 0)
    #expect(try cache.syncState().pendingFullListing == nil)
  }

  @Test func aFirstSyncCutShortOnItsFirstPageFailsAndTheNextOneFinishes() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    await github.inject(.noLinks, path: issuesPath)
    let cache = try IssueCache()
    await #expect {
      try await synchronizer(github, cache: cache).sync()
    } throws: { ($0 as? GitHubError)?.code == .incompleteListing }
    #expect(try cache.syncState().itemCount == 100)
    try await synchronizer(github, cache: cache).sync()
    #expect(try cache.syncState().itemCount == 3_000)
  }

  @Test func aCompleteFullListingDeletesExactlyWhatGitHubNoLongerHas() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    await github.removeItems(numbers: [5, 50, 500], in: repository)
    let summary = try await synchronizer(github, cache: cache).sync(full: true)
    #expect(summary.deleted == 3)
    #expect(try cache.syncState().itemCount == 2_997)
    try expectMilestoneIdentity(cache)
  }

  /// A full listing that misses an issue and a pull request GitHub still has deletes neither:
  /// each answers `GET …/issues/N` (the pull request with its `/pull/N` page) and is kept.
  @Test func aFullListingThatMissesAPullRequestDeletesNothing() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    let items = try cache.issues(IssueFilter(state: .all, kind: .both))
    let pull = try #require(items.first { $0.isPullRequest })
    let issue = try #require(items.first { !$0.isPullRequest })
    await github.hideFromListings(numbers: [pull.number, issue.number], in: repository)
    let summary = try await synchronizer(github, cache: cache).sync(full: true)
    #expect(summary.deleted == 0)
    #expect(try cache.syncState().itemCount == 3_000)
    #expect(try cache.issue(number: pull.number)?.isPullRequest == true)
    #expect(try cache.issue(number: issue.number) != nil)
  }

  @Test func aRedirectToAnotherHostIsNotFollowed() async throws {
    let github = try await start()
    let foreign = try await LocalGitHub.start()
    defer {
      Task {
        await github.stop(); await foreign.stop()
      }
    }
    let target = await foreign.baseURL.absoluteString + "/repos/acme/tracker"
    await github.inject(.redirect(status: 301, location: target), path: "/repos/acme/tracker")
    let cache = try IssueCache()
    do {
      try await synchronizer(github, cache: cache).sync()
      Issue.record("expected the redirect to be refused")
    } catch {
      #expect(error.code == .untrustedURL)
      #expect(error.description.contains(target))
    }
    #expect(await foreign.requests.isEmpty)
  }

  @Test func aSameHostRedirectForARenamedRepositoryWorksAndNamesIt() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let old = RepositoryName(owner: "acme", name: "old-tracker")
    await github.inject(
      .redirect(status: 301, location: "/repos/acme/tracker"), path: "/repos/acme/old-tracker")
    for suffix in ["/milestones", "/labels", "/issues"] {
      await github.inject(
        .redirect(status: 301, location: "/repos/acme/tracker\(suffix)?per_page=100"),
        path: "/repos/acme/old-tracker\(suffix)")
    }
    let cache = try IssueCache()
    let summary = try await synchronizer(github, cache: cache, repository: old).sync()
    #expect(summary.renamedTo == "acme/tracker")
    #expect(try cache.repository()?.fullName == "acme/tracker")
    #expect(try cache.syncState().itemCount == 3_000)
  }

  @Test func aPageLoopStopsWithAnErrorAndOnlyTheListingsLastPageCanLoop() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    // Every page links back to the first: the listing asks by key and ignores the links until
    // the last page, whose link it must follow, and stops there.
    await github.inject(.loopToFirstPage, path: issuesPath, times: 100, after: 2)
    let cache = try IssueCache()
    do {
      try await synchronizer(github, cache: cache).sync()
      Issue.record("expected a loop to be detected")
    } catch {
      #expect(error.code == .pagination)
      #expect(error.detail?.contains("a loop") == true)
    }
    #expect(try cache.syncState().itemCount == 3_000)
    #expect(await github.requestCount(pathPrefix: issuesPath + "?") <= 33)
  }

  @Test func pagesBeyondWhatTheFirstAnnouncedAreRefused() async throws {
    let page = Counter()
    let transport = FakeTransport { request in
      let number = page.increment() + 1
      let next = "https://api.github.com/repos/o/r/issues?page=\(number + 1)"
      let last = "https://api.github.com/repos/o/r/issues?page=3"
      return HTTPResponse(
        status: 200, headers: ["link": "<\(next)>; rel=\"next\", <\(last)>; rel=\"last\""],
        body: Data("[]".utf8))
    }
    let client = GitHubClient(host: .github, transport: transport)
    do {
      for try await _ in client.issuePages(
        of: RepositoryName(owner: "o", name: "r"), query: .init())
      {}
      Issue.record("expected the page cap")
    } catch {
      #expect(error.code == .pagination)
    }
    #expect(transport.requests.count == 5)  // 3 announced, plus a margin of 2
  }

  // MARK: A listing that changes while it runs

  /// How a cache is compared with the server.
  enum Comparison {
    /// Every number, at its latest `updated_at`, and nothing else.
    case exact
    /// Every number at its latest `updated_at`; items deleted during the sync may stay, as
    /// only a full listing proves them gone.
    case nothingMissing
  }

  /// The cache holds what the server serves: every number, at its latest `updated_at`.
  private func expectCacheEqualsServer(
    _ cache: IssueCache, _ github: LocalGitHub, _ comparison: Comparison = .exact,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let formatter = ISO8601DateFormatter()
    let served = await github.servedItems(in: repository).map {
      "#\($0.number) \(formatter.date(from: $0.updatedAt).map(formatter.string) ?? "?")"
    }
    let cached = try cache.issues(IssueFilter(state: .all, kind: .both))
      .sorted { $0.number < $1.number }
      .map { "#\($0.number) \(formatter.string(from: $0.updatedAt))" }
    let missing = Set(served).subtracting(cached).sorted().prefix(5)
    guard comparison == .exact else {
      #expect(missing.isEmpty, "missing \(missing)", sourceLocation: sourceLocation)
      return
    }
    #expect(cached.count == served.count, sourceLocation: sourceLocation)
    let extra = Set(cached).subtracting(served).sorted().prefix(5)
    #expect(
      missing.isEmpty && extra.isEmpty, "missing \(missing), stale \(extra)",
      sourceLocation: sourceLocation)
  }

  @Test func editsOnEveryPageOfAFirstSyncMissNothing() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    // Three items of every page edited right after it is served: a listing by page number
    // would miss three items of each next page.
    await github.editWhileListing(repository, count: 3)
    let cache = try IssueCache()
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
    try expectMilestoneIdentity(cache)
  }

  @Test func editsOnEveryPageOfAFullSyncDeleteNothingThatExists() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    await github.removeItems(numbers: [5, 50, 500], in: repository)
    await github.editWhileListing(repository, count: 3)
    let summary = try await synchronizer(github, cache: cache).sync(full: true)
    #expect(summary.deleted == 3)
    try await expectCacheEqualsServer(cache, github)
    try expectMilestoneIdentity(cache)
  }

  @Test func itemsAddedDeletedAndEditedBetweenPagesLeaveTheCacheEqualToTheServer() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    // A first sync: after each of ten pages an unlisted item is deleted and one is opened, and
    // three are edited after every page. (Ten: the repository's open count, read first, must
    // stay within the first listing's 1 % guard.)
    await github.churnWhileListing(repository, pages: 10)
    await github.editWhileListing(repository, count: 3)
    let cache = try IssueCache()
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
    // A full sync under the same churn deletes exactly what GitHub no longer has.
    await github.churnWhileListing(repository, pages: 10)
    let before = await github.servedItems(in: repository).count
    let summary = try await synchronizer(github, cache: cache).sync(full: true)
    let after = await github.servedItems(in: repository).count
    #expect(summary.deleted > 0, "items deleted during the listing are found gone")
    #expect(after == before, "ten deleted and ten opened: \(before) → \(after)")
    try await expectCacheEqualsServer(cache, github)
    try expectMilestoneIdentity(cache)
  }

  @Test func editsOnEveryPageOfAnIncrementalSyncMissNothing() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    // 600 items changed since: six pages, each edited as it is served.
    await github.touch(numbers: Array(stride(from: 1, through: 3_000, by: 5)), in: repository)
    await github.editWhileListing(repository, count: 3)
    let summary = try await synchronizer(github, cache: cache).sync()
    #expect(!summary.wasFull)
    try await expectCacheEqualsServer(cache, github)
  }

  @Test func moreItemsInOneSecondThanAPageHoldsEditedWhileListedMissNothing() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    // 450 items updated in one second (a bulk edit): the listing walks them in windows, and
    // items edited during that walk leave the block; each window still holds a witness.
    await github.touchAtOnce(numbers: Array(stride(from: 2, through: 2_700, by: 6)), in: repository)
    await github.editWhileListing(repository, count: 3, pages: 4)
    let summary = try await synchronizer(github, cache: cache).sync()
    #expect(!summary.wasFull)
    try await expectCacheEqualsServer(cache, github)
    // And a first sync of the same.
    let fresh = try IssueCache()
    await github.touchAtOnce(numbers: Array(stride(from: 1, through: 2_700, by: 5)), in: repository)
    await github.editWhileListing(repository, count: 2, pages: 6)
    try await synchronizer(github, cache: fresh).sync()
    try await expectCacheEqualsServer(fresh, github)
  }

  @Test func aWalkEditedOnEveryPageStillMissesNothing() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    // Edits on every page, forever, over 600 items of one second: each edit moves three items
    // out of the block, and each window of the walk must still hold a witness.
    await github.touchAtOnce(numbers: Array(stride(from: 3, through: 3_000, by: 5)), in: repository)
    await github.editWhileListing(repository, count: 3, pages: 40)
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
  }

  @Test(arguments: [1, 2, 5], [LocalGitHub.TieOrder.ascendingNumber, .descendingNumber])
  func aSameSecondBlockWithDeletionsInsideMissesNothing(
    pages: Int, ties: LocalGitHub.TieOrder
  ) async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    // A bulk edit of `pages` pages and a half, then, after every page the sync is served, the
    // first item it served is deleted (or transferred): a walk by page number would lose the
    // item that shifts onto the page before.
    let block = Array(stride(from: 7, through: 3_000, by: 3).prefix(pages * 100 + 50))
    await github.touchAtOnce(numbers: block, in: repository, ties: ties)
    await github.deleteServedWhileListing(repository, pages: 20)
    let summary = try await synchronizer(github, cache: cache).sync()
    #expect(!summary.wasFull)
    try await expectCacheEqualsServer(cache, github, .nothingMissing)
    // A first sync of the same block, under the same deletions, and edits too.
    await github.touchAtOnce(numbers: block, in: repository, ties: ties)
    await github.deleteServedWhileListing(repository, pages: 8)
    await github.editWhileListing(repository, count: 1, pages: 10)
    let fresh = try IssueCache()
    try await synchronizer(github, cache: fresh).sync()
    try await expectCacheEqualsServer(fresh, github, .nothingMissing)
    // And a full sync afterwards deletes exactly what GitHub no longer has.
    try await synchronizer(github, cache: fresh).sync(full: true)
    try await expectCacheEqualsServer(fresh, github)
  }

  @Test func aPageOutOfOrderIsAskedAgainFromBeforeTheBreak() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    // A first sync: on its third and eighth requests an item is edited while the page is
    // served (its new time at its old place), and three items of every page are edited after
    // it: a listing that fell back to page numbers there would miss some.
    await github.editWhileServing(repository, requests: [3, 8])
    await github.editWhileListing(repository, count: 3, pages: 20)
    let cache = try IssueCache()
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
    // An incremental one, over 600 changed items, the same way.
    await github.touch(numbers: Array(stride(from: 4, through: 3_000, by: 5)), in: repository)
    await github.editWhileServing(repository, requests: [2, 4])
    await github.editWhileListing(repository, count: 3, pages: 6)
    let summary = try await synchronizer(github, cache: cache).sync()
    #expect(!summary.wasFull)
    try await expectCacheEqualsServer(cache, github)
  }

  @Test func aSyncCutOffInsideABlockResumesAndMissesNothing() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    let block = Array(stride(from: 2, through: 3_000, by: 2).prefix(450))
    await github.touchAtOnce(numbers: block, in: repository, ties: .descendingNumber)
    await github.deleteServedWhileListing(repository, pages: 3)
    // The fourth request of the listing fails: three windows of the block are written.
    await github.inject(.status(502), path: issuesPath, method: "GET", times: 6, after: 3)
    await #expect(throws: GitHubError.self) {
      try await synchronizer(github, cache: cache).sync()
    }
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github, .nothingMissing)
  }

  /// A synced cache whose next sync was cut off inside a block of 500 issues updated in one
  /// second: the listing's fourth request fails, and the client's three retries with it, so
  /// three pages of the block are written.
  private func syncCutOffInsideABlock(_ github: LocalGitHub) async throws -> IssueCache {
    let cache = try await fullySynced(github)
    let block = Array(stride(from: 2, through: 3_000, by: 2).prefix(500))
    await github.touchAtOnce(numbers: block, in: repository, ties: .descendingNumber)
    await github.inject(.status(502), path: issuesPath, method: "GET", times: 4, after: 3)
    await #expect(throws: GitHubError.self) {
      try await synchronizer(github, cache: cache).sync()
    }
    return cache
  }

  /// A sync cut off inside a block of five pages goes on where it stood: the next one re-reads
  /// the margin up to the block (one request) and walks the rest, not the block from its start.
  @Test(arguments: [0, 2])
  func aSyncCutOffInsideABlockGoesOnWhereItStood(deletedPages: Int) async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await syncCutOffInsideABlock(github)
    let point = try #require(try cache.issueResumePoint())
    guard case .covered(let covered, _) = point.position else {
      Issue.record("a REST walk stored \(point.position)")
      return
    }
    // Items the cut-off sync stored leave the block before the next one goes on.
    await github.deleteServedWhileListing(repository, pages: deletedPages)
    let before = await github.requests.count
    try await synchronizer(github, cache: cache).sync()
    let listings = await github.requests.dropFirst(before).map(\.target).filter {
      $0.hasPrefix(issuesPath + "?")
    }
    // One request re-reads the margin up to the block; then every window starts at most the
    // walk's overlap before the positions covered, none at the block's start.
    let windows = listings.compactMap { target -> Int? in
      let query = URLComponents(string: target)?.queryItems ?? []
      guard let page = query.first(where: { $0.name == "page" })?.value.flatMap(Int.init),
        let perPage = query.first(where: { $0.name == "per_page" })?.value.flatMap(Int.init)
      else { return nil }
      return (page - 1) * perPage
    }
    #expect(listings.count - windows.count == 1, "\(listings)")
    #expect(windows.allSatisfy { $0 >= covered - 8 }, "windows from \(windows), covered \(covered)")
    #expect(try cache.issueResumePoint() == nil)
    try await expectCacheEqualsServer(cache, github, .nothingMissing)
  }

  /// A full sync does not go on from where a plain sync cut off inside a block stood: it must
  /// see every item itself, or the items before that point would count as unlisted.
  @Test func aFullSyncWalksABlockItselfWhereAPlainSyncWasCutOff() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await syncCutOffInsideABlock(github)
    #expect(try cache.issueResumePoint() != nil)
    let before = await github.requestCount(pathPrefix: issuesPath + "/")
    let summary = try await synchronizer(github, cache: cache).sync(full: true)
    // No item of the block asked for on its own as unlisted.
    #expect(await github.requestCount(pathPrefix: issuesPath + "/") == before)
    #expect(summary.deleted == 0)
    try await expectCacheEqualsServer(cache, github, .exact)
  }

  /// A server whose order among ties changes on every request cannot be walked by position:
  /// the sync says so and fails, and a later sync from a server that keeps one order ends with
  /// nothing missing; no sync ends "complete" with an item missing.
  @Test(arguments: [1, 2, 5])
  func tiesInANewOrderOnEveryRequestAreCaughtNotSkipped(pages: Int) async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    let seed = UInt64(pages) * 7_919
    print("tiesInANewOrderOnEveryRequest seed \(seed)")
    let block = Array(stride(from: 2, through: 3_000, by: 2).prefix(pages * 100 + 30))
    await github.touchAtOnce(numbers: block, in: repository)
    await github.reshuffleTiesOnEveryRequest(in: repository, seed: seed)
    do {
      try await synchronizer(github, cache: cache).sync()
      // Ended without a doubt: then nothing may be missing.
      try await expectCacheEqualsServer(cache, github, .nothingMissing)
    } catch let error as GitHubError {
      #expect(error.code == .incompleteListing, "\(error)")
      #expect(error.detail?.contains("different order") == true, "\(error)")
    }
    #expect(try cache.issueResumePoint() == nil)
    // The marks stayed before the block: a sync from a server that keeps one order walks it.
    await github.keepTieOrder(in: repository)
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github, .nothingMissing)
  }

  /// Issues deleted after a full listing served them are found through GitHub's count and
  /// deleted with the unlisted ones: the cache ends equal to the server, not holding them until
  /// the next `--full`.
  @Test func aFullSyncFindsTheIssuesDeletedAfterItListedThem() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    await github.deleteServedWhileListing(repository, pages: 4)
    let summary = try await synchronizer(github, cache: cache).sync(full: true)
    #expect(summary.deleted == 4)
    #expect(summary.skipped.isEmpty, "\(summary.skipped)")
    try await expectCacheEqualsServer(cache, github, .exact)
  }

  @Test func commentsEditedOnEveryPageOfTheirListingAreAllKept() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    for number in 1...40 {
      try await github.addComments(15, on: number * 7, in: repository, start: start)
    }
    let cache = try await fullySynced(github)
    await github.editCommentsWhileListing(repository, count: 3)
    let client = await synchronizer(github, cache: cache).client
    let comments = CommentSynchronizer(client: client, cache: cache, repository: repository)
    let first = try await comments.sync()
    #expect(first.wasFull && first.complete)
    try await expectCommentsEqualServer(cache, github)
    let full = try await comments.sync(full: true)
    #expect(full.complete && full.deleted == 0)
    try await expectCommentsEqualServer(cache, github)
  }

  @Test func aCommentListingWithoutLinksOnItsFirstPageDeletesNothingAndFails() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    for number in 1...20 {
      try await github.addComments(15, on: number * 3, in: repository, start: start)
    }
    let cache = try await fullySynced(github)
    let client = await synchronizer(github, cache: cache).client
    let comments = CommentSynchronizer(client: client, cache: cache, repository: repository)
    _ = try await comments.sync()
    #expect(try cache.unlistedComments(seen: []).count == 300)
    await github.inject(.noLinks, path: issuesPath + "/comments")
    await #expect {
      try await comments.sync(full: true)
    } throws: { error in
      guard let error = error as? GitHubError, error.code == .incompleteListing else {
        return false
      }
      return error.detail == "it listed 100 comments where the cached issues announce 300"
    }
    #expect(try cache.unlistedComments(seen: []).count == 300)
  }

  private func expectCommentsEqualServer(
    _ cache: IssueCache, _ github: LocalGitHub, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let formatter = ISO8601DateFormatter()
    let served = await github.servedComments(in: repository).map {
      "\($0.id) \(formatter.date(from: $0.updatedAt).map(formatter.string) ?? "?")"
    }
    var cached: [String] = []
    for issue in try cache.issues(IssueFilter(state: .all, kind: .both)) {
      cached += try cache.comments(of: issue.number).map {
        "\($0.id) \(formatter.string(from: $0.updatedAt))"
      }
    }
    #expect(cached.sorted() == served.sorted(), sourceLocation: sourceLocation)
  }

  // MARK: Robustness

  @Test func aNullUserIsTheGhostAndAnUndecodableItemIsSkippedNamingIt() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let json = try #require(await github.itemJSON(number: 96, in: repository))
    let nullUser = json.replacingOccurrences(
      of: #""user":\{[^}]*\}"#, with: #""user":null"#, options: .regularExpression)
    #expect(nullUser != json)
    await github.replaceItem(number: 96, in: repository, json: nullUser)
    let badTitle = try #require(await github.itemJSON(number: 97, in: repository))
      .replacingOccurrences(of: #""title":"#, with: #""title":5,"x":"#)
    await github.replaceItem(number: 97, in: repository, json: badTitle)
    let cache = try IssueCache()
    let summary = try await synchronizer(github, cache: cache).sync()
    #expect(try cache.issue(number: 96)?.author == "ghost")
    #expect(summary.skipped.map(\.number) == [97])
    #expect(summary.skipped.first?.reason.contains("title") == true)
    #expect(try cache.syncState().itemCount == 2_999)
  }

  @Test func aDroppedConnectionIsRetried() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    await github.inject(.dropConnection, path: issuesPath, after: 4)
    let cache = try IssueCache()
    try await synchronizer(github, cache: cache).sync()
    #expect(try cache.syncState().itemCount == 3_000)
    // 31 pages of 99 new items (each asks again from its latest second), and the retry.
    #expect(await github.requestCount(pathPrefix: issuesPath + "?") <= 33)
  }

  @Test func aFirstSyncCutAtPageTwelveResumesFromThere() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    await github.inject(.dropConnection, path: issuesPath, times: 10, after: 11)
    let cache = try IssueCache()
    let sync = await synchronizer(github, cache: cache)
    await #expect(throws: GitHubError.self) { try await sync.sync() }
    #expect((1_080...1_100).contains(try cache.syncState().itemCount))
    await github.clearFaults()
    let before = await github.requestCount(pathPrefix: issuesPath + "?")
    try await sync.sync()
    #expect(try cache.syncState().itemCount == 3_000)
    // Pages 12 to 30, give or take the page the safety margin repeats: not 30 again.
    #expect(await github.requestCount(pathPrefix: issuesPath + "?") - before <= 20)
    try expectMilestoneIdentity(cache)
  }

  @Test func twoSyncsOfOneCacheFileRunOneAfterTheOther() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "trellis-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("tracker.sqlite").path
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let first = try IssueCache(path: path)
    let second = try IssueCache(path: path)
    let waited = Counter()
    var other = await synchronizer(github, cache: second)
    other.lockPolicy = .wait(waiting: { _ in waited.increment() })
    async let a = synchronizer(github, cache: first).sync()
    try await Task.sleep(for: .milliseconds(30))
    async let b = other.sync()
    let (one, two) = try await (a, b)
    #expect(one.wasFull)
    #expect(!two.wasFull)
    #expect(waited.value == 1)
    // One full listing and one incremental page: nothing downloaded twice.
    #expect(await github.requestCount(pathPrefix: issuesPath + "?") <= 33)
    #expect(try second.syncState().itemCount == 3_000)

    // Failing fast names the process that holds the lock.
    let lock = try await SyncLock.acquire(forCacheAt: path, policy: .failFast)
    var impatient = await synchronizer(github, cache: second)
    impatient.lockPolicy = .failFast
    do {
      try await impatient.sync()
      Issue.record("expected the lock to be held")
    } catch {
      #expect(error.code == .syncInProgress)
      #expect(error.detail?.contains("process \(getpid())") == true)
    }
    withExtendedLifetime(lock) {}
  }

  @Test func aServerThatNeverAnswersIsReportedWithinTheTimeout() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    await github.inject(.stall(seconds: 20), path: "/repos/acme/tracker", times: 5)
    let cache = try IssueCache()
    let clock = ContinuousClock()
    let started = clock.now
    do {
      try await synchronizer(github, cache: cache, timeout: 1).sync()
      Issue.record("expected a timeout")
    } catch {
      #expect(error.code == .offline)
      #expect(error.detail?.hasPrefix("no answer in") == true)
    }
    #expect(started.duration(to: clock.now) < .seconds(4))
    #expect(GitHubClient(host: .github).timeout == .seconds(15))
  }

  @Test func aTokenWithALineBreakIsRefusedNamingItsVariable() throws {
    do {
      _ = try TokenDiscovery.token(
        for: .github, environment: ["GH_TOKEN": "ghp_abc\ndef"], askGH: { _ in nil })
      Issue.record("expected the token to be refused")
    } catch {
      #expect(error.code == .invalidToken)
      #expect(error.description.contains("GH_TOKEN"))
      #expect(error.description.contains("line break"))
    }
    #expect(try TokenDiscovery.token(for: .github, environment: ["GH_TOKEN": " ok\n"]) == "ok")
  }

  @Test func rateLimitsSayWhichLimitWhenItLiftsAndWhetherATokenHelps() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    await github.inject(.secondaryRateLimit(retryAfter: 90), path: "/repos/acme/tracker")
    let cache = try IssueCache()
    do {
      try await synchronizer(github, cache: cache).sync()
      Issue.record("expected a secondary limit")
    } catch {
      #expect(error.code == .rateLimited)
      #expect(error.rateLimit == .secondary)
      #expect(error.description.contains("secondary"))
      #expect(error.description.contains("a token would not lift it"))
      #expect(error.description.contains("in 2 min"))
    }
    await github.inject(
      .rateLimit(reset: Date().addingTimeInterval(1_800)), path: "/repos/acme/tracker")
    do {
      try await synchronizer(github, cache: cache).sync()
    } catch {
      #expect(error.rateLimit == .primary(resource: "core", limit: 60))
      #expect(error.description.contains("the token's own quota is used up"))
      #expect(error.description.contains("in 30 min"))
    }
  }

  @Test func entityTagsAreKeptOnlyForListsAskedForConditionally() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    try await synchronizer(github, cache: cache).sync()
    let urls = try await cache.writer.read { db in
      try String.fetchAll(db, sql: "SELECT url FROM etag")
    }
    #expect(!urls.isEmpty)
    // The issue listing is never asked for conditionally; sub-issue lists are.
    #expect(urls.allSatisfy { !$0.contains("/issues?") && !$0.hasSuffix("/issues") })
    #expect(urls.contains { $0.contains("/sub_issues") })
  }

  @Test func aDeletedMilestoneLeavesItsIssuesWithoutOne() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    let milestones = try cache.milestones()
    let counts = EntryCounts(try cache.listEntries(IssueFilter(state: .all)))
    let gone = try #require(milestones.first { counts.byMilestone[$0.number, default: 0] > 0 })
    let kept = milestones.filter { $0.id != gone.id }
    await github.serve(
      "/repos/acme/tracker/milestones", body: try GitHubJSON.encoder.encode(kept),
      etag: "\"after-delete\"")
    try await synchronizer(github, cache: cache).sync()
    #expect(try cache.milestones().count == milestones.count - 1)
    try expectMilestoneIdentity(cache)
    let after = EntryCounts(try cache.listEntries(IssueFilter(state: .all)))
    #expect(after.noMilestone > counts.noMilestone)
  }

  @Test func aMilestoneThatCannotBeReadDeletesNothing() async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    let milestones = try cache.milestones()
    var objects = try #require(
      try JSONSerialization.jsonObject(
        with: GitHubJSON.encoder.encode(milestones)) as? [[String: Any]])
    objects[0]["title"] = NSNull()
    await github.serve(
      "/repos/acme/tracker/milestones", body: try JSONSerialization.data(withJSONObject: objects),
      etag: "\"broken\"")
    let summary = try await synchronizer(github, cache: cache).sync()
    #expect(summary.skipped.count == 1)
    #expect(try cache.milestones().count == milestones.count)
    try expectMilestoneIdentity(cache)
  }
}
