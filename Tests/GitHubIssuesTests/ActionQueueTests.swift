import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing
import TrellisTestSupport

/// The action queue against the local GitHub: actions queued offline reach GitHub exactly
/// once, in order per issue, whatever the connection does; conflicts wait for the person.
@Suite(.serialized) struct ActionQueueTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")
  let synthetic = SyntheticRepository(itemCount: 400, milestoneCount: 6, seed: 3)

  private func setUp() async throws -> (LocalGitHub, GitHubClient, IssueCache) {
    let github = try await LocalGitHub.start()
    try await github.serve(synthetic: synthetic, as: acme)
    await github.requireToken(forWrites: "test-token")
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 1
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, client, cache)
  }

  /// 1,000 actions queued offline on 300 issues, replayed while connections drop at random
  /// before reads, before writes, after writes applied, and with 502s after applying: every
  /// action lands exactly once, in order per issue; the queue ends empty and the cache shows
  /// what GitHub holds.
  @Test func aThousandActionsLandExactlyOnceWhateverTheConnectionDoes() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let seed: UInt64 = 0xA11_0E7C_E5EE
    print("action queue seed \(seed)")
    let issues = Array(try cache.issues(IssueFilter(state: .all, kind: .issues)).prefix(300))
    #expect(issues.count == 300)
    let scenario = await QueueScenario(
      count: 1_000, issues: issues.map(\.number), milestones: try cache.milestones().map(\.number),
      seed: seed, github: github, repository: acme)
    await github.setReachable(false)
    for (issue, operation) in scenario.actions { try cache.enqueue(operation, onIssue: issue) }
    #expect(await github.appliedWrites.isEmpty, "nothing is sent offline")
    #expect(try cache.queuedActions().count == 1_000)
    // Shown at once: the cache shows every issue as the queue leaves it.
    // The network back, dropping at random.
    await github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.03, dropBeforeWrite: 0.05, dropAfterWrite: 0.05,
        failAfterWrite: 0.05))
    let replayer = ActionReplayer(
      client: client, cache: cache, repository: acme, viewer: "octocat", unansweredGrace: 0)
    var rounds = 0
    var found = 0
    while try !cache.queuedActions().isEmpty, rounds < 3_000 {
      let summary = await replayer.replay()
      found += summary.foundLanded
      #expect(summary.conflicts == 0)
      rounds += 1
    }
    print("replayed in \(rounds) rounds; \(found) actions found landed after a lost answer")
    #expect(try cache.queuedActions().isEmpty)
    #expect(found > 10, "answers were lost after writes applied, and settled by reading")
    // Exactly once, in order per issue.
    let mismatches = scenario.mismatches(await github.appliedWrites)
    for (number, served, expected) in mismatches.prefix(3) {
      Issue.record("#\(number): served \(served), expected \(expected)")
    }
    #expect(mismatches.isEmpty)
    #expect(scenario.expected.values.map(\.count).reduce(0, +) > 600)
    // The cache shows what GitHub holds.
    await github.setChaos(nil)
    for number in Set(scenario.actions.map(\.issue)).sorted().prefix(60) {
      let server = try #require(await github.issue(number: number, in: acme))
      let cached = try #require(try cache.issues(numbers: [number]).first)
      #expect(cached.state == server.state, "#\(number)")
      #expect(cached.milestoneNumber == server.milestone?.number, "#\(number)")
      #expect(Set(cached.labels) == Set(server.labels.map(\.name)), "#\(number)")
    }
  }

  /// A queued change shows at once and stays shown over a sync that writes GitHub's version,
  /// until it lands; the rows it touches are marked.
  @Test func aQueuedChangeShowsAtOnceAndStaysShownOverASync() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let issue = try #require(
      try cache.issues(IssueFilter(state: .open, kind: .issues)).first { $0.milestoneNumber == nil }
    )
    await github.setReachable(false)
    try cache.enqueue(.change(.close(.notPlanned)), onIssue: issue.number)
    try cache.enqueue(.change(.addLabels(["queued"])), onIssue: issue.number)
    #expect(try cache.issues(numbers: [issue.number]).first?.state == .closed)
    #expect(try cache.queuedIssueNumbers() == [issue.number])
    await github.setReachable(true)
    // A sync writes GitHub's version (still open): the queue stays shown on top.
    await github.touch(numbers: [issue.number], in: acme)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    let shown = try #require(try cache.issues(numbers: [issue.number]).first)
    #expect(shown.state == .closed && shown.labels.contains("queued"))
    #expect(await github.issue(number: issue.number, in: acme)?.state == .open)
    let summary = await ActionReplayer(
      client: client, cache: cache, repository: acme, viewer: nil
    ).replay()
    #expect(summary.sent == 2 && summary.waiting == 0)
    #expect(await github.issue(number: issue.number, in: acme)?.state == .closed)
    #expect(try cache.queuedIssueNumbers().isEmpty)
  }

  /// An action that conflicts with what GitHub holds now waits for the person, the issue's
  /// later actions with it; sent anyway, what GitHub already holds is not sent again.
  @Test func aConflictWaitsForThePersonWithTheIssuesLaterActions() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let open = try cache.issues(IssueFilter(state: .open, kind: .issues))
    let (first, second) = (open[0].number, open[1].number)
    let milestones = try cache.milestones().map(\.number)
    let target = try #require(milestones.first { $0 != open[0].milestoneNumber })
    await github.setReachable(false)
    let close = try cache.enqueue(.change(.close(.completed)), onIssue: first)
    try cache.enqueue(.change(.setMilestone(number: target)), onIssue: first)
    try cache.enqueue(.change(.reopen), onIssue: second)
    try cache.enqueue(.comment("After the reopen."), onIssue: second)
    await github.setReachable(true)
    // Someone else closes the first one meanwhile.
    _ = try await client.apply(.close(.notPlanned), toIssue: first, of: acme)
    let writesBefore = await github.appliedWrites.count
    let replayer = ActionReplayer(
      client: client, cache: cache, repository: acme, viewer: "octocat", unansweredGrace: 0)
    var summary = await replayer.replay()
    #expect(summary.conflicts == 1)
    let waiting = try cache.queuedActions()
    #expect(waiting.map(\.issueNumber) == [first, first], "the milestone waits behind the close")
    guard case .conflict(let reason) = waiting[0].status else {
      Issue.record("not in conflict: \(waiting[0].status)")
      return
    }
    #expect(reason.contains("closed on GitHub meanwhile"))
    // The second issue's actions went on: reopen is already so (it was open), the comment sent.
    #expect(await github.commentBodies(of: second, in: acme).last == "After the reopen.")
    // The cache shows GitHub's version with the queued actions on top.
    #expect(try cache.issues(numbers: [first]).first?.milestoneNumber == target)
    try cache.sendAnyway(close.id)
    summary = await replayer.replay()
    #expect(summary.alreadyHeld == 1 && summary.sent == 1 && summary.waiting == 0)
    let writes = await github.appliedWrites.dropFirst(writesBefore).map(QueueScenario.describe)
    #expect(writes == ["comment After the reopen.", "milestone \(target)"])
    #expect(await github.issue(number: first, in: acme)?.stateReason == "not_planned")
  }

  /// A milestone deleted on GitHub before its move was sent: GitHub refuses, the move waits in
  /// conflict saying so, and cancelling it shows the issue as GitHub has it.
  @Test func aRefusedMoveWaitsInConflictAndCancellingTakesItBack() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let issue = try #require(
      try cache.issues(IssueFilter(state: .open, kind: .issues)).first { $0.milestoneNumber == nil }
    )
    let milestones = try cache.milestones()
    let doomed = try #require(milestones.last)
    await github.setReachable(false)
    let move = try cache.enqueue(
      .change(.setMilestone(number: doomed.number)), onIssue: issue.number)
    try cache.enqueue(.change(.addLabels(["kept"])), onIssue: issue.number)
    #expect(try cache.issues(numbers: [issue.number]).first?.milestoneNumber == doomed.number)
    await github.setReachable(true)
    await github.serve(
      "/repos/acme/tracker/milestones",
      body: try GitHubJSON.encoder.encode(milestones.filter { $0.number != doomed.number }))
    let replayer = ActionReplayer(
      client: client, cache: cache, repository: acme, viewer: nil, unansweredGrace: 0)
    let summary = await replayer.replay()
    #expect(summary.conflicts == 1 && summary.refusals[move.id]?.code == .validation)
    guard case .conflict(let reason) = try cache.queuedActions().first?.status else {
      Issue.record("not in conflict")
      return
    }
    #expect(reason.contains("milestone \(doomed.number) is no longer on GitHub"))
    try cache.cancelQueuedAction(move.id)
    let shown = try #require(try cache.issues(numbers: [issue.number]).first)
    #expect(shown.milestoneNumber == nil && shown.labels.contains("kept"))
    #expect(await replayer.replay().sent == 1)
    #expect(
      await github.issue(number: issue.number, in: acme)?.labels.map(\.name).contains("kept")
        == true)
    // Cancelling what may have landed is refused.
    await github.inject(
      .failAfterApplying(status: 502), path: "/repos/acme/tracker/issues/\(issue.number)",
      method: "PATCH")
    let close = try cache.enqueue(.change(.close(.completed)), onIssue: issue.number)
    _ = await replayer.replay()
    #expect(throws: QueueError.mayHaveLanded(close.id)) { try cache.cancelQueuedAction(close.id) }
    let settled = await replayer.replay()
    #expect(settled.foundLanded == 1 && settled.sent == 0)
    #expect(await github.appliedWrites.filter { $0.method == "PATCH" }.count == 1)
  }

  /// Cancelling the last of several queued actions shows the issue as the others leave it
  /// (a close's time compared as the cache keeps it).
  @Test func cancellingTheLastOfSeveralActionsShowsTheOthersOnly() throws {
    let cache = try IssueCache()
    try cache.apply(SyntheticRepository(itemCount: 30, milestoneCount: 2, seed: 4).make())
    let issue = try #require(
      try cache.issues(IssueFilter(state: .open, kind: .issues)).first { $0.milestoneNumber == nil }
    )
    try cache.enqueue(.change(.addLabels(["first"])), onIssue: issue.number)
    let close = try cache.enqueue(.change(.close(.completed)), onIssue: issue.number)
    #expect(try cache.issues(numbers: [issue.number]).first?.state == .closed)
    try cache.cancelQueuedAction(close.id)
    let shown = try #require(try cache.issues(numbers: [issue.number]).first)
    #expect(shown.state == .open && shown.labels.contains("first"))
    #expect(try cache.queuedActions().count == 1)
  }
}
