import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// The action queue from the command line: actions taken without GitHub wait in the queue,
/// shown at once, and reach GitHub exactly once — also when `issues queue send` is killed at
/// random while connections drop.
@Suite(.serialized) struct QueueCommandTests {
  typealias World = ActionCommandTests.World
  let acme = RepositoryName(owner: "acme", name: "tracker")
  static let served = SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make()

  /// The cache the `issues` processes of a world use.
  private func cache(_ world: World) async throws -> IssueCache {
    let url = IssueCache.defaultURL(
      for: acme, host: await world.github.host,
      environment: ["XDG_CACHE_HOME": world.folder.appendingPathComponent("cache").path])
    return try IssueCache(path: url.path)
  }

  @Test func anActionTakenOfflineIsQueuedShownAndSentOnceLater() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let number = try #require(
      Self.served.issues.first { $0.state == .open && !$0.isPullRequest }?.number)
    let n = String(number)
    _ = try await world.run(["view", n])
    await world.github.setReachable(false)
    var (status, out, err) = try await world.run(["close", n, "--reason", "not planned"])
    #expect(status == 0, "\(err)")
    #expect(err.contains("Queued: close #\(n) as not planned"), "\(err)")
    #expect(await world.github.issue(number: number, in: acme)?.state == .open)
    (status, out, err) = try await world.run(["view", n, "--offline", "--json", "state"])
    #expect(out.contains("\"CLOSED\""), "shown at once: \(out)")
    (status, out, err) = try await world.run(["queue"])
    #expect(out.contains("\t#\(n)\tpending\tclose #\(n) as not planned"), "\(out)")
    await world.github.setReachable(true)
    (status, out, err) = try await world.run(["queue", "send"])
    #expect(status == 0, "\(err)")
    #expect(out.hasPrefix("Sent 1; 0 waiting."), "\(out)")
    let served = try #require(await world.github.issue(number: number, in: acme))
    #expect(served.state == .closed && served.stateReason == "not_planned")
    #expect(await world.github.appliedWrites.count == 1)
    (status, out, err) = try await world.run(["queue"])
    #expect(out.isEmpty && err.contains("Nothing waits"))
    // Offline again: queued, then cancelled before it is sent — shown as before.
    await world.github.setReachable(false)
    (status, out, err) = try await world.run(["reopen", n])
    #expect(err.contains("Queued: reopen #\(n)"))
    let id = try #require(try await cache(world).queuedActions().first?.id)
    (status, out, err) = try await world.run(["queue", "cancel", String(id)])
    #expect(status == 0 && out.contains("Cancelled \(id)."), "\(out) \(err)")
    (status, out, err) = try await world.run(["view", n, "--offline", "--json", "state"])
    #expect(out.contains("\"CLOSED\""))
    (status, out, err) = try await world.run(["queue", "cancel", String(id)])
    #expect(status != 0 && err.contains("no queued action \(id) is waiting"))
  }

  /// A comment written while GitHub cannot be reached goes to the queue and is posted once when
  /// GitHub is back.
  @Test func aCommentWrittenOfflineIsQueuedAndPostedOnce() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let number = try #require(
      Self.served.issues.first { $0.state == .open && !$0.isPullRequest }?.number)
    _ = try await world.run(["view", String(number)])
    await world.github.setReachable(false)
    var (status, out, err) = try await world.run([
      "comment", String(number), "--body", "Written on a train.",
    ])
    #expect(status == 0, "\(err)")
    #expect(err.contains("Queued: comment on #\(number)"), "\(err)")
    #expect(
      ((try? FileManager.default.contentsOfDirectory(atPath: await world.drafts.path)) ?? [])
        .isEmpty, "the queue holds it, not a draft")
    await world.github.setReachable(true)
    (status, out, err) = try await world.run(["queue", "send"])
    #expect(out.hasPrefix("Sent 1; 0 waiting."), "\(out) \(err)")
    #expect(await world.github.commentBodies(of: number, in: acme) == ["Written on a train."])
  }

  /// `issues inbox` to a pipe and as JSON: the threads, filtered by repository, each subject's
  /// state now from the repository's cache.
  @Test func theInboxListsThreadsWithTheirSubjectsStateFromTheCache() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    _ = try await world.run(["sync"])
    let open = try #require(Self.served.issues.first { $0.state == .open && !$0.isPullRequest })
    let closed = try #require(
      Self.served.issues.first { $0.state == .closed && !$0.isPullRequest })
    for (id, number) in [("801", open.number), ("802", closed.number)] {
      await world.github.addNotification(
        NotificationThread(
          id: id, repository: "acme/tracker", number: number, isPullRequest: false,
          title: "About #\(number)", reason: "mention", updatedAt: Date()))
    }
    await world.github.addNotification(
      NotificationThread(
        id: "803", repository: "acme/web", number: 5, isPullRequest: true, title: "Elsewhere",
        reason: "review_requested", updatedAt: Date()))
    var (status, out, err) = try await world.run(["inbox", "--json"])
    #expect(status == 0, "\(err)")
    let threads = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
    let states = Dictionary(
      uniqueKeysWithValues: threads.map { ($0["id"] as? String ?? "", $0["state"] as? String) })
    #expect(states == ["801": "OPEN", "802": "CLOSED"], "acme/web is filtered out by -R")
    (status, out, err) = try await world.run(["inbox", "--print", "--offline"])
    let lines = out.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(
      lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 9 })
  }

  /// `issues queue send` killed with SIGKILL at random moments while connections drop at
  /// random (before reads, before writes, after writes applied): run again until it finishes,
  /// every action is on GitHub exactly once, in order per issue.
  @Test func killedAtRandomWhileSendingEveryActionLandsExactlyOnce() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    _ = try await world.run(["sync"])
    let cache = try await cache(world)
    let issues = Self.served.issues.filter { !$0.isPullRequest }.map(\.number)
    let seed: UInt64 = 0x5EED_C1A0
    print("kill seed \(seed)")
    let scenario = await QueueScenario(
      count: 150, issues: issues, milestones: (Self.served.milestones ?? []).map(\.number),
      seed: seed, github: world.github, repository: acme)
    for (issue, operation) in scenario.actions { try cache.enqueue(operation, onIssue: issue) }
    await world.github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.02, dropBeforeWrite: 0.03, dropAfterWrite: 0.04,
        failAfterWrite: 0.03))
    await world.github.setLatency(.milliseconds(4))
    let kills = try await Self.sendKilledAtRandom(world, cache, seed: seed, runs: 400)
    #expect(try cache.queuedActions().isEmpty)
    #expect(kills >= 3, "some sends were killed mid-way")
    let mismatches = scenario.mismatches(await world.github.appliedWrites)
    for (number, served, expected) in mismatches.prefix(3) {
      Issue.record("#\(number): served \(served), expected \(expected)")
    }
    #expect(mismatches.isEmpty)
  }

  /// Runs `issues queue send` again and again, each run killed with SIGKILL at a random moment
  /// (fixed by `seed`), until the queue is empty or `runs` runs went by; returns how many were
  /// killed.
  ///
  /// A loaded machine can take longer to start `issues` than the longest wait: a run that moved
  /// nothing lengthens the waits after it, so that every run still gets somewhere.
  static func sendKilledAtRandom(
    _ world: World, _ cache: IssueCache, seed: UInt64, runs limit: Int
  ) async throws -> Int {
    var state = seed
    var kills = 0
    var runs = 0
    var slack = 0
    var left = try cache.queuedActions().count
    while left > 0, runs < limit {
      runs += 1
      let (stream, ended) = AsyncStream<Void>.makeStream()
      let (process, _, _) = try await world.launch(["queue", "send"]) { ended.yield() }
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // Short waits until three sends were killed, so that a busy machine, on which a send
      // takes longer to start, still kills some mid-way.
      let wait = 40 + slack + Int((state >> 33) % (kills < 3 ? 120 : 400))
      try await Task.sleep(for: .milliseconds(wait))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        kills += 1
      }
      for await _ in stream { break }
      let now = try cache.queuedActions().count
      slack = now < left ? 0 : min(slack + 100, 2_000)
      left = now
    }
    print("\(runs) runs, \(kills) killed")
    return kills
  }
}
