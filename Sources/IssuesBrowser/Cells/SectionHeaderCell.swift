import TrellisTerminal

/// A section header of the list: its title and what it holds, on a band that stays on top.
struct SectionHeaderCell: CollectionCell {
  var title: String
  var detail: String

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.fill(style: Theme.header)
    let end = canvas.text(" " + title, x: 0, y: 0, style: Theme.header)
    canvas.text("  " + detail, x: end, y: 0, style: Theme.headerDetail)
  }
}

/// A line of a picker (the label filter).
struct OptionCell: CollectionCell {
  var text: String
  var color: Color?

  func draw(in canvas: inout Canvas, state: CellState) {
    let style: Style = state.contains(.focused) ? Theme.focus : .plain
    canvas.fill(style: style)
    var x = 1
    if let color {
      var swatch = style
      swatch.foreground = color
      x = canvas.text("● ", x: x, y: 0, style: swatch)
    }
    canvas.text(
      DisplayWidth.truncate(text, toColumns: max(0, canvas.extent.width - x - 1)), x: x, y: 0,
      style: state.contains(.selected) ? style.with(.bold) : style)
  }
}
