import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

/// The real `issues` executable in a pseudo-terminal, against a local GitHub serving betamax.
@Suite(.serialized) struct EndToEndTests {
  /// A running `issues` and what it drew, as a person would see it.
  final class Run {
    let pty: PseudoTerminal
    let process: Process
    var terminal: VirtualTerminal
    let cacheDirectory: URL
    let settingsBefore: [UInt8]

    init(
      arguments: [String], github: LocalGitHub?, columns: Int = 110, rows: Int = 30,
      environment: [String: String] = [:]
    ) async throws {
      pty = try PseudoTerminal(columns: columns, rows: rows)
      terminal = VirtualTerminal(width: columns, height: rows)
      cacheDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("issues-e2e-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
      var arguments = arguments
      if let github { arguments += ["--api-url", await github.baseURL.absoluteString] }
      settingsBefore = pty.settings()
      process = try pty.launch(
        builtExecutablePath("issues"), arguments,
        environment: [
          "XDG_CACHE_HOME": cacheDirectory.path, "GH_TOKEN": "test-token", "GH_REPO": "",
          "GH_HOST": "",
        ].merging(environment) { _, given in given })
    }

    deinit {
      if process.isRunning { process.terminate() }
      try? FileManager.default.removeItem(at: cacheDirectory)
    }

    /// Quits with `q` and checks that the program ended well and left the terminal as it was.
    func quitAndExpectTheTerminalAsItWas(sourceLocation: SourceLocation = #_sourceLocation) {
      pty.type("q")
      settle()
      #expect(waitForExit(process), sourceLocation: sourceLocation)
      #expect(process.terminationStatus == 0, sourceLocation: sourceLocation)
      #expect(!terminal.isAlternateScreen, sourceLocation: sourceLocation)
      #expect(terminal.isCursorVisible, sourceLocation: sourceLocation)
      #expect(pty.settings() == settingsBefore, sourceLocation: sourceLocation)
    }

    /// Reads what the program writes until the screen satisfies a condition; returns the bytes.
    ///
    /// A screen that never satisfies it within `seconds` is a failure (with the screen as it
    /// was), not a silent wait.
    @discardableResult
    func read(
      seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
      until condition: (VirtualTerminal) -> Bool
    ) -> [UInt8] {
      var collected: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      let deadline = Date().addingTimeInterval(seconds)
      // What the last read already drew may satisfy it: then nothing more may ever arrive.
      if condition(terminal) { return collected }
      while Date() < deadline {
        let count = Glibc.read(pty.master, &buffer, buffer.count)
        if count > 0 {
          collected += buffer[0..<count]
          terminal.write(buffer[0..<count])
          if condition(terminal) { return collected }
        } else {
          usleep(2000)
        }
      }
      let screen = terminal.lines.joined(separator: "\n")
      Issue.record(
        "The screen did not show what was awaited within \(seconds) s:\n\(screen)",
        sourceLocation: sourceLocation)
      return collected
    }

    /// Reads until nothing more arrives for a moment.
    @discardableResult
    func settle(quiet: Double = 0.3) -> [UInt8] {
      var collected: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      var lastByte = Date()
      while Date().timeIntervalSince(lastByte) < quiet {
        let count = Glibc.read(pty.master, &buffer, buffer.count)
        if count > 0 {
          collected += buffer[0..<count]
          terminal.write(buffer[0..<count])
          lastByte = Date()
        } else {
          usleep(2000)
        }
      }
      return collected
    }

    func contains(_ text: String) -> Bool { terminal.lines.contains { $0.contains(text) } }

    /// Writes bytes to the app as a terminal does, in pieces of `chunk`, reading the screen
    /// between them (so that the app's output never blocks it).
    func writeInPieces(_ bytes: [UInt8], chunk: Int, quiet: Double) {
      var sent = 0
      while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes {
          Glibc.write(pty.master, $0.baseAddress, min(chunk, bytes.count - sent))
        }
        if count > 0 { sent += count } else { usleep(2000) }
        settle(quiet: quiet)
      }
    }
  }

  private func startGitHub() async throws -> LocalGitHub {
    let github = try await LocalGitHub.start()
    try await github.serveBetamax()
    return github
  }

  @Test func theBrowserSyncsThenFollowsTheChipsStateAndSearch() async throws {
    let github = try await startGitHub()
    defer { Task { await github.stop() } }
    let run = try await Run(arguments: ["betamaxpy/betamax"], github: github)
    run.read { $0.lines.first?.contains("up to date") == true && $0.lines[1].contains("All 13") }
    #expect(run.terminal.isAlternateScreen)
    #expect(run.contains("1.0.0  2 open issues"))
    run.settle()

    // Select the "No milestone" chip: only the two chips change on the chip row.
    let before = run.terminal.screen
    run.pty.type("\u{1B}[C")
    run.settle()
    run.pty.type("\r")
    run.read { $0.lines[3].hasPrefix(" Open  11") }
    run.settle()
    let after = run.terminal.screen
    let chipRow = run.terminal.lines[1]
    let changedOnChipRow = (0..<after.width).filter { before[$0, 1] != after[$0, 1] }
    let allRange = try #require(range(of: " All 13 ", in: chipRow))
    let noneRange = try #require(range(of: " No milestone 11 ", in: chipRow))
    #expect(!changedOnChipRow.isEmpty)
    #expect(changedOnChipRow.allSatisfy { allRange.contains($0) || noneRange.contains($0) })
    #expect((0..<after.width).allSatisfy { before[$0, 0] == after[$0, 0] })

    // Toggle the state: closed issues without a milestone.
    run.pty.type("s")
    run.read { $0.lines[2].contains("closed · recently updated") }
    run.settle()
    #expect(run.terminal.lines[3].hasPrefix(" Closed  "))
    #expect(!run.contains(" Open  "))

    // Search as you type.
    run.pty.type("/cassette")
    run.read { $0.lines[2].contains("search: “cassette”") }
    #expect(run.terminal.lines.last?.contains("cassette") == true)
    run.pty.type("\r")
    run.settle()

    // Resize: the screen is redrawn at the new size.
    run.pty.resize(columns: 80, rows: 20)
    kill(run.process.processIdentifier, SIGWINCH)
    run.terminal = VirtualTerminal(width: 80, height: 20)
    run.read { $0.lines.first?.contains("betamaxpy/betamax") == true && $0.lines.count == 20 }
    run.settle()
    #expect(run.terminal.lines[1].contains("No milestone"))

    // Quit: the terminal is as it was.
    run.quitAndExpectTheTerminalAsItWas()
  }

  /// The number on the "All" chip, if the chip row shows one.
  private func allCount(_ terminal: VirtualTerminal) -> Int? {
    guard terminal.lines.count > 1, let range = terminal.lines[1].range(of: "All ") else {
      return nil
    }
    return Int(terminal.lines[1][range.upperBound...].prefix { $0.isNumber })
  }

  @Test func rowsAppearWhileASlowSyncRunsAndQuittingKeepsWhatWasCommitted() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    let repository = RepositoryName(owner: "acme", name: "tracker")
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 1_500, milestoneCount: 6, seed: 3), as: repository)
    await github.inject(
      .delayed(seconds: 0.4), path: "/repos/acme/tracker/issues", times: .max)
    let run = try await Run(arguments: ["acme/tracker"], github: github)
    // While the title says it is syncing, the All chip counts more and more issues, and rows show.
    var counts: [Int] = []
    run.read(seconds: 20) { terminal in
      guard terminal.lines.first?.contains("syncing") == true, let count = allCount(terminal),
        count > 0
      else { return false }
      if counts.last != count { counts.append(count) }
      return counts.count >= 3
    }
    #expect(counts.count >= 3, "counts seen while syncing: \(counts)")
    #expect(counts == counts.sorted())
    #expect(run.terminal.lines.dropFirst(3).contains { $0.contains("#") || $0.contains("·") })

    // Quit mid-sync: the terminal is restored, and the cache holds whole pages only.
    run.quitAndExpectTheTerminalAsItWas()
    let path = IssueCache.defaultURL(
      for: repository, host: .github,
      environment: ["XDG_CACHE_HOME": run.cacheDirectory.path])
    // The host of --api-url names the folder: find the file wherever it is.
    let file = try #require(
      FileManager.default.enumerator(atPath: run.cacheDirectory.path)?.allObjects
        .compactMap { $0 as? String }.first { $0.hasSuffix("tracker.sqlite") },
      "no cache under \(run.cacheDirectory.path) (expected like \(path.path))")
    let cache = try IssueCache(path: run.cacheDirectory.appendingPathComponent(file).path)
    let state = try cache.syncState()
    #expect(state.itemCount > 0 && state.itemCount < 1_500)
    // Whole pages only: the cache holds a prefix of the listing's `updated_at` order, no gaps.
    let order = await github.servedItems(in: repository)
      .sorted { ($0.updatedAt, $0.number) < ($1.updatedAt, $1.number) }.map(\.number)
    let cached = Set(try cache.issues(IssueFilter(state: .all, kind: .both)).map(\.number))
    #expect(cached == Set(order.prefix(state.itemCount)), "a prefix of the listing")
    #expect(state.lastSyncedAt == nil, "the sync never finished")
  }

  @Test func anUnreachableGitHubShowsOfflineAndAnEmptyCacheSaysSo() async throws {
    let run = try await Run(
      arguments: ["betamaxpy/betamax", "--api-url", "http://127.0.0.1:9"], github: nil)
    run.read { $0.lines.contains { $0.contains("offline") } }
    #expect(run.contains("Press r to try again."), "\(run.terminal.lines.joined(separator: "\n"))")
    run.pty.type("q")
    #expect(waitForExit(run.process))
  }

  @Test func aPasteOfTwentyThousandEscapesLeavesTheAppRunningAndTheTerminalRestored() async throws {
    let run = try await Run(arguments: ["--demo"], github: nil)
    run.read { $0.lines.first?.contains("demo") == true }
    run.settle()
    run.writeInPieces([UInt8](repeating: 0x1B, count: 20_000), chunk: 1024, quiet: 0.01)
    run.settle()
    #expect(run.process.isRunning)
    #expect(run.contains("betamaxpy/betamax"))
    run.quitAndExpectTheTerminalAsItWas()
  }

  @Test func aHugePasteIntoSearchIsCutAndEscAndJAnswerAtOnce() async throws {
    let run = try await Run(arguments: ["--demo"], github: nil)
    run.read { $0.lines.first?.contains("demo") == true }
    run.settle()
    run.pty.type("/")
    run.settle()
    // 1.6 MB of words in one bracketed paste, written as the terminal would, in pieces.
    let paste =
      Array("\u{1B}[200~".utf8) + Array(String(repeating: "abcd ", count: 320_000).utf8)
      + Array("\u{1B}[201~".utf8)
    run.writeInPieces(paste, chunk: 65_536, quiet: 0.005)
    run.read(seconds: 5) { $0.lines.contains { $0.contains("characters: the rest") } }
    #expect(
      run.contains("characters: the rest"),
      "the status line says the paste was cut: \(run.terminal.lines.joined(separator: "\n"))")
    run.settle()
    // Esc leaves the search, and j moves the focus, each answered at once.
    for key in ["\u{1B}", "j"] {
      let before = run.terminal.lines
      let started = ContinuousClock.now
      run.pty.type(key)
      run.read(seconds: 5) { $0.lines != before }
      let waited = ContinuousClock.now - started
      #expect(run.terminal.lines != before, "\(key.debugDescription) changed the screen")
      #expect(waited < .milliseconds(500), "\(key.debugDescription) answered in \(waited)")
      run.settle()
    }
    #expect(run.process.isRunning)
    run.quitAndExpectTheTerminalAsItWas()
  }

  @Test func aTitleFullOfControlCharactersDrivesNothing() async throws {
    let github = try await Self.gitHub(withFirstIssueTitled: HostileTitleTests.hostileTitle)
    defer { Task { await github.stop() } }

    // The table, in a terminal: no byte of the title is a control.
    let list = try await Run(
      arguments: ["list", "acme/tracker", "--state", "all", "--limit", "100"], github: github,
      columns: 200)
    #expect(waitForExit(list.process, seconds: 20))
    let bytes = list.settle()
    #expect(list.process.terminationStatus == 0)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("␛]52;c;aGVsbG8=␇"))
    #expect(!bytes.contains(0x1B) && !bytes.contains(0x07))
    #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
    #expect(!list.terminal.isAlternateScreen)

    // `--jq` prints a string result bare, for scripts; to a terminal, its controls are shown.
    let filtered = try await Run(
      arguments: [
        "list", "acme/tracker", "--state", "all", "--limit", "100", "--offline", "--json",
        "number,title", "--jq", ".[] | select(.number == 1) | .title",
      ], github: github, environment: ["XDG_CACHE_HOME": list.cacheDirectory.path])
    #expect(waitForExit(filtered.process, seconds: 20))
    let filteredBytes = filtered.settle()
    #expect(filtered.process.terminationStatus == 0)
    #expect(String(decoding: filteredBytes, as: UTF8.self).contains("␛]52;c;aGVsbG8=␇"))
    #expect(!filteredBytes.contains(0x1B) && !filteredBytes.contains(0x07))

    // The browser, on the same cache: it draws the title and the terminal sees no OSC.
    let browse = try await Run(
      arguments: ["acme/tracker", "--offline"], github: nil,
      environment: [
        "XDG_CACHE_HOME": list.cacheDirectory.path
      ])
    let drawn = browse.read { $0.lines.first?.contains("acme/tracker") == true }
    browse.settle()
    #expect(!String(decoding: drawn, as: UTF8.self).contains("]52;"))
    #expect(!String(decoding: drawn, as: UTF8.self).contains("]8;;"))
    browse.pty.type("q")
    browse.settle()
    #expect(waitForExit(browse.process))
    #expect(browse.pty.settings() == browse.settingsBefore)
  }

  @Test func noColorDrawsWithoutColourAndADumbTerminalGetsAMessage() async throws {
    let plain = try await Run(arguments: ["--demo"], github: nil, environment: ["NO_COLOR": "1"])
    let bytes = plain.read { $0.lines.first?.contains("demo") == true } + plain.settle()
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(!text.contains("38;") && !text.contains("48;"))
    #expect(!text.contains("[31m") && !text.contains("[32m"))
    // The focused row is still told apart: reverse video (SGR 7), and it moves with `j`.
    func reversed(_ text: String) -> Bool {
      text.components(separatedBy: "\u{1B}[").contains { part in
        guard let end = part.firstIndex(of: "m") else { return false }
        let parameters = part[..<end]
        return parameters.allSatisfy { $0.isNumber || $0 == ";" }
          && parameters.split(separator: ";").contains("7")
      }
    }
    #expect(reversed(text), "the focus is drawn in reverse video")
    plain.pty.type("j")
    let moved = String(decoding: plain.settle(), as: UTF8.self)
    #expect(reversed(moved), "the focus moved, in reverse video")
    plain.pty.type("q")
    #expect(waitForExit(plain.process))

    let colored = try await Run(arguments: ["--demo"], github: nil)
    let coloredBytes = colored.read { $0.lines.first?.contains("demo") == true } + colored.settle()
    #expect(String(decoding: coloredBytes, as: UTF8.self).contains("38;"))
    colored.pty.type("q")
    #expect(waitForExit(colored.process))

    for term in ["dumb", ""] {
      let dumb = try await Run(arguments: ["--demo"], github: nil, environment: ["TERM": term])
      let said = String(
        decoding: dumb.read { $0.lines.joined().contains("issues list") }, as: UTF8.self)
      #expect(waitForExit(dumb.process))
      #expect(dumb.process.terminationStatus != 0)
      #expect(said.contains("cannot show the full-screen browser"))
      #expect(!said.contains("\u{1B}[?1049h"))  // never the alternate screen
    }
  }

  /// A mistyped argument is reported with the usage before the terminal is touched, and exits
  /// 1 as gh's usage errors do.
  @Test func aBadArgumentIsReportedBeforeTheTerminalIsTouched() async throws {
    for arguments in [["not a repo"], ["a/b/c"], ["o/r", "--hostname", "no host"]] {
      let run = try await Run(arguments: arguments, github: nil)
      let said = String(decoding: run.read { $0.lines.joined().contains("Usage") }, as: UTF8.self)
      #expect(waitForExit(run.process))
      #expect(run.process.terminationStatus == 1, "\(arguments)")
      #expect(said.contains("is not a"), "\(arguments)")
      #expect(!said.contains("\u{1B}[?1049h"))  // never the alternate screen
      #expect(run.pty.settings() == run.settingsBefore)
    }
    // An argument holding terminal controls is shown, not interpreted, in the error.
    let (hostile, said) = try runIssues(
      ["list", "\u{1B}]52;c;aGk=\u{07}\u{1B}[2J/x/y/z"], errorsToo: true)
    #expect(hostile == 1)
    #expect(said.contains("is not a repository"))
    #expect(!said.contains("\u{1B}") && !said.contains("\u{07}"))
    // So is an issue argument, in every command that takes one.
    for command in ["view", "close", "reopen", "edit", "comment"] {
      let (refused, reason) = try runIssues(
        [command, "\u{1B}[31m12\u{07}", "-R", "o/r"], errorsToo: true)
      #expect(refused == 1, "\(command)")
      #expect(reason.contains("is not an issue"), "\(command): \(reason)")
      #expect(!reason.contains("\u{1B}") && !reason.contains("\u{07}"), "\(command)")
    }
    let (status, version) = try runIssues(["--version"])
    #expect(status == 0)
    #expect(version.hasPrefix("issues "))
  }

  @Test func aRateLimitSaysUntilWhen() async throws {
    let github = try await startGitHub()
    defer { Task { await github.stop() } }
    await github.inject(
      .rateLimit(reset: Date().addingTimeInterval(3600)), path: "/repos/betamaxpy/betamax",
      times: 10)
    let run = try await Run(arguments: ["betamaxpy/betamax"], github: github)
    run.read { $0.lines.first?.contains("rate-limited until") == true }
    #expect(run.terminal.lines.first?.contains("rate-limited until") == true)
    run.pty.type("q")
    #expect(waitForExit(run.process))
  }

  @Test func aPrivateRepositoryWithoutATokenSaysHowToGetOne() async throws {
    let github = try await startGitHub()
    defer { Task { await github.stop() } }
    await github.inject(.status(404), path: "/repos/betamaxpy/betamax", times: 10)
    // No token anywhere: none in the environment, and no gh on the PATH to ask.
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
      "no-tools-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: empty) }
    let run = try await Run(
      arguments: ["betamaxpy/betamax"], github: github,
      environment: ["GH_TOKEN": "", "GITHUB_TOKEN": "", "PATH": empty.path])
    run.read { $0.lines.contains { $0.contains("Press r to try again") } }
    #expect(run.contains("set GH_TOKEN"))
    run.pty.type("q")
    #expect(waitForExit(run.process))
  }

  @Test func theDemoNeedsNoNetwork() async throws {
    let run = try await Run(arguments: ["--demo"], github: nil)
    run.read { $0.lines[1].contains("All 13") }
    #expect(run.contains("demo · bundled betamax data"))
    run.pty.type("q")
    #expect(waitForExit(run.process))
  }

  @Test func withoutATerminalTheBrowserSuggestsList() throws {
    let (status, text) = try runIssues(["--demo"], errorsToo: true)
    #expect(status != 0)
    #expect(text.contains("issues list OWNER/REPO"))
  }

  @Test func syncReportsWhatItDownloadedAndThenWhatChanged() async throws {
    let github = try await startGitHub()
    defer { Task { await github.stop() } }
    let cache = FileManager.default.temporaryDirectory
      .appendingPathComponent("issues-sync-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    func sync() async throws -> String {
      let (status, text) = try runIssues(
        ["sync", "betamaxpy/betamax", "--api-url", await github.baseURL.absoluteString],
        cache: cache)
      #expect(status == 0)
      return text
    }
    let first = try await sync()
    #expect(first.contains("Synced betamaxpy/betamax: 150 items changed"))
    #expect(first.contains("(full)"))
    #expect(first.contains("150 in the cache"))
    let second = try await sync()
    #expect(!second.contains("(full)"))
    #expect(second.contains("150 in the cache"))
  }

  @Test func mistakesAndEmptyResultsSaySoWithoutTheRootUsage() throws {
    let cache = FileManager.default.temporaryDirectory
      .appendingPathComponent("issues-says-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let (status, said) = try runIssues(
      ["list", "a/b/c", "--offline"], cache: cache, errorsToo: true)
    #expect(status != 0)
    #expect(said.contains("“a/b/c” is not a repository"))
    #expect(!said.contains("USAGE") && !said.contains("SUBCOMMANDS"))
    let (_, empty) = try runIssues(
      ["list", "betamaxpy/betamax", "--offline"], cache: cache, errorsToo: true)
    #expect(empty.contains("is empty: run `issues sync betamaxpy/betamax` first"))
    let (_, label) = try runIssues(
      ["list", "betamaxpy/betamax", "--offline", "--label", "nosuch"], cache: cache,
      errorsToo: true)
    #expect(label.contains("no label “nosuch”"))
  }

  @Test func viewPrintsAnIssueAndItsConversationAsGhDoes() async throws {
    let github = try await startGitHub()
    defer { Task { await github.stop() } }
    let cache = FileManager.default.temporaryDirectory
      .appendingPathComponent("issues-view-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    // An issue (not a pull request) of the recording, served on its own as GitHub does.
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(
        "Sources/GitHubTestSupport/Fixtures/github3py__betamax_issues_state_all.json")
    let recording = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [[String: Any]])
    let items = recording.compactMap {
      ($0["response"] as? [String: Any])?["body"] as? [[String: Any]]
    }.joined()
    var item = try #require(items.first { $0["pull_request"] == nil })
    // It announces the two comments served for it, as GitHub's count does.
    item["comments"] = 2
    let number = try #require(item["number"] as? Int)
    await github.serve(
      "/repos/betamaxpy/betamax/issues/\(number)",
      body: try JSONSerialization.data(withJSONObject: item))
    let comments = """
      [{"id": 1, "user": {"login": "hroncok", "id": 1}, "body": "First\\tcolumn\\r\\nsecond line \\u001b]52;c;aGk=\\u0007",
        "created_at": "2017-01-01T00:00:00Z", "updated_at": "2017-01-02T00:00:00Z",
        "author_association": "MEMBER", "reactions": {"+1": 2, "heart": 0}},
       {"id": 2, "user": null, "body": null, "created_at": "2017-01-03T00:00:00Z",
        "updated_at": "2017-01-03T00:00:00Z"}]
      """
    await github.serve(
      "/repos/betamaxpy/betamax/issues/\(number)/comments", body: Data(comments.utf8))
    let api = await github.baseURL.absoluteString
    let (status, piped) = try runIssues(
      ["view", String(number), "-R", "betamaxpy/betamax", "--api-url", api, "--comments"],
      cache: cache)
    #expect(status == 0)
    // With --comments, only the comments, as gh prints them to a pipe.
    let lines = piped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "author:\throncok")
    #expect(!lines.contains { $0.hasPrefix("title:\t") })
    // Without, the header and the body.
    let (_, issueOnly) = try runIssues(
      ["view", String(number), "-R", "betamaxpy/betamax", "--api-url", api, "--offline"],
      cache: cache)
    let header = issueOnly.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    #expect(header.first?.hasPrefix("title:\t") == true)
    #expect(header.contains("number:\t\(number)"))
    #expect(header.contains("state:\tOPEN") || header.contains("state:\tCLOSED"))
    #expect(lines.contains("author:\throncok"))
    #expect(lines.contains("association:\tmember"))
    #expect(lines.contains("edited:\ttrue"))
    #expect(lines.contains("author:\tghost"))
    #expect(piped.contains("second line ␛]52;c;aGk=␇\n"))
    // Tabs and carriage returns as GitHub has them, as gh prints them to a pipe.
    #expect(piped.contains("First\tcolumn\r\nsecond line"))
    #expect(!piped.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })

    // Offline, from the cache; gh's --json with the conversation.
    let (_, json) = try runIssues(
      [
        // The cache of data fetched through --api-url is that API's, apart from github.com's.
        "view", "#\(number)", "-R", "betamaxpy/betamax", "--offline", "--api-url", api, "--json",
        "number,comments,state",
      ],
      cache: cache)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["number"] as? Int == number)
    let conversation = try #require(object["comments"] as? [[String: Any]])
    #expect(conversation.count == 2)
    #expect((conversation[0]["author"] as? [String: Any])?["login"] as? String == "hroncok")
    let reactions = try #require(conversation[0]["reactionGroups"] as? [[String: Any]])
    #expect(reactions.count == 1)
    #expect(reactions.first?["content"] as? String == "THUMBS_UP")

    // A URL names the repository; a number missing from an offline cache says how to get it.
    let (urlStatus, _) = try runIssues(
      [
        "view", "https://github.com/betamaxpy/betamax/issues/\(number)", "--offline", "--api-url",
        api,
      ],
      cache: cache)
    #expect(urlStatus == 0)
    let (missing, said) = try runIssues(
      ["view", "99999", "-R", "betamaxpy/betamax", "--offline", "--api-url", api], cache: cache,
      errorsToo: true)
    #expect(missing != 0)
    #expect(said.contains("#99999 is not in the cache"))
    // Online, an issue the repository does not have is said to be missing, not the repository.
    let (absent, saidOnline) = try runIssues(
      ["view", "99999", "-R", "betamaxpy/betamax", "--api-url", api], cache: cache,
      errorsToo: true)
    #expect(absent == 1)
    #expect(
      saidOnline.contains("Could not resolve to an issue or pull request with the number of 99999"),
      "\(saidOnline)")
  }

  @Test func listPrintsATableOrJSON() async throws {
    let github = try await startGitHub()
    defer { Task { await github.stop() } }
    let cache = FileManager.default.temporaryDirectory
      .appendingPathComponent("issues-list-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    func list(_ arguments: [String]) async throws -> (Int32, String) {
      try runIssues(
        ["list", "betamaxpy/betamax", "--api-url", await github.baseURL.absoluteString]
          + arguments, cache: cache)
    }
    // The token's account, which the first sync asks for once and remembers.
    await github.serve("/user", body: Data(#"{"login":"sigmavirus24","id":240830}"#.utf8))
    let (status, tsv) = try await list(["-m", "1.0.0", "-s", "all"])
    #expect(status == 0)
    let rows = tsv.split(separator: "\n")
    #expect(rows.count == 2)
    // gh's piped columns: number, state, title, labels, updated.
    for row in rows {
      let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
      #expect(fields.count == 5)
      #expect(fields[1] == "OPEN" || fields[1] == "CLOSED")
    }
    // gh's --json fields and shapes; one line to a pipe, as gh prints it.
    let (_, json) = try await list([
      "--json", "number,milestone,state,author,labels,assignees", "-m", "none", "-L", "5",
      "--offline",
    ])
    #expect(json.split(separator: "\n").count == 1)
    #expect(!json.contains("\\/"), "slashes as gh writes them, not escaped")
    // Bots as gh names them: their login, or app/NAME.
    for author in ["dependabot[bot]", "app/dependabot"] {
      let (botStatus, _) = try await list(["-A", author, "--offline"])
      #expect(botStatus == 0, "-A \(author)")
    }
    let decoded = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    #expect(decoded.count == 5)
    for object in decoded {
      #expect(
        Set(object.keys) == ["number", "milestone", "state", "author", "labels", "assignees"])
      #expect(object["milestone"] is NSNull)
      #expect(["OPEN", "CLOSED"].contains(object["state"] as? String))
      #expect((object["author"] as? [String: Any])?["login"] is String)
      #expect((object["labels"] as? [[String: Any]])?.allSatisfy { $0["name"] is String } == true)
    }
    let (_, any) = try await list([
      "--json", "number,milestone", "-m", "*", "-s", "all", "--offline",
    ])
    let inSome = try JSONSerialization.jsonObject(with: Data(any.utf8)) as? [[String: Any]]
    #expect(inSome?.isEmpty == false)
    #expect(
      inSome?.allSatisfy { ($0["milestone"] as? [String: Any])?["title"] is String } == true)
    // Assignees, authors, and @me through GET /user, asked once (by the first sync).
    let (_, assigned) = try await list([
      "--json", "number,assignees", "-a", "HRONCOK", "-s", "all", "--offline",
    ])
    let hroncok = try #require(
      try JSONSerialization.jsonObject(with: Data(assigned.utf8)) as? [[String: Any]])
    #expect(hroncok.count == 3)  // issues only, counted in the recording by hand
    let (meStatus, mine) = try await list(["-a", "@me", "-s", "all", "-R", "betamaxpy/betamax"])
    #expect(meStatus == 0)
    #expect(mine.split(separator: "\n").count == 2)
    await github.serve("/user", body: Data(#"{"login":"someone-else","id":1}"#.utf8))
    let (_, again) = try await list(["-a", "@me", "-s", "all", "--offline"])
    #expect(again == mine, "@me is remembered for the token, not asked again")
    let (_, authored) = try await list(["-A", "bboe", "-s", "all", "-L", "100", "--offline"])
    #expect(authored.split(separator: "\n").count == 5)
    let (badField, said) = try runIssues(
      ["list", "betamaxpy/betamax", "--json", "number,comments", "--offline"], cache: cache,
      errorsToo: true)
    #expect(badField != 0)
    #expect(said.contains("issues view N --json comments") && said.contains("assignees"))
    let (badLogin, _) = try runIssues(
      ["list", "betamaxpy/betamax", "-a", "x;rm -rf", "--offline"], cache: cache, errorsToo: true)
    #expect(badLogin == 1)
    let (failure, _) = try await list(["--milestone", "no such", "--offline"])
    #expect(failure != 0)
    // Only the cache itself: no folder of Foundation's URL cache beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path) == ["trellis-issues"])
  }
}

/// Runs `issues` without a terminal, with a token and a cache folder of its own; returns its exit
/// status and what it printed (standard output, and standard error if asked).
private func runIssues(_ arguments: [String], cache: URL? = nil, errorsToo: Bool = false) throws
  -> (Int32, String)
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: builtExecutablePath("issues"))
  process.arguments = arguments
  var environment = ProcessInfo.processInfo.environment
  if let cache { environment["XDG_CACHE_HOME"] = cache.path }
  environment["GH_TOKEN"] = "test-token"
  process.environment = environment
  let output = Pipe()
  process.standardOutput = output
  if errorsToo { process.standardError = output }
  try process.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return (process.terminationStatus, text)
}

/// The columns a text occupies in a line of single-width text, if there.
private func range(of text: String, in line: String) -> Range<Int>? {
  guard let found = line.range(of: text) else { return nil }
  let start = DisplayWidth.of(String(line[..<found.lowerBound]))
  return start..<(start + DisplayWidth.of(text))
}
#endif
