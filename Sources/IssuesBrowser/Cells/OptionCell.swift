import TrellisTerminal

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
