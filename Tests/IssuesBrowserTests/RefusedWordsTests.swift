import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing

// What a person wrote, refused by GitHub or cancelled: given back to the drafts, byte for byte,
// where the message says — never lost with the action.

extension PullRequestCommandTests {
  /// The cache the commands of a world write to.
  static func cache(of world: World) async throws -> IssueCache {
    let url = IssueCache.defaultURL(
      for: RepositoryName(owner: "acme", name: "tracker"), host: await world.github.host,
      environment: ["XDG_CACHE_HOME": world.folder.appendingPathComponent("cache").path])
    return try IssueCache(path: url.path)
  }

  /// Twenty line comments drafted, the review refused three ways — approving one's own pull
  /// request (422), a line GitHub no longer places (422), a refused token (401) — and a queued
  /// review cancelled: each time the twenty comments are drafted again, bodies byte for byte,
  /// the summary kept, nothing left waiting, and the message says where they are.
  @Test func aRefusedReviewGivesItsCommentsBack() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    // The viewer is the author of an open pull request: theirs to comment on, not to approve.
    let pull = try #require(Self.served.first { $0.isPullRequest && $0.state == .open })
    let own = pull.number
    await world.github.setViewer(pull.user.login)
    await world.github.servePullRequestFiles(
      Self.reviewedFiles(), ofPullRequest: own, in: acme, head: String(repeating: "c", count: 40))
    var (status, out, err) = try await world.run(["sync"])
    (status, out, err) = try await world.run(["pr", "diff", String(own), "--name-only"])
    #expect(status == 0, "\(err)")
    // Words with what a careless copy would change: CRLF, trailing blanks, a tab, an emoji.
    let bodies = (0..<20).map { "Comment \($0)\r\n  kept as typed\t👍🏽  " }
    for (index, body) in bodies.enumerated() {
      (status, out, err) = try await world.run(
        ["pr", "review", String(own), "--line", "Sources/File\(index).swift:12", "-b", body])
      #expect(status == 0, "\(index): \(err)")
    }
    func drafted() async throws -> [String] {
      try await Self.cache(of: world).pendingReview(of: own).map(\.comment.body)
    }
    #expect(try await drafted() == bodies)

    // 1. GitHub refuses an approval of one's own pull request.
    (status, out, err) = try await world.run(["pr", "review", String(own), "-a", "-b", "LGTM"])
    #expect(status != 0 && err.contains("Can not approve your own pull request"), "\(err)")
    #expect(err.contains("20 line comments are drafted again"), "\(err)")
    #expect(err.contains("--pending"), "\(err)")
    #expect(!err.contains("waits in the queue (`issues queue`)"), "\(err)")
    #expect(try await drafted() == bodies)
    (status, out, err) = try await world.run(["pr", "review", String(own), "--pending"])
    #expect(out.contains("review (approve)\tLGTM"), "\(out)")
    #expect(out.split(separator: "\n").count == 21, "\(out)")
    (status, out, err) = try await world.run(["queue", "list"])
    #expect(!out.contains("review #\(own)"), "\(out)")
    #expect(await world.github.submittedReviews(ofPullRequest: own, in: acme).isEmpty)

    // 2. A line GitHub cannot place any more (the diff GitHub holds changed): 422. The summary
    // kept as a draft is what is sent when no body is given.
    await world.github.servePullRequestFiles(
      Array(Self.reviewedFiles().prefix(5)), ofPullRequest: own, in: acme,
      head: String(repeating: "c", count: 40))
    (status, out, err) = try await world.run(["pr", "review", String(own), "-c"])
    #expect(status != 0 && err.contains("Line could not be resolved"), "\(err)")
    #expect(err.contains("drafted again"), "\(err)")
    #expect(try await drafted() == bodies)
    (status, out, err) = try await world.run(["pr", "review", String(own), "--pending"])
    #expect(out.contains("\tLGTM"), "\(out)")

    // 3. A refused token: nothing landed, everything drafted again.
    (status, out, err) = try await world.run(
      ["pr", "review", String(own), "-c", "-b", "Second try"], token: "refused-token")
    #expect(status != 0, "\(err)")
    #expect(try await drafted() == bodies)
    (status, out, err) = try await world.run(["pr", "review", String(own), "--pending"])
    // Both summaries: the one kept before, and the one refused now.
    #expect(out.contains("\tLGTM"), "\(out)")
    let summary = try await Self.cache(of: world).drafts(onIssue: own).compactMap { draft in
      if case .review(_, let body) = draft.words { body } else { nil }
    }
    #expect(summary == ["LGTM\n\nSecond try"], "\(summary)")

    // 4. Queued offline, then cancelled: drafted again.
    await world.github.setReachable(false)
    (status, out, err) = try await world.run(["pr", "review", String(own), "-c", "-b", "Later"])
    #expect(status == 0 && err.contains("Queued: review"), "\(err)")
    #expect(try await drafted().isEmpty)
    let queued = try #require(try await Self.cache(of: world).queuedActions().last)
    (status, out, err) = try await world.run(["queue", "cancel", String(queued.id)])
    #expect(status == 0, "\(err)")
    #expect(try await drafted() == bodies)
    let summaries = try await Self.cache(of: world).drafts(onIssue: own).compactMap { draft in
      if case .review(_, let body) = draft.words { body } else { nil }
    }
    #expect(summaries == ["LGTM\n\nSecond try\n\nLater"], "\(summaries)")
    #expect(await world.github.submittedReviews(ofPullRequest: own, in: acme).isEmpty)
  }

  /// A reply GitHub refuses (its thread's first comment is gone) is kept as a draft, and
  /// `--reply ID` without a body sends the draft.
  @Test func aRefusedReplyIsKeptAndSentFromItsDraft() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(
      Self.served.first { $0.isPullRequest && $0.state == .open && $0.user.login != "octocat" }
    ).number
    await world.github.servePullRequestFiles(
      Self.reviewedFiles(), ofPullRequest: pull, in: acme, head: String(repeating: "c", count: 40))
    var (status, out, err) = try await world.run(["sync"])
    let words = "A reply\r\nwith two lines  "
    (status, out, err) = try await world.run(
      ["pr", "review", String(pull), "--reply", "424242", "-b", words])
    #expect(status != 0, "\(out) \(err)")
    #expect(err.contains("kept as a draft"), "\(err)")
    #expect(!err.contains("waits in the queue (`issues queue`)"), "\(err)")
    let kept = try await Self.cache(of: world).drafts(onIssue: pull).compactMap { draft in
      if case .reply(let reply) = draft.words { reply } else { nil }
    }
    #expect(kept == [ThreadReply(commentID: 424242, body: words)])
    (status, out, err) = try await world.run(["pr", "review", String(pull), "--pending"])
    #expect(out.contains("reply to 424242\tA reply"), "\(out)")
  }
}

extension PullRequestCommandTests {
  /// A mutation GitHub applied but answered with its generic error (HTTP 200, "Something went
  /// wrong while executing your query…", no `type`) is read back, never called refused: auto-
  /// merge found on, said as on, sent once; a thread found resolved, sent once.
  @Test func aMutationAnsweredWithTheGenericErrorIsReadBack() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let open = Self.served.filter { $0.isPullRequest && $0.state == .open }.map(\.number)
    let pull = try #require(open.first)
    // The read before the send passes; the mutation is applied, then answered with the error.
    await world.github.inject(
      .genericGraphQLErrorAfterApplying, path: "/graphql", method: "POST", times: 1, after: 1)
    var (status, out, err) = try await world.run(
      ["pr", "merge", String(pull), "--squash", "--auto"])
    #expect(status == 0, "\(out) \(err)")
    #expect(!err.contains("Nothing was merged"), "\(err)")
    #expect(out.contains("will be merged (squash)"), "\(out)")
    #expect(await world.github.autoMergeMethod(of: pull, in: acme) == "SQUASH")
    #expect(await world.github.autoMergesEnabled == 1)
    #expect(await world.github.graphQLState.queries["EnableAutoMerge"] == 1)
    (status, out, err) = try await world.run(["queue", "list"])
    #expect(!out.contains("merge #\(pull)"), "\(out)")
  }
}

extension PullRequestCommandTests {
  /// Auto-merge turned on, the command killed before the answer, then turned off on the web:
  /// the next `queue send` does not turn it on again over that person — it waits in conflict,
  /// saying why, and `queue force` is the person's to choose.
  @Test func anAutoMergeSomeoneTurnedOffAfterALostAnswerIsNotTurnedOnAgain() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(
      Self.served.first { $0.isPullRequest && $0.state == .open }
    ).number
    _ = try await world.run(["sync"])
    // The read passes; the mutation is applied and its answer never comes.
    await world.github.inject(
      .stallAfterApplying(seconds: 30), path: "/graphql", method: "POST", times: 1, after: 1)
    let (process, _, _) = try await world.launch([
      "pr", "merge", String(pull), "--squash", "--auto",
    ])
    for _ in 0..<200 where await world.github.autoMergesEnabled == 0 {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(await world.github.autoMergesEnabled == 1)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    await world.github.clearFaults()
    // Someone turns it off on the web.
    await world.github.setAutoMerge(nil, of: pull, in: acme)
    var (status, out, err) = try await world.run(["queue", "send"])
    #expect(await world.github.autoMergesEnabled == 1, "\(out) \(err)")
    #expect(await world.github.autoMergeMethod(of: pull, in: acme) == nil)
    (status, out, err) = try await world.run(["queue"])
    #expect(out.contains("undone by someone"), "\(out)")
    _ = status
  }
}
