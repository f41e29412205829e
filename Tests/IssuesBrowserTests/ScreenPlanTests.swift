import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// Every screen on the one plan: each has the `?` overlay from its own key table, a status line
/// that keeps `? keys · q quit` at 80 columns, the person's keys, and a focus the accessible
/// mode can put the cursor on and say.
@MainActor
@Suite struct ScreenPlanTests {
  static let size80 = TerminalSize(columns: 80, rows: 20)

  static func dashboard() throws -> DashboardBrowser {
    let (browser, _) = try DashboardBrowserTests.browser()
    browser.resize(size80)
    return browser
  }

  static func inbox() throws -> InboxBrowser {
    InboxBrowser(
      inboxes: [(.github, try InboxBrowserTests.inbox(6))], size: size80,
      now: { InboxBrowserTests.start })
  }

  /// Presses `?`, checks the overlay lists every row of `table`, scrolls it, and closes it with
  /// another key, which does nothing else.
  func expectTheHelp<Command>(
    on screen: some Screen, lines: () -> [String], table: KeyBindings<Command>,
    isOpen: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    screen.resize(TerminalSize(columns: 140, rows: 60))
    _ = screen.handle(.key(KeyEvent(.character("?"))))
    #expect(isOpen(), sourceLocation: sourceLocation)
    let shown = lines().joined(separator: "\n")
    #expect(shown.contains("Keys"), sourceLocation: sourceLocation)
    for row in table.rows {
      #expect(shown.contains(row.summary), "\(row.summary)", sourceLocation: sourceLocation)
      #expect(shown.contains(row.keyNames), "\(row.keyNames)", sourceLocation: sourceLocation)
    }
    #expect(shown.contains(HelpOverlay.keys.rows[0].summary), sourceLocation: sourceLocation)
    _ = screen.handle(.key(KeyEvent(.down)))
    #expect(isOpen(), "↓ scrolls the help", sourceLocation: sourceLocation)
    #expect(screen.handle(.key(KeyEvent(.character("q")))).isEmpty, sourceLocation: sourceLocation)
    #expect(!isOpen(), "any other key closes it", sourceLocation: sourceLocation)
    screen.resize(Self.size80)
  }

  @Test func everyScreenHasTheHelpFromItsOwnTable() throws {
    let dashboard = try Self.dashboard()
    expectTheHelp(
      on: dashboard, lines: { dashboard.render().lines }, table: DashboardKeys.standard,
      isOpen: { dashboard.help != nil })
    let inbox = try Self.inbox()
    expectTheHelp(
      on: inbox, lines: { inbox.render().lines }, table: InboxKeys.standard,
      isOpen: { inbox.help != nil })
  }

  @Test func theStatusLineKeepsKeysAndQuitAt80Columns() throws {
    let dashboard = try Self.dashboard()
    let inbox = try Self.inbox()
    for status in [dashboard.render().lines.last, inbox.render().lines.last] {
      let line = try #require(status)
      #expect(line.contains("? keys · q quit"), "\(line)")
      #expect(DisplayWidth.of(line) <= 80)
    }
  }

  @Test func aReboundKeyDrivesTheScreenAndItsHelp() throws {
    let config = try ScreenConfig(
      file: ConfigFile(
        yaml: "keys:\n  dashboard: {n: next-section, tab: none}\n  inbox: {x: done}\n",
        file: "dashboard.yml"))
    let dashboard = try Self.dashboard()
    dashboard.keys = config.dashboardKeys
    #expect(dashboard.selected == 0)
    _ = dashboard.handle(.key(KeyEvent(.tab)))
    #expect(dashboard.selected == 0, "Tab sends nothing now")
    _ = dashboard.handle(.key(KeyEvent(.character("n"))))
    #expect(dashboard.selected == 1)
    #expect(DashboardKeys.helpLines(dashboard.keys).contains { $0.keys.hasPrefix("Shift-Tab") })

    let inbox = try Self.inbox()
    inbox.keys = config.inboxKeys
    let focused = try #require(inbox.focused?.0)
    #expect(inbox.handle(.key(KeyEvent(.character("x")))) == [.sendTriage(host: 0)])
    #expect(inbox.threads[focused] == nil)
  }

  @Test func aCommandOfThePersonsRunsOnTheFocusedItem() throws {
    let command = UserCommand(
      title: "note", template: try CommandTemplate("echo {number} {title}"), mode: .background)
    let dashboard = try Self.dashboard()
    dashboard.keys = dashboard.keys.binding(KeyEvent(.character("w")), to: .run(command))
    let effects = dashboard.handle(.key(KeyEvent(.character("w"))))
    guard case .run(let run)? = effects.first else {
      Issue.record("no run: \(effects)")
      return
    }
    let (source, issue) = try #require(dashboard.focusedIssue)
    #expect(run.values[.number] == String(issue.number))
    #expect(run.values[.repository] == source.repository.description)
    #expect(run.values[.title] == issue.title)

    let inbox = try Self.inbox()
    inbox.keys = inbox.keys.binding(KeyEvent(.character("w")), to: .run(command))
    guard case .run(let threadRun)? = inbox.handle(.key(KeyEvent(.character("w")))).first else {
      Issue.record("no run on the inbox")
      return
    }
    #expect(threadRun.values[.title] == inbox.focused?.1.notification.title)
    #expect(threadRun.values[.kind] == "issue")
  }

  @Test func theFocusHasAPlaceAndWords() throws {
    let dashboard = try Self.dashboard()
    _ = dashboard.render()
    let cursor = try #require(dashboard.cursorPosition)
    let (_, issue) = try #require(dashboard.focusedIssue)
    #expect(dashboard.render().lines[cursor.y].contains("#\(issue.number)"))
    #expect(dashboard.focusDescription?.hasPrefix("#\(issue.number) \(issue.title)") == true)
    _ = dashboard.handle(.key(KeyEvent(.down)))
    _ = dashboard.render()
    #expect(dashboard.cursorPosition?.y == cursor.y + 1, "the cursor follows ↓")

    let inbox = try Self.inbox()
    _ = inbox.render()
    let thread = try #require(inbox.focused?.1)
    let place = try #require(inbox.cursorPosition)
    #expect(inbox.render().lines[place.y].contains(thread.notification.title))
    #expect(inbox.focusDescription?.contains("unread") == true)
  }

  @Test func theRendererShowsTheCursorWhereAskedAndHidesItAfter() {
    var renderer = FrameRenderer(colors: .none)
    var frame = CellBuffer(width: 10, height: 3)
    _ = renderer.render(frame)
    frame.draw { $0.text("abc", x: 0, y: 1) }
    let shown = String(
      decoding: renderer.render(frame, cursor: CellPoint(x: 2, y: 1)), as: UTF8.self)
    #expect(shown.hasSuffix("\u{1B}[2;3H\u{1B}[?25h\u{1B}[?2026l"), "\(shown.debugDescription)")
    // Nothing changed, the cursor stays: nothing is written.
    #expect(renderer.render(frame, cursor: CellPoint(x: 2, y: 1)).isEmpty)
    let moved = String(
      decoding: renderer.render(frame, cursor: CellPoint(x: 0, y: 2)), as: UTF8.self)
    #expect(moved.contains("\u{1B}[3H") && !moved.contains("?25h"))
    let hidden = String(decoding: renderer.render(frame), as: UTF8.self)
    #expect(hidden.contains("\u{1B}[?25l"))
  }
}

extension ScreenPlanTests {
  /// The person's keys for the search field and the label picker drive the browser: a key
  /// bound there acts, a key unbound there types.
  @MainActor
  @Test func theSearchAndThePickerTakeThePersonsKeys() throws {
    let config = try ScreenConfig(
      file: ConfigFile(
        yaml: "keys:\n  search: {tab: keep-search, ctrl-w: erase-all}\n"
          + "  label-picker: {esc: none}\n",
        file: "dashboard.yml"))
    let harness = try BrowserHarness()
    let browser = harness.browser
    browser.keys = config.browserKeys
    _ = browser.handle(.key(KeyEvent(.character("/"))))
    #expect(browser.state.mode == .searching)
    for character in "crash" { _ = browser.handle(.key(KeyEvent(.character(character)))) }
    #expect(browser.state.searchDraft == "crash")
    _ = browser.handle(.key(KeyEvent(.character("w"), modifiers: .control)))
    #expect(browser.state.searchDraft.isEmpty, "ctrl-w erases everything")
    for character in "dark" { _ = browser.handle(.key(KeyEvent(.character(character)))) }
    _ = browser.handle(.key(KeyEvent(.tab)))
    #expect(browser.state.mode == .browsing, "Tab keeps the search")
    // In the picker, Esc no longer closes it.
    _ = browser.handle(.key(KeyEvent(.character("l"))))
    #expect(browser.state.mode == .pickingLabel)
    _ = browser.handle(.key(KeyEvent(.escape)))
    #expect(browser.state.mode == .pickingLabel)
  }
}
