import TrellisTerminal

/// A milestone chip: its title and issue count in a pill.
///
/// The selected chip is filled; closed
/// milestones are muted; the focused chip (moved to with ←/→, not yet selected) is underlined.
struct ChipCell: CollectionCell, Equatable {
  var title: String
  /// The count, or `nil` while it is being worked out (drawn as `…`).
  var count: Int?
  var isClosed: Bool

  /// The count as drawn.
  var countText: String { count.map(String.init) ?? "…" }

  /// The text drawn, which the chip's width follows.
  var label: String { " \(title) \(countText) " }

  /// The columns the chip needs.
  static func width(title: String, count: Int?) -> Int {
    DisplayWidth.of(ChipCell(title: title, count: count, isClosed: false).label)
  }

  /// The columns this chip needs.
  var width: Int { DisplayWidth.of(label) }

  func draw(in canvas: inout Canvas, state: CellState) {
    var style =
      state.contains(.selected) ? Theme.chipSelected : isClosed ? Theme.chipClosed : Theme.chip
    if state.contains(.focused) { style = style.with([.underline, .bold]) }
    if state.contains(.highlighted) { style = style.with(.reverse) }
    canvas.fill(style: style)
    let countStyle = state.contains(.selected) ? style : style.with(.dim)
    let end = canvas.text(" " + title + " ", x: 0, y: 0, style: style)
    canvas.text("\(countText) ", x: end, y: 0, style: countStyle)
  }
}
