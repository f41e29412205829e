import Foundation
import GitHubIssues
@testable import IssuesBrowser
import TerminalTestSupport
import Testing
import TrellisTerminal

/// The key table is the one source of the keys: the keyboard, the help, the status line and the
/// README all come from it.
@MainActor
@Suite struct KeyBindingsTests {
  /// The README's key section, between its markers.
  static func readmeKeys() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let begin = try #require(readme.range(of: "<!-- keys:begin -->\n"))
    let end = try #require(
      readme.range(of: "<!-- keys:end -->", range: begin.upperBound..<readme.endIndex))
    return String(readme[begin.upperBound..<end.lowerBound]).trimmingCharacters(in: .newlines)
  }

  @Test func theReadmeTableIsTheKeyTable() throws {
    let generated = KeyBindings.markdown
    let readme = try Self.readmeKeys()
    if readme != generated {
      // Print the table to paste, so that fixing the README is one copy.
      print("README key table is stale; it should read:\n\(generated)")
    }
    #expect(readme == generated)
  }

  @Test func everyRowOfEveryTableIsInTheHelp() throws {
    var harness = try BrowserHarness(columns: 140, rows: 80)
    harness.press(.character("?"))
    let screen = harness.lines.joined(separator: "\n")
    for table in KeyBindings.all {
      #expect(screen.contains(table.title), "\(table.title)")
      for row in table.rows {
        #expect(screen.contains(row.summary), "\(row.summary)")
        #expect(screen.contains(row.keyNames), "\(row.keyNames)")
      }
    }
  }

  @Test func theHelpScrollsOnASmallTerminalAndAnyOtherKeyClosesIt() throws {
    var harness = try BrowserHarness(columns: 100, rows: 20)
    harness.press(.character("?"))
    let last = try #require(KeyBindings.all.last?.rows.last?.summary)
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
    #expect(harness.lines.last?.contains(KeyBindings.browsing.hint) == true)
    harness.press(.character("/"))
    #expect(harness.lines.last?.contains(KeyBindings.searching.hint) == true)
    harness.press(.escape, .enter)
    #expect(harness.lines.last?.contains(KeyBindings.reading.hint) == true)
  }

  @Test func keysMatchWithTheirModifiersAndShiftIsInTheCharacter() {
    let table = KeyBindings.browsing
    #expect(table.command(for: KeyEvent(.character("s"))) == .cycleState)
    #expect(table.command(for: KeyEvent(.character("Z"), modifiers: .shift)) == .expandAllSections)
    #expect(table.command(for: KeyEvent(.character("s"), modifiers: .control)) == nil)
    #expect(table.command(for: KeyEvent(.character("s"), modifiers: .alt)) == nil)
    #expect(
      KeyBindings.global.command(for: KeyEvent(.character("c"), modifiers: .control))
        == .interrupt)
    #expect(KeyBindings.searching.command(for: KeyEvent(.character("q"))) == nil)
    #expect(
      KeyBindings.searching.command(for: KeyEvent(.character("u"), modifiers: .control))
        == .eraseAll)
  }

  @Test func keyNamesAreWhatTheKeycapsSay() {
    #expect(KeyBinding.name(of: KeyEvent(.character(" "))) == "Space")
    #expect(KeyBinding.name(of: KeyEvent(.pageDown)) == "PgDn")
    #expect(KeyBinding.name(of: KeyEvent(.character("u"), modifiers: .control)) == "Ctrl-U")
    #expect(KeyBinding.name(of: KeyEvent(.tab, modifiers: .shift)) == "Shift-Tab")
    #expect(KeyBindings.browsing.hint(for: .cycleState) == "s: state")
    #expect(KeyBindings.browsing.hint(for: .moveAlongChips(.right)) == "←→: milestone")
    #expect(KeyBindings.browsing.hint(for: .expandAllSections) == nil)
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
}
