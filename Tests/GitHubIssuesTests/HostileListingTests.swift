import Foundation
import GitHubTestSupport
import Testing

@testable import GitHubIssues

/// A GitHub whose listings change while they are read.
///
/// Edits, deletions and transfers on every page, blocks of items updated in one second, ties
/// served in a new order, pages out of order, comments edited while listed: each scenario checks
/// the cache against what the server holds.
@Suite(.serialized) struct HostileListingTests: HostileGitHubScenario {
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

  // Each size of block, the small ones in one tie order each, the largest in both (every
  // pairing took 29 s of CI).
  @Test(
    arguments: zip(
      [1, 2, 5, 5],
      [
        LocalGitHub.TieOrder.ascendingNumber, .descendingNumber, .ascendingNumber,
        .descendingNumber,
      ]
    ))
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
  /// the block is proved in parts instead (state, milestone, assignee), and the sync ends equal
  /// to the server.
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
    // Proved in parts: every part of state, milestone and assignee holds less than a page.
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
    #expect(try cache.issueResumePoint() == nil)
  }

  /// A block in a new order on every request that no filter cuts small enough is said unproven.
  ///
  /// One milestone, nobody assigned: the sync says it could not prove the block and
  /// fails, keeping its marks before it; a later sync from a server that keeps one order walks
  /// it and ends with nothing missing. No sync ends "complete" with an item missing.
  @Test func aBlockNoFilterCutsSmallEnoughIsSaidUnprovenAndWalkedLater() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 3_000, milestoneCount: 1, seed: 11), as: repository)
    let cache = try IssueCache()
    try await synchronizer(github, cache: cache).sync()
    await github.touchAtOnce(numbers: Array(stride(from: 2, through: 3_000, by: 2)), in: repository)
    await github.reshuffleTiesOnEveryRequest(in: repository, seed: 17)
    do {
      try await synchronizer(github, cache: cache).sync()
      Issue.record("a block of 1,500 in four parts was called complete")
    } catch {
      #expect(error.code == .incompleteListing, "\(error)")
      #expect(error.detail?.contains("different order") == true, "\(error)")
    }
    #expect(try cache.issueResumePoint() == nil)
    await github.keepTieOrder(in: repository)
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
  }

  /// Two items of a same-second block exchanging places after its first page are both found.
  ///
  /// One of them was already served: the one moved ahead would be skipped by a walk that
  /// trusted the order. The walk sees a served item at a later place than before, starts again, and the
  /// sync ends with both.
  @Test(arguments: [(1_010, 1_100), (1_050, 1_100), (1_050, 1_101), (1_010, 1_102)])
  func tiesExchangingPlacesAfterTheBlocksFirstPageAreBothFound(
    exchange: (Int, Int)
  ) async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    let requests = await github.listingRequests[issuesPath, default: 0]
    await github.touchAtOnce(numbers: Array(1_000..<1_300), in: repository)
    await github.exchangeTies(
      exchange.0, exchange.1, afterRequest: requests + 1, in: repository)
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
    // Exchanged: the fault was spent.
    #expect(await github.tieExchanges[issuesPath] == nil)
  }

  /// Ties in a new order on every request, or from two or three replicas each with its own
  /// order: a block that GitHub's filters cut into parts of less than a page each is proved
  /// part by part, and the sync ends equal to the server rather than failing every time.
  @Test(arguments: [0, 2, 3])
  func tiesInAnyOrderOnEveryRequestStillCompleteTheSync(replicas: Int) async throws {
    let github = try await start()
    defer { Task { await github.stop() } }
    let cache = try await fullySynced(github)
    let seed = UInt64(replicas) &* 104_729 &+ 1
    print("tiesInAnyOrderOnEveryRequest seed \(seed)")
    await github.touchAtOnce(numbers: Array(stride(from: 1, through: 900, by: 3)), in: repository)
    if replicas == 0 {
      await github.reshuffleTiesOnEveryRequest(in: repository, seed: seed)
    } else {
      await github.serveTiesFromReplicas(in: repository, count: replicas, seed: seed)
    }
    try await synchronizer(github, cache: cache).sync()
    try await expectCacheEqualsServer(cache, github)
    #expect(try cache.issueResumePoint() == nil)
    // And again from nothing: a first sync walks the same block.
    let fresh = try IssueCache()
    try await synchronizer(github, cache: fresh).sync()
    try await expectCacheEqualsServer(fresh, github)
  }

  /// A block too large for GitHub's page numbers is never asked past page 100.
  ///
  /// GitHub refuses pages past 100 on large listings, as the local GitHub does: the walk goes
  /// on in parts. Pages of 10 make a block of 1,500 reach there.
  @Test func noWindowOfABlockAsksPastPage100() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(synthetic: synthetic, as: repository, perPage: 10)
    await github.touchAtOnce(numbers: Array(stride(from: 1, through: 3_000, by: 2)), in: repository)
    let cache = try IssueCache()
    do {
      try await synchronizer(github, cache: cache).sync()
      try await expectCacheEqualsServer(cache, github)
    } catch let error as GitHubError {
      // Parts of more than a page of one second: said, not a 422.
      #expect(error.code == .incompleteListing, "\(error)")
    }
    let pages = await github.requests.compactMap { request -> Int? in
      guard request.target.contains("/issues?") else { return nil }
      return URLComponents(string: request.target)?.queryItems?
        .first { $0.name == "page" }?.value.flatMap(Int.init)
    }
    #expect(pages.max() ?? 0 <= 100)
    #expect(pages.contains { $0 > 50 }, "the walk went deep into the block")
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
}
