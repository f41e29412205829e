/// A screenful of cells: what one frame shows, drawn into by a ``Canvas`` and diffed against the
/// previous frame by a ``FrameRenderer``.
///
///     var frame = CellBuffer(width: 10, height: 1)
///     frame.draw { canvas in canvas.text("전체", x: 0, y: 0) }
///     frame.lines  // ["전체      "]
///
/// A wide character takes its cell and a continuation cell after it; the buffer keeps that pairing
/// intact whatever is drawn over either half.
public struct CellBuffer: Hashable, Sendable {
  /// The number of columns.
  public let width: Int
  /// The number of rows.
  public let height: Int
  /// Row after row.
  package var cells: [Cell]

  /// Creates a buffer filled with a cell (blanks by default).
  ///
  /// - Complexity: O(*w* × *h*).
  public init(width: Int, height: Int, fill: Cell = .blank()) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: fill, count: self.width * self.height)
  }

  /// Creates a buffer from rows of text in the plain style, padded with spaces to the widest row
  /// (or to `width`); handy for writing expected screens in tests.
  ///
  /// - Complexity: O(*w* × *h* + *c*) for *c* characters in the lines.
  public init(lines: [String], width: Int? = nil) {
    let columns = width ?? lines.map { DisplayWidth.of($0) }.max() ?? 0
    self.init(width: columns, height: lines.count)
    draw { canvas in
      for (row, line) in lines.enumerated() { canvas.text(line, x: 0, y: row) }
    }
  }

  /// The whole buffer as a rectangle at the origin.
  public var bounds: CellRect { CellRect(x: 0, y: 0, width: width, height: height) }

  /// The cell at a column and row.
  ///
  /// - Precondition: The position is inside the buffer.
  /// - Complexity: O(1).
  public subscript(x: Int, y: Int) -> Cell {
    precondition(
      x >= 0 && x < width && y >= 0 && y < height,
      "Cell (\(x), \(y)) is out of range 0 ..< \(width), 0 ..< \(height)")
    return cells[y * width + x]
  }

  /// Each row as text, continuation cells left out: what a person reads on screen.
  public var lines: [String] {
    (0..<height).map { row in
      var line = ""
      for column in 0..<width { line += cells[row * width + column].grapheme }
      return line
    }
  }

  /// Draws into the buffer through a canvas clipped to `rect` (the whole buffer by default);
  /// the canvas's coordinates start at the rectangle's corner.
  ///
  /// - Complexity: O(1), plus what `body` does.
  @discardableResult
  public mutating func draw<Result>(
    in rect: CellRect? = nil, _ body: (inout Canvas) throws -> Result
  ) rethrows -> Result {
    let frame = rect ?? bounds
    var canvas = Canvas(
      buffer: CellBuffer(width: 0, height: 0), origin: (frame.x, frame.y), clip: frame,
      extent: CellRect(x: 0, y: 0, width: frame.width, height: frame.height))
    swap(&canvas.buffer, &self)
    defer { swap(&canvas.buffer, &self) }
    canvas.clip = canvas.clip.intersection(canvas.buffer.bounds)
    return try body(&canvas)
  }

  /// Writes a one-column cell over a run of a row, keeping wide characters at its edges paired:
  /// what ``put(_:x:y:)`` does cell by cell, in one pass.
  package mutating func fill(row y: Int, from start: Int, to end: Int, with cell: Cell) {
    precondition(cell.width == 1, "A run is filled with one-column cells")
    guard start < end else { return }
    let base = y * width
    // A wide character cut by either edge loses its other half.
    if start > 0, cells[base + start].isContinuation {
      cells[base + start - 1] = .blank(cells[base + start - 1].style)
    }
    if end < width, cells[base + end - 1].width == 2 {
      cells[base + end] = .blank(cells[base + end].style)
    }
    cells.withUnsafeMutableBufferPointer { all in
      UnsafeMutableBufferPointer(rebasing: all[(base + start)..<(base + end)])
        .update(repeating: cell)
    }
  }

  /// Writes a cell at an absolute position, keeping wide characters paired.
  package mutating func put(_ cell: Cell, x: Int, y: Int) {
    let index = y * width + x
    // Overwriting the continuation of a wide character breaks the character: blank its first half.
    if cells[index].isContinuation && x > 0 {
      cells[index - 1] = .blank(cells[index - 1].style)
    }
    // Overwriting the first half of a wide character leaves its continuation alone: blank it.
    if cells[index].width == 2 && x + 1 < width && cell.width != 2 {
      cells[index + 1] = .blank(cells[index + 1].style)
    }
    cells[index] = cell
    if cell.width == 2 {
      if x + 2 < width, cells[index + 1].width == 2 {
        cells[index + 2] = .blank(cells[index + 2].style)
      }
      cells[index + 1] = .continuation(cell.style)
    }
  }
}

extension CellBuffer {
  /// The positions whose cells differ from another buffer's, row by row; every position when
  /// the sizes differ.
  ///
  /// Tests use it to check that a change touched only what it should.
  ///
  /// - Complexity: O(*w* × *h*).
  public func changedCells(from other: CellBuffer) -> [(x: Int, y: Int)] {
    var changed: [(x: Int, y: Int)] = []
    let sameSize = width == other.width && height == other.height
    for y in 0..<height {
      for x in 0..<width where !sameSize || cells[y * width + x] != other.cells[y * width + x] {
        changed.append((x, y))
      }
    }
    return changed
  }
}

extension CellBuffer: CustomStringConvertible {
  /// The rows, one per line, between bars so that trailing spaces show.
  public var description: String {
    lines.map { "|\($0)|" }.joined(separator: "\n")
  }
}

extension CellBuffer {
  /// Copies a rectangle of another buffer to a position in this one, clipped to both, keeping wide
  /// characters whole: a pair cut by the destination's edges is blanked rather than split.
  mutating func copy(_ rect: CellRect, of source: CellBuffer, toX x: Int, y: Int) {
    let from = rect.intersection(source.bounds)
    guard !from.isEmpty else { return }
    let dx = x - rect.x
    let dy = y - rect.y
    let to = CellRect(x: from.x + dx, y: from.y + dy, width: from.width, height: from.height)
      .intersection(bounds)
    guard !to.isEmpty else { return }
    for row in to.y..<to.maxY {
      let sourceBase = (row - dy) * source.width - dx
      let base = row * width
      // A wide character of what was here, cut by the left edge: blank its first half.
      if to.x > 0, cells[base + to.x].isContinuation {
        cells[base + to.x - 1] = .blank(cells[base + to.x - 1].style)
      }
      // One row at a time through the buffers: no uniqueness or bounds check per cell.
      source.cells.withUnsafeBufferPointer { from in
        cells.withUnsafeMutableBufferPointer { into in
          guard let target = into.baseAddress, let origin = from.baseAddress else { return }
          (target + base + to.x).update(from: origin + sourceBase + to.x, count: to.width)
        }
      }
      // A wide character copied without its second half, or a first half left without its pair.
      if cells[base + to.x].isContinuation {
        cells[base + to.x] = .blank(cells[base + to.x].style)
      }
      let last = base + to.maxX - 1
      if cells[last].width == 2 {
        cells[last] = .blank(cells[last].style)
      }
      if to.maxX < width, cells[base + to.maxX].isContinuation {
        cells[base + to.maxX] = .blank(cells[base + to.maxX].style)
      }
    }
  }
}
