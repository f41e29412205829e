import Foundation
import GitHubIssues
@testable import IssuesBrowser
import TerminalTestSupport
import Testing
import TrellisTerminal

/// The key table is the one source of the keys: the keyboard, the help, the status line and
/// `issues help keys` all come from it.
@MainActor
@Suite struct KeyBindingsTests {
  @Test func everyRowOfEveryTableIsInTheHelp() throws {
    var harness = try BrowserHarness(columns: 140, rows: 80)
    harness.press(.character("?"))
    let screen = harness.lines.joined(separator: "\n")
    for line in BrowserKeys.standard.helpLines where !line.keys.isEmpty {
      #expect(screen.contains(line.keys), "\(line.keys)")
      if !line.summary.isEmpty { #expect(screen.contains(line.summary), "\(line.summary)") }
    }
  }

  @Test func theHelpScrollsOnASmallTerminalAndAnyOtherKeyClosesIt() throws {
    var harness = try BrowserHarness(columns: 100, rows: 20)
    harness.press(.character("?"))
    let last = try #require(BrowserKeys.standard.helpLines.last?.summary)
    #expect(!harness.lines.joined().contains(last))
    harness.press(.pageDown, .pageDown, .pageDown, .pageDown, .pageDown)
    #expect(harness.lines.joined().contains(last))
    guard case .help(let offset) = harness.browser.state.mode else {
      Issue.record("scrolling closed the help")
      return
    }
    // Scrolling stops at the last screen.
    harness.press(.pageDown)
    #expect(harness.browser.state.mode == .help(offset: offset))
    harness.press(.character("x"))
    #expect(harness.browser.state.mode == .browsing)
  }

  @Test func theStatusLineShowsTheHintsOfTheModesTable() throws {
    var harness = try BrowserHarness(columns: 200, rows: 30)
    #expect(harness.lines.last?.contains(BrowserKeys.standard.browsing.hint) == true)
    harness.press(.character("/"))
    #expect(harness.lines.last?.contains(BrowserKeys.standard.searching.hint) == true)
    harness.press(.escape, .enter)
    #expect(harness.lines.last?.contains(BrowserKeys.standard.reading.hint) == true)
  }

  @Test func keysMatchWithTheirModifiersAndShiftIsInTheCharacter() {
    let table = BrowserKeys.standard.browsing
    #expect(table.command(for: KeyEvent(.character("s"))) == .cycleState)
    #expect(table.command(for: KeyEvent(.character("Z"), modifiers: .shift)) == .expandAllSections)
    #expect(table.command(for: KeyEvent(.character("s"), modifiers: .control)) == nil)
    #expect(table.command(for: KeyEvent(.character("s"), modifiers: .alt)) == nil)
    #expect(
      BrowserKeys.standard.global.command(for: KeyEvent(.character("c"), modifiers: .control))
        == .interrupt)
    #expect(BrowserKeys.standard.searching.command(for: KeyEvent(.character("q"))) == nil)
    #expect(
      BrowserKeys.standard.searching.command(for: KeyEvent(.character("u"), modifiers: .control))
        == .eraseAll)
  }

  @Test func keyNamesAreWhatTheKeycapsSay() {
    #expect(KeyEvent(.character(" ")).keycapName == "Space")
    #expect(KeyEvent(.pageDown).keycapName == "PgDn")
    #expect(KeyEvent(.character("u"), modifiers: .control).keycapName == "Ctrl-U")
    #expect(KeyEvent(.tab, modifiers: .shift).keycapName == "Shift-Tab")
    #expect(BrowserKeys.standard.browsing.hint(for: .cycleState) == "s: state")
    #expect(BrowserKeys.standard.browsing.hint(for: .moveAlongChips(.right)) == "←→: milestone")
    #expect(BrowserKeys.standard.browsing.hint(for: .expandAllSections) == nil)
  }

  @Test func everyBrowsingKeyDoesWhatItsRowSays() throws {
    // Each key, pressed on a fresh browser, changes what its command changes.
    var harness = try BrowserHarness()
    harness.press(.character("s"))
    #expect(harness.browser.state.filter.state == .closed)
    harness.press(.character("c"))
    #expect(harness.browser.state.filter.sort == .created)
    harness.press(.character("p"))
    #expect(harness.browser.state.filter.kind == .both)
    harness.press(.character("/"))
    #expect(harness.browser.state.mode == .searching)
    harness.press(.escape, .character("l"))
    #expect(harness.browser.state.mode == .pickingLabel)
    harness.press(.escape, .character("?"))
    #expect(harness.browser.state.mode == .help(offset: 0))
  }

  @Test func shiftMattersOnTabButNotOnACharacter() {
    let table = DashboardKeys.standard
    #expect(table.command(for: KeyEvent(.tab)) == .nextSection)
    #expect(table.command(for: KeyEvent(.tab, modifiers: .shift)) == .previousSection)
    #expect(table.command(for: KeyEvent(.character("G"), modifiers: .shift)) == .moveInList(.last))
    #expect(table.command(for: KeyEvent(.character("3"))) == .section(2))
    #expect(InboxKeys.standard.command(for: KeyEvent(.character("R"))) == .refresh)
    #expect(InboxKeys.standard.command(for: KeyEvent(.character("d"))) == .triage(.done))
  }

  @Test func theStatusLineKeepsKeysAndQuitOnANarrowTerminal() {
    for hints in [
      BrowserKeys.standard.browsing.hints, DashboardKeys.standard.hints, InboxKeys.standard.hints,
    ] {
      for columns in [40, 60, 78, 118] {
        let line = ScreenBars.hintLine(hints, columns: columns)
        #expect(DisplayWidth.of(line) <= columns, "\(columns): \(line)")
        #expect(line.hasSuffix(hints.suffix(2).joined(separator: " · ")), "\(line)")
      }
      // With room, every hint shows and nothing is elided.
      let all = hints.joined(separator: " · ")
      #expect(ScreenBars.hintLine(hints, columns: DisplayWidth.of(all)) == all)
    }
    #expect(BrowserKeys.standard.browsing.hints.suffix(2) == ["? keys", "q quit"])
    #expect(DashboardKeys.standard.hints.suffix(2) == ["? keys", "q quit"])
    #expect(InboxKeys.standard.hints.suffix(2) == ["? keys", "q quit"])
  }

  @Test func theBrowserAt80ColumnsSaysHowToGetHelpAndQuit() throws {
    let harness = try BrowserHarness(columns: 80, rows: 24)
    let status = try #require(harness.lines.last)
    #expect(status.contains("? keys · q quit"), "\(status)")
  }
}
