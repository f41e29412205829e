import Foundation
import GitHubIssues
import GitHubTestSupport
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// The diff screen's writes through its host, against the local GitHub: `z` — the thread
/// shown resolved at once (the queued resolution drawn over what GitHub said), one mutation
/// sent, a thread resolved on the web read back when the diff is read again — and `M`, a merge
/// at the head shown.
@MainActor
@Suite struct DiffHostThreadTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  /// The local GitHub serving 40 synthetic items, a client that writes with its token, and a
  /// cache synced from it.
  private func synced() async throws -> (LocalGitHub, GitHubClient, IssueCache) {
    let github = try await LocalGitHub.start()
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 2, seed: 5), as: acme)
    await github.requireToken(forWrites: "test-token")
    let client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, client, cache)
  }

  @Test func zResolvesAThreadThroughTheQueueAndAReadShowsTheWebsState() async throws {
    let (github, client, cache) = try await synced()
    defer { Task { await github.stop() } }
    // A pull request the local GitHub serves a thread on (mona's, answered once).
    var pull: Int?
    for number in stride(from: 1, through: 40, by: 4) where pull == nil {
      if await github.issue(number: number, in: acme)?.isPullRequest == true { pull = number }
    }
    let number = try #require(pull)
    await github.servePullRequestFiles(
      [
        PullRequestFile(
          path: "Sources/Parser.swift", status: "modified", additions: 1, deletions: 0,
          patch: "@@ -10,3 +10,4 @@ struct Parser {\n let input: String\n+  var index = 0\n"
            + " }\n }")
      ], ofPullRequest: number, in: acme, head: String(repeating: "c", count: 40))
    _ = try await ConversationFetcher(client: client, cache: cache, repository: acme)
      .fetch(number, force: true)
    _ = try await PullRequestDiffFetcher(client: client, cache: cache, repository: acme)
      .fetch(number)
    let node = try #require(await github.reviewThreads(of: number, in: acme).first).node

    let model = try #require(try DiffHost.model(of: number, in: cache))
    let screen = DiffScreen(
      repository: acme, number: number, title: "A pull request", model: model,
      size: TerminalSize(columns: 90, rows: 20))
    let host = DiffHost(screen: screen, cache: cache, client: client, offlineReason: nil)
    // Down to the thread row.
    for _ in 0..<10 where screen.focusDescription?.contains("thread") != true {
      _ = screen.perform(.moveInList(.down))
    }
    let effects = screen.perform(.toggleResolved)
    #expect(effects.count == 1)
    for effect in effects { _ = host.perform(effect) }
    // Shown resolved at once, before GitHub answered.
    #expect(screen.render().lines.contains { $0.contains("✓ resolved · mona") })
    for _ in 0..<200 where await !github.isThreadResolved(node) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(await github.isThreadResolved(node))
    for _ in 0..<200 where (try? cache.queuedActions().isEmpty) != true {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(try cache.queuedActions().isEmpty)
    #expect(await github.threadResolutions.count == 1)
    #expect(try cache.resolvedThreads(of: number).count == 1)

    // Unresolved on the web: the next read of the diff shows it open again.
    await github.setThread(node, resolved: false)
    host.refresh()
    for _ in 0..<200 where screen.render().lines.contains(where: { $0.contains("✓ resolved") }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(screen.render().lines.contains { $0.contains("💬 mona") })
    #expect(try cache.resolvedThreads(of: number).isEmpty)
  }

  /// The first open pull request whose number `matching` takes, its diff (one file, at the
  /// local GitHub's own head, so its checks are served) read into the cache.
  private func openPullRequestWithADiff(
    _ github: LocalGitHub, _ client: GitHubClient, _ cache: IssueCache,
    matching: (Int) -> Bool = { _ in true }
  ) async throws -> Int {
    var pull: Int?
    for number in 1...40 where pull == nil && matching(number) {
      if let item = await github.issue(number: number, in: acme), item.isPullRequest,
        item.state == .open
      {
        pull = number
      }
    }
    let number = try #require(pull)
    await github.servePullRequestFiles(
      [
        PullRequestFile(
          path: "a.swift", status: "modified", additions: 1, deletions: 0,
          patch: "@@ -1,1 +1,2 @@\n a\n+b")
      ], ofPullRequest: number, in: acme, head: LocalGitHub.headSHA(of: number))
    _ = try await PullRequestDiffFetcher(client: client, cache: cache, repository: acme)
      .fetch(number)
    return number
  }

  /// `M` through the host reads the checks and review again before the person answers: the
  /// cache said "checks passing", GitHub says a check failed, and the question says so.
  @Test func mReadsTheChecksAgainBeforeAsking() async throws {
    let (github, client, cache) = try await synced()
    defer { Task { await github.stop() } }
    // The local GitHub fails a check of every pull request numbered 3k + 1.
    let number = try await openPullRequestWithADiff(github, client, cache) { $0 % 3 == 1 }
    try cache.writePullRequestDetails([
      PullRequestDetails(
        number: number, updatedAt: Date(timeIntervalSince1970: 0), reviewDecision: nil,
        checks: .passing, mergeable: .mergeable, headRef: "feature", baseRef: "main",
        additions: 1, deletions: 0, requestedReviewers: [], reviews: [])
    ])
    let model = try #require(try DiffHost.model(of: number, in: cache))
    let screen = DiffScreen(
      repository: acme, number: number, title: "A pull request", model: model,
      size: TerminalSize(columns: 120, rows: 20))
    let host = DiffHost(screen: screen, cache: cache, client: client, offlineReason: nil)
    #expect(screen.mergeState == "checks passing")
    let effects = screen.perform(.merge)
    #expect(effects == [.readMergeState])
    for effect in effects { _ = host.perform(effect) }
    for _ in 0..<500 where screen.mergeStateFreshness != .current {
      try await Task.sleep(for: .milliseconds(10))
    }
    let question = screen.mergePrompt?.question ?? ""
    #expect(question.contains("checks failing") && !question.contains("last read"), "\(question)")
    // Offline, the cache's is said as last read.
    let offline = DiffHost(
      screen: screen, cache: cache, client: nil, offlineReason: "--offline")
    _ = screen.perform(.merge)
    _ = offline.perform(.readMergeState)
    #expect(screen.mergePrompt?.question.contains("when last read (--offline)") == true)
  }

  /// `M` on a branch that merges through a merge queue says so, and the answer adds the pull
  /// request to the queue, once, rather than a merge GitHub would refuse.
  @Test func mOnAMergeQueueBranchAddsToTheQueue() async throws {
    let (github, client, cache) = try await synced()
    defer { Task { await github.stop() } }
    let number = try await openPullRequestWithADiff(github, client, cache)
    await github.useMergeQueue(in: acme)
    let model = try #require(try DiffHost.model(of: number, in: cache))
    let screen = DiffScreen(
      repository: acme, number: number, title: "A pull request", model: model,
      size: TerminalSize(columns: 120, rows: 20))
    let host = DiffHost(screen: screen, cache: cache, client: client, offlineReason: nil)
    for effect in screen.perform(.merge) { _ = host.perform(effect) }
    for _ in 0..<500 where screen.mergeStateFreshness != .current {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(screen.mergePrompt?.question.contains("through the merge queue") == true)
    let effects = screen.handle(.key(KeyEvent(.character("s"))))
    #expect(effects == [.merge(.squash)])
    for effect in effects { _ = host.perform(effect) }
    for _ in 0..<300
    where !screen.render().lines.contains(where: { $0.contains("to the merge queue.") }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(screen.render().lines.contains { $0.contains("Added #\(number) to the merge queue.") })
    #expect(await github.enqueued == 1)
    #expect(await github.mergedPulls.isEmpty)
  }

  /// `M` then `s` through the host: the pull request merged once at the head shown, said on
  /// the status line.
  @Test func mMergesAtTheHeadShownThroughTheQueue() async throws {
    let (github, client, cache) = try await synced()
    defer { Task { await github.stop() } }
    var pull: Int?
    for number in 1...40 where pull == nil {
      if let item = await github.issue(number: number, in: acme), item.isPullRequest,
        item.state == .open
      {
        pull = number
      }
    }
    let number = try #require(pull)
    let head = String(repeating: "c", count: 40)
    await github.servePullRequestFiles(
      [
        PullRequestFile(
          path: "a.swift", status: "modified", additions: 1, deletions: 0,
          patch: "@@ -1,1 +1,2 @@\n a\n+b")
      ], ofPullRequest: number, in: acme, head: head)
    _ = try await PullRequestDiffFetcher(client: client, cache: cache, repository: acme)
      .fetch(number)
    let model = try #require(try DiffHost.model(of: number, in: cache))
    let screen = DiffScreen(
      repository: acme, number: number, title: "A pull request", model: model,
      size: TerminalSize(columns: 90, rows: 20))
    let host = DiffHost(screen: screen, cache: cache, client: client, offlineReason: nil)
    _ = screen.perform(.merge)
    let effects = screen.handle(.key(KeyEvent(.character("s"))))
    #expect(effects == [.merge(.squash)])
    for effect in effects { _ = host.perform(effect) }
    for _ in 0..<300 where await github.mergedPulls.isEmpty {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(await github.mergedPulls == [number])
    for _ in 0..<300
    where !screen.render().lines.contains(where: { $0.contains("Merged #\(number)") }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(screen.render().lines.contains { $0.contains("Merged #\(number) (squash).") })
    #expect(try cache.queuedActions().isEmpty)
  }
}
