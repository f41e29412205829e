import Foundation
import GitHubIssues
import TrellisTerminal

extension IssueBrowser {
  /// Draws the whole screen into a buffer of the browser's size.
  public func render(into screen: inout CellBuffer) {
    if screen.width != size.columns || screen.height != size.rows {
      screen = CellBuffer(width: size.columns, height: size.rows)
    }
    guard size.columns >= 20, size.rows >= 6 else {
      screen.draw { canvas in
        canvas.fill()
        canvas.text("Terminal too small", x: 0, y: 0, style: Theme.dim)
      }
      return
    }
    drawTitle(into: &screen)
    if case .reading(let offset) = mode {
      drawReader(into: &screen, offset: offset)
    } else {
      chips.render(into: &screen)
      drawFilterLine(into: &screen)
      list.render(into: &screen)
      if hasPreviewPane { drawPreviewPane(into: &screen) }
    }
    drawStatusLine(into: &screen)
    switch mode {
    case .help: drawHelp(into: &screen)
    case .pickingLabel: drawLabelPicker(into: &screen)
    case .browsing, .searching, .reading: break
    }
  }

  /// A new frame of the screen.
  public func render() -> CellBuffer {
    var screen = CellBuffer(width: size.columns, height: size.rows)
    render(into: &screen)
    return screen
  }

  private func drawTitle(into screen: inout CellBuffer) {
    let width = size.columns
    let status = syncStatus.text(now: now())
    screen.draw(in: CellRect(x: 0, y: 0, width: width, height: 1)) { canvas in
      canvas.fill(style: Theme.bar)
      let end = canvas.text(" issues ", x: 0, y: 0, style: Theme.title)
      let nameEnd = canvas.text(" \(repository)", x: end, y: 0, style: Theme.bar.with(.bold))
      // The status takes what the name leaves, truncated.
      let room = width - nameEnd - 3
      guard room >= 4 else { return }
      let shown = " " + DisplayWidth.truncate(status, toColumns: room) + " "
      let style: Style =
        syncStatus.isProblem
        ? Theme.problem
        : {
          if case .syncing = syncStatus {
            Style(foreground: .cyan, background: .indexed(236))
          } else {
            Theme.bar.with(.dim)
          }
        }()
      canvas.text(shown, x: width - DisplayWidth.of(shown), y: 0, style: style)
    }
  }

  private func drawFilterLine(into screen: inout CellBuffer) {
    var parts = [filter.state.name, filter.sort.name]
    if filter.kind != .issues { parts.append("with pull requests") }
    if let label = filter.label { parts.append("label: \(label)") }
    if filter.text != nil { parts.append("search: “\(filter.text ?? "")”") }
    let count =
      "\(totalShown) \(filter.kind == .issues ? "issue" : "item")\(totalShown == 1 ? "" : "s")"
    screen.draw(in: CellRect(x: 0, y: 2, width: size.columns, height: 1)) { canvas in
      canvas.fill(with: "─", style: Theme.dim)
      let text = " " + parts.joined(separator: " · ") + " "
      let end = canvas.text(text, x: 1, y: 0, style: Style(foreground: .cyan))
      let right = " \(count) "
      let x = size.columns - DisplayWidth.of(right) - 1
      if x > end { canvas.text(right, x: x, y: 0, style: Theme.dim) }
    }
  }

  private func drawStatusLine(into screen: inout CellBuffer) {
    let row = size.rows - 1
    screen.draw(in: CellRect(x: 0, y: row, width: size.columns, height: 1)) { canvas in
      canvas.fill(style: Theme.bar)
      switch mode {
      case .searching:
        let end = canvas.text(" / ", x: 0, y: 0, style: Theme.title)
        let typed = canvas.text(" " + searchDraft, x: end, y: 0, style: Theme.bar.with(.bold))
        canvas.text("▏", x: typed, y: 0, style: Style(foreground: .cyan, background: .indexed(236)))
        let hint = "  Enter done · Esc clear · ↑↓ list"
        canvas.text(hint, x: typed + 2, y: 0, style: Theme.bar.with(.dim))
      case .reading:
        canvas.text(
          " ↑↓ PgUp PgDn scroll · o open in browser · y copy URL · Esc back", x: 0, y: 0,
          style: Theme.bar)
      default:
        if let flash {
          canvas.text(" " + flash.text, x: 0, y: 0, style: Theme.bar.with(.bold))
        } else {
          canvas.text(
            " ←→ Enter milestone · ↑↓ issues · s state · l label · / search · c sort · p PRs"
              + " · o open · y copy · r refresh · ? keys · q quit", x: 0, y: 0, style: Theme.bar)
        }
      }
    }
  }

  // MARK: Preview

  /// The lines describing an issue: title, facts, labels, then its body.
  func previewLines(_ issue: CachedIssue, width: Int) -> [StyledLine] {
    var lines: [StyledLine] = []
    let stateStyle = issue.state == .open ? Theme.open : Theme.closed
    let kind = issue.isPullRequest ? "pull request" : "issue"
    lines += Markdown.wrap(
      [
        StyledRun("#\(issue.number) ", Theme.dim), StyledRun(issue.title, Style(attributes: .bold)),
      ],
      width: width, first: "", rest: "")
    var facts = [
      StyledRun("\(issue.state == .open ? "● open" : "✔ closed") \(kind)", stateStyle),
      StyledRun(" · \(issue.author)", Style(foreground: .cyan)),
      StyledRun(
        " · opened \(LocalTime.day(issue.createdAt)) · updated \(RelativeAge.describe(issue.updatedAt, now: now())) ago",
        Theme.dim),
    ]
    if issue.comments > 0 { facts.append(StyledRun(" · 💬 \(issue.comments)", Theme.dim)) }
    lines += Markdown.wrap(facts, width: width, first: "", rest: "")
    if let number = issue.milestoneNumber, let milestone = milestones[number] {
      lines.append([StyledRun("◆ " + milestone.title, Style(foreground: .yellow))])
    }
    if !issue.labels.isEmpty {
      var runs: [StyledRun] = []
      for label in issue.labels {
        if !runs.isEmpty { runs.append(StyledRun(" ")) }
        runs.append(StyledRun(label, Style(foreground: labelColors[label] ?? .yellow)))
      }
      lines += Markdown.wrap(runs, width: width, first: "", rest: "")
    }
    lines.append([StyledRun(String(repeating: "─", count: width), Theme.dim)])
    let body = issue.body ?? ""
    if body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      lines.append([StyledRun("No description provided.", Theme.dim.with(.italic))])
    } else {
      lines += Markdown.render(body, width: width)
    }
    return lines
  }

  /// The focused issue's preview at a width, from the cache of the last one when it matches.
  func focusedPreview(width: Int) -> [StyledLine]? {
    guard let number = list.focusedItem else { return nil }
    if let preview, preview.number == number, preview.width == width { return preview.lines }
    guard let issue = try? cache.issue(number: number) else { return nil }
    let lines = previewLines(issue, width: width)
    preview = (number, width, lines)
    return lines
  }

  private func drawPreviewPane(into screen: inout CellBuffer) {
    let x = listWidth
    let area = CellRect(x: x, y: 3, width: size.columns - x, height: max(0, size.rows - 4))
    screen.draw(in: area) { canvas in
      canvas.fill()
      for row in 0..<area.height { canvas.text("│", x: 0, y: row, style: Theme.dim) }
      guard let lines = focusedPreview(width: area.width - 3) else {
        canvas.text("No issue selected", x: 2, y: 0, style: Theme.dim)
        return
      }
      previewOffset = min(previewOffset, max(0, lines.count - area.height))
      for (row, line) in lines.dropFirst(previewOffset).prefix(area.height).enumerated() {
        draw(line, in: &canvas, x: 2, y: row)
      }
    }
  }

  private func drawReader(into screen: inout CellBuffer, offset: Int) {
    let area = CellRect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - 2))
    guard let lines = focusedPreview(width: min(100, area.width - 4)) else {
      mode = .browsing
      return
    }
    let maximum = max(0, lines.count - area.height)
    let offset = min(offset, maximum)
    if case .reading(let current) = mode, current != offset { mode = .reading(offset: offset) }
    screen.draw(in: area) { canvas in
      canvas.fill()
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

  static let keys: [(String, String)] = [
    ("← →", "move along the milestone chips"),
    ("Enter / click", "select the chip; on an issue, read it"),
    ("↑ ↓ j k", "move in the list"),
    ("PgUp PgDn g G", "page, first, last"),
    ("z / Z", "collapse this section / expand all (or click a header)"),
    ("Space", "open or close the sub-issues nested under an issue"),
    ("s", "open → closed → open + closed"),
    ("l", "filter by label (type to narrow, Enter picks)"),
    ("/", "search titles and bodies (as you type)"),
    ("c", "sort: updated → created → comments"),
    ("p", "show or hide pull requests"),
    ("Esc", "clear the search and label"),
    ("o", "open the issue in the browser"),
    ("y / Y", "copy its URL / its number"),
    ("r", "sync with GitHub now"),
    ("q", "quit"),
  ]

  private func drawHelp(into screen: inout CellBuffer) {
    // As wide as the longest line needs, when the terminal has room for it.
    let needed = 20 + (Self.keys.map { DisplayWidth.of($0.1) }.max() ?? 0) + 3
    let width = max(0, min(needed, size.columns - 2))
    let height = max(0, min(Self.keys.count + 4, size.rows - 2))
    let box = CellRect(x: (size.columns - width) / 2, y: 1, width: width, height: height)
    screen.draw(in: box) { canvas in
      canvas.fill()
      canvas.box(border: .rounded, style: Style(foreground: .cyan))
      canvas.text(" Keys ", x: 2, y: 0, style: Style(foreground: .cyan, attributes: .bold))
      for (row, (key, meaning)) in Self.keys.prefix(height - 4).enumerated() {
        canvas.text(
          DisplayWidth.truncate(key, toColumns: max(0, min(16, width - 4))), x: 3, y: row + 2,
          style: Style(attributes: .bold))
        canvas.text(DisplayWidth.truncate(meaning, toColumns: width - 22), x: 20, y: row + 2)
      }
      canvas.text(" any key closes ", x: width - 18, y: height - 1, style: Theme.dim)
    }
  }

  private func drawLabelPicker(into screen: inout CellBuffer) {
    let frame = labelPicker.frame
    guard frame.width > 0, frame.height > 0 else { return }
    let box = CellRect(
      x: frame.x - 1, y: frame.y - 1, width: frame.width + 2, height: frame.height + 2)
    screen.draw(in: box) { canvas in
      canvas.fill()
      canvas.box(border: .rounded, style: Style(foreground: .cyan))
      let title = labelQuery.isEmpty ? " Label (type to narrow) " : " Label: \(labelQuery)▏ "
      canvas.text(
        DisplayWidth.truncate(title, toColumns: max(0, box.width - 4)), x: 2, y: 0,
        style: Style(foreground: .cyan, attributes: .bold))
    }
    labelPicker.render(into: &screen)
  }
}
