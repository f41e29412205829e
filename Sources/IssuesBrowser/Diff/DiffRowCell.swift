import GitHubIssues
import TrellisTerminal

/// A row of the diff screen: a hunk header, a numbered line (changed words marked), a note, a
/// review thread, or a drafted comment.
struct DiffRowCell: CollectionCell {
  /// What the row shows, ready to draw.
  enum Shown {
    case hunk(String)
    case line(DiffLine, changed: Range<String.Index>?)
    case note(String)
    case thread(ReviewThread, outdated: Bool)
    case draft(PendingLineComment)
  }

  var shown: Shown
  /// The width of each number column.
  var numberWidth: Int
  /// Whether the line is in the range being marked for a comment (`┃` between its numbers).
  var inRange = false

  func draw(in canvas: inout Canvas, state: CellState) {
    let base: Style = state.contains(.focused) ? Theme.focus : .plain
    if base != .plain { canvas.fill(style: base) }
    func on(_ style: Style) -> Style { Theme.row(style, on: base) }
    let gutter = numberWidth * 2 + 2
    let width = canvas.extent.width
    switch shown {
    case .hunk(let header):
      canvas.text(
        DisplayWidth.truncate(Self.shown(header), toColumns: max(0, width - gutter - 1)),
        x: gutter + 1, y: 0, style: on(Theme.accent))
    case .line(let line, let changed):
      func number(_ value: Int?) -> String {
        DisplayWidth.alignRight(value.map(String.init) ?? "", toColumns: numberWidth)
      }
      var x = canvas.text(number(line.oldNumber), x: 0, y: 0, style: on(Theme.dim))
      x = canvas.text(" " + number(line.newNumber) + " ", x: x, y: 0, style: on(Theme.dim))
      if inRange { canvas.text("┃", x: numberWidth, y: 0, style: on(Theme.accent)) }
      let (sign, style): (String, Style) =
        switch line.kind {
        case .added: ("+", Theme.open)
        case .removed: ("-", Theme.failure)
        case .context: (" ", .plain)
        case .noNewline: ("\\", Theme.dim)
        }
      x = canvas.text(sign, x: x, y: 0, style: on(style))
      let room = width - x
      guard room > 0 else { return }
      let text = line.text
      if let changed, !changed.isEmpty {
        var marked = style
        marked.attributes.formUnion([.bold, .underline])
        x = canvas.text(
          Self.shown(String(text[..<changed.lowerBound])), x: x, y: 0, style: on(style))
        x = canvas.text(Self.shown(String(text[changed])), x: x, y: 0, style: on(marked))
        canvas.text(Self.shown(String(text[changed.upperBound...])), x: x, y: 0, style: on(style))
      } else {
        canvas.text(
          DisplayWidth.truncate(Self.shown(text), toColumns: room, ellipsis: ""), x: x, y: 0,
          style: on(style))
      }
    case .note(let text):
      canvas.text(
        DisplayWidth.truncate(text, toColumns: max(0, width - gutter - 1)), x: gutter + 1, y: 0,
        style: on(Theme.dim))
    case .thread(let thread, let outdated):
      guard let first = thread.comments.first else { return }
      let replies = thread.comments.count - 1
      // A resolved thread is folded: said as resolved, dim, still one row to reopen it on.
      let said =
        (thread.isResolved ? "✓ resolved · " : "💬 ") + first.author
        + (outdated ? " (outdated, line \(first.line.map(String.init) ?? "gone"))" : "") + ": "
        + Self.firstLine(first.body)
        + (replies > 0 ? " · \(replies) repl\(replies == 1 ? "y" : "ies")" : "")
      canvas.text(
        DisplayWidth.truncate(said, toColumns: max(0, width - gutter - 1)), x: gutter + 1, y: 0,
        style: on(thread.isResolved ? Theme.dim : Theme.warning))
    case .draft(let draft):
      let said = "⇡ draft on \(draft.comment.location): " + Self.firstLine(draft.comment.body)
      canvas.text(
        DisplayWidth.truncate(said, toColumns: max(0, width - gutter - 1)), x: gutter + 1, y: 0,
        style: on(Theme.accent))
    }
  }

  /// A line of a file as shown: tabs as four spaces, control characters shown, not acted on.
  static func shown(_ text: String) -> String {
    ControlCharacters.visible(
      text.contains("\t") ? text.replacingOccurrences(of: "\t", with: "    ") : text)
  }

  /// The first line of a comment, shown.
  static func firstLine(_ body: String) -> String {
    ControlCharacters.visible(String(body.split(whereSeparator: \.isNewline).first ?? ""))
  }
}

/// A file's header, pinned while its lines scroll: status, path, changes, viewed mark.
struct DiffFileHeaderCell: CollectionCell {
  var file: FileDiff
  var viewed: DiffModel.Viewed

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.fill(style: Theme.header)
    let letter =
      switch file.status {
      case "added": "A"
      case "removed": "D"
      case "renamed": "R"
      case "copied": "C"
      default: "M"
      }
    let path =
      file.previousPath.map { "\($0) → \(file.path)" } ?? file.path
    let mark: (String, Style) =
      switch viewed {
      case .no: ("", Theme.headerDetail)
      case .yes: ("✓ viewed ", Theme.headerDetail)
      case .changedSince: ("● changed since viewed ", Theme.warning)
      }
    let kind =
      switch file.content {
      case .binary: " binary"
      case .unavailable: " not available"
      default: ""
      }
    let counts = "+\(file.additions) −\(file.deletions)\(kind) "
    let width = canvas.extent.width
    let right = counts.count + mark.0.count
    var x = canvas.text(" \(letter) ", x: 0, y: 0, style: Theme.header)
    x = canvas.text(
      DisplayWidth.truncate(
        ControlCharacters.visible(path), toColumns: max(1, width - x - right - 1)),
      x: x, y: 0, style: Theme.header)
    var markStyle = mark.1
    markStyle.background = Theme.header.background
    let start = max(x + 1, width - right)
    let after = canvas.text(counts, x: start, y: 0, style: Theme.headerDetail)
    canvas.text(mark.0, x: after, y: 0, style: markStyle)
  }
}
