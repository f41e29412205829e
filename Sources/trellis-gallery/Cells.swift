import Trellis
import TrellisTerminal

/// The palette shared by the gallery's screens.
enum Palette {
  static let accent = Color.cyan
  static let chip = Style(foreground: .white, background: .indexed(238))
  static let chipSelected = Style(foreground: .black, background: .cyan, attributes: .bold)
  static let chipClosed = Style(foreground: .gray, background: .indexed(236))
  static let header = Style(foreground: .yellow, background: .indexed(235), attributes: .bold)
  static let focus = Style(background: .indexed(24))
  static let dim = Style(foreground: .gray)
}

/// A filter chip: its title and count in a pill; selected chips are filled, closed ones muted.
struct ChipCell: CollectionCell {
  var title: String
  var count: Int?
  var isMuted = false

  /// The chip's label, which its width follows.
  var label: String { count.map { " \(title) \($0) " } ?? " \(title) " }

  static func width(title: String, count: Int?) -> Double {
    Double(DisplayWidth.of(ChipCell(title: title, count: count).label))
  }

  func draw(in canvas: inout Canvas, state: CellState) {
    var style =
      state.contains(.selected) ? Palette.chipSelected : isMuted ? Palette.chipClosed : Palette.chip
    if state.contains(.focused) { style = style.with(.underline).with(.bold) }
    if state.contains(.highlighted) { style = style.with(.reverse) }
    canvas.fill(style: style)
    canvas.text(label, x: 0, y: 0, style: style)
  }
}

/// A section header: a title and a count on a band.
struct HeaderCell: CollectionCell {
  var title: String
  var detail: String = ""

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.fill(style: Palette.header)
    let end = canvas.text(" " + title, x: 0, y: 0, style: Palette.header)
    canvas.text(
      "  " + detail, x: end, y: 0, style: Style(foreground: .gray, background: .indexed(235)))
  }
}

/// A row of a list: columns laid out by display width, the title truncated to what is left.
struct RowCell: CollectionCell {
  var leading: String
  var title: String
  var trailing: String
  var leadingStyle = Style(foreground: .green)

  func draw(in canvas: inout Canvas, state: CellState) {
    var base: Style = state.contains(.focused) ? Palette.focus : .plain
    if state.contains(.selected) { base = base.with(.bold) }
    canvas.fill(style: base)
    let width = canvas.extent.width
    var lead = leadingStyle
    lead.background = base.background
    let x = canvas.text(" " + leading + " ", x: 0, y: 0, style: lead)
    let trailingWidth = DisplayWidth.of(trailing) + 1
    let room = max(0, width - x - trailingWidth - 1)
    canvas.text(DisplayWidth.truncate(title, toColumns: room), x: x, y: 0, style: base)
    var tail = Palette.dim
    tail.background = base.background
    canvas.text(trailing, x: width - trailingWidth, y: 0, style: tail)
  }
}

/// A card: a rounded box with a title and wrapped body text.
struct CardCell: CollectionCell {
  var title: String
  var body: String
  var color: Color

  func draw(in canvas: inout Canvas, state: CellState) {
    let extent = canvas.extent
    let border: Canvas.Border =
      state.contains(.selected) ? .double : state.contains(.focused) ? .heavy : .rounded
    let borderStyle =
      state.contains(.focused) || state.contains(.selected)
      ? Style(foreground: Palette.accent, attributes: .bold) : Style(foreground: color)
    canvas.box(extent, border: border, style: borderStyle)
    canvas.draw(in: extent.inset(top: 1, left: 2, bottom: 1, right: 2)) { inner in
      let width = inner.extent.width
      inner.text(
        DisplayWidth.truncate(title, toColumns: width), x: 0, y: 0,
        style: Style(foreground: color, attributes: .bold))
      for (row, line) in Self.wrap(body, width: width).enumerated() {
        inner.text(line, x: 0, y: row + 1, style: Palette.dim)
      }
    }
  }

  static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if DisplayWidth.of(candidate) <= width {
        line = candidate
      } else {
        if !line.isEmpty { lines.append(line) }
        line = DisplayWidth.truncate(String(word), toColumns: width)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}

/// A plain filled block, for backgrounds.
struct BackgroundCell: CollectionCell {
  var style: Style

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.fill(style: style)
  }
}
