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
      transport: HTTPClientTransport(timeout: 5))
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

  @Test func everyChangeShowsAtOnceAndLandsOnGitHub() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, other) = try openIssue(cache)
    let editor = IssueEditor(client: client, cache: cache, repository: acme)
    let changes: [IssueChange] = [
      .close(.notPlanned), .reopen, .setMilestone(number: other), .removeMilestone,
      .addLabels(["triage", "area/ui"]), .removeLabel("area/ui"), .addAssignees(["hubot"]),
      .removeAssignees(["HUBOT"]),
    ]
    for change in changes {
      let before = try cached(cache, number)
      let pending = try #require(try editor.showLocally([change], onIssue: number))
      let shown = try cached(cache, number)
      #expect(shown != before, "\(change) shows before it is sent")
      let issue = try await editor.send([change], onIssue: number, shown: pending)
      #expect(Fields(issue) == shown, "GitHub agrees with what was shown for \(change)")
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
    let editor = IssueEditor(client: client, cache: cache, repository: acme)
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
      let changes: [IssueChange] = [.setMilestone(number: other), .close(.completed)]
      let pending = try #require(try editor.showLocally(changes, onIssue: number))
      #expect(try cached(cache, number).milestone == other)
      #expect(try cached(cache, number).state == .closed)
      do {
        _ = try await editor.send(changes, onIssue: number, shown: pending)
        Issue.record("\(fault) should fail")
      } catch {
        #expect(error.githubError?.code == code)
        #expect(error.resolution == .takenBack)
        #expect(error.landed.isEmpty)
      }
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
    let editor = IssueEditor(client: client, cache: cache, repository: acme)
    await #expect {
      try await editor.perform([.close(.completed)], onIssue: number)
    } throws: { error in
      let github = (error as? IssueEditFailure)?.githubError
      return github?.missingAccess
        == .scope(accepted: ["repo", "public_repo"], has: ["read:org", "gist"])
        && "\(error)".contains("`repo` or `public_repo` scope (the token has: read:org, gist)")
        && "\(error)".contains("gh auth refresh -s repo")
    }
  }

  @Test func aChangeThatLandedDespiteAFailureShowsWhatGitHubHas() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    let editor = IssueEditor(client: client, cache: cache, repository: acme)
    // GitHub made the change and then failed (every retry too); then the connection dropped
    // after the change was made.
    for fault in [LocalGitHub.Fault.failAfterApplying(status: 502), .dropConnection] {
      let state = try cached(cache, number).state
      let change: IssueChange = state == .open ? .close(.completed) : .reopen
      await github.inject(fault, path: path, method: "PATCH", times: 10)
      do {
        _ = try await editor.perform([change], onIssue: number)
        Issue.record("\(fault) should fail")
      } catch {
        #expect(error.resolution == .githubVersion)
      }
      await github.clearFaults()
      #expect(
        await github.requests.count { $0.target == path && $0.headers["content-length"] != nil }
          <= 2, "one PATCH per attempt, never resent")
      #expect(try cached(cache, number).state != state, "it landed after \(fault)")
      #expect(try cached(cache, number) == (try await served(github, number)))
    }
  }

  @Test func aServerErrorThatChangedNothingLeavesTheCacheAsGitHubHasIt() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let before = try cached(cache, number)
    await github.inject(
      .status(500), path: "/repos/acme/tracker/issues/\(number)", method: "PATCH", times: 10)
    let editor = IssueEditor(client: client, cache: cache, repository: acme)
    await #expect(throws: IssueEditFailure.self) {
      try await editor.perform([.close(.completed)], onIssue: number)
    }
    #expect(try cached(cache, number) == before)
    #expect(try cached(cache, number) == (try await served(github, number)))
  }

  @Test func anEditThatFailsPartWayKeepsWhatLanded() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, other) = try openIssue(cache)
    await github.inject(
      .validation, path: "/repos/acme/tracker/issues/\(number)/labels", method: "POST")
    let editor = IssueEditor(client: client, cache: cache, repository: acme)
    do {
      _ = try await editor.perform(
        [.setMilestone(number: other), .addLabels(["refused"])], onIssue: number)
      Issue.record("the label should be refused")
    } catch {
      #expect(error.landed == [.setMilestone(number: other)])
      #expect(error.change == .addLabels(["refused"]))
      #expect(error.resolution == .githubVersion)
    }
    let now = try cached(cache, number)
    #expect(now.milestone == other && !now.labels.contains("refused"))
    #expect(now == (try await served(github, number)))
  }

  @Test func takingBackKeepsANewerVersionASyncWrote() async throws {
    let (github, cache, _) = try await synced()
    defer { Task { await github.stop() } }
    let (number, other) = try openIssue(cache)
    let pending = try #require(
      try cache.showLocally([.setMilestone(number: other)], onIssue: number))
    var newer = try #require(await github.issue(number: number, in: acme))
    newer.title = "Renamed meanwhile"
    newer.updatedAt = newer.updatedAt.addingTimeInterval(60)
    try cache.confirm(newer)
    #expect(try cache.takeBack(pending) == false)
    #expect(try cache.issue(number: number)?.title == "Renamed meanwhile")
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
      try cache.showLocally([.setMilestone(number: 999)], onIssue: number)
    }
    #expect(try cache.issue(number: number) == before)
    #expect(try cache.showLocally([.reopen], onIssue: 99_999) == nil)
  }

  // MARK: Comments

  private func poster(
    _ github: LocalGitHub, _ cache: IssueCache, _ client: GitHubClient
  ) throws -> (CommentPoster, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "drafts-\(UUID().uuidString)")
    return (
      CommentPoster(
        client: client, cache: cache, repository: acme,
        drafts: CommentDrafts(directory: folder)), folder
    )
  }

  @Test func aCommentIsPostedOnceAndItsDraftGoes() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let (poster, folder) = try poster(github, cache, client)
    defer { try? FileManager.default.removeItem(at: folder) }
    let count = try #require(try cache.issue(number: number)).comments
    let outcome = try await poster.post("Looks good to me.\n", issue: number)
    guard case .posted(let comment) = outcome else {
      Issue.record("posted expected, got \(outcome)")
      return
    }
    #expect(await github.commentBodies(of: number, in: acme).count == 1)
    #expect(try poster.drafts.draft(for: number) == nil)
    #expect(try cache.comments(of: number).map(\.id) == [comment.id])
    #expect(try cache.issue(number: number)?.comments == count + 1)
  }

  @Test func aCommentWhoseAnswerDroppedIsFoundNotPostedTwice() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let (poster, folder) = try poster(github, cache, client)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    await github.inject(.dropConnection, path: path, method: "POST")
    await #expect {
      try await poster.post("Fixed in 1.2.", issue: number)
    } throws: { error in
      guard case .unconfirmed = error as? CommentPostFailure else { return false }
      return true
    }
    // The answer was lost, not the comment: one on GitHub, and the draft kept, marked as sent.
    #expect(await github.commentBodies(of: number, in: acme).count == 1)
    let draft = try #require(try poster.drafts.draft(for: number))
    #expect(draft.body == "Fixed in 1.2." && draft.sentAt != nil)
    let attributes = try FileManager.default.attributesOfItem(
      atPath: poster.drafts.file(for: number).path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    // Sending it again finds it among the comments instead of posting it twice.
    let posts = await github.requests.count { $0.target == path }
    let outcome = try await poster.post(issue: number)
    guard case .foundPosted = outcome else {
      Issue.record("found expected, got \(outcome)")
      return
    }
    #expect(await github.commentBodies(of: number, in: acme).count == 1)
    #expect(try poster.drafts.draft(for: number) == nil)
    #expect(await github.requests.count { $0.target == path } == posts, "not posted again")
    #expect(await github.requests.contains { $0.target.hasPrefix(path + "?") }, "listed instead")
  }

  @Test func theSameCommentRunAgainAfterALostAnswerIsNotPostedTwice() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let (poster, folder) = try poster(github, cache, client)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    for (round, fault) in [LocalGitHub.Fault.failAfterApplying(status: 502), .dropConnection]
      .enumerated()
    {
      let text = "Same words, round \(round)."
      await github.inject(fault, path: path, method: "POST")
      let started = ContinuousClock.now
      await #expect {
        try await poster.post(text, issue: number)
      } throws: { error in
        guard case .unconfirmed = error as? CommentPostFailure else { return false }
        return true
      }
      #expect(ContinuousClock.now - started < .seconds(1), "\(fault) reported at once")
      let posts = await github.requests.count { $0.target == path }
      // The same command again, as one does with gh: checked, not posted again.
      guard case .foundPosted = try await poster.post(text, issue: number) else {
        Issue.record("found expected after \(fault)")
        return
      }
      #expect(await github.requests.count { $0.target == path } == posts, "not posted again")
      #expect(await github.commentBodies(of: number, in: acme).filter { $0 == text }.count == 1)
    }
  }

  @Test func aServerErrorOnACommentIsNotRetriedAndTheNextSendPostsIt() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let (poster, folder) = try poster(github, cache, client)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    await github.inject(.status(500), path: path, method: "POST")
    await #expect(throws: CommentPostFailure.self) {
      try await poster.post("Reproduced on main.", issue: number)
    }
    #expect(await github.commentBodies(of: number, in: acme).isEmpty)
    #expect(await github.requests.count { $0.target == path } == 1, "sent once, not retried")
    #expect(try poster.drafts.draft(for: number)?.sentAt != nil)
    guard case .posted = try await poster.post(issue: number) else {
      Issue.record("posted expected")
      return
    }
    #expect(
      await github.commentBodies(of: number, in: acme) == [
        "Reproduced on main."
      ])
  }

  @Test func aRefusedCommentKeepsItsDraftAsADraft() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let (poster, folder) = try poster(github, cache, client)
    defer { try? FileManager.default.removeItem(at: folder) }
    await github.inject(
      .missingScope(has: "", accepted: "repo"),
      path: "/repos/acme/tracker/issues/\(number)/comments", method: "POST")
    await #expect {
      try await poster.post("Please add a test.", issue: number)
    } throws: { error in
      guard case .refused(let github) = error as? CommentPostFailure else { return false }
      return github.missingAccess == .scope(accepted: ["repo"], has: [])
    }
    let draft = try #require(try poster.drafts.draft(for: number))
    #expect(draft.body == "Please add a test." && draft.sentAt == nil)
    #expect(await github.commentBodies(of: number, in: acme).isEmpty)
  }

  @Test func writesWithoutTheTokenAreRefusedAndRedirectsNeverTurnIntoReads() async throws {
    let (github, cache, client) = try await synced()
    defer { Task { await github.stop() } }
    let (number, _) = try openIssue(cache)
    let path = "/repos/acme/tracker/issues/\(number)"
    let anonymous = GitHubClient(
      host: await github.host, transport: HTTPClientTransport(timeout: 5))
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
      host: await github.host, token: "t", transport: HTTPClientTransport(timeout: 5))
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
