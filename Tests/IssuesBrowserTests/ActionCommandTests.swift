import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing

#if os(Linux)
import Glibc

/// `issues close`, `reopen`, `edit` and `comment`, run as a user runs them, against a local
/// GitHub that keeps what they write, with faults and a process killed mid-send.
@Suite(.serialized) struct ActionCommandTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")

  /// A running local GitHub with `acme/tracker`, and folders for the cache and the drafts.
  final class World: @unchecked Sendable {
    let github: LocalGitHub
    let folder: URL

    init() async throws {
      github = try await LocalGitHub.start()
      try await github.serve(
        synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9),
        as: RepositoryName(owner: "acme", name: "tracker"))
      await github.requireToken(forWrites: "test-token")
      folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "issues-actions-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The drafts' folder: under the local GitHub's own name, apart from github.com's.
    var drafts: URL {
      get async {
        let host = await github.baseURL.host ?? "", port = await github.baseURL.port ?? 0
        return folder.appendingPathComponent(
          "state/trellis-issues/\(host):\(port)/acme/tracker/drafts")
      }
    }

    /// Starts `issues`, calling `exited` when it ends.
    ///
    /// Nothing here blocks a thread: the local GitHub answering it runs on the same few threads.
    ///
    /// A write sent without an answer is looked for again at once (`TRELLIS_UNANSWERED_GRACE`
    /// 0), unless `environment` gives the grace a test is about.
    func launch(
      _ arguments: [String], token: String? = "test-token", directory: URL? = nil,
      path: String = "/nonexistent", environment extra: [String: String] = [:],
      ignoringBrokenPipes: Bool = false, exited: (@Sendable () -> Void)? = nil
    ) async throws -> (Process, Pipe, Pipe) {
      let process = Process()
      process.terminationHandler = { _ in exited?() }
      let executable = builtExecutablePath("issues")
      if ignoringBrokenPipes {
        // As a parent that ignores SIGPIPE leaves it to its children (a shell's `trap '' PIPE`).
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
      } else {
        process.executableURL = URL(fileURLWithPath: executable)
      }
      // A minute to answer unless a test is about the wait: at the start of a full run, 140
      // suites compete for two cores and the local GitHub can take longer than the default 15 s.
      let wait = arguments.contains("--timeout") ? [] : ["--timeout", "60"]
      // acme/tracker unless the test names another repository.
      let repository = arguments.contains("-R") ? [] : ["-R", "acme/tracker"]
      process.arguments =
        (ignoringBrokenPipes ? ["-c", "trap '' PIPE; exec \"$0\" \"$@\"", executable] : [])
        + arguments + repository + ["--api-url", await github.baseURL.absoluteString]
        + wait
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
      environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
      environment["GH_TOKEN"] = token
      environment["GITHUB_TOKEN"] = nil
      environment["GH_REPO"] = nil
      environment["GH_HOST"] = nil
      // No `gh` to ask for a token either (unless a test puts tools on the path); gojq alone,
      // for `--jq`.
      environment["PATH"] = path + ":" + JQOnlyPath.folder
      environment["TRELLIS_UNANSWERED_GRACE"] = "0"
      environment.merge(extra) { _, given in given }
      process.environment = environment
      if let directory { process.currentDirectoryURL = directory }
      let (output, errors) = (Pipe(), Pipe())
      process.standardOutput = output
      process.standardError = errors
      process.standardInput = FileHandle.nullDevice
      try process.run()
      return (process, output, errors)
    }

    /// Runs `issues` to its end: exit status, standard output, standard error.
    func run(
      _ arguments: [String], token: String? = "test-token", directory: URL? = nil,
      path: String = "/nonexistent", environment: [String: String] = [:]
    ) async throws -> (Int32, String, String) {
      let (stream, ended) = AsyncStream<Void>.makeStream()
      let (process, output, errors) = try await launch(
        arguments, token: token, directory: directory, path: path, environment: environment,
        exited: { ended.finish() })
      for await _ in stream {}
      // What it printed is small: it waited in the pipes.
      let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return (process.terminationStatus, out, err)
    }

    func stop() async {
      await github.stop()
      try? FileManager.default.removeItem(at: folder)
    }
  }

  /// An open issue that is not a pull request.
  func openIssue(_ world: World) async throws -> GitHubIssue {
    let issues = SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make().issues
    let number = try #require(issues.first { $0.state == .open && !$0.isPullRequest }?.number)
    return try #require(await world.github.issue(number: number, in: acme))
  }

  @Test func closeEditAndReopenLandOnGitHubAndShowInTheCache() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    let n = String(issue.number)

    var (status, out, err) = try await world.run(["close", n, "--reason", "not planned"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("Closed #\(n)") && out.contains("as not planned"))
    var served = try #require(await world.github.issue(number: issue.number, in: acme))
    #expect(served.state == .closed && served.stateReason == "not_planned")

    let milestones =
      SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make()
      .milestones ?? []
    let target = try #require(milestones.first { $0.number != issue.milestone?.number })
    (status, out, err) = try await world.run([
      "edit", n, "--milestone", target.title.uppercased(), "--add-label", "bug, help wanted",
      "--add-assignee", "hubot",
    ])
    #expect(status == 0, "\(err)")
    served = try #require(await world.github.issue(number: issue.number, in: acme))
    #expect(served.milestone?.number == target.number)
    #expect(Set(served.labels.map(\.name)).isSuperset(of: ["bug", "help wanted"]))
    #expect(served.assignees.map(\.login).contains("hubot"))

    (status, out, err) = try await world.run(["reopen", n])
    #expect(status == 0, "\(err)")
    // The cache agrees, offline.
    (status, out, err) = try await world.run([
      "view", n, "--offline", "--json", "state,milestone,labels,assignees",
    ])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    #expect(object["state"] as? String == "OPEN")
    #expect((object["milestone"] as? [String: Any])?["number"] as? Int == target.number)
    let labels = (object["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
    #expect(Set(labels ?? []).isSuperset(of: ["bug", "help wanted"]))

    (status, _, err) = try await world.run(["edit", n, "--milestone", "No Such Milestone"])
    #expect(status != 0)
    #expect(err.contains("has no milestone “No Such Milestone”"))
  }

  @Test func aRefusedChangeSaysWhyAndChangesNothing() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    _ = try await world.run(["view", String(issue.number)])
    await world.github.inject(
      .missingScope(has: "read:org", accepted: "repo"),
      path: "/repos/acme/tracker/issues/\(issue.number)", method: "PATCH")
    let (status, _, err) = try await world.run(["close", String(issue.number)])
    #expect(status != 0)
    #expect(err.contains("`repo` scope (the token has: read:org)"), "\(err)")
    #expect(err.contains("Nothing changed, and nothing waits in the queue."), "\(err)")
    let (_, out, _) = try await world.run([
      "view", String(issue.number), "--offline", "--json", "state",
    ])
    #expect(out.contains("\"OPEN\""))

    let before = await world.github.requests.count
    let (anonymous, _, advice) = try await world.run(["close", String(issue.number)], token: nil)
    #expect(anonymous != 0)
    #expect(advice.contains("needs a token"), "\(advice)")
    #expect(await world.github.requests.count == before, "nothing sent without a token")
  }

  /// Kills `issues comment` while its request is on the way; returns the number.
  private func killMidSend(_ world: World, fault: LocalGitHub.Fault, text: String) async throws
    -> Int
  {
    let issue = try await openIssue(world)
    let path = "/repos/acme/tracker/issues/\(issue.number)/comments"
    await world.github.inject(fault, path: path, method: "POST")
    let (process, _, _) = try await world.launch(["comment", String(issue.number), "--body", text])
    let deadline = Date().addingTimeInterval(20)
    while await !world.github.requests.contains(where: { $0.target == path }) {
      try #require(Date() < deadline, "the comment was never sent")
      try await Task.sleep(for: .milliseconds(20))
    }
    try await Task.sleep(for: .milliseconds(100))
    kill(process.processIdentifier, SIGKILL)
    while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
    return issue.number
  }

  /// Killed while its POST was on the way (and before GitHub wrote it): the comment waits in the
  /// queue, marked as sent; `--send-draft` reads GitHub, sees it did not land, and posts it once.
  @Test func aCommentKilledMidSendWaitsInTheQueueAndIsPostedOnce() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let number = try await killMidSend(
      world, fault: .stall(seconds: 30), text: "Reproduced on 2.1.")
    #expect(await world.github.commentBodies(of: number, in: acme).isEmpty)
    var (status, out, err) = try await world.run(["queue"])
    #expect(out.contains("\t#\(number)\tunanswered\tcomment on #\(number)"), "\(out) \(err)")
    (status, out, err) = try await world.run(["comment", String(number), "--send-draft"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("#issuecomment-"), "\(out)")
    #expect(await world.github.commentBodies(of: number, in: acme) == ["Reproduced on 2.1."])
    (status, out, err) = try await world.run(["queue"])
    #expect(out.isEmpty, "\(out)")
  }

  /// Killed after GitHub wrote it, before the answer: `--send-draft` finds it (its text, by the
  /// token's account, newer than the read before the send) and does not post it again.
  @Test func aCommentThatLandedBeforeTheKillIsNotPostedTwice() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let number = try await killMidSend(
      world, fault: .stallAfterApplying(seconds: 30), text: "Landed, answer lost.")
    #expect(await world.github.commentBodies(of: number, in: acme) == ["Landed, answer lost."])
    let path = "/repos/acme/tracker/issues/\(number)/comments"
    let (status, out, err) = try await world.run(["comment", String(number), "--send-draft"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("#issuecomment-"), "\(out)")
    #expect(await world.github.commentBodies(of: number, in: acme) == ["Landed, answer lost."])
    #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == 1)
  }

  /// A lost answer after GitHub wrote the comment: the command reads GitHub once, finds it, and
  /// says where it is — one POST, one comment.
  @Test func aCommentWhoseAnswerIsLostIsFoundByTheSameCommand() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    let path = "/repos/acme/tracker/issues/\(issue.number)/comments"
    for fault in [LocalGitHub.Fault.failAfterApplying(status: 502), .dropConnection] {
      let text = "Posted once after \(fault)."
      await world.github.inject(fault, path: path, method: "POST")
      let posts = await world.github.writeAttempts.count { $0 == "POST \(path)" }
      let started = ContinuousClock.now
      let (status, out, err) = try await world.run([
        "comment", String(issue.number), "--body", text,
      ])
      #expect(status == 0, "\(err)")
      #expect(out.contains("#issuecomment-"), "\(out)")
      // Well under the 15-second timeout a wait for the lost answer would take; not tighter,
      // as the command's launch alone takes seconds on a loaded machine.
      #expect(ContinuousClock.now - started < .seconds(10), "reported at once: \(err)")
      #expect(
        await world.github.commentBodies(of: issue.number, in: acme).filter { $0 == text }.count
          == 1)
      #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == posts + 1)
    }
  }

  /// A 502 that wrote nothing: the comment waits (exit 0, said on standard error); the same
  /// command run again settles that one rather than queuing a copy, and posts it once.
  @Test func theSameCommentCommandRunAgainAfterAFailureIsPostedOnce() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    let path = "/repos/acme/tracker/issues/\(issue.number)/comments"
    let text = "Posted once after a 502."
    await world.github.inject(.status(502), path: path, method: "POST")
    var (status, _, err) = try await world.run(["comment", String(issue.number), "--body", text])
    #expect(status == 0, "\(err)")
    #expect(err.contains("Queued: comment on #\(issue.number)"), "\(err)")
    #expect(err.contains("sent again, never twice"), "\(err)")
    (status, _, err) = try await world.run(["comment", String(issue.number), "--body", text])
    #expect(status == 0, "\(err)")
    #expect(await world.github.commentBodies(of: issue.number, in: acme) == [text])
    #expect(await world.github.writeAttempts.count { $0 == "POST \(path)" } == 2)
  }

  /// A comment GitHub refuses is not queued, and its words are kept as a draft.
  @Test func aRefusedCommentExitsOneAndKeepsItsWords() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    let path = "/repos/acme/tracker/issues/\(issue.number)/comments"
    await world.github.inject(.validation, path: path, method: "POST")
    let (status, _, err) = try await world.run([
      "comment", String(issue.number), "--body", "Refused words.",
    ])
    #expect(status == 1, "\(err)")
    #expect(err.contains("Could not comment on #\(issue.number)"), "\(err)")
    #expect(!err.contains("␊"), "\(err)")
    #expect(err.contains("--send-draft"), "\(err)")
    let (_, out, _) = try await world.run(["queue"])
    #expect(out.isEmpty)
    // The draft is what `--send-draft` sends, byte for byte.
    let (sent, _, sendErr) = try await world.run(["comment", String(issue.number), "--send-draft"])
    #expect(sent == 0, "\(sendErr)")
    #expect(await world.github.commentBodies(of: issue.number, in: acme) == ["Refused words."])
  }

  @Test func fourProcessesOpeningOneNewCacheAllSucceed() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    for count in [2, 4] {
      try? FileManager.default.removeItem(at: world.folder.appendingPathComponent("cache"))
      let results = try await withThrowingTaskGroup(of: (Int32, String).self) { group in
        for _ in 0..<count {
          group.addTask {
            let (status, _, err) = try await world.run(["sync"])
            return (status, err)
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for (status, err) in results { #expect(status == 0, "\(count) at once: \(err)") }
    }
  }

  @Test func syncWithCommentsListsThemAllThenWhatChanged() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    var (status, out, err) = try await world.run([
      "comment", String(issue.number), "--body", "One.",
    ])
    #expect(status == 0, "\(err)")
    (status, out, err) = try await world.run(["sync", "--comments"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("Comments: 1 in 1 pages (all of them)"), "\(out)")
    (status, out, err) = try await world.run(["sync", "--comments"])
    #expect(out.contains("(changed since the last listing)"), "\(out)")
    (status, out, _) = try await world.run([
      "view", String(issue.number), "--offline", "--comments",
    ])
    #expect(out.contains("One."))
  }

  @Test func syncAllMirrorsEveryConversationAndStatusSaysSo() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    await world.github.serveConversations(in: acme, comments: 120, events: 60)
    var (status, out, err) = try await world.run(["sync", "--all"], token: nil)
    #expect(status != 0)
    #expect(
      err.contains("--all mirrors through GitHub's GraphQL API, which needs a token"), "\(err)")
    (status, out, err) = try await world.run(["sync", "--all"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("Mirrored acme/tracker: 40 items"), "\(out)")
    #expect(out.contains("GraphQL queries"), "\(out)")
    (status, out, err) = try await world.run(["sync", "--status"])
    #expect(status == 0, "\(err)")
    let issues = await world.github.servedItems(in: acme).count
    let pulls = SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make().issues.count {
      $0.isPullRequest
    }
    #expect(
      out.contains("Mirror: \(issues - pulls) of \(issues - pulls) issues readable offline"),
      "\(out)")
    #expect(out.contains("Not followed until the issue changes again"), "\(out)")
    // Every conversation reads offline, and gh's `id` is the node id.
    let number = try #require(
      SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make().issues.first {
        !$0.isPullRequest
      }?.number)
    let served = await world.github.servedComments(of: number, in: acme)
    (status, out, err) = try await world.run([
      "view", String(number), "--offline", "--comments",
    ])
    #expect(status == 0, "\(err)")
    for comment in served { #expect(out.contains(comment.body)) }
    (status, out, err) = try await world.run([
      "list", "--offline", "--state", "all", "--json", "number,id", "--limit", "1",
    ])
    #expect(status == 0, "\(err)")
    #expect(out.contains("\"id\":\"I_"), "\(out)")
  }

  @Test func theEditorWritesTheDraftAndAnEmptyOneSendsNothing() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let issue = try await openIssue(world)
    // An "editor" that appends a line to the file it is given.
    let editor = world.folder.appendingPathComponent("editor.sh")
    try "#!/bin/sh\nprintf 'Written in the editor.\\n' >> \"$1\"\n".write(
      to: editor, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: editor.path)
    setenv("VISUAL", editor.path, 1)
    defer { unsetenv("VISUAL") }
    var (status, _, err) = try await world.run(["comment", String(issue.number), "--editor"])
    #expect(status == 0, "\(err)")
    #expect(
      await world.github.commentBodies(of: issue.number, in: acme) == ["Written in the editor.\n"])
    setenv("VISUAL", "true", 1)
    let out: String
    (status, out, err) = try await world.run(["comment", String(issue.number), "-e"])
    #expect(status == 0 && out.contains("nothing was sent"), "\(err)")
    #expect(await world.github.commentBodies(of: issue.number, in: acme).count == 1)
  }
}
#endif

/// A folder that holds gojq and nothing else, for the commands the tests start with no other
/// tool on their `PATH`: `--jq` runs gojq.
enum JQOnlyPath {
  static let folder: String = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "issues-tests-gojq-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    if let gojq = ExternalTool(named: JQProgram.engineName) {
      try? FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent(JQProgram.engineName).path,
        withDestinationPath: gojq.path)
    }
    return folder.path
  }()
}

extension ActionCommandTests {
  /// `--points N` bounds everything a run spends: the listing, the conversations and the pull
  /// requests' reviews and checks together, never N for each; `--status` counts every point
  /// once.
  @Test func pointsBoundEverythingARunSpends() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    var spent: [Int] = []
    var ended = false
    for _ in 0..<40 where !ended {
      let before = await world.github.graphQLState.remaining
      let (status, _, err) = try await world.run(["sync", "--all", "--points", "2"])
      spent.append(await before - world.github.graphQLState.remaining)
      ended = status == 0 && !err.contains("left for the next sync")
    }
    #expect(ended, "\(spent)")
    #expect(spent.allSatisfy { $0 <= 2 }, "a run spent more than --points: \(spent)")
    // The details left by one run are the next's: four runs of 2 points.
    #expect(spent.count > 2, "\(spent)")
    let (status, out, err) = try await world.run(["sync", "--status"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("\(spent.reduce(0, +)) GraphQL points"), "\(out) \(spent)")
  }
}
