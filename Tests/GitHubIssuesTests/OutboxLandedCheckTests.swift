import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// The outbox's landed checks against a local GitHub where other people write too: a write whose
/// answer was lost is judged from what GitHub holds, and never from someone else's data — the
/// same "+1" by another author, by the viewer before the send, a sync in between, a revert.
@Suite(.serialized) struct OutboxLandedCheckTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  private func setUp() async throws -> (LocalGitHub, GitHubClient, IssueCache) {
    let github = try await LocalGitHub.start()
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 60, milestoneCount: 4, seed: 21), as: acme)
    await github.requireToken(forWrites: "test-token")
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 0
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, client, cache)
  }

  /// An open issue (not a pull request) in a milestone, and another milestone.
  private func openIssue(_ cache: IssueCache) throws -> (number: Int, otherMilestones: [Int]) {
    let issue = try #require(
      try cache.issues(IssueFilter(state: .open, kind: .issues)).first {
        $0.milestoneNumber != nil
      })
    return (
      issue.number, try cache.milestones().map(\.number).filter { $0 != issue.milestoneNumber }
    )
  }

  /// The replayer as the commands make it: the viewer is not given, it is resolved.
  private func replayer(_ client: GitHubClient, _ cache: IssueCache) -> ActionReplayer {
    ActionReplayer(client: client, cache: cache, repository: acme, unansweredGrace: 0)
  }

  private func bodies(_ github: LocalGitHub, _ number: Int) async -> [String] {
    await github.commentBodies(of: number, in: acme)
  }

  // MARK: Comments

  /// The viewer's own earlier "+1" is not the queued one.
  ///
  /// The viewer wrote "+1" on the web after the cache last listed the issue's comments, then
  /// queued "+1"; the send failed before GitHub applied it. The web comment is older than the
  /// send, so it is not ours: the next send posts.
  @Test func theViewersOwnEarlierCommentWithTheSameBodyIsNotTakenForTheQueuedOne() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    try await github.addComment("+1", by: "octocat", on: number, in: acme)
    try cache.enqueue(.comment("+1"), onIssue: number)
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    await github.inject(.status(502), path: path, method: "POST")
    let first = await replayer(client, cache).replay()
    #expect(first.sent == 0 && first.stopped != nil)
    let second = await replayer(client, cache).replay()
    #expect(second.sent == 1, "the web comment was taken for the queued one")
    #expect(second.foundLanded == 0)
    #expect(await bodies(github, number).filter { $0 == "+1" }.count == 2)
    #expect(try cache.queuedActions().isEmpty)
  }

  /// Someone else writes the same "+1" after a send whose answer was lost and which did not
  /// land; the viewer was never resolved before (no `@me`, no browser): it is resolved, and the
  /// other person's comment is not ours.
  @Test func anotherPersonsCommentWithTheSameBodyIsNeverOurs() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    #expect(try cache.viewerLogin(token: "test-token") == nil)
    try cache.enqueue(.comment("+1"), onIssue: number)
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    await github.inject(.status(502), path: path, method: "POST")
    _ = await replayer(client, cache).replay()
    #expect(try cache.viewerLogin(token: "test-token") == "octocat", "resolved and kept")
    try await github.addComment("+1", by: "mona", on: number, in: acme)
    let summary = await replayer(client, cache).replay()
    #expect(summary.foundLanded == 0 && summary.sent == 1)
    #expect(await bodies(github, number) == ["+1", "+1"])
    #expect(try cache.comments(of: number).map(\.author).sorted() == ["mona", "octocat"])
  }

  /// A send whose answer was lost after GitHub applied it is found (by the viewer, newer than
  /// the send's read), and not posted again, even with another "+1" by someone else beside it.
  @Test func aLostAnswerIsFoundAmongOtherPeoplesIdenticalComments() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    try cache.enqueue(.comment("+1"), onIssue: number)
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    await github.inject(.dropConnection, path: path, method: "POST")
    _ = await replayer(client, cache).replay()
    try await github.addComment("+1", by: "mona", on: number, in: acme)
    let summary = await replayer(client, cache).replay()
    #expect(summary.foundLanded == 1 && summary.sent == 0)
    #expect(await github.writeAttempts.filter { $0 == "POST \(path)" }.count == 1)
    #expect(await bodies(github, number) == ["+1", "+1"])
  }

  /// Without a way to know the viewer (`GET /user` refused), no comment is sent: its lost
  /// answer could not be told from someone else's comment.
  @Test func noCommentIsSentWhenTheViewerCannotBeKnown() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    try cache.enqueue(.comment("Thanks!"), onIssue: number)
    await github.inject(.status(401), path: "/user")
    let summary = await replayer(client, cache).replay()
    #expect(summary.stopped?.code == .unauthorized)
    #expect(await github.writeAttempts.isEmpty)
    #expect(try cache.queuedActions().count == 1)
  }

  // MARK: Conflicts

  /// Someone else moves the issue to another milestone, a sync writes GitHub's version between
  /// two sends: the queued move is still a conflict, judged against what it was queued on.
  @Test func aSyncBetweenTwoSendsKeepsAMilestoneConflictAConflict() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, others) = try openIssue(cache)
    try #require(others.count >= 2)
    try cache.enqueue(.change(.setMilestone(number: others[0])), onIssue: number)
    try await github.setMilestone(others[1], of: number, in: acme)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    let summary = await replayer(client, cache).replay()
    #expect(summary.conflicts == 1 && summary.sent == 0)
    #expect(await github.issue(number: number, in: acme)?.milestone?.number == others[1])
    guard case .conflict(let reason)? = try cache.queuedActions().first?.status else {
      Issue.record("a conflict expected")
      return
    }
    #expect(reason.contains("moved to milestone \(others[1])"))
  }

  /// Someone else closes the issue and a sync writes it before the queued close is sent: a
  /// conflict, not "already so".
  @Test func aSyncBetweenTwoSendsKeepsACloseConflictAConflict() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    try cache.enqueue(.change(.close(.completed)), onIssue: number)
    try await github.setState(.closed, of: number, in: acme, by: "mona")
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    let summary = await replayer(client, cache).replay()
    #expect(summary.conflicts == 1 && summary.alreadyHeld == 0)
    #expect(await github.writeAttempts.isEmpty)
  }

  /// A close whose answer was lost, then someone else's reopen: not closed again.
  ///
  /// A close landed but its answer was lost; someone reopened the issue. The timeline shows our
  /// close: it is settled, and the issue is not closed again over their reopen.
  @Test func aLostCloseFollowedBySomeoneElsesReopenIsNotSentAgain() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    try cache.enqueue(.change(.close(.completed)), onIssue: number)
    await github.inject(.failAfterApplying(status: 502), path: path, method: "PATCH")
    _ = await replayer(client, cache).replay()
    #expect(await github.issue(number: number, in: acme)?.state == .closed)
    try await github.setState(.open, of: number, in: acme, by: "mona")
    let summary = await replayer(client, cache).replay()
    #expect(summary.foundLanded == 1 && summary.sent == 0)
    #expect(await github.writeAttempts.filter { $0 == "PATCH \(path)" }.count == 1)
    #expect(await github.issue(number: number, in: acme)?.state == .open)
    #expect(try cache.issue(number: number)?.state == .open, "the cache shows GitHub's version")
  }

  /// A close whose answer was lost and which did not land is sent again, once.
  @Test func aLostCloseThatDidNotLandIsSentAgain() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    try cache.enqueue(.change(.close(.completed)), onIssue: number)
    await github.inject(.status(502), path: path, method: "PATCH")
    _ = await replayer(client, cache).replay()
    let summary = await replayer(client, cache).replay()
    #expect(summary.sent == 1)
    #expect(await github.writeAttempts.filter { $0 == "PATCH \(path)" }.count == 2)
    #expect(await github.issue(number: number, in: acme)?.state == .closed)
  }

  // MARK: Cancelling and refusals

  /// A cancel that lands while a replay is reading the issue wins: the action is not sent.
  @Test func aCancelWinsOverASendWhoseRequestHasNotLeft() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, others) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    let action = try cache.enqueue(.change(.setMilestone(number: others[0])), onIssue: number)
    await github.inject(.delayed(seconds: 0.6), path: path, method: "GET")
    let replay = Task { await replayer(client, cache).replay() }
    try await Task.sleep(for: .milliseconds(200))
    try cache.cancelQueuedAction(action.id)
    let summary = await replay.value
    #expect(summary.cancelledMeanwhile == 1 && summary.sent == 0, "\(summary)")
    #expect(await github.writeAttempts.isEmpty)
  }

  /// An action whose request left cannot be cancelled, and says so.
  @Test func anActionWhoseRequestLeftCannotBeCancelled() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, others) = try openIssue(cache)
    let action = try cache.enqueue(.change(.setMilestone(number: others[0])), onIssue: number)
    await github.inject(
      .status(502), path: "/repos/acme/tracker/issues/\(number)", method: "PATCH")
    _ = await replayer(client, cache).replay()
    #expect(throws: QueueError.mayHaveLanded(action.id)) {
      try cache.cancelQueuedAction(action.id)
    }
  }

  /// A refused token is not queued: the command hears why at once, nothing waits to be sent
  /// again, and the write left at most once.
  @Test(arguments: [false, true])
  func aRefusedTokenIsTakenBackNotQueued(comment: Bool) async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, others) = try openIssue(cache)
    var wrong = GitHubClient(
      host: await github.host, token: "expired",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    wrong.maximumRetries = 0
    _ = client
    let operation: QueuedAction.Operation =
      comment ? .comment("Thanks!") : .change(.setMilestone(number: others[0]))
    let action = try cache.enqueue(operation, onIssue: number)
    let settlement = await ActionReplayer(
      client: wrong, cache: cache, repository: acme, unansweredGrace: 0
    )
    .sendNow([action])
    guard case .refused(let refusal) = settlement else {
      Issue.record("refused expected, got \(settlement)")
      return
    }
    let (reason, error) = (refusal.reason, refusal.error)
    #expect(error?.code == .unauthorized)
    #expect(reason.contains("token"))
    #expect(try cache.queuedActions().isEmpty, "nothing stays queued")
    #expect(await github.writeAttempts.count <= 1)
    #expect(await github.appliedWrites.isEmpty)
  }

  /// A write redirected outside the API root is refused, not queued and retried forever.
  @Test func aWriteRedirectedOutsideTheAPIRootIsRefused() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, others) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    await github.inject(
      .redirect(status: 307, location: "https://elsewhere.example\(path)"), path: path,
      method: "PATCH")
    let action = try cache.enqueue(.change(.setMilestone(number: others[0])), onIssue: number)
    let settlement = await replayer(client, cache).sendNow([action])
    guard case .refused = settlement else {
      Issue.record("refused expected, got \(settlement)")
      return
    }
    #expect(try cache.queuedActions().isEmpty)
    #expect(await github.writeAttempts.filter { $0 == "PATCH \(path)" }.count == 1)
  }

  /// A command's write whose answer was lost is never sent twice by that command: GitHub is
  /// read once more; what did not land waits in the queue, marked as sent.
  @Test func aCommandNeverSendsAWriteTwice() async throws {
    let (github, client, cache) = try await setUp()
    defer { Task { await github.stop() } }
    let (number, others) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    await github.inject(.status(502), path: path, method: "PATCH")
    let action = try cache.enqueue(.change(.setMilestone(number: others[0])), onIssue: number)
    let settlement = await replayer(client, cache).sendNow([action])
    guard case .queued(let waiting, _) = settlement else {
      Issue.record("queued expected, got \(settlement)")
      return
    }
    #expect(waiting.map(\.id) == [action.id])
    #expect(await github.writeAttempts.filter { $0 == "PATCH \(path)" }.count == 1)
    // The next send reads GitHub, sees it did not land, and sends it.
    #expect(await replayer(client, cache).replay().sent == 1)
    #expect(await github.issue(number: number, in: acme)?.milestone?.number == others[0])
  }
}
