import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Synchronization
import Testing

/// The notifications inbox against the local GitHub: polling as GitHub asks (an idle inbox
/// costs nothing), triage shown at once and sent once, offline too.
@Suite(.serialized) struct InboxTests {
  static let start = Date(timeIntervalSince1970: 1_750_000_000)

  /// A clock tests move by hand.
  final class Clock: Sendable {
    let now = Mutex(InboxTests.start)
    func advance(_ seconds: Double) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func read() -> Date { now.withLock { $0 } }
  }

  private func setUp(threads: Int = 3) async throws -> (LocalGitHub, InboxSync, Clock) {
    let github = try await LocalGitHub.start()
    for index in 1...max(1, threads) {
      await github.addNotification(
        NotificationThread(
          id: "\(100 + index)", repository: "acme/tracker", number: index,
          isPullRequest: index % 2 == 0, title: "Thread \(index)",
          reason: ["review_requested", "mention", "subscribed"][index % 3],
          updatedAt: Self.start.addingTimeInterval(Double(index))))
    }
    var client = GitHubClient(
      host: await github.host, token: "t",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 1
    let clock = Clock()
    var sync = InboxSync(client: client, store: try InboxStore())
    sync.now = { clock.read() }
    return (github, sync, clock)
  }

  @Test func threadsDecodeWithTheirSubjectAndOnlyDecimalIDs() throws {
    let json = #"""
      [{"id":"42","unread":true,"reason":"review_requested","updated_at":"2025-01-02T03:04:05Z",
        "subject":{"title":"Fix it","url":"https://api.github.com/repos/o/r/pulls/7",
          "type":"PullRequest"},"repository":{"full_name":"o/r"}},
       {"id":"../x","unread":true,"reason":"mention","updated_at":"2025-01-02T03:04:05Z",
        "subject":{"title":"t","url":null,"type":"Issue"},"repository":{"full_name":"o/r"}},
       {"id":"43","reason":"ci_activity","updated_at":"2025-01-02T03:04:05Z",
        "subject":{"title":"Build","url":null,"type":"CheckSuite"},
        "repository":{"full_name":"o/r"}}]
      """#
    let decoded = try GitHubJSON.decoder.decode(
      [LossyElement<GitHubNotification>].self, from: Data(json.utf8))
    let threads = decoded.compactMap(\.item)
    #expect(threads.map(\.id) == ["42", "43"], "a path in an id is refused")
    #expect(threads[0].number == 7 && threads[0].subjectType == "PullRequest")
    #expect(threads[1].number == nil && threads[1].unread)
    #expect(GitHubNotification.describe(reason: "review_requested") == "review requested")
  }

  /// An hour of idle polling: one full listing, then only `304`s, one a poll interval; a new
  /// thread shows within one interval.
  @Test func anIdleHourCostsNothingAndANewThreadShowsWithinAnInterval() async throws {
    let (github, sync, clock) = try await setUp()
    defer { Task { await github.stop() } }
    var polls = 0
    for _ in 0..<360 {
      let outcome = await sync.run()
      #expect(outcome.stopped == nil)
      if outcome.polled { polls += 1 }
      clock.advance(10)
    }
    #expect(polls == 60, "one poll a minute, as X-Poll-Interval says")
    let answers = await github.inboxListings()
    #expect(answers.full == 1 && answers.notModified == 59)
    #expect(try sync.store.threads().map(\.id) == ["103", "102", "101"])
    // A thread arrives: it shows at the next poll, within the interval.
    try await Task.sleep(for: .milliseconds(1_100))  // Last-Modified has seconds
    await github.addNotification(
      NotificationThread(
        id: "200", repository: "acme/web", number: 9, isPullRequest: true,
        title: "Please review", reason: "review_requested",
        updatedAt: Self.start.addingTimeInterval(99)))
    var waited = 0.0
    while try !sync.store.threads().contains(where: { $0.id == "200" }), waited <= 60 {
      _ = await sync.run()
      clock.advance(5)
      waited += 5
    }
    #expect(waited <= 60)
    #expect(try sync.store.threads(reason: "review_requested").map(\.id).contains("200"))
    #expect(
      try sync.store.threads(repository: RepositoryName(owner: "acme", name: "web")).count == 1)
    // GitHub asks for a longer interval: polls follow it.
    await github.setPollInterval(300)
    clock.advance(60)
    _ = await sync.run()
    var asked = 0
    for _ in 0..<60 {
      clock.advance(10)
      if await sync.run().polled { asked += 1 }
    }
    #expect(asked == 2)
  }

  /// Triage shows at once and reaches GitHub once, even when its answer is lost; taken offline
  /// it waits, shown, and is sent when GitHub can be reached.
  @Test func triageShowsAtOnceAndLandsOnceWhateverTheNetworkDoes() async throws {
    let (github, sync, clock) = try await setUp(threads: 4)
    defer { Task { await github.stop() } }
    _ = await sync.run(force: true)
    let store = sync.store
    try store.triage(.read, thread: "101")
    try store.triage(.done, thread: "102")
    #expect(try store.threads().map(\.id) == ["104", "103", "101"], "done leaves at once")
    #expect(try store.threads().first { $0.id == "101" }?.notification.unread == false)
    // The answers are lost after GitHub applied them.
    await github.inject(
      .failAfterApplying(status: 502), path: "/notifications/threads/101", method: "PATCH")
    await github.inject(.dropConnection, path: "/notifications/threads/102", method: "DELETE")
    var outcome = await sync.run()
    #expect(outcome.stopped != nil)
    // Past the grace GitHub may take to apply a write whose answer was lost.
    clock.advance(sync.unansweredGrace + 1)
    outcome = await sync.run()
    outcome = await sync.run()
    #expect(try store.pendingTriage().isEmpty)
    let writes = await github.appliedWrites.map { "\($0.method) \($0.path)" }
    #expect(writes == ["PATCH /notifications/threads/101", "DELETE /notifications/threads/102"])
    // Offline: unsubscribe waits, shown; back online, sent once.
    await github.setReachable(false)
    try store.triage(.unsubscribe, thread: "103")
    outcome = await sync.run(force: true)
    #expect(outcome.stopped != nil && outcome.triaged == 0)
    #expect(!(try store.threads().contains { $0.id == "103" }))
    await github.setReachable(true)
    // The connection dropped after the request left: it may have landed, and is looked for
    // first; past the grace it goes.
    clock.advance(sync.unansweredGrace + 1)
    outcome = await sync.run(force: true)
    #expect(outcome.triaged == 1)
    #expect(await github.notificationThreads()["103"] == nil)
    #expect(try store.threads().map(\.id) == ["104"], "read threads leave the unread listing")
  }
  /// Unsubscribing means the thread leaves and stays gone: later activity on its issue does not
  /// bring it back (GitHub's `DELETE …/subscription` alone would), and a lost answer is checked
  /// through the subscription, not sent again blindly.
  @Test func anUnsubscribedThreadStaysGoneAfterNewActivity() async throws {
    let (github, sync, clock) = try await setUp(threads: 3)
    defer { Task { await github.stop() } }
    _ = await sync.run(force: true)
    let store = sync.store
    try store.triage(.unsubscribe, thread: "101")
    // The PUT applies and its answer is lost; the next run checks the subscription.
    await github.inject(
      .failAfterApplying(status: 502), path: "/notifications/threads/101/subscription",
      method: "PUT")
    var outcome = await sync.run(force: true)
    #expect(outcome.stopped != nil)
    clock.advance(sync.unansweredGrace + 1)
    outcome = await sync.run(force: true)
    #expect(try store.pendingTriage().isEmpty)
    let writes = await github.appliedWrites.map { "\($0.method) \($0.path)" }
    #expect(
      writes.filter { $0.hasPrefix("PUT") } == ["PUT /notifications/threads/101/subscription"],
      "one PUT reached GitHub: \(writes)")
    #expect(await github.notificationThreads()["101"] == nil)
    // Someone comments on the issue: the thread would come back, but it is ignored.
    await github.threadActivity("101")
    await github.threadActivity("102")
    clock.advance(120)
    _ = await sync.run(force: true)
    #expect(await github.notificationThreads()["101"] == nil)
    #expect(!(try store.threads().contains { $0.id == "101" }), "an unsubscribed thread came back")
    #expect(try store.threads().contains { $0.id == "102" }, "other threads still come")
  }

  /// Triage goes through the outbox's state machine: a refusal waits in conflict with its
  /// reason while the rest of the queue goes on, a refused token sends nothing and leaves it
  /// pending, and a triage cancelled after the queue was read is not sent.
  @Test func triageFollowsTheOutboxRules() async throws {
    let (github, sync, _) = try await setUp(threads: 4)
    defer { Task { await github.stop() } }
    _ = await sync.run(force: true)
    let store = sync.store
    try store.triage(.read, thread: "101")
    try store.triage(.done, thread: "102")
    await github.inject(.validation, path: "/notifications/threads/101", method: "PATCH")
    var outcome = await sync.run(force: true)
    #expect(outcome.triaged == 1, "the refusal does not hold up the next triage")
    #expect(outcome.polled, "nor the poll")
    #expect(outcome.stopped?.code == .validation, "\(String(describing: outcome.stopped))")
    let refused = try store.refusedTriage()
    #expect(refused.map(\.thread) == ["101"])
    #expect(try store.pendingTriage().isEmpty)
    #expect(try store.threads().first { $0.id == "101" }?.notification.unread == true)
    // The person drops it; one that landed cannot be cancelled.
    try store.cancelTriage(try #require(refused.first).id)
    #expect(try store.refusedTriage().isEmpty)
    #expect(throws: QueueError.self) { try store.cancelTriage(try #require(refused.first).id) }

    // A refused token: nothing lands, it stays pending, and goes once the token is good.
    try store.triage(.done, thread: "103")
    await github.inject(.status(401), path: "/notifications/threads/103", method: "DELETE")
    outcome = await sync.run()
    #expect(outcome.stopped?.code == .unauthorized)
    #expect(try store.pendingTriage().map { ($0.thread, $0.unanswered) }.first! == ("103", false))
    outcome = await sync.run()
    #expect(outcome.triaged == 1)

    // Cancelled between reading the queue and sending: not marked, so never sent.
    try store.triage(.read, thread: "104")
    let item = try #require(try store.pendingTriage().first)
    try store.cancelTriage(item.id)
    #expect(try store.markSending(item.id) == false)
    outcome = await sync.run()
    let writes = await github.appliedWrites.map { "\($0.method) \($0.path)" }
    #expect(
      writes == ["DELETE /notifications/threads/102", "DELETE /notifications/threads/103"],
      "\(writes)")
  }

  /// A command's triage: landed, refused (nothing stays queued), or queued when GitHub could
  /// not be reached.
  @Test func aCommandsTriageIsLandedRefusedOrQueued() async throws {
    let (github, sync, _) = try await setUp(threads: 3)
    defer { Task { await github.stop() } }
    _ = await sync.run(force: true)
    #expect(try await sync.triageNow(.done, thread: "101") == .landed)
    await github.inject(.status(403), path: "/notifications/threads/102", method: "PATCH")
    guard case .refused = try await sync.triageNow(.read, thread: "102") else {
      Issue.record("a 403 is a refusal")
      return
    }
    #expect(try sync.store.pendingTriage().isEmpty && sync.store.refusedTriage().isEmpty)
    #expect(try sync.store.threads().first { $0.id == "102" }?.notification.unread == true)
    await github.inject(.status(401), path: "/notifications/threads/103", method: "DELETE")
    guard case .refused = try await sync.triageNow(.done, thread: "103") else {
      Issue.record("a refused token leaves nothing queued")
      return
    }
    #expect(try sync.store.pendingTriage().isEmpty)
    await github.setReachable(false)
    guard case .queued = try await sync.triageNow(.done, thread: "103") else {
      Issue.record("offline, it waits")
      return
    }
    #expect(try sync.store.pendingTriage().map(\.thread) == ["103"])
  }
}

extension InboxTests {
  /// A triage whose answer never came may still be applied by GitHub: within the grace it is
  /// only looked for, never sent again; once GitHub shows it, it is found, and GitHub was asked
  /// once.
  @Test func aTriageWithoutAnAnswerIsLookedForNotSentAgainWithinTheGrace() async throws {
    let (github, patient, clock) = try await setUp(threads: 3)
    defer { Task { await github.stop() } }
    _ = await patient.run(force: true)
    // The same inbox, through a client that waits 1 s for an answer.
    var client = GitHubClient(
      host: await github.host, token: "t", transport: HTTPClientTransport(timeout: 1))
    client.maximumRetries = 0
    var sync = InboxSync(client: client, store: patient.store)
    sync.now = { clock.read() }
    let path = "/notifications/threads/101"
    // GitHub takes 3 s to apply it.
    await github.inject(.delayed(seconds: 3), path: path, method: "PATCH")
    try sync.store.triage(.read, thread: "101")
    var outcome = await sync.run()
    #expect(outcome.stopped != nil && outcome.triaged == 0)
    #expect(try sync.store.pendingTriage().map(\.unanswered) == [true])
    // At once, before GitHub applied it: looked for, not sent.
    outcome = await sync.run()
    #expect(outcome.triaged == 0)
    #expect(await github.writeAttempts.count { $0 == "PATCH \(path)" } == 1)
    // GitHub applies it; past the grace, the next run finds it.
    try await Task.sleep(for: .seconds(3))
    clock.advance(sync.unansweredGrace + 1)
    outcome = await sync.run()
    #expect(outcome.triaged == 1, "\(String(describing: outcome.stopped))")
    #expect(try sync.store.pendingTriage().isEmpty)
    #expect(await github.writeAttempts.count { $0 == "PATCH \(path)" } == 1)
  }

  /// A secondary limit met by the triage is kept for the host, and ends as GitHub said.
  ///
  /// The next run, and a repository's queue of the same host, send nothing until it ends (the
  /// poll, a read, goes on); then the triage goes, once more. A damaged pause file is no pause.
  @Test func aPauseGitHubAskedForHoldsTheTriageAndTheHostsQueues() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    await github.addNotification(
      NotificationThread(
        id: "101", repository: "acme/tracker", number: 1, isPullRequest: false,
        title: "Thread", reason: "mention", updatedAt: Self.start))
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("pause-\(UInt64.random(in: 0...UInt64.max))")
      .appendingPathComponent("trellis-issues").appendingPathComponent("localhost")
    defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    let store = try InboxStore(path: root.appendingPathComponent("inbox.sqlite").path)
    let cache = try IssueCache(path: root.appendingPathComponent("acme/tracker.sqlite").path)
    var client = GitHubClient(
      host: await github.host, token: "t",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.maximumRetries = 0
    let sync = InboxSync(client: client, store: store)
    _ = await sync.run(force: true)
    let path = "/notifications/threads/101"
    await github.inject(.secondaryRateLimit(retryAfter: 2), path: path, method: "PATCH")
    try store.triage(.read, thread: "101")
    var outcome = await sync.run()
    #expect(outcome.stopped?.code == .rateLimited)
    #expect(cache.writePause.holding(at: Date()) != nil, "one pause for the host's stores")
    outcome = await sync.run(force: true)
    #expect(outcome.stopped?.code == .rateLimited && outcome.polled)
    #expect(outcome.stopped?.detail?.contains("GitHub asked for a pause") == true)
    #expect(await github.writeAttempts.count { $0 == "PATCH \(path)" } == 1)
    try await Task.sleep(for: .seconds(2.5))
    outcome = await sync.run()
    #expect(outcome.triaged == 1, "\(String(describing: outcome.stopped))")
    #expect(await github.writeAttempts.count { $0 == "PATCH \(path)" } == 2)
    // Damaged: no pause, and a new one is kept over it.
    let file = root.appendingPathComponent("write.pause")
    try Data("not a date\n\u{0}".utf8).write(to: file)
    #expect(store.writePause.current() == nil)
    // A file of 8 MiB of digits is read 4 KiB far, and is no pause.
    try Data(repeating: UInt8(ascii: "9"), count: 8 << 20).write(to: file)
    #expect(store.writePause.current() == nil)
    try store.writePause.keep(until: Date().addingTimeInterval(60), detail: "x", now: Date())
    #expect(cache.writePause.holding(at: Date())?.detail == "x")
  }
}

extension InboxTests {
  /// A triage taken while GitHub cannot be connected to never left: it is pending again, not
  /// "sent without an answer", and goes at once when GitHub is back — no grace to wait out.
  @Test func aTriageThatNeverLeftGoesAtOnceWhenGitHubIsBack() async throws {
    let (github, online, clock) = try await setUp(threads: 1)
    defer { Task { await github.stop() } }
    _ = await online.run(force: true)
    // Nothing listens on port 1 (another test's server could take a port freed here).
    var unreachable = GitHubClient(
      host: GitHubHost(
        name: "github.com", apiBaseURL: try #require(URL(string: "http://127.0.0.1:1")),
        isEnterprise: false),
      token: "t")
    unreachable.maximumRetries = 0
    var offline = InboxSync(client: unreachable, store: online.store)
    offline.now = { clock.read() }
    try online.store.triage(.read, thread: "101")
    var outcome = await offline.run()
    #expect(outcome.stopped?.code == .offline && outcome.stopped?.neverLeft == true)
    #expect(try online.store.pendingTriage().map(\.unanswered) == [false])
    // GitHub is reachable again: no grace to wait out.
    let sync = online
    outcome = await sync.run()
    #expect(outcome.triaged == 1, "\(String(describing: outcome.stopped))")
    #expect(await github.notificationThreads()["101"]?.unread == false)
  }
}
