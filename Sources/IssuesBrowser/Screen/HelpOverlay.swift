import TrellisTerminal

/// The `?` overlay every screen shows its keys in: a box over the screen listing the screen's
/// key tables, scrolled by its own keys; any other key closes it.
///
/// A value: the screen that owns it passes it the keys while it is open and draws it last.
package struct HelpOverlay: Hashable, Sendable {
  /// What a key asks of the overlay.
  package enum Command: Hashable, Sendable {
    /// Scrolls by lines (negative: up).
    case scroll(lines: Int)
    /// Scrolls by screens of the box (negative: up).
    case page(screens: Int)
    /// Closes the overlay.
    case close
  }

  /// The overlay's own keys; any other key closes it.
  package static let keys = KeyBindings<Command>(
    title: "The list of keys",
    rows: [
      KeyBinding(
        [
          .init(.up, .scroll(lines: -1)), .init(.down, .scroll(lines: 1)),
          .init(.character("k"), .scroll(lines: -1)), .init(.character("j"), .scroll(lines: 1)),
          .init(.pageUp, .page(screens: -1)), .init(.pageDown, .page(screens: 1)),
        ], "scroll the list of keys", mouse: "wheel", hint: "scroll"),
      KeyBinding([.init(.escape, .close)], "close it (so does any other key)", hint: "close"),
    ])

  /// Where the accessible mode's cursor goes while the overlay is open: its title.
  package static let cursor = CellPoint(x: 2, y: 1)

  /// The lines listed: each table's title, then its rows.
  package let lines: [HelpLine]
  /// The first line shown.
  package private(set) var offset: Int

  /// An overlay listing `lines`, scrolled to `offset`.
  package init(lines: [HelpLine], offset: Int = 0) {
    self.lines = lines
    self.offset = max(0, offset)
  }

  /// The lines of `tables`, a blank line between two tables.
  package static func lines(_ tables: [[HelpLine]]) -> [HelpLine] {
    var lines: [HelpLine] = []
    for table in tables {
      if !lines.isEmpty { lines.append(HelpLine(keys: "", summary: "", isTitle: false)) }
      lines += table
    }
    return lines
  }

  /// Where the box is on a screen of `size`: below the title, as tall as its lines need and
  /// the screen allows.
  package static func area(lineCount: Int, size: TerminalSize) -> CellRect {
    let height = max(0, min(lineCount + 4, size.rows - 2))
    return CellRect(x: 1, y: 1, width: max(0, size.columns - 2), height: height)
  }

  /// How many lines the box shows on a screen of `size`.
  func visibleLines(on size: TerminalSize) -> Int {
    max(1, Self.area(lineCount: lines.count, size: size).height - 4)
  }

  /// Handles an event while the overlay is open.
  ///
  /// - Returns: `false` when the event closed it.
  package mutating func handle(_ event: InputEvent, on size: TerminalSize) -> Bool {
    switch event {
    case .key(let key):
      guard let command = Self.keys.command(for: key) else { return false }
      return perform(command, on: size)
    case .mouse(let mouse):
      switch mouse.kind {
      case .scrollDown: scroll(by: 3, on: size)
      case .scrollUp: scroll(by: -3, on: size)
      default: break
      }
      return true
    case .paste, .focusGained, .focusLost: return true
    }
  }

  /// Performs a command of the overlay's keys.
  ///
  /// - Returns: `false` when the command closed it.
  package mutating func perform(_ command: Command, on size: TerminalSize) -> Bool {
    switch command {
    case .scroll(let lines): scroll(by: lines, on: size)
    case .page(let screens): scroll(by: screens * max(1, visibleLines(on: size) - 1), on: size)
    case .close: return false
    }
    return true
  }

  private mutating func scroll(by lines: Int, on size: TerminalSize) {
    let shown = visibleLines(on: size)
    offset = min(max(0, offset + lines), max(0, self.lines.count - shown))
  }

  /// Draws the box over what `screen` holds.
  package func draw(into screen: inout CellBuffer) {
    let size = TerminalSize(columns: screen.width, rows: screen.height)
    let area = Self.area(lineCount: lines.count, size: size)
    let keyColumn = min(
      30, (lines.filter { !$0.isTitle }.map { DisplayWidth.of($0.keys) }.max() ?? 0) + 2)
    // As wide as the longest line needs, when the terminal has room for it.
    let needed = 3 + keyColumn + (lines.map { DisplayWidth.of($0.summary) }.max() ?? 0) + 3
    let width = max(0, min(needed, size.columns - 2))
    let height = area.height
    let box = CellRect(x: (size.columns - width) / 2, y: area.y, width: width, height: height)
    let lines = lines
    let shown = max(0, height - 4)
    let offset = min(offset, max(0, lines.count - shown))
    screen.draw(in: box) { canvas in
      canvas.fill()
      canvas.box(border: .rounded, style: Theme.accent)
      canvas.text(" Keys ", x: 2, y: 0, style: Theme.accent.with(.bold))
      for (row, line) in lines.dropFirst(offset).prefix(shown).enumerated() {
        if line.isTitle {
          canvas.text(line.keys, x: 3, y: row + 2, style: Theme.accent)
          continue
        }
        canvas.text(
          DisplayWidth.truncate(line.keys, toColumns: max(0, min(keyColumn - 1, width - 4))),
          x: 3, y: row + 2, style: Style(attributes: .bold))
        canvas.text(
          DisplayWidth.truncate(line.summary, toColumns: max(0, width - keyColumn - 5)),
          x: 3 + keyColumn, y: row + 2)
      }
      let more = lines.count > shown ? " ↑↓ more ·" : ""
      let footer = more + " any key closes "
      canvas.text(
        footer, x: max(1, width - DisplayWidth.of(footer) - 1), y: height - 1, style: Theme.dim)
    }
  }
}
