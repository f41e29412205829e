import Foundation
import GitHubIssues
import TrellisTerminal

/// A row of the inbox: unread dot, what the thread is about, its title, why it came, its age.
struct InboxRowCell: CollectionCell {
  /// The subject as its repository's cache holds it, when cached: its live state.
  var subject: CachedIssue?
  var thread: InboxThread
  var now: Date
  /// The width of the `owner/repo#N` column.
  var placeWidth: Int

  func draw(in canvas: inout Canvas, state: CellState) {
    let base: Style = state.contains(.focused) ? Theme.focus : .plain
    if base != .plain { canvas.fill(style: base) }
    func on(_ style: Style) -> Style { Theme.row(style, on: base) }
    let n = thread.notification
    let width = canvas.extent.width
    let age = RelativeAge.describe(n.updatedAt, now: now)
    canvas.text(
      DisplayWidth.alignRight(age, toColumns: 4), x: width - 5, y: 0, style: on(Theme.dim))
    let reason = GitHubNotification.describe(reason: n.reason)
    let reasonX = width - 6 - 18
    if width >= 60 {
      canvas.text(
        DisplayWidth.truncate(reason, toColumns: 17), x: reasonX, y: 0,
        style: on(n.reason == "review_requested" ? Theme.warning : Theme.dim))
    }
    var x = canvas.text(
      thread.pendingTriage != nil ? "⇡" : " ", x: 0, y: 0, style: on(Theme.warning))
    x = canvas.text(
      n.unread ? "● " : "  ", x: x, y: 0, style: on(Theme.unread))
    // The subject's state now, from the cache: open, closed since, merged, a draft.
    let (kind, kindStyle): (String, Style) =
      if let subject {
        switch (subject.isPullRequest, subject.state, subject.mergedAt != nil, subject.isDraft) {
        case (true, .open, _, true): ("◌", Theme.dim)
        case (true, .open, _, false): ("⇄", Theme.open)
        case (true, .closed, true, _): ("⇄", Theme.closed)
        case (true, .closed, false, _): ("⇄", Theme.failure)
        case (false, .open, _, _): ("●", Theme.open)
        case (false, .closed, _, _): ("✔", Theme.closed)
        }
      } else {
        switch n.subjectType {
        case "PullRequest": ("⇄", Theme.dim)
        case "Issue": ("◉", Theme.dim)
        case "Release": ("🏷", Theme.dim)
        case "Discussion": ("💬", Theme.dim)
        default: ("·", Theme.dim)
        }
      }
    x = canvas.text(kind + " ", x: x, y: 0, style: on(kindStyle))
    let place = "\(n.repository)" + (n.number.map { "#\($0)" } ?? "")
    x = canvas.text(
      DisplayWidth.pad(
        DisplayWidth.truncate(place, toColumns: placeWidth), toColumns: placeWidth + 1),
      x: x, y: 0, style: on(Theme.dim))
    let room = (width >= 60 ? reasonX : width - 6) - x - 1
    guard room > 0 else { return }
    canvas.text(
      DisplayWidth.truncate(ControlCharacters.visible(n.title), toColumns: room), x: x, y: 0,
      style: on(n.unread ? Style(attributes: .bold) : .plain))
  }
}
