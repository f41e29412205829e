/// Draws text, fills and boxes into a rectangle of a ``CellBuffer``, clipped so that nothing
/// escapes it — not even half of a wide character.
///
///     frame.draw(in: CellRect(x: 2, y: 1, width: 6, height: 1)) { canvas in
///       canvas.fill(style: Style(background: .blue))
///       canvas.text("마일스톤", x: 0, y: 0)   // "마일스" fits; the rest is clipped
///     }
///
/// Coordinates are relative to the canvas's corner. A wide character that would straddle the
/// clip edge is drawn as blanks on the visible half.
public struct Canvas {
  var buffer: CellBuffer
  /// The absolute position of the canvas's (0, 0).
  let origin: (x: Int, y: Int)
  /// The absolute rectangle drawing is confined to.
  var clip: CellRect

  /// The whole area the canvas stands for, at the origin; ``bounds`` is the part of it that shows.
  ///
  /// A cell scrolled half out of view keeps its full extent, so it lays itself out as if whole.
  public internal(set) var extent: CellRect

  init(buffer: CellBuffer, origin: (x: Int, y: Int), clip: CellRect, extent: CellRect? = nil) {
    self.buffer = buffer
    self.origin = origin
    self.clip = clip
    self.extent =
      extent ?? CellRect(x: 0, y: 0, width: clip.maxX - origin.x, height: clip.maxY - origin.y)
  }

  /// The visible part of the canvas, in its own coordinates.
  public var bounds: CellRect {
    CellRect(x: clip.x - origin.x, y: clip.y - origin.y, width: clip.width, height: clip.height)
  }

  /// Draws a string from a position, one grapheme cluster after another, and returns the column
  /// after the last one (in canvas coordinates), whether or not it was visible.
  ///
  /// Control characters and stray combining marks take no column and are not drawn.
  ///
  /// - Complexity: O(*c*) in the string's characters.
  @discardableResult
  public mutating func text(_ string: String, x: Int, y: Int, style: Style = .plain) -> Int {
    var column = x
    let row = origin.y + y
    let rowVisible = row >= clip.y && row < clip.maxY
    // Printable ASCII, most of what a screen shows: a character per byte, one column each,
    // without breaking graphemes or measuring them.
    if string.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
      guard rowVisible else { return x + string.utf8.count }
      for byte in string.utf8 {
        put(
          Cell(grapheme: Self.printableASCII[Int(byte) - 0x20], width: 1, style: style),
          x: origin.x + column, y: row)
        column += 1
      }
      return column
    }
    for character in string {
      let width = DisplayWidth.of(character)
      guard width > 0 else { continue }
      if rowVisible {
        put(
          Cell(grapheme: Self.capped(character), width: UInt8(width), style: style),
          x: origin.x + column, y: row)
      }
      column += width
    }
    return column
  }

  /// The printable ASCII characters, from space to `~`, as cells hold them.
  private static let printableASCII: [String] = (0x20...0x7E).map {
    String(Character(Unicode.Scalar(UInt8($0))))
  }

  /// A cluster as a cell keeps it: at most ``DisplayWidth/maximumClusterScalars`` scalars,
  /// so that a title with thousands of combining marks costs one cell, not a megabyte a frame.
  static func capped(_ character: Character) -> String {
    let scalars = character.unicodeScalars
    let limit = DisplayWidth.maximumClusterScalars
    guard scalars.count > limit else { return String(character) }
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: scalars.prefix(limit))
    return String(kept)
  }

  /// Writes a cell at an absolute position, clipped.
  private mutating func put(_ cell: Cell, x: Int, y: Int) {
    if cell.width == 2 {
      let first = clip.contains(x: x, y: y)
      let second = clip.contains(x: x + 1, y: y)
      if first && second {
        buffer.put(cell, x: x, y: y)
      } else if first {
        buffer.put(.blank(cell.style), x: x, y: y)
      } else if second {
        buffer.put(.blank(cell.style), x: x + 1, y: y)
      }
    } else if clip.contains(x: x, y: y) {
      buffer.put(cell, x: x, y: y)
    }
  }

  /// Fills a rectangle (the whole canvas by default) with a character in a style.
  ///
  /// - Complexity: O(*w* × *h*) in the rectangle's cells.
  public mutating func fill(
    _ rect: CellRect? = nil, with character: Character = " ", style: Style = .plain
  ) {
    let area = absolute(rect ?? bounds)
    let width = max(1, DisplayWidth.of(character))
    let cell = Cell(grapheme: String(character), width: UInt8(width), style: style)
    if width == 1 {
      for row in area.y..<area.maxY {
        buffer.fill(row: row, from: area.x, to: area.maxX, with: cell)
      }
      return
    }
    for row in area.y..<area.maxY {
      var column = area.x
      while column < area.maxX {
        if width == 2 && column + 1 >= area.maxX {
          buffer.put(.blank(style), x: column, y: row)
        } else {
          buffer.put(cell, x: column, y: row)
        }
        column += width
      }
    }
  }

  /// Changes the style of every cell in a rectangle (the whole canvas by default), keeping its text.
  ///
  /// - Complexity: O(*w* × *h*) in the rectangle's cells.
  public mutating func restyle(_ rect: CellRect? = nil, _ transform: (inout Style) -> Void) {
    let area = absolute(rect ?? bounds)
    for row in area.y..<area.maxY {
      for column in area.x..<area.maxX {
        transform(&buffer.cells[row * buffer.width + column].style)
      }
    }
  }

  /// The lines a box is drawn with.
  public enum Border: Sendable {
    /// ┌─┐ │ └─┘
    case single
    /// ╭─╮ │ ╰─╯
    case rounded
    /// ╔═╗ ║ ╚═╝
    case double
    /// ┏━┓ ┃ ┗━┛
    case heavy

    var pieces: (Character, Character, Character, Character, Character, Character) {
      switch self {
      case .single: ("┌", "┐", "└", "┘", "─", "│")
      case .rounded: ("╭", "╮", "╰", "╯", "─", "│")
      case .double: ("╔", "╗", "╚", "╝", "═", "║")
      case .heavy: ("┏", "┓", "┗", "┛", "━", "┃")
      }
    }
  }

  /// Draws the outline of a rectangle (the whole canvas by default).
  ///
  /// - Complexity: O(*w* + *h*), the border's cells.
  public mutating func box(_ rect: CellRect? = nil, border: Border = .single, style: Style = .plain)
  {
    let r = rect ?? CellRect(x: 0, y: 0, width: bounds.maxX, height: bounds.maxY)
    guard r.width >= 2, r.height >= 2 else { return }
    let (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical) = border.pieces
    let line = String(repeating: horizontal, count: r.width - 2)
    text(String(topLeft) + line + String(topRight), x: r.x, y: r.y, style: style)
    text(String(bottomLeft) + line + String(bottomRight), x: r.x, y: r.maxY - 1, style: style)
    for row in (r.y + 1)..<(r.maxY - 1) {
      text(String(vertical), x: r.x, y: row, style: style)
      text(String(vertical), x: r.maxX - 1, y: row, style: style)
    }
  }

  /// Draws into a smaller rectangle of this canvas, clipped to both.
  ///
  /// - Complexity: O(1), plus what `body` does.
  @discardableResult
  public mutating func draw<Result>(
    in rect: CellRect, _ body: (inout Canvas) throws -> Result
  ) rethrows -> Result {
    let absoluteRect = CellRect(
      x: origin.x + rect.x, y: origin.y + rect.y, width: rect.width, height: rect.height)
    var inner = Canvas(
      buffer: CellBuffer(width: 0, height: 0), origin: (absoluteRect.x, absoluteRect.y),
      clip: clip.intersection(absoluteRect),
      extent: CellRect(x: 0, y: 0, width: rect.width, height: rect.height))
    swap(&inner.buffer, &buffer)
    defer { swap(&inner.buffer, &buffer) }
    return try body(&inner)
  }

  /// A canvas rectangle in absolute coordinates, clipped.
  private func absolute(_ rect: CellRect) -> CellRect {
    CellRect(x: origin.x + rect.x, y: origin.y + rect.y, width: rect.width, height: rect.height)
      .intersection(clip)
  }
}
