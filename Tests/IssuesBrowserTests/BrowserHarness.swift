import Foundation
import GitHubIssues
@testable import IssuesBrowser
import TerminalTestSupport
import TrellisTerminal

/// A browser on the bundled betamax data, drawn through the renderer into a virtual terminal.
@MainActor
struct BrowserHarness {
  let browser: IssueBrowser
  var terminal: VirtualTerminal
  var renderer = FrameRenderer()
  var screen: CellBuffer
  /// The browser's clock; tests move it forward.
  let clock: ManualClock

  /// A clock that moves only when told.
  final class ManualClock: @unchecked Sendable {
    var now = Date(timeIntervalSince1970: 1_767_000_000)
  }

  init(
    columns: Int = 100, rows: Int = 30, cache: IssueCache? = nil,
    status: SyncStatus = .demo
  ) throws {
    let cache = try cache ?? Self.betamax()
    let clock = ManualClock()
    self.clock = clock
    browser = IssueBrowser(
      cache: cache, repository: BundledDataset.repository,
      size: TerminalSize(columns: columns, rows: rows), syncStatus: status, now: { clock.now })
    terminal = VirtualTerminal(width: columns, height: rows)
    screen = CellBuffer(width: columns, height: rows)
    frame()
  }

  static func betamax() throws -> IssueCache {
    let cache = try IssueCache()
    try cache.apply(BundledDataset.load())
    return cache
  }

  /// What one frame changed.
  struct Frame {
    var bytes: Int
    var changed: [(x: Int, y: Int)]
    var rows: Set<Int> { Set(changed.map(\.y)) }
  }

  @discardableResult
  mutating func frame() -> Frame {
    let before = terminal.screen
    browser.render(into: &screen)
    let bytes = renderer.render(screen)
    terminal.write(bytes)
    let changed = terminal.screen.changedCells(from: before)
    return Frame(bytes: bytes.count, changed: changed)
  }

  /// Presses keys (each a key event) and draws a frame after each.
  @discardableResult
  mutating func press(_ keys: Key...) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    for key in keys {
      effects += browser.handle(.key(KeyEvent(key)))
      frame()
    }
    return effects
  }

  mutating func type(_ text: String) {
    for character in text { press(.character(character)) }
  }

  mutating func resize(columns: Int, rows: Int) {
    terminal.resize(width: columns, height: rows)
    browser.resize(TerminalSize(columns: columns, rows: rows))
    frame()
  }

  /// Moves the clock and lets the browser act on it.
  mutating func wait(_ seconds: TimeInterval) {
    clock.now = clock.now.addingTimeInterval(seconds)
    browser.tick()
    frame()
  }

  var lines: [String] { terminal.lines }

  /// The whole screen as text, a line per row.
  var text: String { lines.joined(separator: "\n") }

  /// The first screen row showing a text.
  func screenRow(containing text: String) -> Int? {
    lines.firstIndex { $0.contains(text) }
  }

  /// A left click (press and release) at a screen position, then a frame.
  mutating func click(x: Int, y: Int) {
    _ = browser.handle(.mouse(MouseEvent(.press(.left), x: x, y: y)))
    _ = browser.handle(.mouse(MouseEvent(.release(.left), x: x, y: y)))
    frame()
  }

  /// The columns a text occupies on a row, by display width.
  func columns(of text: String, row: Int) -> Range<Int>? {
    var cells: [(Int, String)] = []
    for x in 0..<terminal.screen.width {
      let cell = terminal.screen[x, row]
      if !cell.isContinuation { cells.append((x, cell.grapheme)) }
    }
    let graphemes = cells.map(\.1)
    let target = text.map(String.init)
    guard target.count <= graphemes.count else { return nil }
    for start in 0...(graphemes.count - target.count)
    where Array(graphemes[start..<(start + target.count)]) == target {
      let first = cells[start].0
      let lastIndex = start + target.count - 1
      let last = cells[lastIndex].0 + DisplayWidth.of(cells[lastIndex].1)
      return first..<last
    }
    return nil
  }
}

extension IssueBrowser {
  /// The numbers the list shows, in order.
  var shownNumbers: [Int] {
    listPane.list.dataSource.snapshot().itemIdentifiers.compactMap(listPane.model.number(of:))
  }

  /// The number of the focused row's issue.
  var focusedNumber: Int? { listPane.list.focusedItem.flatMap(listPane.model.number(of:)) }

  /// The list's row of an issue, by number (the test's list must hold it).
  func row(_ number: Int) -> ListItem {
    guard let item = listPane.model.item(number: number) else {
      preconditionFailure("#\(number) is not in the list")
    }
    return item
  }

  /// The key of an issue's row in the list, by number.
  func key(_ number: Int) -> IssueKey {
    guard let key = row(number).key else { preconditionFailure("#\(number) has no row") }
    return key
  }

  /// The selected chip.
  var selectedChip: MilestoneFilter { state.filter.milestone }
}
