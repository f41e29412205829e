import Foundation
import GitHubTestSupport
import Testing

@testable import GitHubIssues

/// A misbehaving GitHub: links and redirects to other hosts, loops, nulls, dropped connections,
/// silent servers, secondary limits, deleted milestones, concurrent syncs.
///
/// Each scenario runs the real URLSession transport against the local GitHub, and checks the
/// milestone identity ("All" = "No milestone" + Σ milestones) after every sync.
@Suite(.serialized) struct HostileGitHubTests: HostileGitHubScenario {
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
