import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// Draws the browser — title, chips, filter line, list, preview or reader, status line and the
/// overlays — from the state, the geometry and the views, changing none of them.
///
/// It knows nothing of the shell that owns them: what it draws is what it is given.
/// Offsets past the end (a preview scrolled further than a shorter issue has lines) are clamped
/// for the drawing only; the shell clamps the state when it scrolls.
@MainActor
struct BrowserScreen {
  var state: BrowserState
  var geometry: ScreenGeometry
  var repository: RepositoryName
  var syncStatus: SyncStatus
  var now: Date
  /// How many items the list holds, for the filter line.
  var totalShown: Int
  /// "closing #12…" while actions are on their way.
  var pendingSummary: String?
  /// How many issues have actions waiting in the queue.
  var queuedCount = 0
  /// The focused issue's preview lines, when the screen has a preview pane.
  var preview: [StyledLine]?
  /// The keys, for the status line and the help.
  var keys: BrowserKeys
  let chips: CollectionView<Int, MilestoneFilter>
  let list: CollectionView<ListSection, ListItem>
  let reader: CollectionView<Int64, ReaderLine>
  let labelPicker: CollectionView<Int, String>

  private var size: TerminalSize { geometry.size }

  /// Draws the whole screen into a buffer of the browser's size.
  func render(into screen: inout CellBuffer) {
    if screen.width != size.columns || screen.height != size.rows {
      screen = CellBuffer(width: size.columns, height: size.rows)
    }
    guard !geometry.isTooSmall else {
      screen.draw { canvas in
        canvas.fill()
        canvas.text("Terminal too small", x: 0, y: 0, style: Theme.dim)
      }
      return
    }
    drawTitle(into: &screen)
    if case .reading = state.mode {
      reader.render(into: &screen)
    } else {
      chips.render(into: &screen)
      drawFilterLine(into: &screen)
      list.render(into: &screen)
      if geometry.hasPreviewPane { drawPreviewPane(into: &screen) }
    }
    drawStatusLine(into: &screen)
    switch state.mode {
    case .help(let offset):
      HelpOverlay(lines: keys.helpLines, offset: offset).draw(into: &screen)
    case .pickingLabel: drawLabelPicker(into: &screen)
    case .browsing, .searching, .reading, .movingToMilestone: break
    }
  }

  private func drawTitle(into screen: inout CellBuffer) {
    let width = size.columns
    let status =
      (queuedCount > 0 ? "⇡ \(queuedCount) queued · " : "") + syncStatus.text(now: now)
    screen.draw(in: CellRect(x: 0, y: 0, width: width, height: 1)) { canvas in
      canvas.fill(style: Theme.bar)
      let end = canvas.text(" issues ", x: 0, y: 0, style: Theme.title)
      let nameEnd = canvas.text(
        " \(repository)", x: end, y: 0, style: Theme.bar.with(.bold))
      // The status takes what the name leaves, truncated.
      let room = width - nameEnd - 3
      guard room >= 4 else { return }
      let shown = " " + DisplayWidth.truncate(status, toColumns: room) + " "
      let style: Style =
        syncStatus.isProblem
        ? Theme.problem
        : {
          if case .syncing = syncStatus {
            Theme.syncing
          } else {
            Theme.bar.with(.dim)
          }
        }()
      canvas.text(shown, x: width - DisplayWidth.of(shown), y: 0, style: style)
    }
  }

  private func drawFilterLine(into screen: inout CellBuffer) {
    let filter = state.filter
    // A search's own `sort:` orders the list instead of the sort key's: it says so.
    let sort = SearchQuery(typing: filter.text ?? "").writtenSort?.text ?? filter.sort.name
    var parts = [filter.state.name, sort]
    if filter.kind != .issues { parts.append("with pull requests") }
    if !filter.labels.isEmpty {
      parts.append("label: \(filter.labels.joined(separator: ", "))")
    }
    if filter.text != nil { parts.append("search: “\(filter.text ?? "")”") }
    let total = totalShown
    let count = "\(total) \(filter.kind == .issues ? "issue" : "item")\(total == 1 ? "" : "s")"
    screen.draw(in: CellRect(x: 0, y: 2, width: size.columns, height: 1)) { canvas in
      canvas.fill(with: "─", style: Theme.dim)
      let text = " " + parts.joined(separator: " · ") + " "
      let end = canvas.text(text, x: 1, y: 0, style: Theme.accent)
      let right = " \(count) "
      let x = size.columns - DisplayWidth.of(right) - 1
      if x > end { canvas.text(right, x: x, y: 0, style: Theme.dim) }
    }
  }

  /// The end of `text` that fits in `width` columns, with `…` before it when cut.
  static func tail(of text: String, fitting width: Int) -> String {
    guard DisplayWidth.of(text) > width else { return text }
    var kept: [Character] = []
    var used = 1
    for character in text.reversed() {
      let columns = DisplayWidth.of(String(character))
      guard used + columns <= width else { break }
      kept.append(character)
      used += columns
    }
    return "…" + String(kept.reversed())
  }

  private func drawStatusLine(into screen: inout CellBuffer) {
    let row = geometry.statusRow
    let hints = keys.hints(in: state.mode)
    screen.draw(in: CellRect(x: 0, y: row, width: size.columns, height: 1)) { canvas in
      canvas.fill(style: Theme.bar)
      switch state.mode {
      case .searching:
        let end = canvas.text(" / ", x: 0, y: 0, style: Theme.title)
        // A message (a paste that was cut) keeps its place on the right; the draft shows its
        // end, where the cursor is, in what is left.
        let message = state.flash.map { "  " + $0.text }
        let reserved = message.map { min(DisplayWidth.of($0), size.columns / 2) } ?? 0
        let room = max(1, size.columns - end - reserved - 3)
        let typed = canvas.text(
          " " + Self.tail(of: state.searchDraft, fitting: room), x: end, y: 0,
          style: Theme.bar.with(.bold))
        canvas.text("▏", x: typed, y: 0, style: Theme.syncing)
        if let message {
          canvas.text(message, x: typed + 1, y: 0, style: Theme.bar.with(.bold))
        } else {
          let hint = ScreenBars.hintLine(hints, columns: max(0, size.columns - typed - 3))
          canvas.text("  " + hint, x: typed + 2, y: 0, style: Theme.bar.with(.dim))
        }
      case .movingToMilestone(let number):
        let end = canvas.text(" move #\(number) to ", x: 0, y: 0, style: Theme.title)
        let hint = ScreenBars.hintLine(hints, columns: max(0, size.columns - end - 2))
        canvas.text(" " + hint, x: end, y: 0, style: Theme.bar)
      case .browsing, .pickingLabel, .help, .reading:
        if let flash = state.flash {
          canvas.text(" " + flash.text, x: 0, y: 0, style: Theme.bar.with(.bold))
        } else if let pending = pendingSummary {
          canvas.text(" " + pending, x: 0, y: 0, style: Theme.bar.with(.bold))
        } else {
          let hint = ScreenBars.hintLine(hints, columns: max(0, size.columns - 2))
          canvas.text(" " + hint, x: 0, y: 0, style: Theme.bar)
        }
      }
    }
  }

  // MARK: Preview and reader

  private func drawPreviewPane(into screen: inout CellBuffer) {
    let area = geometry.previewArea
    screen.draw(in: area) { canvas in
      canvas.fill()
      for row in 0..<area.height { canvas.text("│", x: 0, y: row, style: Theme.dim) }
      guard let lines = preview else {
        canvas.text("No issue selected", x: 2, y: 0, style: Theme.dim)
        return
      }
      let offset = BrowserState.clamp(
        state.previewOffset, lineCount: lines.count, height: area.height)
      for (row, line) in lines.dropFirst(offset).prefix(area.height).enumerated() {
        draw(line, in: &canvas, x: 2, y: row)
      }
    }
  }

  private func draw(_ line: StyledLine, in canvas: inout Canvas, x: Int, y: Int) {
    var column = x
    for run in line { column = canvas.text(run.text, x: column, y: y, style: run.style) }
  }

  // MARK: Overlays

  private func drawLabelPicker(into screen: inout CellBuffer) {
    let frame = labelPicker.frame
    guard frame.width > 0, frame.height > 0 else { return }
    let box = CellRect(
      x: frame.x - 1, y: frame.y - 1, width: frame.width + 2, height: frame.height + 2)
    let query = state.labelQuery
    screen.draw(in: box) { canvas in
      canvas.fill()
      canvas.box(border: .rounded, style: Theme.accent)
      let title = query.isEmpty ? " Label (type to narrow) " : " Label: \(query)▏ "
      canvas.text(
        DisplayWidth.truncate(title, toColumns: max(0, box.width - 4)), x: 2, y: 0,
        style: Theme.accent.with(.bold))
    }
    labelPicker.render(into: &screen)
  }
}
