import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// The GraphQL mirror against the local GitHub: what reaches the cache, what it costs, and how
/// it holds under each fault class.
@Suite(.serialized) struct MirrorSyncTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  /// A local GitHub serving `acme/tracker` (a fifth pull requests, some parents of sub-issues)
  /// with conversations of about 5 comments and 3 events an issue, a few much longer.
  private func served(items: Int = 400) async throws -> LocalGitHub {
    let github = try await LocalGitHub.start()
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: items, milestoneCount: 4, seed: 3), as: acme)
    await github.serveConversations(in: acme, comments: items * 4, events: items * 2)
    return github
  }

  private func client(
    _ github: LocalGitHub, token: String? = "test-token",
    timeout: TimeInterval = LocalGitHub.patientTimeout
  ) async -> GitHubClient {
    var client = GitHubClient(
      host: await github.host, token: token, transport: HTTPClientTransport(timeout: timeout))
    client.initialBackoff = .milliseconds(10)
    return client
  }

  private func mirror(
    _ github: LocalGitHub, cache: IssueCache, pointLimit: Int? = nil
  ) async -> MirrorSynchronizer {
    var mirror = MirrorSynchronizer(
      client: await client(github), cache: cache, repository: acme)
    mirror.pointLimit = pointLimit
    return mirror
  }

  private func differences(_ cache: IssueCache, _ github: LocalGitHub) async throws -> [String] {
    try await github.differences(from: cache, in: acme)
  }

  /// Issues and pull requests deleted on GitHub after a mirror (no listing by update time ever
  /// shows a deleted item again): the next plain sync finds them by GitHub's counts, asks for
  /// each, and deletes exactly those; a quiet sync after it spends the count's one point.
  @Test func aMirrorsNextSyncDeletesWhatGitHubNoLongerHas() async throws {
    let github = try await served(items: 300)
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    try await mirror(github, cache: cache).sync()
    let made = SyntheticRepository(itemCount: 300, milestoneCount: 4, seed: 3).make().issues
    let issues = made.filter { !$0.isPullRequest }.map(\.number)
    let pulls = made.filter(\.isPullRequest).map(\.number)
    try #require(issues.count > 40 && pulls.count > 10)
    // Spread over the update times and the pull requests' creation order.
    let doomed = Set(stride(from: 3, to: issues.count, by: issues.count / 7).map { issues[$0] })
      .union(stride(from: 1, to: pulls.count, by: pulls.count / 4).map { pulls[$0] })
    await github.removeItems(numbers: doomed, in: acme)

    // A plain sync of a mirror, as `issues sync` runs it: REST for what changed, then GraphQL.
    _ = try await IssueSynchronizer(client: await client(github), cache: cache, repository: acme)
      .sync()
    #expect(try cache.issues(numbers: Array(doomed)).count == doomed.count)
    let summary = try await mirror(github, cache: cache).completeConversations()
    #expect(summary.deleted == doomed.count)
    #expect(summary.skipped.isEmpty, "\(summary.skipped)")
    #expect(try await differences(cache, github) == [])

    let before = await github.graphQLState.spent
    let quiet = try await mirror(github, cache: cache).completeConversations()
    #expect(quiet.deleted == 0)
    #expect(await github.graphQLState.spent - before == 1)
  }

  @Test func aMirrorHoldsEveryConversationWithinItsPlannedPoints() async throws {
    let github = try await served()
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(try await differences(cache, github) == [])
    #expect(summary.skipped.isEmpty)
    let state = await github.graphQLState
    // What GitHub charged is what the sync counted.
    #expect(summary.pointsSpent == state.spent)
    #expect(summary.pointsLeft == state.remaining)
    // 320 issues at 49 a point, 80 pull requests at 74, a few long conversations, the parents.
    #expect(state.spent <= 7 + 2 + 3 + 2)
    #expect(summary.coverage.isMirror)
    #expect(try cache.isMirror())
    #expect(summary.coverage.completeConversations == summary.coverage.issues)
    let expected = SyntheticRepository.subIssues(
      of: SyntheticRepository(itemCount: 400, milestoneCount: 4, seed: 3).make().issues)
    #expect(try cache.subIssues() == expected)
    // GitHub's node ids beside the REST ids: what gh prints as `id`.
    let first = try #require(try cache.issue(number: 1))
    #expect(first.nodeID == "I_kw\(first.id)")
    // REST: the repository, its milestones and labels, nothing per issue.
    #expect(await github.requests.count { !$0.target.hasPrefix("/graphql") } <= 4)
  }

  /// GraphQL knows milestones by number (no REST id): a mirror, first or after a REST sync,
  /// leaves the milestone table and every issue's milestone as GitHub has them.
  @Test(arguments: [false, true])
  func aMirrorKeepsEveryMilestoneAndEveryIssuesMilestone(afterARestSync: Bool) async throws {
    let github = try await served()
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    if afterARestSync {
      _ = try await IssueSynchronizer(client: await client(github), cache: cache, repository: acme)
        .sync()
    }
    _ = try await mirror(github, cache: cache).sync()
    let made = SyntheticRepository(itemCount: 400, milestoneCount: 4, seed: 3).make()
    let served = try #require(made.milestones)
    #expect(try cache.milestones().map(\.number).sorted() == served.map(\.number).sorted())
    #expect(
      try cache.milestones().map(\.title).sorted() == served.map(\.title).sorted())
    var wrong = 0
    for issue in made.issues {
      if try cache.issue(number: issue.number)?.milestoneNumber != issue.milestone?.number {
        wrong += 1
      }
    }
    #expect(wrong == 0, "\(wrong) issues lost or changed their milestone")
    // A REST sync afterwards (milestones answer 304) keeps it so.
    _ = try await IssueSynchronizer(client: await client(github), cache: cache, repository: acme)
      .sync()
    #expect(try cache.milestones().count == served.count)
  }

  /// A nullable field GitHub answered `null` with an error is not a null: the issue keeps its
  /// cached milestone, the run names it and fails, and the next run reads it.
  @Test func aFieldThatCameWithAnErrorIsNotWrittenAsNull() async throws {
    let github = try await served()
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: await client(github), cache: cache, repository: acme)
      .sync()
    let made = SyntheticRepository(itemCount: 400, milestoneCount: 4, seed: 3).make().issues
    let issue = try #require(made.first { !$0.isPullRequest && $0.milestone != nil })
    await github.configureGraphQL { $0.erroredMilestones = [issue.number: 1] }
    do {
      _ = try await mirror(github, cache: cache).sync()
      Issue.record("a run with an unread field should not end as complete")
    } catch {
      #expect(error.description.contains("resolving the milestone"), "\(error)")
    }
    #expect(try cache.issue(number: issue.number)?.milestoneNumber == issue.milestone?.number)
    let summary = try await mirror(github, cache: cache).sync()
    #expect(summary.coverage.isMirror)
    #expect(try cache.issue(number: issue.number)?.milestoneNumber == issue.milestone?.number)
    #expect(try await differences(cache, github) == [])
  }

  /// A cursor GitHub refuses mid-listing (it says it expired) is asked with again, or the query
  /// goes on from a point it proved before, rather than ending the run; nothing is skipped.
  @Test func anExpiredCursorStartsTheQueryAgainInsteadOfFailing() async throws {
    let github = try await served(items: 1_000)
    defer { Task { await github.stop() } }
    await github.configureGraphQL { $0.expiredCursorAnswers = 1 }
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(summary.coverage.isMirror)
    #expect(await github.graphQLState.expiredCursorAnswers == 0, "a cursor was refused")
    #expect(try await differences(cache, github) == [])
  }

  /// A server that refuses one cursor in three, whatever the cursor (pages of issues, of pull
  /// requests, the walk through a block of one second, timelines continued): each refused
  /// query is asked again from a point it proved, and the mirror completes, equal to the
  /// server, in one run.
  @Test(arguments: [GraphQLState.Cursors.keyset, .offset])
  func cursorsRefusedOneInThreeDoNotKeepTheMirrorFromCompleting(
    cursors: GraphQLState.Cursors
  ) async throws {
    let github = try await served(items: 1_500)
    defer { Task { await github.stop() } }
    await github.touchAtOnce(
      numbers: Array(stride(from: 1, through: 1_500, by: 2).prefix(400)), in: acme,
      ties: .descendingNumber)
    await github.configureGraphQL {
      $0.cursors = cursors
      $0.expiredCursorEvery = 3
    }
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(summary.coverage.isMirror)
    let state = await github.graphQLState
    #expect(state.cursorQueries >= 12, "only \(state.cursorQueries) queries carried a cursor")
    // Long conversations (one in a hundred) are continued with their cursors too.
    #expect((state.queries["MirrorTimelines"] ?? 0) > 0)
    #expect(try await differences(cache, github) == [])
  }

  /// A host whose schema lacks issue types, sub-issues and `PullRequest.fullDatabaseId` (GitHub
  /// Enterprise Server before them) refuses any query that names them: the mirror reads the
  /// schema once (kept with the cache), asks only what the host has, and mirrors every row;
  /// github.com's schema is read through `fullDatabaseId` where `databaseId` is deprecated.
  @Test func aHostWithoutIssueTypesOrSubIssuesIsMirroredAll() async throws {
    let github = try await served(items: 120)
    defer { Task { await github.stop() } }
    await github.configureGraphQL {
      $0.missingFields = [
        "Issue.issueType", "Issue.parent", "Issue.subIssues", "Issue.subIssuesSummary",
        "PullRequest.fullDatabaseId",
      ]
    }
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(summary.coverage.isMirror)
    let served = SyntheticRepository(itemCount: 120, milestoneCount: 4, seed: 3).make().issues
    let cached = try cache.issues(numbers: served.map(\.number))
    #expect(cached.count == served.count)
    #expect(await github.graphQLState.queries["SchemaFeatures"] == 1)
    #expect(await github.graphQLState.queries["MirrorSubIssues"] == nil)
    // Read once for the host: a second mirror run does not ask again.
    _ = try await mirror(github, cache: cache).sync()
    #expect(await github.graphQLState.queries["SchemaFeatures"] == 1)
  }

  /// A quiet re-sync costs one point: the count that proves nothing was deleted (a deleted
  /// item is listed nowhere, so nothing cheaper could show it gone).
  @Test func aSecondSyncOfAQuietMirrorCostsOnePoint() async throws {
    let github = try await served(items: 150)
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    try await mirror(github, cache: cache).sync()
    let spent = await github.graphQLState.spent
    // The plain sync of a mirror: REST for what changed, then the changed conversations.
    let client = await client(github)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    let second = try await mirror(github, cache: cache).completeConversations()
    #expect(second.pointsSpent == 1)
    #expect(await github.graphQLState.spent == spent + 1)
    #expect(await github.graphQLState.queries["MirrorIssueCount"] != nil)

    // An issue commented on: its conversation alone is fetched again, for one point, with the count.
    await github.serveConversations(in: acme, comments: 600, events: 0, seed: 99)
    await github.touch(numbers: [7], in: acme)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    let third = try await mirror(github, cache: cache).completeConversations()
    #expect(third.pointsSpent == 2)
    #expect(
      try cache.comments(of: 7).map(\.id)
        == (await github.servedComments(of: 7, in: acme)).map(\.id))
  }

  @Test(arguments: [GraphQLState.Cursors.keyset, .offset])
  func editsDuringTheListingEndWithTheServersState(cursors: GraphQLState.Cursors) async throws {
    let github = try await served(items: 500)
    defer { Task { await github.stop() } }
    await github.configureGraphQL {
      $0.cursors = cursors
      $0.editsPerPage = 3
    }
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    await github.configureGraphQL { $0.editsPerPage = 0 }
    #expect(try await differences(cache, github) == [])
    #expect(summary.coverage.completeConversations == summary.coverage.issues)
  }

  @Test func pagesThatTimeOutOrAskTooManyNodesShrink() async throws {
    let github = try await served(items: 300)
    defer { Task { await github.stop() } }
    await github.configureGraphQL {
      $0.largestPage = 20
      $0.nodeLimit = 1_500
    }
    await github.inject(.status(502), path: "/graphql", times: 2, after: 3)
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(try await differences(cache, github) == [])
    #expect(summary.coverage.completeConversations == summary.coverage.issues)
  }

  /// Passing 5xx (one query in four) are asked again at the same size: the pages do not shrink
  /// toward one item, and the mirror costs about what an undisturbed one does.
  @Test func randomServerErrorsDoNotShrinkThePages() async throws {
    let calm = try await served(items: 400)
    let calmSummary = try await mirror(calm, cache: try IssueCache()).sync()
    await calm.stop()
    let github = try await served(items: 400)
    defer { Task { await github.stop() } }
    for _ in 0..<6 { await github.inject(.status(502), path: "/graphql", times: 1, after: 3) }
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(try await differences(cache, github) == [])
    #expect(summary.pointsSpent <= calmSummary.pointsSpent + 2, "\(summary.pointsSpent)")
    #expect(summary.queries <= calmSummary.queries + 6 + 2, "\(summary.queries)")
  }

  @Test func partialErrorsKeepWhatIsValidAndSayWhatIsNot() async throws {
    let github = try await served(items: 200)
    defer { Task { await github.stop() } }
    let issues = SyntheticRepository(itemCount: 200, milestoneCount: 4, seed: 3).make().issues
      .filter { !$0.isPullRequest }.map(\.number)
    // One fails once (on its page) and is completed after the listing; another keeps failing.
    let (once, always) = (issues[1], issues[3])
    await github.configureGraphQL { $0.brokenTimelines = [once: 1, always: 100] }
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(summary.skipped.map(\.number) == [always])
    #expect(summary.coverage.completeConversations == summary.coverage.issues - 1)
    #expect(try cache.incompleteConversations().map(\.number) == [always])
    // Its row is there all the same.
    #expect(try cache.issue(number: always) != nil)
    #expect(try cache.commentsAreCurrent(of: once))
  }

  /// An issue node nulled by GitHub's null propagation fails the run with GitHub's message, and
  /// no mark moves past it: later runs read it, and the mirror completes only once it is stored.
  @Test func aNulledIssueNodeIsNeverPassedByTheMark() async throws {
    let github = try await served(items: 300)
    defer { Task { await github.stop() } }
    let made = SyntheticRepository(itemCount: 300, milestoneCount: 4, seed: 3).make().issues
    let nulled = try #require(made.filter { !$0.isPullRequest }.dropFirst(20).first).number
    await github.configureGraphQL { $0.nulledIssueNodes = [nulled: 2] }
    let cache = try IssueCache()
    for run in 1...2 {
      do {
        _ = try await mirror(github, cache: cache).sync()
        Issue.record("run \(run) should fail while the node is null")
      } catch {
        #expect(error.code == .incompleteListing)
        #expect(error.description.contains("Something went wrong"), "\(error)")
      }
      #expect(try !cache.isMirror())
    }
    let summary = try await mirror(github, cache: cache).sync()
    #expect(summary.coverage.isMirror)
    #expect(try cache.issue(number: nulled) != nil, "the nulled issue was skipped for good")
    #expect(try await differences(cache, github) == [])
  }

  @Test func aQueryThatGetsNoAnswerInTimeIsAskedAgainSmaller() async throws {
    let github = try await served(items: 150)
    defer { Task { await github.stop() } }
    await github.inject(.stall(seconds: 30), path: "/graphql", times: 1, after: 1)
    await github.inject(.dropConnection, path: "/graphql", times: 1, after: 3)
    // The stalled query is given up after five seconds without data.
    var client = await client(github, timeout: 5)
    client.timeout = .seconds(1)
    let cache = try IssueCache()
    let mirror = MirrorSynchronizer(client: client, cache: cache, repository: acme)
    let started = ContinuousClock.now
    let summary = try await mirror.sync()
    #expect(ContinuousClock.now - started < .seconds(20))
    #expect(try await differences(cache, github) == [])
    #expect(summary.coverage.completeConversations == summary.coverage.issues)
  }

  @Test func aServerThatNeverEndsItsPagesIsStoppedAndNothingIsDeleted() async throws {
    let github = try await served(items: 150)
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    try await mirror(github, cache: cache).sync()
    let cached = try cache.syncState().itemCount
    let before = await github.graphQLState.totalQueries
    await github.configureGraphQL { $0.endlessPages = true }
    let error = await #expect(throws: GitHubError.self) {
      try await mirror(github, cache: cache).sync()
    }
    #expect(error?.code == .pagination)
    // Stopped by what the server announced (150 items), not by its word.
    #expect(await github.graphQLState.totalQueries - before <= 12)
    #expect(try cache.syncState().itemCount == cached)
  }

  @Test func aRedirectToAnotherHostIsNotFollowed() async throws {
    let github = try await served(items: 20)
    defer { Task { await github.stop() } }
    await github.inject(
      .redirect(status: 307, location: "http://127.0.0.2:9/graphql"), path: "/graphql",
      times: .max)
    let cache = try IssueCache()
    let error = await #expect(throws: GitHubError.self) {
      try await mirror(github, cache: cache).sync()
    }
    // Refused before anything is sent there (nothing listens on 127.0.0.2:9: had it been
    // tried, the error would be a connection failure).
    #expect(error?.code == .untrustedURL)
    #expect(error?.detail?.contains("redirect to http://127.0.0.2:9/graphql") == true)
    #expect(await github.requests.count { $0.target == "/graphql" } == 1)
  }

  @Test func aSecondaryLimitIsWaitedOut() async throws {
    let github = try await served(items: 120)
    defer { Task { await github.stop() } }
    await github.inject(.secondaryRateLimit(retryAfter: 1), path: "/graphql", times: 1, after: 1)
    let cache = try IssueCache()
    let summary = try await mirror(github, cache: cache).sync()
    #expect(try await differences(cache, github) == [])
    #expect(summary.coverage.isMirror)
  }

  @Test func aSyncCutOffByItsBudgetResumesWithoutFetchingAgain() async throws {
    let github = try await served(items: 500)
    defer { Task { await github.stop() } }
    let reference = try IssueCache()
    let whole = try await mirror(github, cache: reference).sync().pointsSpent
    await github.configureGraphQL { $0.remaining = 5_000 }
    let before = await github.graphQLState.spent

    let cache = try IssueCache()
    // Three points a run: cut off again and again, at every kind of step.
    let runs = try await mirrorInRuns(github, cache: cache, pointLimit: 3)
    let spent = await github.graphQLState.spent - before
    #expect(try await differences(cache, github) == [])
    // Each resumption asks again for at most the page it stopped in.
    #expect(spent <= whole + runs)
  }

  @Test(arguments: [GraphQLState.Cursors.keyset, .offset])
  func aBlockOfOneSecondIsWalkedWithProofAndResumedInside(
    cursors: GraphQLState.Cursors
  ) async throws {
    let github = try await served(items: 500)
    defer { Task { await github.stop() } }
    // 200 issues in one second (a bulk edit), then 100 more changed after it.
    await github.touchAtOnce(
      numbers: Array(stride(from: 1, through: 500, by: 2).prefix(200)), in: acme,
      ties: .descendingNumber)
    await github.touch(numbers: Array(stride(from: 2, through: 500, by: 4)), in: acme)
    await github.configureGraphQL { $0.cursors = cursors }
    let reference = try IssueCache()
    let whole = try await mirror(github, cache: reference).sync().pointsSpent
    await github.configureGraphQL { $0.remaining = 5_000 }

    // Two points a run: every run ends inside or after the block, and goes on from there.
    let before = await github.graphQLState.spent
    let cache = try IssueCache()
    let runs = try await mirrorInRuns(github, cache: cache, pointLimit: 2)
    let spent = await github.graphQLState.spent - before
    #expect(try await differences(cache, github) == [])
    #expect(spent <= whole + runs, "\(spent) points in \(runs) runs; \(whole) uncut")

    // And a mirror during which the first issue of every page is deleted: with cursors that
    // count positions, each deletion shifts the rest a place back.
    await github.touchAtOnce(
      numbers: Array(stride(from: 3, through: 500, by: 2).prefix(150)), in: acme)
    await github.configureGraphQL {
      $0.remaining = 5_000
      $0.servedDeletionPages = 6
      $0.editsPerPage = 1
      $0.editPages = 4
    }
    let fresh = try IssueCache()
    try await mirror(github, cache: fresh).sync()
    await github.configureGraphQL { $0.editsPerPage = 0 }
    // The six deleted during the listing were listed first: the mirror's end finds them by
    // GitHub's counts and deletes them once each is confirmed gone.
    #expect(try await differences(fresh, github) == [])
  }

  /// An issue GitHub answers as null in the middle of a block of one second, in runs cut off
  /// inside the block: no run moves the mark or the resume point past it (a run that meets it
  /// and is not cut off first fails naming GitHub's message), and once GitHub answers for it
  /// the mirror ends with it.
  @Test(arguments: [GraphQLState.Cursors.keyset, .offset])
  func aNulledNodeInsideABlockIsNeverWalkedPast(cursors: GraphQLState.Cursors) async throws {
    let github = try await served(items: 400)
    defer { Task { await github.stop() } }
    let block = Array(stride(from: 1, through: 400, by: 2).prefix(180))
    await github.touchAtOnce(numbers: block, in: acme, ties: .descendingNumber)
    let made = SyntheticRepository(itemCount: 400, milestoneCount: 4, seed: 3).make().issues
    let issuesInBlock = Set(made.filter { !$0.isPullRequest }.map(\.number)).intersection(block)
    // Deep in the block as it is served (descending numbers): after the first page of it.
    let nulled = try #require(issuesInBlock.sorted().dropFirst(issuesInBlock.count / 3).first)
    await github.configureGraphQL {
      $0.cursors = cursors
      $0.nulledIssueNodes = [nulled: 3]
    }
    let cache = try IssueCache()
    var runs = 0
    var failures: [String] = []
    var finished = false
    while !finished, runs < 60 {
      runs += 1
      do {
        try await mirror(github, cache: cache, pointLimit: 2).sync()
        finished = true
      } catch  where error.code == .rateLimited {
      } catch {
        #expect(error.code == .incompleteListing, "\(error)")
        failures.append(error.description)
      }
    }
    #expect(finished, "still cut off after \(runs) runs")
    #expect(await github.graphQLState.nulledIssueNodes[nulled] == 0, "served null three times")
    #expect(failures.allSatisfy { $0.contains("Something went wrong") }, "\(failures)")
    #expect(try cache.issue(number: nulled) != nil, "the nulled issue was walked past for good")
    #expect(try await differences(cache, github) == [])
  }

  /// A GraphQL server whose order among ties changes on every query (cursors that count
  /// positions) cannot be walked by position: the mirror says so and fails rather than ending
  /// with an issue missing, and once the order holds a mirror ends equal to the server.
  @Test func tiesInANewOrderOnEveryQueryAreCaughtNotSkipped() async throws {
    let github = try await served(items: 400)
    defer { Task { await github.stop() } }
    await github.touchAtOnce(
      numbers: Array(stride(from: 1, through: 400, by: 2).prefix(180)), in: acme)
    print("tiesInANewOrderOnEveryQuery seed 41")
    await github.configureGraphQL {
      $0.cursors = .offset
      $0.reshuffledTies = 41
    }
    let cache = try IssueCache()
    do {
      try await mirror(github, cache: cache).sync()
      #expect(try await differences(cache, github) == [])
    } catch let error as GitHubError {
      #expect(error.code == .incompleteListing, "\(error)")
      #expect(error.description.contains("different order"), "\(error)")
    }
    #expect(try cache.mirrorIssueResumePoint() == nil)
    await github.configureGraphQL { $0.reshuffledTies = nil }
    try await mirror(github, cache: cache).sync()
    #expect(try await differences(cache, github) == [])
  }

  /// A stored resume point that cannot be read (a file damaged, a version that wrote another
  /// shape) is not trusted: the walk goes on from the mark, before the block, and misses nothing.
  @Test func aResumePointThatCannotBeReadIsWalkedAgainFromTheMark() async throws {
    let github = try await served(items: 300)
    defer { Task { await github.stop() } }
    await github.touchAtOnce(
      numbers: Array(stride(from: 1, through: 300, by: 2).prefix(120)), in: acme,
      ties: .descendingNumber)
    await github.configureGraphQL { $0.cursors = .keyset }
    let cache = try IssueCache()
    // Runs of two points until one stops inside the block with a point stored.
    var stored = false
    for _ in 0..<20 where !stored {
      if try await syncEnds(mirror(github, cache: cache, pointLimit: 2)) { break }
      stored = try cache.mirrorIssueResumePoint() != nil
    }
    try #require(stored, "a run stopped inside the block")
    try await cache.writer.write { db in
      try db.execute(sql: "UPDATE syncState SET mirrorIssueResumePoint = '{\"since\": 12'")
    }
    #expect(try cache.mirrorIssueResumePoint() == nil)
    _ = try await mirrorInRuns(github, cache: cache, pointLimit: 2)
    #expect(try await differences(cache, github) == [])
  }

  /// Mirrors in runs of `pointLimit` points until one ends (60 at most), returning how many.
  private func mirrorInRuns(
    _ github: LocalGitHub, cache: IssueCache, pointLimit: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Int {
    var runs = 0
    var finished = false
    while !finished, runs < 60 {
      runs += 1
      finished = try await syncEnds(mirror(github, cache: cache, pointLimit: pointLimit))
    }
    #expect(finished, "still cut off after \(runs) runs", sourceLocation: sourceLocation)
    return runs
  }

  /// Whether a mirror sync ran to its end (`false`: its budget cut it off).
  private func syncEnds(_ mirror: MirrorSynchronizer) async throws -> Bool {
    do {
      try await mirror.sync()
      return true
    } catch {
      guard error.code == .rateLimited else { throw error }
      return false
    }
  }

  @Test func noBudgetLeftStopsBeforeAskingAndKeepsEverything() async throws {
    let github = try await served(items: 300)
    defer { Task { await github.stop() } }
    await github.configureGraphQL { $0.remaining = 60 }
    let cache = try IssueCache()
    var mirror = await mirror(github, cache: cache)
    mirror.reserve = 55
    let error = await #expect(throws: GitHubError.self) { try await mirror.sync() }
    // Said as its own stop, not as GitHub's limit.
    #expect(error?.rateLimit == .budget)
    #expect(error?.description.contains("kept for other work") == true)
    #expect(error?.description.contains("GitHub's rate limit") == false)
    // It stopped on its own, with the reserve untouched and what it fetched kept.
    #expect(await github.graphQLState.remaining >= 55)
    #expect(try cache.syncState().itemCount > 0)
  }

  @Test func aCommentDeletedOnGitHubIsDeletedOnlyOnceConfirmed() async throws {
    let github = try await served(items: 120)
    defer { Task { await github.stop() } }
    let cache = try IssueCache()
    try await mirror(github, cache: cache).sync()
    let number = try #require(
      try cache.issues(IssueFilter(state: .all, kind: .issues)).first { $0.comments >= 2 }?.number)
    let doomed = try #require(await github.servedComments(of: number, in: acme).first?.id)
    try await github.deleteComment(Int(doomed), on: number, in: acme)
    await github.touch(numbers: [number], in: acme)
    let client = await client(github)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    try await mirror(github, cache: cache).completeConversations()
    #expect(try !cache.comments(of: number).contains { $0.id == doomed })
    #expect(try await differences(cache, github) == [])
  }

  @Test func withoutATokenTheMirrorSaysSoAndSendsNothing() async throws {
    let github = try await served(items: 20)
    defer { Task { await github.stop() } }
    let mirror = MirrorSynchronizer(
      client: await client(github, token: nil), cache: try IssueCache(), repository: acme)
    await #expect(throws: GitHubError.self) { try await mirror.sync() }
    #expect(await github.requests.isEmpty)
  }

  @Test func pageSizesAreChosenForTheMostItemsAPoint() {
    // Three nested connections: 49 issues cost 148 requests, one point.
    #expect(MirrorQuery.bestPageSize(nested: 3, limit: 100) == 49)
    #expect(MirrorQuery.points(requests: 148) == 1)
    #expect(MirrorQuery.points(requests: 151) == 2)
    #expect(MirrorQuery.bestPageSize(nested: 2, limit: 100) == 74)
    #expect(MirrorQuery.bestPageSize(nested: 1, fixed: 0, limit: 200) == 149)
  }
}
