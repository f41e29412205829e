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
