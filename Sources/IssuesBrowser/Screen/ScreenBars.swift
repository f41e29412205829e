import TrellisTerminal

/// The bars a screen of the app draws around its content: the title bar (` issues `, the
/// screen's name, its status on the right) and the status line (a message, or the keys) — one
/// drawing for the dashboard and the inbox.
enum ScreenBars {
  /// Draws the whole screen's "too small" notice when it is below `rows` × `columns`.
  ///
  /// - Returns: Whether the screen is too small (and was drawn so).
  static func tooSmall(_ screen: inout CellBuffer, size: TerminalSize, rows: Int, columns: Int)
    -> Bool
  {
    guard size.rows < rows || size.columns < columns else { return false }
    screen.draw { canvas in
      canvas.fill()
      canvas.text("Terminal too small", x: 0, y: 0, style: Theme.dim)
    }
    return true
  }

  /// The title bar on the top row: the app, the screen's `name`, and `status` on the right,
  /// truncated to what the name leaves.
  static func title(_ screen: inout CellBuffer, name: String, status: String) {
    let width = screen.width
    screen.draw(in: CellRect(x: 0, y: 0, width: width, height: 1)) { canvas in
      canvas.fill(style: Theme.bar)
      let end = canvas.text(" issues ", x: 0, y: 0, style: Theme.title)
      let nameEnd = canvas.text(" " + name, x: end, y: 0, style: Theme.bar.with(.bold))
      let room = width - nameEnd - 3
      guard room >= 4, !status.isEmpty else { return }
      let shown = " " + DisplayWidth.truncate(status, toColumns: room) + " "
      canvas.text(shown, x: width - DisplayWidth.of(shown), y: 0, style: Theme.bar.with(.dim))
    }
  }

  /// The status line's key hints fitted in `columns`: the last two (the keys list and quit,
  /// which every table ends with) always show; the others from the first, as many as fit, an
  /// ellipsis where some were left out.
  static func hintLine(_ hints: [String], columns: Int) -> String {
    let joined = hints.joined(separator: " · ")
    guard DisplayWidth.of(joined) > columns, hints.count > 2 else { return joined }
    let kept = hints.suffix(2).joined(separator: " · ")
    var line = ""
    var used = DisplayWidth.of(kept) + DisplayWidth.of(" · … · ")
    for hint in hints.dropLast(2) {
      let width = DisplayWidth.of(hint) + (line.isEmpty ? 0 : 3)
      guard used + width <= columns else { break }
      line += (line.isEmpty ? "" : " · ") + hint
      used += width
    }
    return (line.isEmpty ? "… · " : line + " · … · ") + kept
  }

  /// The status line of a screen: its message while one shows, else its key hints fitted.
  static func statusLine(_ screen: inout CellBuffer, message: StatusMessage?, hints: [String]) {
    statusLine(&screen, message?.text ?? hintLine(hints, columns: screen.width - 2))
  }

  /// The status line on the bottom row.
  static func statusLine(_ screen: inout CellBuffer, _ line: String) {
    let width = screen.width
    screen.draw(in: CellRect(x: 0, y: screen.height - 1, width: width, height: 1)) { canvas in
      canvas.fill(style: Theme.bar)
      canvas.text(
        " " + DisplayWidth.truncate(line, toColumns: width - 2), x: 0, y: 0, style: Theme.bar)
    }
  }
}
