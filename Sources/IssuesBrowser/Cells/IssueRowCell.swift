import Foundation
import GitHubIssues
import TrellisTerminal

/// A row of the issue list: number, title (truncated by display width), labels, author, comment
/// count and age, each column in its place whatever the scripts involved.
struct IssueRowCell: CollectionCell {
  var issue: CachedIssue
  var labelColors: [String: Color]
  var now: Date
  /// The width of the number column, from the largest number in the repository (and its
  /// name, on a dashboard spanning repositories).
  var numberWidth: Int
  /// The repository's name before the number, on a dashboard spanning repositories.
  var repository: String? = nil
  /// How deep the row is nested under parent issues: 0 for a top-level row.
  var level = 0
  /// Whether the row shows sub-issues nested under it, and whether they are open.
  var disclosure = Disclosure.none
  /// Where a sub-issue shown under its parent is listed (its milestone), when that is not here.
  var elsewhere: String?
  /// Whether actions on it wait in the queue (shown, not on GitHub yet: `⇡`), one of them in
  /// conflict with GitHub's version (`⚠`).
  var queueMark = QueueMark.none

  /// How a row says its queued actions.
  enum QueueMark {
    case none
    case waiting
    case conflict
  }

  /// The disclosure marker of a row.
  enum Disclosure {
    /// No sub-issues are nested under the row.
    case none
    /// Its sub-issues are hidden.
    case collapsed
    /// Its sub-issues show below it.
    case expanded
  }

  func draw(in canvas: inout Canvas, state: CellState) {
    let base: Style = state.contains(.focused) ? Theme.focus : .plain
    // The collection view has cleared the row to plain blanks.
    if base != .plain { canvas.fill(style: base) }
    let width = canvas.extent.width
    func on(_ style: Style) -> Style { Theme.row(style, on: base) }
    // Right side first: age, comments, author; the title takes what is left.
    let age = RelativeAge.describe(issue.updatedAt, now: now)
    let comments = issue.comments > 0 ? "💬\(issue.comments)" : ""
    let author = DisplayWidth.truncate(issue.author, toColumns: 14)
    var right = width - 1
    right -= 4
    canvas.text(DisplayWidth.alignRight(age, toColumns: 4), x: right, y: 0, style: on(Theme.dim))
    right -= 6
    canvas.text(
      DisplayWidth.alignRight(comments, toColumns: 5), x: right, y: 0, style: on(Theme.dim))
    if width >= 70 {
      // A fixed column, so that labels and titles line up whatever the names' lengths.
      right -= 16
      canvas.text(author, x: right + 1, y: 0, style: on(Theme.accent))
    }
    let symbol =
      !issue.isPullRequest
      ? (issue.state == .open ? "●" : "✔") : issue.isDraft && issue.state == .open ? "◌" : "⇄"
    let stateStyle = on(
      issue.isDraft && issue.state == .open
        ? Theme.dim : issue.state == .open ? Theme.open : Theme.closed)
    let (mark, markStyle): (String, Style) =
      switch queueMark {
      case .none: (" ", .plain)
      case .waiting: ("⇡", Theme.warning)
      case .conflict: ("!", Theme.failure.with(.bold))
      }
    var x = canvas.text(mark, x: 0, y: 0, style: on(markStyle))
    x = canvas.text(symbol + " ", x: x, y: 0, style: stateStyle)
    x = canvas.text(
      DisplayWidth.pad(
        DisplayWidth.truncate(
          (repository ?? "") + issue.numberLabel,
          toColumns: numberWidth + 1),
        toColumns: numberWidth + 2), x: x, y: 0,
      style: on(Theme.dim))
    // The outline: indentation, the disclosure marker, and how far the sub-issues are.
    if level > 0 || disclosure != .none {
      let marker =
        switch disclosure {
        case .none: "  "
        case .collapsed: "▸ "
        case .expanded: "▾ "
        }
      x = canvas.text(
        String(repeating: "  ", count: min(level, 8)) + marker, x: x, y: 0,
        style: on(Theme.accent))
    }
    if let elsewhere {
      x = canvas.text(
        "↗ " + DisplayWidth.truncate(elsewhere, toColumns: 20) + " ", x: x, y: 0,
        style: on(Theme.dim))
    }
    // A pull request's checks and review, a column each: ✓ ✗ ● and ✓ ± ◷.
    if issue.isPullRequest, issue.state == .open, issue.checks != nil || issue.reviewDecision != nil
    {
      let checks: (String, Style) =
        switch issue.checks {
        case .passing?: ("✓", Theme.open)
        case .failing?: ("✗", Theme.failure)
        case .pending?: ("●", Theme.warning)
        case nil: (" ", .plain)
        }
      let review: (String, Style) =
        switch issue.reviewDecision {
        case .approved?: ("✓", Theme.open)
        case .changesRequested?: ("±", Theme.failure)
        case .reviewRequired?: ("◷", Theme.warning)
        case nil: (" ", .plain)
        }
      x = canvas.text(checks.0, x: x, y: 0, style: on(checks.1))
      x = canvas.text(review.0 + " ", x: x, y: 0, style: on(review.1))
    }
    if let progress = issue.subIssues {
      x = canvas.text(
        "\(progress.completed)/\(progress.total) ", x: x, y: 0,
        style: on(progress.completed == progress.total ? Theme.closed : Theme.dim))
    }
    // Labels get at most a third of the room left, and only whole ones.
    var labels = ""
    var labelRuns: [(String, Color)] = []
    let labelRoom = max(0, (right - x) / 3)
    for name in issue.labels {
      let piece = (labels.isEmpty ? "" : " ") + name
      if DisplayWidth.of(labels + piece) > labelRoom { break }
      labels += piece
      labelRuns.append((name, labelColors[name] ?? .yellow))
    }
    let labelWidth = DisplayWidth.of(labels)
    let titleRoom = max(0, right - x - labelWidth - (labelWidth > 0 ? 2 : 1))
    let titleStyle = on(state.contains(.selected) ? Style(attributes: .bold) : .plain)
    let end = canvas.text(
      // A TAB or NUL shows as the list prints it (␉, ␀), not as nothing.
      DisplayWidth.truncate(ControlCharacters.visible(issue.title), toColumns: titleRoom), x: x,
      y: 0, style: titleStyle)
    var labelX = max(end + 1, right - labelWidth - 1)
    for (name, color) in labelRuns {
      labelX = canvas.text(name, x: labelX, y: 0, style: on(Style(foreground: color))) + 1
    }
  }
}

extension Color {
  /// A label's colour from GitHub's six hex digits.
  init?(hex: String) {
    guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
    // Very dark colours vanish on a dark terminal: lift them.
    var red = UInt8((value >> 16) & 0xFF)
    var green = UInt8((value >> 8) & 0xFF)
    var blue = UInt8(value & 0xFF)
    if Int(red) + Int(green) + Int(blue) < 200 {
      red = red / 2 + 100
      green = green / 2 + 100
      blue = blue / 2 + 100
    }
    self = .rgb(red, green, blue)
  }
}
