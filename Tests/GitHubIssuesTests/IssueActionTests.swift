import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// Changes and comments sent to a local GitHub that keeps them, with faults on the way: each
/// shows in the cache at once, lands on the server, and on failure the cache ends equal to the
/// server.
@Suite(.serialized) struct IssueActionTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  /// A local GitHub serving a synthetic `acme/tracker`, and a cache synced from it.
  private func synced() async throws -> (LocalGitHub, IssueCache, GitHubClient) {
    let github = try await LocalGitHub.start()
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 80, milestoneCount: 3, seed: 14), as: acme)
    await github.requireToken(forWrites: "test-token")
    let cache = try IssueCache()
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(5)
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, cache, client)
  }

  /// An open issue (not a pull request) in a milestone, and another milestone.
  private func openIssue(_ cache: IssueCache) throws -> (number: Int, otherMilestone: Int) {
    let issue = try #require(
      try cache.issues(IssueFilter(state: .open, kind: .issues)).first {
        $0.milestoneNumber != nil
      })
    let other = try #require(
      try cache.milestones().map(\.number).first { $0 != issue.milestoneNumber })
    return (issue.number, other)
  }

  /// What the changes touch, as the cache and the server have them.
  private struct Fields: Equatable, CustomStringConvertible {
    var state: GitHubIssue.State
    var milestone: Int?
    var labels: [String]
    var assignees: [String]

    init(_ issue: CachedIssue) {
      state = issue.state
      milestone = issue.milestoneNumber
      labels = issue.labels.sorted()
      assignees = issue.assignees.map { $0.lowercased() }.sorted()
    }

    init(_ issue: GitHubIssue) {
      state = issue.state
      milestone = issue.milestone?.number
      labels = issue.labels.map(\.name).sorted()
      assignees = issue.assignees.map { $0.login.lowercased() }.sorted()
    }

    var description: String {
      "\(state) m\(milestone.map(String.init) ?? "-") \(labels) \(assignees)"
    }
  }

  private func cached(_ cache: IssueCache, _ number: Int) throws -> Fields {
    Fields(try #require(try cache.issue(number: number)))
  }

  private func served(_ github: LocalGitHub, _ number: Int) async throws -> Fields {
    Fields(try #require(await github.issue(number: number, in: acme)))
  }

  /// Queues changes and sends them now, as `issues close`, `edit` and the browser's keys do.
  private func perform(
    _ changes: [IssueChange], on number: Int, _ cache: IssueCache, _ client: GitHubClient
  ) async throws -> ActionReplayer.Settlement {
    let queued = try changes.map { try cache.enqueue(.change($0), onIssue: number) }
    return await ActionReplayer(client: client, cache: cache, repository: acme, unansweredGrace: 0)
      .sendNow(queued)
  }

  @Test func everyChangeShowsAtOnceAndLandsOnGitHub() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, other) = try openIssue(cache)
    let changes: [IssueChange] = [
      .close(.notPlanned), .reopen, .setMilestone(number: other), .removeMilestone,
      .addLabels(["triage", "area/ui"]), .removeLabel("area/ui"), .addAssignees(["hubot"]),
      .removeAssignees(["HUBOT"]),
    ]
    for change in changes {
      let before = try cached(cache, number)
      let action = try cache.enqueue(.change(change), onIssue: number)
      let shown = try cached(cache, number)
      #expect(shown != before, "\(change) shows before it is sent")
      let settlement = await ActionReplayer(
        client: client, cache: cache, repository: acme, unansweredGrace: 0
      )
      .sendNow([action])
      guard case .landed = settlement else {
        Issue.record("\(change): landed expected, got \(settlement)")
        continue
      }
      #expect(try await served(github, number) == shown, "GitHub agrees with what was shown")
      #expect(try cached(cache, number) == (try await served(github, number)))
    }
    let final = try cached(cache, number)
    #expect(final.state == .open && final.milestone == nil)
    #expect(final.labels.contains("triage") && !final.labels.contains("area/ui"))
    #expect(!final.assignees.contains("hubot"))
    // The label with a slash went to one path segment, escaped.
    #expect(
      await github.requests.contains {
        $0.target == "/repos/acme/tracker/issues/\(number)/labels/area%2Fui"
      })
  }

  @Test func refusedChangesAreTakenBackExactly() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, other) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    let faults: [(LocalGitHub.Fault, GitHubError.Code)] = [
      (.missingScope(has: "read:org", accepted: "repo"), .forbidden),
      (.validation, .validation),
      (.status(404), .notFound),
      (.status(410), .gone),
    ]
    for (fault, code) in faults {
      let before = try #require(try cache.issue(number: number))
      let onServer = try await served(github, number)
      await github.inject(fault, path: path, method: "PATCH")
      let settlement = try await perform(
        [.setMilestone(number: other), .close(.completed)], on: number, cache, client)
      guard case .refused(let refusal) = settlement else {
        Issue.record("\(fault): refused expected, got \(settlement)")
        continue
      }
      let (error, landed) = (refusal.error, refusal.landed)
      #expect(error?.code == code)
      #expect(landed.isEmpty)
      #expect(try cache.queuedActions().isEmpty, "nothing stays queued after \(fault)")
      #expect(try cache.issue(number: number) == before, "taken back exactly after \(fault)")
      #expect(try await served(github, number) == onServer)
    }
  }

  @Test func aMissingScopeSaysWhichAndHowToAddIt() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    await github.inject(
      .missingScope(has: "read:org, gist", accepted: "repo, public_repo"),
      path: "/repos/acme/tracker/issues/\(number)", method: "PATCH")
    let settlement = try await perform([.close(.completed)], on: number, cache, client)
    guard case .refused(let refusal) = settlement, let error = refusal.error else {
      Issue.record("refused expected, got \(settlement)")
      return
    }
    #expect(
      error.missingAccess == .scope(accepted: ["repo", "public_repo"], has: ["read:org", "gist"]))
    #expect(
      error.summary().contains("`repo` or `public_repo` scope (the token has: read:org, gist)"))
    #expect(error.summary().contains("gh auth refresh -s repo"))
  }

  /// GitHub made the change and then failed, or the connection dropped after it: the command
  /// reads GitHub once (the timeline shows our close or reopen), settles it, and never sends it
  /// twice.
  @Test func aChangeThatLandedDespiteAFailureShowsWhatGitHubHas() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    for fault in [LocalGitHub.Fault.failAfterApplying(status: 502), .dropConnection] {
      let state = try cached(cache, number).state
      let change: IssueChange = state == .open ? .close(.completed) : .reopen
      await github.inject(fault, path: path, method: "PATCH", times: 10)
      let attempts = await github.writeAttempts.count
      let settlement = try await perform([change], on: number, cache, client)
      guard case .landed = settlement else {
        Issue.record("\(fault): landed expected, got \(settlement)")
        continue
      }
      await github.clearFaults()
      #expect(await github.writeAttempts.count == attempts + 1, "one PATCH, never resent")
      #expect(try cached(cache, number).state != state, "it landed after \(fault)")
      #expect(try cached(cache, number) == (try await served(github, number)))
    }
  }

  /// A 5xx that changed nothing: the command sent it once, read GitHub, and leaves it queued
  /// (shown), marked as sent; the next send reads again and sends it.
  @Test func aServerErrorThatChangedNothingWaitsInTheQueueAndIsSentOnce() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let before = try await served(github, number)
    await github.inject(
      .status(500), path: "/repos/acme/tracker/issues/\(number)", method: "PATCH", times: 10)
    let settlement = try await perform([.close(.completed)], on: number, cache, client)
    guard case .queued = settlement else {
      Issue.record("queued expected, got \(settlement)")
      return
    }
    #expect(await github.writeAttempts.count == 1)
    #expect(try cached(cache, number).state == .closed, "shown while it waits")
    #expect(try await served(github, number) == before)
    await github.clearFaults()
    let summary = await ActionReplayer(
      client: client, cache: cache, repository: acme, unansweredGrace: 0
    ).replay()
    #expect(summary.sent == 1)
    #expect(try cached(cache, number) == (try await served(github, number)))
  }

  @Test func anEditThatFailsPartWayKeepsWhatLanded() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, other) = try openIssue(cache)
    await github.inject(
      .validation, path: "/repos/acme/tracker/issues/\(number)/labels", method: "POST")
    let settlement = try await perform(
      [.setMilestone(number: other), .addLabels(["refused"])], on: number, cache, client)
    guard case .refused(let refusal) = settlement else {
      Issue.record("the label should be refused, got \(settlement)")
      return
    }
    let (action, landed) = (refusal.action, refusal.landed)
    #expect(landed.map(\.operation) == [.change(.setMilestone(number: other))])
    #expect(action.operation == .change(.addLabels(["refused"])))
    let now = try cached(cache, number)
    #expect(now.milestone == other && !now.labels.contains("refused"))
    #expect(now == (try await served(github, number)))
  }

  @Test func cancellingKeepsANewerVersionASyncWrote() async throws {
    let (github, cache, _) = try await synced()
    defer { Task { await github.stop() } }
    let (number, other) = try openIssue(cache)
    let action = try cache.enqueue(.change(.setMilestone(number: other)), onIssue: number)
    var newer = try #require(await github.issue(number: number, in: acme))
    newer.title = "Renamed meanwhile"
    newer.updatedAt = newer.updatedAt.addingTimeInterval(60)
    try cache.confirm(newer)
    #expect(try cache.issue(number: number)?.milestoneNumber == other, "still shown over it")
    try cache.cancelQueuedAction(action.id)
    #expect(try cache.issue(number: number)?.title == "Renamed meanwhile")
    #expect(try cache.issue(number: number)?.milestoneNumber == newer.milestone?.number)
    // A sync page fetched before that (an older version) does not put it back.
    var older = newer
    older.title = "The old title"
    older.updatedAt = newer.updatedAt.addingTimeInterval(-120)
    try cache.writePage([older], advancingMarks: true)
    #expect(try cache.issue(number: number)?.title == "Renamed meanwhile")
    // A version dated a year ahead (a server clock gone wrong) does not hold off the next one.
    var future = newer
    future.title = "From the future"
    future.updatedAt = Date().addingTimeInterval(365 * 86_400)
    try cache.writePage([future], advancingMarks: true)
    #expect(try cache.issue(number: number)?.title == "From the future")
    try cache.writePage([older], advancingMarks: true)
    #expect(try cache.issue(number: number)?.title == "The old title")
  }

  @Test func anUnknownMilestoneIsRefusedBeforeAnythingIsShown() throws {
    let cache = try IssueCache()
    try cache.apply(SyntheticRepository(itemCount: 10, milestoneCount: 2, seed: 1).make())
    let number = try #require(try cache.issues(IssueFilter(state: .all)).first?.number)
    let before = try cache.issue(number: number)
    #expect(throws: LocalEditError.unknownMilestone(999)) {
      try cache.enqueue(.change(.setMilestone(number: 999)), onIssue: number)
    }
    #expect(try cache.issue(number: number) == before)
    #expect(try cache.queuedActions().isEmpty)
    #expect(throws: QueueError.notCached(99_999)) {
      try cache.enqueue(.change(.reopen), onIssue: 99_999)
    }
  }

  // MARK: Comments

  /// Queues a comment (or finds the same one waiting) and sends it now, as `issues comment`
  /// does.
  private func comment(
    _ body: String, on number: Int, _ cache: IssueCache, _ client: GitHubClient
  ) async throws -> (QueuedAction, ActionReplayer.Settlement) {
    let action = try cache.enqueueComment(body, onIssue: number)
    return (
      action,
      await ActionReplayer(client: client, cache: cache, repository: acme, unansweredGrace: 0)
        .sendNow([action])
    )
  }

  @Test func aCommentIsPostedOnce() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let count = try #require(try cache.issue(number: number)).comments
    let (action, settlement) = try await comment("Looks good to me.\n", on: number, cache, client)
    guard case .landed = settlement else {
      Issue.record("landed expected, got \(settlement)")
      return
    }
    #expect(await github.commentBodies(of: number, in: acme) == ["Looks good to me.\n"])
    let posted = try #require(try cache.postedComment(ofAction: action.id))
    #expect(posted.htmlURL?.contains("#issuecomment-\(posted.id)") == true)
    #expect(try cache.comments(of: number).map(\.id) == [posted.id])
    #expect(try cache.issue(number: number)?.comments == count + 1)
    #expect(try cache.queuedActions().isEmpty)
  }

  @Test func aCommentWhoseAnswerDroppedIsFoundNotPostedTwice() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    for fault in [LocalGitHub.Fault.dropConnection, .failAfterApplying(status: 502)] {
      let text = "Fixed in 1.2 (\(fault))."
      await github.inject(fault, path: path, method: "POST")
      let posts = await github.writeAttempts.count { $0 == "POST \(path)" }
      let (_, settlement) = try await comment(text, on: number, cache, client)
      guard case .landed = settlement else {
        Issue.record("\(fault): landed expected, got \(settlement)")
        continue
      }
      #expect(await github.writeAttempts.count { $0 == "POST \(path)" } == posts + 1)
      #expect(await github.commentBodies(of: number, in: acme).filter { $0 == text }.count == 1)
      #expect(await github.requests.contains { $0.target.hasPrefix(path + "?") }, "listed")
    }
    #expect(try cache.queuedActions().isEmpty)
  }

  /// A send that failed before GitHub wrote it (a 502 that changed nothing) waits; running the
  /// same command again settles that one — it is not queued a second time — and posts it once.
  @Test func theSameCommentRunAgainAfterAFailedSendIsPostedOnce() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    let text = "Same words."
    await github.inject(.status(502), path: path, method: "POST")
    let (first, settlement) = try await comment(text, on: number, cache, client)
    guard case .queued = settlement else {
      Issue.record("queued expected, got \(settlement)")
      return
    }
    #expect(await github.commentBodies(of: number, in: acme).isEmpty)
    let (again, second) = try await comment(text, on: number, cache, client)
    #expect(again.id == first.id, "the same comment, not a second copy")
    guard case .landed = second else {
      Issue.record("landed expected, got \(second)")
      return
    }
    #expect(await github.commentBodies(of: number, in: acme) == [text])
    #expect(await github.writeAttempts.count { $0 == "POST \(path)" } == 2)
    // Once it landed, the same words again are a new comment, as on GitHub.
    _ = try await comment(text, on: number, cache, client)
    #expect(await github.commentBodies(of: number, in: acme) == [text, text])
  }

  @Test func aRefusedCommentIsNotQueued() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    await github.inject(
      .validation, path: "/repos/acme/tracker/issues/\(number)/comments", method: "POST")
    let (_, settlement) = try await comment("Refused words.", on: number, cache, client)
    guard case .refused(let refusal) = settlement else {
      Issue.record("refused expected, got \(settlement)")
      return
    }
    #expect(refusal.error?.code == .validation)
    #expect(try cache.queuedActions().isEmpty)
    #expect(await github.commentBodies(of: number, in: acme).isEmpty)
    // The words are not lost with the action: a draft again, byte for byte.
    #expect(refusal.kept == [.comment("Refused words.")])
    #expect(try cache.drafts(onIssue: number).map(\.words) == [.comment("Refused words.")])
  }

  @Test func writesWithoutTheTokenAreRefusedAndRedirectsNeverTurnIntoReads() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    let anonymous = GitHubClient(
      host: await github.host, transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    await #expect {
      _ = try await anonymous.apply(.close(.completed), toIssue: number, of: acme)
    } throws: { ($0 as? GitHubError)?.code == .unauthorized }
    await github.inject(
      .redirect(status: 302, location: "\(await github.baseURL.absoluteString)\(path)"),
      path: path, method: "PATCH")
    await #expect {
      _ = try await client.apply(.close(.completed), toIssue: number, of: acme)
    } throws: {
      ($0 as? GitHubError)?.code == .unexpectedStatus && "\($0)".contains("into a GET")
    }
    await github.inject(
      .redirect(status: 307, location: "https://elsewhere.example\(path)"), path: path,
      method: "PATCH")
    await #expect {
      _ = try await client.apply(.close(.completed), toIssue: number, of: acme)
    } throws: { ($0 as? GitHubError)?.code == .untrustedURL }
    #expect(try await served(github, number).state == .open)
  }
}

/// `issues sync --comments`: the repository's comments listed together, all of them and then
/// what changed.
@Suite(.serialized) struct CommentSynchronizerTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  @Test func allCommentsThenWhatChangedThenDeletionsOnlyWithProof() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 30, milestoneCount: 2, seed: 3), as: acme)
    let cache = try IssueCache()
    let client = GitHubClient(
      host: await github.host, token: "t",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    let numbers = try cache.issues(IssueFilter(state: .all, kind: .both)).map(\.number).prefix(2)
    for (index, number) in numbers.enumerated() {
      for text in ["First on \(number)", "Second on \(number)"].prefix(index + 1) {
        _ = try await client.postComment(text, onIssue: number, of: acme)
      }
    }
    let synchronizer = CommentSynchronizer(client: client, cache: cache, repository: acme)
    let first = try await synchronizer.sync()
    #expect(first.wasFull && first.complete && first.comments == 3)
    let a = try #require(numbers.first)
    let b = try #require(numbers.last)
    #expect(try cache.comments(of: a).map(\.body) == ["First on \(a)"])
    #expect(try cache.comments(of: b).map(\.body) == ["First on \(b)", "Second on \(b)"])
    #expect(try cache.commentsAreCurrent(of: a))
    #expect(try cache.commentsAreCurrent(of: b))

    // Then only what changed since.
    _ = try await client.postComment("Third on \(b)", onIssue: b, of: acme)
    let next = try await synchronizer.sync()
    #expect(!next.wasFull)
    #expect(
      await github.requests.last { $0.target.contains("/issues/comments") }?.target
        .contains("since=") == true)
    #expect(try cache.comments(of: b).map(\.body).last == "Third on \(b)")

    // A comment deleted on GitHub goes only with a complete listing.
    let path = "/repos/acme/tracker/issues/\(a)/comments"
    await github.serve(path, body: Data("[]".utf8))
    let incremental = try await synchronizer.sync()
    #expect(incremental.deleted == 0)
    #expect(try cache.commentCount(of: a) == 1)
    let full = try await synchronizer.sync(full: true)
    #expect(full.complete && full.deleted == 1)
    #expect(try cache.commentCount(of: a) == 0)
    #expect(try cache.commentCount(of: b) == 3)
  }
}
