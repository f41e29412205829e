#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns frames into the fewest bytes that update a terminal: only changed cells are written,
/// the cursor moves only where needed, and styles change only when they differ.
///
///     var renderer = FrameRenderer()
///     let first = renderer.render(frame)     // the whole screen
///     let second = renderer.render(changed)  // only the changed cells
///
/// Every frame with changes is wrapped in synchronized output (DEC mode 2026), so the terminal
/// shows it at once. After a resize, or on ``invalidate()``, the next frame is drawn in full.
/// The renderer assumes it is the only writer to the screen; it remembers the cursor position
/// and the style it left the terminal in.
public struct FrameRenderer: Sendable {
  private var previous: CellBuffer?
  /// Where the terminal's cursor is, if known.
  private var cursor: (x: Int, y: Int)?
  /// The style the terminal is drawing with.
  private var style = Style.plain
  /// What colours the terminal shows; every cell's colours are mapped to them.
  public var colors: ColorSupport

  /// Creates a renderer whose first frame will be drawn in full, for a terminal that shows
  /// `colors` (24-bit by default).
  public init(colors: ColorSupport = .trueColor) {
    self.colors = colors
  }

  /// Makes the next frame draw in full (after the screen was cleared or disturbed).
  public mutating func invalidate() {
    previous = nil
    cursor = nil
  }

  /// The bytes that turn the previous frame into `frame` on the terminal; empty when nothing
  /// changed.
  ///
  /// - Complexity: O(*w* × *h*) comparisons, plus output proportional to the changed cells.
  public mutating func render(_ frame: CellBuffer) -> [UInt8] {
    var out: [UInt8] = []
    render(frame, into: &out)
    return out
  }

  /// Appends to `out` the bytes that turn the previous frame into `frame`.
  public mutating func render(_ frame: CellBuffer, into out: inout [UInt8]) {
    let start = out.count
    out += ControlSequence.beginSynchronizedUpdate
    let bodyStart = out.count
    if let previous, previous.width == frame.width, previous.height == frame.height {
      writeChanges(from: previous, to: frame, into: &out)
    } else {
      out += ControlSequence.resetStyle
      style = .plain
      out += ControlSequence.clearScreen
      cursor = nil
      writeAll(frame, into: &out)
    }
    if out.count == bodyStart {
      out.removeSubrange(start...)
    } else {
      out += ControlSequence.endSynchronizedUpdate
    }
    previous = frame
  }

  private mutating func writeAll(_ frame: CellBuffer, into out: inout [UInt8]) {
    for row in 0..<frame.height {
      for column in 0..<frame.width {
        let cell = frame.cells[row * frame.width + column]
        if !cell.isContinuation { write(cell, x: column, y: row, width: frame.width, into: &out) }
      }
    }
  }

  private mutating func writeChanges(
    from old: CellBuffer, to new: CellBuffer, into out: inout [UInt8]
  ) {
    let width = new.width
    new.cells.withUnsafeBufferPointer { newCells in
      old.cells.withUnsafeBufferPointer { oldCells in
        for row in 0..<new.height {
          let base = row * width
          var column = 0
          while column < width {
            // Identical bytes are the same cell; otherwise compare values (padding may differ).
            if sameBytes(newCells, oldCells, base + column)
              || newCells[base + column] == oldCells[base + column]
            {
              column += 1
              continue
            }
            if newCells[base + column].isContinuation {
              // Only the second half differs (its style was changed alone): redraw the pair.
              if column > 0 {
                write(newCells[base + column - 1], x: column - 1, y: row, width: width, into: &out)
              }
            } else {
              write(newCells[base + column], x: column, y: row, width: width, into: &out)
              if newCells[base + column].width == 2 { column += 1 }
            }
            column += 1
          }
        }
      }
    }
  }

  /// Whether two cells have identical bytes, which implies equal values (the converse does not
  /// hold: a heap string may equal a different one).
  @inline(__always)
  private func sameBytes(
    _ new: UnsafeBufferPointer<Cell>, _ old: UnsafeBufferPointer<Cell>, _ index: Int
  ) -> Bool {
    guard let newBase = new.baseAddress, let oldBase = old.baseAddress else { return false }
    return memcmp(newBase + index, oldBase + index, MemoryLayout<Cell>.size) == 0
  }

  /// Writes one cell at a position: cursor move if needed, style change if needed, grapheme.
  private mutating func write(_ cell: Cell, x: Int, y: Int, width: Int, into out: inout [UInt8]) {
    if cursor?.x != x || cursor?.y != y {
      moveCursor(toX: x, y: y, into: &out)
    }
    let wanted = colors.adapt(cell.style)
    if style != wanted {
      ControlSequence.appendStyleChange(from: style, to: wanted, to: &out)
      style = wanted
    }
    out.append(contentsOf: cell.grapheme.utf8)
    let next = x + Int(cell.width)
    // At the right edge the terminal's cursor waits to wrap; its position is then ambiguous.
    cursor = next < width ? (next, y) : nil
  }

  private mutating func moveCursor(toX x: Int, y: Int, into out: inout [UInt8]) {
    if let cursor, cursor.y == y, x > cursor.x {
      // Cursor forward (CUF) is shorter than an absolute move on the same row, unless far.
      let distance = x - cursor.x
      let relative = 3 + (distance > 1 ? ControlSequence.digitCount(distance) : 0)
      let absolute =
        3 + (y > 0 ? ControlSequence.digitCount(y + 1) : 0)
        + (x > 0 ? 1 + ControlSequence.digitCount(x + 1) : 0)
      if relative <= absolute {
        out += ControlSequence.csi
        if distance > 1 { ControlSequence.appendNumber(distance, to: &out) }
        out.append(0x43)  // C
        return
      }
    }
    ControlSequence.appendMove(x: x, y: y, to: &out)
  }
}
