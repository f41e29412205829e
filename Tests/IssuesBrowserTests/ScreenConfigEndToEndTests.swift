import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

/// The person's configuration, the theme and the accessible mode, in the real `issues` in a
/// pseudo-terminal. In `EndToEndTests`, one test at a time with the others that read a terminal.
extension EndToEndTests {
  /// A title a shell would run, if it were pasted into a command.
  static let shellHostileTitle =
    "it's \"$(touch PWNED)\" `touch PWNED` ; touch PWNED & echo\nnext line $HOME * 'quoted'"

  /// A local GitHub serving 40 issues of `acme/tracker` whose issue 1, open and updated last,
  /// has `title`.
  static func gitHub(withFirstIssueTitled title: String) async throws -> LocalGitHub {
    let github = try await LocalGitHub.start()
    let repository = RepositoryName(owner: "acme", name: "tracker")
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 2, seed: 3), as: repository)
    let json = try #require(await github.itemJSON(number: 1, in: repository))
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    object["title"] = title
    object["state"] = "open"
    object["updated_at"] = "2030-01-01T00:00:00Z"
    let replaced = String(
      decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    #expect(replaced != json)
    await github.replaceItem(number: 1, in: repository, json: replaced)
    return github
  }

  /// A folder with a configuration file holding `yaml`, for `XDG_CONFIG_HOME`.
  static func configHome(_ yaml: String) throws -> URL {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("issues-config-\(UUID().uuidString)")
    let folder = home.appendingPathComponent("trellis-issues")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try yaml.write(
      to: folder.appendingPathComponent("dashboard.yml"), atomically: true, encoding: .utf8)
    return home
  }

  static func waitForFile(_ url: URL, seconds: Double = 10) -> String? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let text = try? String(contentsOf: url, encoding: .utf8) { return text }
      usleep(20_000)
    }
    return nil
  }

  @Test func aConfigRebindsKeysAndRunsCommandsOnAHostileTitleAsOneArgument() async throws {
    let github = try await Self.gitHub(withFirstIssueTitled: Self.shellHostileTitle)
    defer { Task { await github.stop() } }
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("issues-commands-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: out) }
    let home = try Self.configHome(
      """
      keys:
        browser: {s: none, S: state}
      commands:
        - key: w
          title: save the title
          run: cd "$OUT" && printf '%s' {title} > title.txt && printf '%s' {number} > number.txt
          screens: [browser]
        - key: W
          title: save in the foreground
          run: cd "$OUT" && printf '%s' "{title}" > foreground.txt && printf 'shown\\n'
          in: foreground
          screens: [browser]
      """)
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await Run(
      arguments: ["acme/tracker"], github: github,
      environment: ["XDG_CONFIG_HOME": home.path, "OUT": out.path])
    run.read(seconds: 20) { $0.lines.contains { $0.contains("#1 ") && $0.contains("it's") } }
    run.read { $0.lines.first?.contains("up to date") == true }
    // The hostile issue alone, focused.
    run.pty.type("/PWNED\r")
    run.read { $0.lines[2].contains("1 issue ") }
    #expect(run.terminal.lines[2].contains("1 issue "), "\(run.terminal.lines[2])")

    // A command in the background: its result on the status line, the title as one argument.
    run.pty.type("w")
    run.read { $0.lines.last?.contains("“save the title” done.") == true }
    #expect(Self.waitForFile(out.appendingPathComponent("title.txt")) == Self.shellHostileTitle)
    #expect(Self.waitForFile(out.appendingPathComponent("number.txt")) == "1")
    // In the foreground: the terminal is handed over and the screen comes back whole.
    run.pty.type("W")
    run.read { $0.lines.last?.contains("“save in the foreground” done.") == true }
    #expect(
      Self.waitForFile(out.appendingPathComponent("foreground.txt")) == Self.shellHostileTitle)
    run.settle()
    #expect(run.terminal.isAlternateScreen)
    #expect(run.terminal.lines.first?.contains("acme/tracker") == true)
    #expect(!run.terminal.lines.contains { $0.hasPrefix("shown") }, "the screen was redrawn")
    let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(left == ["foreground.txt", "number.txt", "title.txt"], "nothing of the title ran")

    // `s` does nothing now; `S` steps the state.
    run.pty.type("s")
    run.settle()
    #expect(run.terminal.lines[2].contains("─ open ·"))
    run.pty.type("S")
    run.read { $0.lines[2].contains("─ closed ·") }
    #expect(run.terminal.lines[2].contains("─ closed ·"))
    // The help lists the person's commands and keys.
    run.pty.type("?")
    run.read { $0.lines.contains { $0.contains("Keys") } }
    run.pty.type("\u{1B}[6~")
    // A frame may arrive in more than one read: wait for both lines.
    run.read { screen in
      ["save in the foreground", "save the title"].allSatisfy { command in
        screen.lines.contains { $0.contains(command) }
      }
    }
    #expect(run.terminal.lines.contains { $0.contains("save in the foreground") })
    #expect(run.terminal.lines.contains { $0.contains("save the title") })
    run.pty.type("x")
    run.settle()
    run.quitAndExpectTheTerminalAsItWas()
  }

  @Test func aMistakeInTheConfigurationIsReportedBeforeTheTerminalIsTouched() async throws {
    let home = try Self.configHome("keys:\n  browser: {K: upp}\n")
    defer { try? FileManager.default.removeItem(at: home) }
    let run = try await Run(
      arguments: ["--demo"], github: nil, environment: ["XDG_CONFIG_HOME": home.path])
    // The message may arrive in more than one read: wait for its end.
    let said = String(
      decoding: run.read { $0.lines.joined().contains("did you mean “up”?") }, as: UTF8.self)
    #expect(waitForExit(run.process))
    #expect(run.process.terminationStatus == 1)
    #expect(
      said.contains("dashboard.yml:2:16: the browser has no command “upp”: did you mean “up”?"))
    #expect(!said.contains("\u{1B}[?1049h"))
  }

  @Test func aThemeColoursEveryScreenAndNoColorStillShowsTheFocus() async throws {
    let light = try await Run(arguments: ["--demo", "--theme", "light"], github: nil)
    let lightBytes = light.read { $0.lines.first?.contains("demo") == true } + light.settle()
    // The light bars (252) and focus (153), not the dark ones (236, 24).
    let lightText = String(decoding: lightBytes, as: UTF8.self)
    #expect(lightText.contains("48;5;252") && lightText.contains("48;5;153"))
    #expect(!lightText.contains("48;5;236"))
    light.pty.type("q")
    #expect(waitForExit(light.process))

    let home = try Self.configHome("theme: {base: dark, focus: 'on 52'}\n")
    defer { try? FileManager.default.removeItem(at: home) }
    let custom = try await Run(
      arguments: ["--demo"], github: nil, environment: ["XDG_CONFIG_HOME": home.path])
    let customText = String(
      decoding: custom.read { $0.lines.first?.contains("demo") == true } + custom.settle(),
      as: UTF8.self)
    #expect(customText.contains("48;5;52") && customText.contains("48;5;236"))
    custom.pty.type("q")
    #expect(waitForExit(custom.process))

    let plain = try await Run(
      arguments: ["--demo", "--theme", "light"], github: nil, environment: ["NO_COLOR": "1"])
    let plainText = String(
      decoding: plain.read { $0.lines.first?.contains("demo") == true } + plain.settle(),
      as: UTF8.self)
    #expect(!plainText.contains("38;") && !plainText.contains("48;"))
    #expect(plainText.contains("[7m") || plainText.contains(";7m") || plainText.contains("[1;7m"))
    plain.pty.type("q")
    #expect(waitForExit(plain.process))
  }

  /// The status line's `#N` of the focus the accessible mode said, if it says one.
  static func announcedNumber(_ terminal: VirtualTerminal) -> String? {
    guard let status = terminal.lines.last, let hash = status.firstIndex(of: "#") else {
      return nil
    }
    let digits = status[status.index(after: hash)...].prefix { $0.isNumber }
    return digits.isEmpty ? nil : "#" + digits
  }

  @Test func theAccessibleModesCursorFollowsTheFocusThroughKeysChipsAndALiveSync() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    let repository = RepositoryName(owner: "acme", name: "tracker")
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 900, milestoneCount: 4, seed: 5), as: repository)
    await github.inject(.delayed(seconds: 0.3), path: "/repos/acme/tracker/issues", times: .max)
    let run = try await Run(arguments: ["acme/tracker", "--accessible"], github: github)
    run.read(seconds: 20) { Self.announcedNumber($0) != nil }
    #expect(run.terminal.isCursorVisible)
    // On the focused row, which the status line says.
    func cursorIsOnTheSaidRow() -> Bool {
      guard let number = Self.announcedNumber(run.terminal) else { return false }
      return run.terminal.lines[run.terminal.cursor.y].contains(number + " ")
        && run.terminal.cursor.x == 0
    }
    #expect(cursorIsOnTheSaidRow(), "\(run.terminal.cursor) \(run.terminal.lines)")
    // While the sync commits page after page, the cursor stays on the focused row.
    var checks = 0
    run.read(seconds: 20) { terminal in
      guard terminal.lines.first?.contains("syncing") == true else { return true }
      if Self.announcedNumber(terminal) != nil {
        #expect(cursorIsOnTheSaidRow())
        checks += 1
      }
      return false
    }
    #expect(checks > 0)
    run.settle()
    let before = run.terminal.cursor.y
    run.pty.type("j")
    run.read { $0.cursor.y == before + 1 }
    #expect(run.terminal.cursor.y == before + 1)
    #expect(cursorIsOnTheSaidRow())
    // A chip: the cursor goes to it, and the status line says which.
    run.pty.type("\u{1B}[C")
    run.read { $0.lines.last?.contains("milestone") == true }
    #expect(run.terminal.cursor.y == 1)
    #expect(run.terminal.lines.last?.contains("milestone") == true)
    run.quitAndExpectTheTerminalAsItWas()
  }
}
#endif
