import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing

/// `issues pr list` and `issues pr view` against the local GitHub, as a script would run them.
@Suite(.serialized) struct PullRequestCommandTests {
  typealias World = ActionCommandTests.World

  static let served = SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 9).make().issues

  static func json(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
  }

  @Test func listTakesGhsFlagsAndPrintsGhsFields() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    // Newest created first, as gh lists them.
    let open = Self.served.filter { $0.isPullRequest && $0.state == .open }
      .sorted { ($0.createdAt, $0.number) > ($1.createdAt, $1.number) }
    #expect(!open.isEmpty)
    var (status, out, err) = try await world.run([
      "pr", "list", "--json", "number,state,isDraft,headRefName,baseRefName,reviewDecision",
    ])
    #expect(status == 0, "\(err)")
    let listed = try Self.json(out)
    #expect(listed.map { $0["number"] as? Int } == open.map(\.number))
    for (object, pull) in zip(listed, open) {
      #expect(object["state"] as? String == "OPEN")
      #expect(object["isDraft"] as? Bool == pull.isDraft)
      #expect(object["headRefName"] as? String == "feature/\(pull.number)")
      #expect(object["baseRefName"] as? String == "main")
      let decisions = ["APPROVED", "CHANGES_REQUESTED", "REVIEW_REQUIRED", ""]
      #expect(object["reviewDecision"] as? String == decisions[pull.number % 4])
    }
    // Merged ones: closed pull requests with a merge time.
    (status, out, err) = try await world.run([
      "pr", "list", "-s", "merged", "--json", "number,state",
    ])
    let merged = Self.served.filter { $0.mergedAt != nil }
    #expect(
      Set(try Self.json(out).compactMap { $0["number"] as? Int }) == Set(merged.map(\.number)))
    #expect(try Self.json(out).allSatisfy { $0["state"] as? String == "MERGED" })
    // To a pipe: gh's columns, the draft said as DRAFT.
    (status, out, err) = try await world.run(["pr", "list", "--offline", "-L", "2"])
    let lines = out.split(separator: "\n")
    #expect(lines.count == min(2, open.count))
    let fields = lines[0].split(separator: "\t", omittingEmptySubsequences: false)
    #expect(fields.count == 5)
    #expect(fields[0] == "\(open[0].number)" && fields[2] == "feature/\(open[0].number)")
    #expect(fields[3] == (open[0].isDraft ? "DRAFT" : "OPEN"))
    // A field only a pull request's reading fills: each listed one is read first, as gh's.
    (status, out, err) = try await world.run([
      "pr", "list", "-L", "2", "--json", "statusCheckRollup", "--jq",
      ".[].statusCheckRollup | length",
    ])
    #expect(status == 0, "\(err)")
    #expect(out == String(repeating: "3\n", count: min(2, open.count)))
  }

  @Test func viewPrintsBranchesSizeReviewAndChecks() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let pull = try #require(Self.served.first { $0.isPullRequest && $0.state == .open })
    var (status, out, err) = try await world.run(["pr", "view", "\(pull.number)"])
    #expect(status == 0, "\(err)")
    #expect(out.hasPrefix("title:\t"))
    #expect(out.contains("state:\tOPEN\n"))
    #expect(out.contains("head:\tfeature/\(pull.number)\n"))
    #expect(out.contains("additions:\t\((pull.number * 37) % 500)\n"))
    #expect(out.contains("checks:\t\(["SUCCESS", "FAILURE", "PENDING"][pull.number % 3])\n"))
    let issue = try #require(Self.served.first { !$0.isPullRequest })
    (status, out, err) = try await world.run(["pr", "view", "\(issue.number)", "--offline"])
    #expect(status == 1)
    #expect(err.contains("is an issue, not a pull request"))
  }

  /// `pr view --comments` prints reviews among the comments, each line comment after its
  /// review; `--json reviews,statusCheckRollup` gives gh's shapes; without a token too.
  @Test func viewReadsTheConversationWithReviewsLineCommentsAndChecks() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let pull = try #require(Self.served.first { $0.isPullRequest && $0.number % 4 == 1 })
    var (status, out, err) = try await world.run(
      ["pr", "view", "\(pull.number)", "--comments"], token: nil)
    #expect(status == 0, "\(err)")
    let blocks = out.components(separatedBy: "--\n")
    #expect(blocks.first?.hasPrefix("author:\tmona\nassociation:\tmember\n") == true)
    #expect(blocks.first?.contains("status:\tchanges requested\n") == true)
    #expect(blocks.count > 1 && blocks[1] == "Please cover the empty case.\n")
    #expect(out.contains("status:\tline comment\npath:\tSources/Parser.swift\nline:\t12\n"))
    #expect(out.contains("Covered in the next commit."), "the reply follows in the thread")
    (status, out, err) = try await world.run([
      "pr", "view", "\(pull.number)", "--json", "reviews,statusCheckRollup,reviewDecision",
      "--offline",
    ])
    #expect(status == 0, "\(err)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    let reviews = try #require(object["reviews"] as? [[String: Any]])
    #expect(reviews.map { $0["state"] as? String } == ["CHANGES_REQUESTED", "COMMENTED"])
    #expect((reviews.first?["author"] as? [String: Any])?["login"] as? String == "mona")
    let checks = try #require(object["statusCheckRollup"] as? [[String: Any]])
    #expect(
      checks.map { $0["__typename"] as? String } == ["CheckRun", "CheckRun", "StatusContext"])
    let conclusions = checks.prefix(2).map { $0["conclusion"] as? String }
    #expect(
      conclusions
        == [["SUCCESS", "SUCCESS"], ["SUCCESS", "FAILURE"], ["SUCCESS", ""]][pull.number % 3])
    #expect(checks.last?["context"] as? String == "ci/lint")
    #expect(object["reviewDecision"] as? String == "CHANGES_REQUESTED")
  }

  /// `pr diff`: the files as git writes them (each one's header from GitHub's whole diff), read
  /// through the API and kept; `--name-only`; `--offline` from the cache; colour only when
  /// asked (a pipe); an issue is no pull request.
  @Test func diffPrintsTheFilesAndReadsThemOffline() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(Self.served.first { $0.isPullRequest }).number
    let files = [
      PullRequestFile(
        path: "Sources/a.swift", status: "modified", additions: 1, deletions: 1,
        patch: "@@ -1,2 +1,2 @@\n import A\n-let x = 1\n+let x = 2"),
      PullRequestFile(path: "logo.png", status: "added", additions: 0, deletions: 0, patch: nil),
      PullRequestFile(
        path: "New.swift", previousPath: "Old.swift", status: "renamed", additions: 0,
        deletions: 0, patch: nil),
    ]
    await world.github.servePullRequestFiles(
      files, ofPullRequest: pull, in: acme, head: String(repeating: "c", count: 40),
      binary: ["logo.png"])
    var (status, out, err) = try await world.run(["pr", "diff", String(pull)])
    #expect(status == 0, "\(err)")
    #expect(
      out == """
        diff --git a/Sources/a.swift b/Sources/a.swift
        index 8dfdec2..6d9c8bc 100644
        --- a/Sources/a.swift
        +++ b/Sources/a.swift
        @@ -1,2 +1,2 @@
         import A
        -let x = 1
        +let x = 2
        diff --git a/logo.png b/logo.png
        new file mode 100644
        index 0000000..759ecf3
        Binary files /dev/null and b/logo.png differ
        diff --git a/Old.swift b/New.swift
        similarity index 100%
        rename from Old.swift
        rename to New.swift

        """, "\(out)")
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--name-only"])
    #expect(out == "Sources/a.swift\nlogo.png\nNew.swift\n")
    // gh's `files` and `changedFiles` fields, from the same files, in `pr list` too.
    (status, out, err) = try await world.run([
      "pr", "view", String(pull), "--json", "files,changedFiles",
    ])
    #expect(status == 0, "\(err)")
    #expect(
      out.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "")
        == #"{"changedFiles":3,"files":[{"additions":1,"deletions":1,"path":"Sources/a.swift"},"#
        + #"{"additions":0,"deletions":0,"path":"logo.png"},"#
        + #"{"additions":0,"deletions":0,"path":"New.swift"}]}"#, "\(out)")
    (status, out, err) = try await world.run([
      "pr", "list", "-s", "all", "-H", "feature/\(pull)", "--json", "number,changedFiles", "--jq",
      #".[] | "\(.number) \(.changedFiles)""#,
    ])
    #expect(status == 0 && out == "\(pull) 3\n", "\(out)\(err)")
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--color", "always"])
    #expect(out.contains("\u{1B}[32m+let x = 2\u{1B}[m"))
    // Offline: the kept files, GitHub not asked.
    let asked = await world.github.requests.count
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--offline"])
    #expect(status == 0 && out.contains("+let x = 2"), "\(err)")
    #expect(await world.github.requests.count == asked)
    let issue = try #require(Self.served.first { !$0.isPullRequest }).number
    (status, out, err) = try await world.run(["pr", "diff", String(issue)])
    #expect(status != 0 && err.contains("is not a pull request"), "\(err)")
    // `--patch`: the commits as GitHub writes them, asked each time.
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--patch"])
    #expect(status == 0, "\(err)")
    #expect(out.hasPrefix("From \(String(repeating: "c", count: 40)) Mon Sep 17"), "\(out)")
    #expect(out.contains("Subject: [PATCH] ") && out.contains("\n-let x = 1\n+let x = 2\n"))
    #expect(
      await world.github.requests.last?.headers["accept"] == "application/vnd.github.patch")
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--patch", "--offline"])
    #expect(status != 0 && err.contains("run without --offline"), "\(err)")
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--patch", "--name-only"])
    #expect(status != 0 && err.contains("not both"), "\(err)")
    await world.github.servePullRequestFiles(
      files, ofPullRequest: pull, in: acme, head: String(repeating: "c", count: 40),
      binary: ["logo.png"], diffTooLarge: true)
    (status, out, err) = try await world.run(["pr", "diff", String(pull), "--patch"])
    #expect(status != 0 && err.contains("they are too large") && out.isEmpty, "\(err)")
  }

  /// Runs git in `directory`, failing the test when it fails; returns its trimmed output.
  @discardableResult
  static func git(_ arguments: [String], in directory: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = ["-c", "user.name=T", "-c", "user.email=t@example.com"] + arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "git \(arguments)")
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `pr diff N | head`: the reader goes away after a few lines and the command ends as a Unix
  /// tool does, by SIGPIPE and quietly — never a trap, even when its parent ignores SIGPIPE.
  @Test func aReaderThatGoesAwayEndsTheDiffQuietly() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(Self.served.first { $0.isPullRequest }).number
    // 300 files of 40 lines: far more than a pipe holds.
    let lines = (1...40).map { "+line \($0) of a file long enough to fill a pipe quickly" }
    let files = (0..<300).map { index in
      PullRequestFile(
        path: "Sources/File\(index).swift", status: "added", additions: 40, deletions: 0,
        patch: "@@ -0,0 +1,40 @@\n" + lines.joined(separator: "\n"))
    }
    await world.github.servePullRequestFiles(
      files, ofPullRequest: pull, in: acme, head: String(repeating: "d", count: 40))
    for arguments in [
      ["pr", "diff", String(pull)], ["pr", "diff", String(pull), "--color=always"],
    ] {
      let (stream, ended) = AsyncStream<Void>.makeStream()
      let (process, output, errors) = try await world.launch(
        arguments, ignoringBrokenPipes: true, exited: { ended.finish() })
      // What `head -c 200` reads before it ends — read off the cooperative threads, which the
      // local GitHub answering the command needs.
      // Read once: what a pipe holds is a small part of the diff, and the rest stays unread.
      let (chunks, more) = AsyncStream<Data>.makeStream()
      output.fileHandleForReading.readabilityHandler = { handle in
        handle.readabilityHandler = nil
        more.yield(handle.availableData)
        more.finish()
      }
      var read = Data()
      for await chunk in chunks { read += chunk }
      #expect(!read.isEmpty)
      try output.fileHandleForReading.close()
      for await _ in stream {}
      let said = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(process.terminationReason == .uncaughtSignal, "\(arguments): \(said)")
      #expect(process.terminationStatus == SIGPIPE, "\(arguments): \(said)")
      #expect(said.isEmpty, "\(arguments): \(said)")
    }
  }

  /// `issues pr diff N | git apply`: GitHub's whole diff gives each file's header as git wrote
  /// it (a new executable, a mode change, blob ids), and the files' own patches keep a CRLF
  /// file's `\r` and quoted or spaced names; rebuilt when GitHub refuses the whole diff, it
  /// still applies (regular files' modes).
  @Test func theDiffAppliesWithGitWhetherGitHubWroteItOrItWasRebuilt() async throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(Self.served.first { $0.isPullRequest }).number
    let base: [String: String] = [
      "gone.txt": "a\nb\n", "with space.txt": "one\n", "café.txt": "x\n", "tool.sh": "echo\n",
      "win.txt": "kept\r\nold\r\n",
    ]
    var files = [
      PullRequestFile(
        path: "bin/run", status: "added", additions: 2, deletions: 0,
        patch: "@@ -0,0 +1,2 @@\n+#!/bin/sh\n+echo hi"),
      PullRequestFile(
        path: "gone.txt", status: "removed", additions: 0, deletions: 2,
        patch: "@@ -1,2 +0,0 @@\n-a\n-b"),
      PullRequestFile(
        path: "with space.txt", status: "modified", additions: 1, deletions: 1,
        patch: "@@ -1 +1 @@\n-one\n+two"),
      PullRequestFile(
        path: "café.txt", status: "modified", additions: 1, deletions: 1,
        patch: "@@ -1 +1 @@\n-x\n+y"),
      PullRequestFile(
        path: "win.txt", status: "modified", additions: 1, deletions: 1,
        patch: "@@ -1,2 +1,2 @@\n kept\r\n-old\r\n+new\r"),
    ]
    let modeChange = PullRequestFile(
      path: "tool.sh", status: "changed", additions: 0, deletions: 0, patch: nil)
    await world.github.servePullRequestFiles(
      files + [modeChange], ofPullRequest: pull, in: acme, head: String(repeating: "7", count: 40),
      modes: ["bin/run": "100755", "tool.sh": "100755"])
    let root = world.folder.appendingPathComponent("apply")
    func freshClone(_ name: String) throws -> URL {
      let work = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      try Self.git(["init", "--quiet", "-b", "main"], in: work)
      for (path, text) in base {
        try text.write(
          to: work.appendingPathComponent(path), atomically: true, encoding: .utf8)
      }
      try Self.git(["add", "."], in: work)
      try Self.git(["commit", "--quiet", "-m", "base"], in: work)
      return work
    }
    func apply(_ diff: String, in work: URL) throws -> Bool {
      let file = work.appendingPathComponent("../\(work.lastPathComponent).diff")
      try diff.write(to: file, atomically: true, encoding: .utf8)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
      process.arguments = ["apply", file.path]
      process.currentDirectoryURL = work
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
    func contents(_ path: String, in work: URL) -> String? {
      try? String(contentsOf: work.appendingPathComponent(path), encoding: .utf8)
    }

    var (status, out, err) = try await world.run(["pr", "diff", String(pull)])
    try #require(status == 0, "\(err)")
    #expect(out.contains("new file mode 100755\n") && out.contains("\nindex "), "\(out)")
    #expect(out.contains("old mode 100644\nnew mode 100755\n"), "\(out)")
    var work = try freshClone("written")
    #expect(try apply(out, in: work), "\(out)")
    #expect(contents("bin/run", in: work) == "#!/bin/sh\necho hi\n")
    #expect(
      FileManager.default.isExecutableFile(atPath: work.appendingPathComponent("bin/run").path))
    #expect(
      FileManager.default.isExecutableFile(atPath: work.appendingPathComponent("tool.sh").path))
    #expect(contents("gone.txt", in: work) == nil)
    #expect(contents("with space.txt", in: work) == "two\n")
    #expect(contents("café.txt", in: work) == "y\n")
    #expect(contents("win.txt", in: work) == "kept\r\nnew\r\n")

    // GitHub refuses the whole diff (too large): rebuilt from the files, it applies as well.
    files[3].patch = "@@ -1 +1 @@\n-x\n+z"
    await world.github.servePullRequestFiles(
      files, ofPullRequest: pull, in: acme, head: String(repeating: "8", count: 40),
      diffTooLarge: true)
    (status, out, err) = try await world.run(["pr", "diff", String(pull)])
    try #require(status == 0, "\(err)")
    #expect(!out.contains("\nindex "), "\(out)")
    work = try freshClone("rebuilt")
    #expect(try apply(out, in: work), "\(out)")
    #expect(contents("bin/run", in: work) == "#!/bin/sh\necho hi\n")
    #expect(contents("gone.txt", in: work) == nil)
    #expect(contents("with space.txt", in: work) == "two\n")
    #expect(contents("café.txt", in: work) == "z\n")
    #expect(contents("win.txt", in: work) == "kept\r\nnew\r\n")
  }

  /// A clone of a bare repository, with a commit after `main` for each pull request.
  ///
  /// The bare repository's `main` has one commit and its `refs/pull/N/head` of each pull request
  /// a commit after it; the clone's remote names acme/tracker on github.com, and git is sent to
  /// the bare one. Returns the clone and each pull request's head.
  static func clone(in world: World, pullRequests: [Int]) throws -> (URL, [String]) {
    let root = world.folder.appendingPathComponent("git")
    let (bare, seed, work) = (
      root.appendingPathComponent("origin.git"), root.appendingPathComponent("seed"),
      root.appendingPathComponent("work")
    )
    for folder in [bare, seed] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    try git(["init", "--quiet", "--bare", "-b", "main"], in: bare)
    try git(["init", "--quiet", "-b", "main"], in: seed)
    try "one\n".write(
      to: seed.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
    try git(["add", "."], in: seed)
    try git(["commit", "--quiet", "-m", "one"], in: seed)
    try git(["push", "--quiet", bare.path, "main"], in: seed)
    var heads: [String] = []
    for pull in pullRequests {
      try git(["checkout", "--quiet", "-B", "pr", "main"], in: seed)
      try "two \(pull)\n".write(
        to: seed.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
      try git(["commit", "--quiet", "-am", "two"], in: seed)
      try git(["push", "--quiet", bare.path, "HEAD:refs/pull/\(pull)/head"], in: seed)
      heads.append(try git(["rev-parse", "HEAD"], in: seed))
    }
    try git(["clone", "--quiet", bare.path, work.path], in: root)
    let url = "https://github.com/acme/tracker.git"
    try git(["remote", "set-url", "origin", url], in: work)
    try git(["config", "url.\(bare.path).insteadOf", url], in: work)
    return (work, heads)
  }

  /// `pr checkout`: the head fetched from `refs/pull/N/head` into a branch named after the head
  /// branch; refused with uncommitted changes (nothing moved); a branch with commits of its
  /// own left as it is unless `--force`; a name that is an option refused.
  @Test func checkoutFetchesTheHeadAndNeverMovesUncommittedWork() async throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
    let world = try await World()
    defer { Task { await world.stop() } }
    let pull = try #require(Self.served.first { $0.isPullRequest }).number
    let (work, heads) = try Self.clone(in: world, pullRequests: [pull])
    let prHead = heads[0]

    var (status, out, err) = try await world.run(
      ["pr", "checkout", String(pull)], directory: work, path: "/usr/bin:/bin")
    try #require(status == 0, "\(err)")
    #expect(out.contains("on feature/\(pull)"), "\(out)")
    #expect(try Self.git(["rev-parse", "--abbrev-ref", "HEAD"], in: work) == "feature/\(pull)")
    #expect(try Self.git(["rev-parse", "HEAD"], in: work) == prHead)

    // Uncommitted work: nothing is moved.
    try Self.git(["checkout", "--quiet", "main"], in: work)
    try "mine\n".write(
      to: work.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
    (status, out, err) = try await world.run(
      ["pr", "checkout", String(pull)], directory: work, path: "/usr/bin:/bin")
    #expect(status != 0 && err.contains("uncommitted changes"), "\(err)")
    #expect(try Self.git(["rev-parse", "--abbrev-ref", "HEAD"], in: work) == "main")
    #expect(
      try String(contentsOf: work.appendingPathComponent("file.txt"), encoding: .utf8) == "mine\n")
    try Self.git(["checkout", "--quiet", "--", "file.txt"], in: work)

    // The branch has a commit of its own: left as it is, unless --force.
    try Self.git(["checkout", "--quiet", "feature/\(pull)"], in: work)
    try Self.git(["commit", "--quiet", "--allow-empty", "-m", "local"], in: work)
    let local = try Self.git(["rev-parse", "HEAD"], in: work)
    try Self.git(["checkout", "--quiet", "main"], in: work)
    (status, out, err) = try await world.run(
      ["pr", "checkout", String(pull)], directory: work, path: "/usr/bin:/bin")
    #expect(status != 0 && err.contains("has commits"), "\(err)")
    #expect(try Self.git(["rev-parse", "feature/\(pull)"], in: work) == local)
    (status, out, err) = try await world.run(
      ["pr", "checkout", String(pull), "--force"], directory: work, path: "/usr/bin:/bin")
    #expect(status == 0, "\(err)")
    #expect(try Self.git(["rev-parse", "HEAD"], in: work) == prHead)

    (status, out, err) = try await world.run(
      ["pr", "checkout", String(pull), "--branch=--upload-pack=x"], directory: work,
      path: "/usr/bin:/bin")
    #expect(status != 0 && err.contains("not a usable branch name"), "\(err)")
  }

  /// `pr checkout` of a fork's branch whose name the clone uses (the fork's `main`, or a branch
  /// of the clone's own): checked out as `OWNER/BRANCH`, as gh does, the clone's branch never
  /// moved; checked out again, the same branch, which records the pull request it is for.
  @Test func checkoutOfAForksMainNeverMovesTheClonesMain() async throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
    let world = try await World()
    defer { Task { await world.stop() } }
    let pulls = Self.served.filter(\.isPullRequest).prefix(2).map(\.number)
    try #require(pulls.count == 2)
    let (work, heads) = try Self.clone(in: world, pullRequests: pulls)
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let main = try Self.git(["rev-parse", "main"], in: work)
    await world.github.serveHeadFromFork(
      "forker/tracker", ofPullRequest: pulls[0], in: acme, branch: "main")
    await world.github.serveHeadFromFork(
      "forker/tracker", ofPullRequest: pulls[1], in: acme, branch: "topic")
    try Self.git(["branch", "topic", "main"], in: work)

    for _ in 0..<2 {
      let (status, out, err) = try await world.run(
        ["pr", "checkout", String(pulls[0])], directory: work, path: "/usr/bin:/bin")
      try #require(status == 0, "\(err)")
      #expect(out.contains("on forker/main."), "\(out)")
      #expect(try Self.git(["rev-parse", "--abbrev-ref", "HEAD"], in: work) == "forker/main")
      #expect(try Self.git(["rev-parse", "HEAD"], in: work) == heads[0])
      #expect(try Self.git(["rev-parse", "main"], in: work) == main)
    }
    #expect(
      try Self.git(["config", "--get", "branch.forker/main.merge"], in: work)
        == "refs/pull/\(pulls[0])/head")

    // The clone's own `topic` is not the pull request's: left where it is.
    let (status, out, err) = try await world.run(
      ["pr", "checkout", String(pulls[1])], directory: work, path: "/usr/bin:/bin")
    try #require(status == 0, "\(err)")
    #expect(out.contains("on forker/topic."), "\(out)")
    #expect(try Self.git(["rev-parse", "topic"], in: work) == main)
    #expect(try Self.git(["rev-parse", "HEAD"], in: work) == heads[1])
  }

  /// `pr merge` on a merge-queue branch adds the pull request to the queue, once.
  ///
  /// At the head read — REST's merge would be refused (405) — and it says where it stands;
  /// asked again, nothing is sent; a lost answer is read back.
  @Test func aMergeQueueBranchIsEnqueuedOnce() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let open = Self.served.filter { $0.isPullRequest && $0.state == .open }.map(\.number)
    try #require(open.count >= 2)
    await world.github.useMergeQueue(in: acme)
    var (status, out, err) = try await world.run(["pr", "merge", String(open[0])])
    #expect(status == 0, "\(err)")
    #expect(err.contains("Adding #\(open[0])") && err.contains("to the merge queue"), "\(err)")
    #expect(out.contains("Added #\(open[0]) to the merge queue of main (position 1)"), "\(out)")
    #expect(await world.github.enqueued == 1)
    #expect(await world.github.mergedPulls.isEmpty)
    (status, out, err) = try await world.run(["pr", "merge", String(open[0]), "--squash"])
    #expect(status == 0 && out.contains("already in the merge queue"), "\(out)\(err)")
    #expect(await world.github.enqueued == 1)
    // A method and -d are the queue's to decide: said, and the branch left alone.
    (status, out, err) = try await world.run(["pr", "merge", String(open[1]), "--squash", "-d"])
    #expect(status == 0, "\(err)")
    #expect(err.contains("which decides how it is merged") && err.contains("not deleted"), "\(err)")
    #expect(out.contains("(position 2)"), "\(out)")
    #expect(await world.github.enqueued == 2)
    #expect(await !world.github.appliedWrites.contains { $0.method == "DELETE" })
    // Taken out of the queue on the web, then queued again: applied, but answered with
    // GitHub's generic error — read back, found queued, sent once.
    await world.github.dequeue(open[1], in: acme)
    // The command's read and the outbox's read pass; the mutation is applied, then the error.
    await world.github.inject(
      .genericGraphQLErrorAfterApplying, path: "/graphql", method: "POST", times: 1, after: 2)
    (status, out, err) = try await world.run(["pr", "merge", String(open[1])])
    #expect(status == 0, "\(out) \(err)")
    #expect(out.contains("Added #\(open[1]) to the merge queue"), "\(out) \(err)")
    #expect(await world.github.enqueued == 3)
    #expect(await world.github.graphQLState.queries["EnqueuePullRequest"] == 3)
  }

  /// `pr merge` says the checks and review as GitHub has them now, read before it merges —
  /// never only as the cache last had them — so GitHub's refusal for a failing check is no
  /// surprise.
  @Test func mergeSaysTheChecksGitHubHasNow() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    // The local GitHub fails a check of every pull request numbered 3k + 1.
    let number = try #require(
      Self.served.first { $0.isPullRequest && $0.state == .open && $0.number % 3 == 1 }
    ).number
    await world.github.refuseMerges(
      of: number, in: acme, saying: "Required status check \"test\" is failing.")
    let (status, _, err) = try await world.run(["pr", "merge", String(number), "--squash"])
    #expect(status != 0)
    #expect(err.contains("Merging #\(number)") && err.contains("checks failing"), "\(err)")
    #expect(!err.contains("when last read"), "\(err)")
    #expect(err.contains("is failing"), "\(err)")
    #expect(await world.github.mergedPulls.isEmpty)
  }

  /// `pr merge`: merged once at the head read, the branch deleted when asked; a lost answer
  /// settled by reading the pull request; GitHub's refusal said; a merge queued offline whose
  /// head moved meanwhile waits in conflict rather than merging commits nobody read.
  @Test func mergeLandsOnceAndSaysWhyWhenRefused() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let open = Self.served.filter { $0.isPullRequest && $0.state == .open }.map(\.number)
    try #require(open.count >= 2)
    // The answer lost after GitHub merged it: read back, merged once, the branch deleted.
    await world.github.inject(
      .failAfterApplying(status: 502), path: "/repos/acme/tracker/pulls/\(open[0])/merge",
      method: "PUT")
    var (status, out, err) = try await world.run(["pr", "merge", String(open[0]), "--squash", "-d"])
    #expect(status == 0, "\(err)")
    #expect(out == "Merged #\(open[0]) (squash); deleted feature/\(open[0]).\n", "\(out)")
    #expect(err.contains("Merging #\(open[0])"), "\(err)")
    #expect(await world.github.mergedPulls == [open[0]])
    #expect(await world.github.deletedBranches == ["feature/\(open[0])"])

    // Refused: GitHub's reason, nothing merged.
    await world.github.refuseMerges(
      of: open[1], in: acme, saying: "Required status check \"ci\" is failing.")
    (status, out, err) = try await world.run(["pr", "merge", String(open[1]), "--rebase"])
    #expect(status != 0 && err.contains("Required status check"), "\(err)")
    await world.github.refuseMerges(of: open[1], in: acme, saying: nil)

    // Queued offline at the head whose diff was read; pushed meanwhile: GitHub refuses the old
    // head, and the merge waits in conflict.
    await world.github.servePullRequestFiles(
      [], ofPullRequest: open[1], in: acme, head: String(repeating: "d", count: 40))
    (status, out, err) = try await world.run(["pr", "diff", String(open[1])])
    #expect(status == 0, "\(err)")
    await world.github.setReachable(false)
    (status, out, err) = try await world.run(["pr", "merge", String(open[1]), "--merge"])
    await world.github.setReachable(true)
    #expect(err.contains("Queued: merge #\(open[1])"), "\(err)")
    await world.github.servePullRequestFiles(
      [], ofPullRequest: open[1], in: acme, head: String(repeating: "e", count: 40))
    (status, out, err) = try await world.run(["queue", "send"])
    (status, out, err) = try await world.run(["queue"])
    #expect(out.contains("head moved"), "\(out)")
    #expect(await world.github.mergedPulls == [open[0]])

    // A method the repository does not allow: refused before anything is queued.
    try await world.github.allowMergeMethods(["merge", "rebase"], in: acme)
    (status, out, err) = try await world.run(["pr", "merge", String(open[1]), "--squash"])
    #expect(
      status != 0
        && err.contains(
          "acme/tracker does not allow squash merges (it allows merge commits and rebase merges)"),
      "\(err)")
    #expect(await world.github.mergedPulls == [open[0]])

    let issue = try #require(Self.served.first { !$0.isPullRequest }).number
    (status, out, err) = try await world.run(["pr", "merge", String(issue), "--merge"])
    #expect(status != 0 && err.contains("not a pull request"), "\(err)")
    (status, out, err) = try await world.run(["pr", "merge", String(open[0])])
    #expect(status != 0 && err.contains("Give one of --merge"), "\(err)")

    // A protected head branch: merged, and the branch said not deleted.
    let other = try await World()
    defer { Task { await other.stop() } }
    await other.github.protectBranch("feature/\(open[0])")
    (status, out, err) = try await other.run(["pr", "merge", String(open[0]), "--merge", "-d"])
    #expect(status == 0, "\(err)")
    #expect(out == "Merged #\(open[0]) (merge).\n", "\(out)")
    #expect(err.contains("feature/\(open[0]) was not deleted"), "\(err)")
  }

  /// `pr merge -d` deletes only a branch the pull request owns, still at the head merged, and
  /// only after its own merge: never a fork's branch (whose name the base repository may use
  /// for another pull request), never a branch pushed to since, never after someone else
  /// merged; and a head pushed since it was read is not merged.
  @Test func mergeDeletesOnlyTheBranchThePullRequestOwns() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let open = Self.served.filter { $0.isPullRequest && $0.state == .open }.map(\.number)
    try #require(open.count >= 2)
    // A fork's branch: merged, the base repository's branch of that name left alone.
    await world.github.serveHeadFromFork("forker/tracker", ofPullRequest: open[0], in: acme)
    var (status, out, err) = try await world.run(["pr", "merge", String(open[0]), "--merge", "-d"])
    #expect(status == 0, "\(err)")
    #expect(out == "Merged #\(open[0]) (merge).\n", "\(out)")
    #expect(err.contains("a fork's branch"), "\(err)")
    #expect(await world.github.deletedBranches == [])

    // Pushed to after the merge's head was read: merged at that head, the branch kept.
    await world.github.pushBranch(
      "feature/\(open[1])", to: String(repeating: "f", count: 40), in: acme)
    (status, out, err) = try await world.run(["pr", "merge", String(open[1]), "--merge", "-d"])
    #expect(status == 0, "\(err)")
    #expect(out == "Merged #\(open[1]) (merge).\n", "\(out)")
    #expect(err.contains("was not deleted"), "\(err)")
    #expect(await world.github.deletedBranches == [])

    // Queued offline, then merged by someone else before it is sent: their merge, not ours.
    let world2 = try await World()
    defer { Task { await world2.stop() } }
    (status, out, err) = try await world2.run(["pr", "view", String(open[0])])
    #expect(status == 0, "\(err)")
    await world2.github.servePullRequestFiles(
      [], ofPullRequest: open[0], in: acme, head: String(repeating: "a", count: 40))
    (status, out, err) = try await world2.run(["pr", "diff", String(open[0])])
    #expect(status == 0, "\(err)")
    await world2.github.setReachable(false)
    (status, out, err) = try await world2.run(["pr", "merge", String(open[0]), "--merge", "-d"])
    await world2.github.setReachable(true)
    #expect(err.contains("Queued: merge #\(open[0])"), "\(err)")
    let someoneElse = GitHubClient(host: await world2.github.host, token: "test-token")
    let head = try await someoneElse.pullRequest(open[0], of: acme).headSHA
    try await someoneElse.mergePullRequest(
      open[0], PullRequestMerge(method: .merge, headSHA: head), in: acme)
    (status, out, err) = try await world2.run(["queue", "send"])
    #expect(status == 0, "\(err)")
    #expect(await world2.github.mergedPulls == [open[0]])
    #expect(await world2.github.deletedBranches == [])

    // Read at one head, pushed to since: not merged, and said why.
    await world2.github.servePullRequestFiles(
      [], ofPullRequest: open[1], in: acme, head: String(repeating: "b", count: 40))
    (status, out, err) = try await world2.run(["pr", "diff", String(open[1])])
    #expect(status == 0, "\(err)")
    await world2.github.servePullRequestFiles(
      [], ofPullRequest: open[1], in: acme, head: String(repeating: "c", count: 40))
    (status, out, err) = try await world2.run(["pr", "merge", String(open[1]), "--merge"])
    #expect(status != 0 && err.contains("moved since you read it"), "\(err)")
    #expect(await world2.github.mergedPulls == [open[0]])
  }

  /// `pr merge --auto`: auto-merge turned on once, at the head read — a lost answer found on
  /// GitHub (read through GraphQL) rather than sent again, a second ask already held; one that
  /// could be merged now refused with GitHub's words; queued offline; not with --delete-branch.
  @Test func autoMergeIsTurnedOnOnceAndSaysWhyWhenRefused() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let open = Self.served.filter { $0.isPullRequest && $0.state == .open }.map(\.number)
    try #require(open.count >= 2)
    let (waiting, clean) = (open[0], open[1])
    await world.github.setMergeableNow(clean, in: acme)
    // The mutation applied, its answer lost: found on the next read, not sent again.
    await world.github.inject(
      .failAfterApplying(status: 502), path: "/graphql", method: "POST", times: 1, after: 1)
    var (status, out, err) = try await world.run(
      ["pr", "merge", String(waiting), "--squash", "--auto"])
    #expect(status == 0, "\(err)")
    #expect(out == "#\(waiting) will be merged (squash) once its requirements are met.\n", "\(out)")
    #expect(err.contains("Auto-merging #\(waiting)"), "\(err)")
    #expect(await world.github.autoMergesEnabled == 1)
    #expect(await world.github.graphQLState.queries["EnableAutoMerge"] == 1)
    #expect(
      await world.github.graphQLState.queries["AutoMergeState"] == 2,
      "read before the send, and after the answer was lost")
    #expect(await world.github.autoMergeMethod(of: waiting, in: acme) == "SQUASH")
    #expect(await world.github.mergedPulls.isEmpty)
    (status, out, err) = try await world.run(["pr", "merge", String(waiting), "--squash", "--auto"])
    #expect(status == 0, "\(err)")
    #expect(await world.github.autoMergesEnabled == 1, "already on: nothing sent")
    (status, out, err) = try await world.run(["pr", "merge", String(waiting), "--merge", "--auto"])
    #expect(status != 0 && err.contains("another method (squash)"), "\(err)")
    // On with a method this client does not know: still on, never taken for off.
    await world.github.setAutoMerge("MERGE_QUEUE\u{1B}[2J", of: waiting, in: acme)
    (status, out, err) = try await world.run(["pr", "merge", String(waiting), "--squash", "--auto"])
    #expect(status != 0 && err.contains("another method (merge_queue"), "\(err)")
    #expect(!err.contains("\u{1B}[2J"), "GitHub's words are shown, not obeyed")
    #expect(await world.github.autoMergesEnabled == 1)
    await world.github.setAutoMerge("SQUASH", of: waiting, in: acme)

    // Mergeable now: GitHub will not wait for it, and says so.
    (status, out, err) = try await world.run(["pr", "merge", String(clean), "--rebase", "--auto"])
    #expect(status != 0 && err.contains("clean status"), "\(err)")
    #expect(await world.github.autoMergeMethod(of: clean, in: acme) == nil)

    (status, out, err) = try await world.run(["pr", "merge", String(clean), "-r", "--auto", "-d"])
    #expect(status != 0 && err.contains("cannot be used with --auto"), "\(err)")

    // Offline: queued at the head read (`pr diff`), turned on once GitHub is reached.
    let later = clean
    await world.github.setMergeableNow(later, in: acme, false)
    await world.github.servePullRequestFiles(
      [], ofPullRequest: later, in: acme, head: LocalGitHub.headSHA(of: later))
    (status, out, err) = try await world.run(["pr", "diff", String(later)])
    #expect(status == 0, "\(err)")
    await world.github.setReachable(false)
    (status, out, err) = try await world.run(["pr", "merge", String(later), "--merge", "--auto"])
    await world.github.setReachable(true)
    #expect(err.contains("Queued: merge #\(later) when ready (merge)"), "\(err)")
    (status, out, err) = try await world.run(["queue", "send"])
    #expect(await world.github.autoMergeMethod(of: later, in: acme) == "MERGE")
    #expect(await world.github.autoMergesEnabled == 2)
  }

  /// `pr comment`: a comment on the pull request's conversation, through the same outbox as
  /// `issues comment`, sent once.
  @Test func commentWritesOnThePullRequestsConversation() async throws {
    let world = try await World()
    defer { Task { await world.stop() } }
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let pull = try #require(Self.served.first { $0.isPullRequest && $0.state == .open }).number
    let (status, _, err) = try await world.run(["pr", "comment", String(pull), "-b", "Looks good"])
    #expect(status == 0, "\(err)")
    #expect(await world.github.commentBodies(of: pull, in: acme) == ["Looks good"])
  }
}
