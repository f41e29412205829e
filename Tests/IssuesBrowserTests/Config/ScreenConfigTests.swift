import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// The screens' part of the configuration file: keys rebound per screen, the person's commands,
/// the theme and the accessible mode; every mistake at its line and column.
@Suite struct ScreenConfigTests {
  static func read(_ yaml: String) throws(ConfigFileError) -> ScreenConfig {
    try ScreenConfig(file: ConfigFile(yaml: yaml, file: "dashboard.yml"))
  }

  @Test func aFileWithoutScreenKeysChangesNothing() throws {
    let config = try Self.read("sections:\n  - {title: Bugs, query: label:bug}\n")
    #expect(config == ScreenConfig.standard)
    #expect(config.accessible == nil && config.theme == nil)
  }

  @Test func keysAreReboundPerScreenAndTheHelpAndHintsFollow() throws {
    let config = try Self.read(
      """
      keys:
        browser: {K: up, J: down, s: none, S: state}
        reader: {ctrl-d: page-down}
        dashboard: {n: next-section}
        inbox: {x: done}
      """)
    let browsing = config.browserKeys.browsing
    #expect(browsing.command(for: KeyEvent(.character("K"))) == .moveInList(.up))
    #expect(browsing.command(for: KeyEvent(.character("J"))) == .moveInList(.down))
    // `s` sends nothing now, `S` the state; the standard `k` and `j` still move.
    #expect(browsing.command(for: KeyEvent(.character("s"))) == nil)
    #expect(browsing.command(for: KeyEvent(.character("S"))) == .cycleState)
    #expect(browsing.command(for: KeyEvent(.character("k"))) == .moveInList(.up))
    #expect(browsing.hint(for: .cycleState) == "S: state")
    #expect(
      config.browserKeys.reading.command(for: KeyEvent(.character("d"), modifiers: .control))
        == .pageReader(screens: 1))
    #expect(config.dashboardKeys.command(for: KeyEvent(.character("n"))) == .nextSection)
    #expect(config.inboxKeys.command(for: KeyEvent(.character("x"))) == .triage(.done))
    // The screens the file did not name keep their keys.
    #expect(config.browserKeys.searching == BrowserKeys.standard.searching)
    #expect(config.browserKeys.helpLines.contains { $0.keys.hasPrefix("S") })
  }

  /// The search field, the label picker and the milestone picker take keys of their own; a
  /// command of the person's reaches them only when its `screens:` names them, so that its key
  /// still types there.
  @Test func theFieldsAndPickersTakeKeysOfTheirOwn() throws {
    let config = try Self.read(
      """
      keys:
        search: {ctrl-w: erase-all, tab: keep-search}
        label-picker: {ctrl-n: down, ctrl-p: up}
        milestone-picker: {h: none, ctrl-b: milestone-left}
      commands:
        - {key: w, title: note, run: "echo {number}"}
        - {key: ctrl-t, title: tag, run: "echo {number}", screens: [search]}
      """)
    let control = { (character: Character) in KeyEvent(.character(character), modifiers: .control) }
    #expect(config.browserKeys.searching.command(for: control("w")) == .eraseAll)
    #expect(config.browserKeys.searching.command(for: KeyEvent(.tab)) == .commitSearch)
    #expect(config.browserKeys.pickingLabel.command(for: control("n")) == .moveInList(.down))
    #expect(config.browserKeys.pickingLabel.command(for: control("p")) == .moveInList(.up))
    let picking = config.browserKeys.movingToMilestone
    #expect(picking.command(for: KeyEvent(.character("h"))) == nil)
    #expect(picking.command(for: control("b")) == .moveAlongChips(.left))
    #expect(picking.command(for: KeyEvent(.character("l"))) == .moveAlongChips(.right))
    // Without screens:, a command stays off the fields that take typing.
    #expect(config.browserKeys.browsing.command(for: KeyEvent(.character("w"))) != nil)
    #expect(config.browserKeys.searching.command(for: KeyEvent(.character("w"))) == nil)
    #expect(config.browserKeys.pickingLabel.command(for: KeyEvent(.character("w"))) == nil)
    guard case .run(let tag) = config.browserKeys.searching.command(for: control("t")) else {
      Issue.record("ctrl-t is not the command in the search")
      return
    }
    #expect(tag.title == "tag")
    #expect(config.browserKeys.browsing.command(for: control("t")) == nil)
    // A command another field does not have is named with that field's own commands.
    #expect {
      try Self.read("keys:\n  search: {x: close}\n")
    } throws: { error in
      "\(error)".contains("the search has no command “close”")
    }
    #expect {
      try Self.read(
        """
        keys:
          label-picker: {ctrl-n: down}
        commands:
          - {key: ctrl-n, title: next, run: "echo {number}", screens: [label-picker]}
        """)
    } throws: { error in
      "\(error)".contains("bound twice on the label-picker")
    }
  }

  @Test func aKeyTakenFromACommandLeavesItsRowAndAnEmptyRowLeavesTheTable() throws {
    let config = try Self.read("keys:\n  browser: {s: label, l: none}\n")
    let browsing = config.browserKeys.browsing
    #expect(browsing.command(for: KeyEvent(.character("s"))) == .pickLabel)
    #expect(browsing.rows.first { $0.summary.hasPrefix("state:") }?.actions.isEmpty == true)
    #expect(!browsing.helpLines.contains { $0.summary.hasPrefix("state:") })
    #expect(browsing.hint(for: .cycleState) == nil)
    #expect(browsing.rows.filter { $0.actions.contains { $0.command == .pickLabel } }.count == 1)
  }

  @Test func commandsAreBoundWithTheirTitleOnTheScreensTheyName() throws {
    let config = try Self.read(
      """
      commands:
        - key: b
          title: check out
          run: gh pr checkout {number} --repo {repository}
          in: foreground
          screens: [browser, dashboard]
        - key: ctrl-o
          title: notes
          run: echo {title} >> ~/notes
      """)
    guard
      case .run(let checkout) = config.browserKeys.browsing.command(for: KeyEvent(.character("b")))
    else {
      Issue.record("b is not the command")
      return
    }
    #expect(checkout.title == "check out" && checkout.mode == .foreground)
    #expect(checkout.template.placeholders == [.number, .repository])
    #expect(config.dashboardKeys.command(for: KeyEvent(.character("b"))) == .run(checkout))
    #expect(config.inboxKeys.command(for: KeyEvent(.character("b"))) == nil)
    let notes = KeyEvent(.character("o"), modifiers: .control)
    // Without screens:, every screen.
    #expect(config.inboxKeys.command(for: notes) != nil)
    #expect(config.browserKeys.reading.command(for: notes) != nil)
    #expect(config.browserKeys.browsing.rows.contains { $0.summary == "check out" })
    // A title's control characters are shown, never sent to the terminal.
    let escaping = try Self.read(
      "commands:\n  - {key: w, title: \"red\\e[31m\\a\", run: echo}\n")
    #expect(escaping.inboxKeys.rows.contains { $0.summary == "red␛[31m␇" })
    #expect(!escaping.inboxKeys.helpLines.contains { $0.summary.unicodeScalars.contains("\u{1B}") })
  }

  @Test(arguments: [
    ("keys:\n  browser: {K: upp}\n", 2, 16, "did you mean “up”?"),
    ("keys:\n  browser: {ctrl-c: quit}\n", 2, 13, "Ctrl-C always quits"),
    ("keys:\n  browser: {hyper-x: quit}\n", 2, 13, "is not a key"),
    ("keys:\n  brwoser: {K: up}\n", 2, 3, "did you mean “browser”?"),
    ("keys:\n  dashboard: {x: state}\n", 2, 18, "the dashboard has no command “state”"),
    (
      "keys:\n  browser: {b: up}\ncommands:\n  - {key: b, title: t, run: echo, screens: [browser]}\n",
      4, 11, "b is bound twice on the browser: here and at line 2, column 13"
    ),
    (
      "commands:\n  - key: b\n    title: t\n    run: echo {numbr}\n", 4, 15,
      "{numbr} is not a placeholder"
    ),
    ("commands:\n  - {key: b, title: t, run: 'echo {x}'}\n", 2, 35, "{x} is not a placeholder"),
    ("commands:\n  - {key: b, run: echo}\n", 2, 5, "no title:"),
    (
      "commands:\n  - {key: b, title: t, run: echo, in: later}\n", 2, 39, "foreground or background"
    ),
    ("commands:\n  - {key: b, title: t, run: echo, screens: [board]}\n", 2, 45, "not a screen"),
    ("theme: solarized\n", 1, 8, "“solarized” is not a theme"),
    ("theme: {base: light, focus: purple-ish}\n", 1, 29, "is not a colour"),
    ("theme: {foccus: red}\n", 1, 9, "did you mean “focus”?"),
    ("accessible: maybe\n", 1, 13, "true or false"),
    ("commands:\n  - {key: b, title: t, run: \"echo \\0\"}\n", 2, 29, "holds a NUL"),
    ("colours: dark\n", 1, 1, "the file has no “colours”"),
  ])
  func mistakesAreReportedWhereTheyAre(yaml: String, line: Int, column: Int, message: String) {
    do {
      _ = try Self.read(yaml)
      Issue.record("accepted: \(yaml)")
    } catch {
      #expect(error.line == line && error.column == column, "\(error)")
      #expect(error.message.contains(message), "\(error)")
    }
  }

  @Test func aThemeIsBuiltInOrABaseWithRolesChanged() throws {
    #expect(try Self.read("theme: light\n").theme == Theme.light)
    let custom = try #require(
      try Self.read("theme:\n  base: mono\n  focus: 'bold white on #005f87'\n  dim: '245'\n")
        .theme)
    #expect(
      custom.focus == Style(foreground: .white, background: .rgb(0, 0x5F, 0x87), attributes: .bold))
    #expect(custom.dim == Style(foreground: .indexed(245)))
    #expect(custom.bar == Theme.mono.bar)
    #expect(try Self.read("accessible: yes\n").accessible == true)
  }

  @Test func keyNamesAreReadAsTheHelpWritesThem() {
    #expect(KeyEvent(configName: "j") == KeyEvent(.character("j")))
    #expect(KeyEvent(configName: "shift-j") == KeyEvent(.character("J")))
    #expect(KeyEvent(configName: "Ctrl-U") == KeyEvent(.character("u"), modifiers: .control))
    #expect(KeyEvent(configName: "shift-tab") == KeyEvent(.tab, modifiers: .shift))
    #expect(KeyEvent(configName: "PgDn") == KeyEvent(.pageDown))
    #expect(KeyEvent(configName: "←") == KeyEvent(.left))
    #expect(KeyEvent(configName: "f12") == KeyEvent(.function(12)))
    #expect(KeyEvent(configName: "space") == KeyEvent(.character(" ")))
    #expect(KeyEvent(configName: "-") == KeyEvent(.character("-")))
    #expect(KeyEvent(configName: "hyper-x") == nil)
    #expect(KeyEvent(configName: "f99") == nil)
    // Every key the standard tables name reads back from its name.
    let browser = BrowserKeys.standard
    let keys =
      [
        browser.browsing, browser.reading, browser.movingToMilestone, browser.searching,
        browser.pickingLabel,
      ].flatMap { $0.rows.flatMap(\.actions).map(\.key) }
      + DashboardKeys.standard.rows.flatMap(\.actions).map(\.key)
      + InboxKeys.standard.rows.flatMap(\.actions).map(\.key)
    for key in keys {
      #expect(KeyEvent(configName: key.keycapName) == key, "\(key.keycapName)")
    }
  }
}

/// `issues help config` names every key of the file, every command of every screen, every
/// placeholder and every theme role.
@Suite struct ConfigHelpTests {
  @Test func theHelpNamesEverythingTheFileTakes() {
    let help = ScreenConfig.helpText
    for key in ConfigFile.topLevelKeys { #expect(help.contains("\(key):"), "\(key)") }
    for role in Theme.roles { #expect(help.contains(role.name), "\(role.name)") }
    for theme in Theme.builtIn { #expect(help.contains(theme.name), "\(theme.name)") }
    for placeholder in CommandTemplate.Placeholder.allCases {
      #expect(help.contains("{\(placeholder.rawValue)}") && help.contains(placeholder.variable))
    }
    let names =
      BrowserKeys.standard.browsing.namedCommands.map(\.name)
      + BrowserKeys.standard.reading.namedCommands.map(\.name)
      + DashboardKeys.standard.namedCommands.map(\.name)
      + InboxKeys.standard.namedCommands.map(\.name)
      + BrowserKeys.standard.searching.namedCommands.map(\.name)
      + BrowserKeys.standard.pickingLabel.namedCommands.map(\.name)
      + BrowserKeys.standard.movingToMilestone.namedCommands.map(\.name)
    for name in names { #expect(help.contains(name), "\(name)") }
    for screen in ScreenConfig.ScreenName.allCases {
      #expect(help.contains("\(screen.rawValue):"), "\(screen.rawValue)")
    }
    // The example in the help is a valid configuration.
    let example = help.components(separatedBy: "Example:\n\n").last ?? ""
    let yaml = example.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : String($0) }.joined(separator: "\n")
    #expect(throws: Never.self) {
      try ScreenConfig(file: ConfigFile(yaml: yaml, file: "example.yml"))
    }
  }
}
