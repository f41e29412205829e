import TrellisTerminal

/// A line of styled text, indented: one line of a post in the reader.
struct TextLineCell: CollectionCell {
  var line: StyledLine
  var indent: Int

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.fill()
    var x = indent
    for run in line { x = canvas.text(run.text, x: x, y: 0, style: run.style) }
  }
}
