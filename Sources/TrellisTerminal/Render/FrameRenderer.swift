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
/// A band of rows that moved up or down by a row or two (a scrolled list) is moved by the
/// terminal itself (scroll margins, then SU or SD) rather than written again.
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
  /// Where the terminal shows its cursor between frames; `nil` while it is hidden (as a
  /// session starts it).
  private var shownCursor: CellPoint?
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
    // A resumed terminal hides the cursor again (the session's setup): shown anew if wanted.
    shownCursor = nil
  }

  /// The bytes that turn the previous frame into `frame` on the terminal; empty when nothing
  /// changed.
  ///
  /// - Complexity: O(*w* × *h*) comparisons, plus output proportional to the changed cells.
  public mutating func render(_ frame: CellBuffer, cursor: CellPoint? = nil) -> [UInt8] {
    var out: [UInt8] = []
    render(frame, cursor: cursor, into: &out)
    return out
  }

  /// Appends to `out` the bytes that turn the previous frame into `frame`.
  ///
  /// With `cursor`, the terminal's cursor is shown on that cell once the frame is drawn — where
  /// a screen reader or a magnifier follows the focus; without, it is hidden.
  public mutating func render(
    _ frame: CellBuffer, cursor visible: CellPoint? = nil, into out: inout [UInt8]
  ) {
    let start = out.count
    out += ControlSequence.beginSynchronizedUpdate
    let bodyStart = out.count
    if var shown = previous, shown.width == frame.width, shown.height == frame.height {
      // `shown` alone holds what the terminal shows: it is brought up to `frame` in place, cell
      // by changed cell, never shared with the caller's frame (whose next change would then
      // copy the whole screen).
      previous = nil
      let scroll = Self.bestScroll(from: shown, to: frame)
      if let scroll {
        self.scroll(scroll, into: &out)
        Self.move(&shown, by: scroll)
      }
      writeChanges(to: frame, over: &shown, into: &out)
      previous = shown
    } else {
      out += ControlSequence.resetStyle
      style = .plain
      out += ControlSequence.clearScreen
      cursor = nil
      writeAll(frame, into: &out)
      previous = frame
    }
    let changed = out.count != bodyStart
    if let visible {
      let x = min(max(0, visible.x), max(0, frame.width - 1))
      let y = min(max(0, visible.y), max(0, frame.height - 1))
      if changed || shownCursor != CellPoint(x: x, y: y) {
        // Drawing moved the cursor: it goes back where it is shown.
        if cursor?.x != x || cursor?.y != y { moveCursor(toX: x, y: y, into: &out) }
        cursor = (x, y)
        if shownCursor == nil { out += ControlSequence.showCursor }
        shownCursor = CellPoint(x: x, y: y)
      }
    } else if shownCursor != nil {
      out += ControlSequence.hideCursor
      shownCursor = nil
    }
    if out.count == bodyStart {
      out.removeSubrange(start...)
    } else {
      out += ControlSequence.endSynchronizedUpdate
    }
  }

  private mutating func writeAll(_ frame: CellBuffer, into out: inout [UInt8]) {
    for row in 0..<frame.height {
      for column in 0..<frame.width {
        let cell = frame.cells[row * frame.width + column]
        if !cell.isContinuation { write(cell, x: column, y: row, width: frame.width, into: &out) }
      }
    }
  }

  /// Writes the cells of `new` that differ from what the terminal shows, `shown`, and makes
  /// `shown` the same as `new`.
  private mutating func writeChanges(
    to new: CellBuffer, over shown: inout CellBuffer, into out: inout [UInt8]
  ) {
    let width = new.width
    new.cells.withUnsafeBufferPointer { newCells in
      shown.cells.withUnsafeMutableBufferPointer { shownCells in
        for row in 0..<new.height {
          let base = row * width
          // Most rows are unchanged: one comparison of the whole row first.
          if let newBase = newCells.baseAddress, let shownBase = shownCells.baseAddress,
            memcmp(newBase + base, shownBase + base, MemoryLayout<Cell>.stride * width) == 0
          {
            continue
          }
          var column = 0
          while column < width {
            let index = base + column
            // Identical bytes are the same cell; otherwise compare values (padding may differ).
            if sameBytes(newCells, index, UnsafeBufferPointer(shownCells), index)
              || newCells[index] == shownCells[index]
            {
              column += 1
              continue
            }
            shownCells[index] = newCells[index]
            if newCells[index].isContinuation {
              // Only the second half differs (its style was changed alone): redraw the pair.
              if column > 0 {
                write(newCells[index - 1], x: column - 1, y: row, width: width, into: &out)
              }
            } else {
              write(newCells[index], x: column, y: row, width: width, into: &out)
              if newCells[index].width == 2, column + 1 < width {
                // Its second half is drawn with it.
                shownCells[index + 1] = newCells[index + 1]
                column += 1
              }
            }
            column += 1
          }
        }
      }
    }
  }

  /// Moves the band's rows in `shown` as the terminal moved them: rows scrolled in are blank.
  private static func move(_ shown: inout CellBuffer, by scroll: Scroll) {
    let width = shown.width
    let rows = Array(scroll.top...scroll.bottom)
    shown.cells.withUnsafeMutableBufferPointer { cells in
      // Each row takes one further along the scroll: read before it is overwritten.
      for row in scroll.lines > 0 ? rows : rows.reversed() {
        let source = row + scroll.lines
        for column in 0..<width {
          cells[row * width + column] =
            (scroll.top...scroll.bottom).contains(source)
            ? cells[source * width + column] : Cell.blank()
        }
      }
    }
  }

  /// A band of rows moved up (`lines` > 0) or down: what a list's scroll by a few rows is.
  struct Scroll: Equatable {
    var top: Int
    var bottom: Int
    var lines: Int
  }

  /// The scroll that leaves the fewest cells to write, if it saves at least half of them.
  ///
  /// Scrolling a list by a row changes every row of it; the terminal can move them itself
  /// (DECSTBM and SU/SD, VT100's own) and only the uncovered row is written. The band is the
  /// rows between the first and the last that changed, so fixed bars above and below stay.
  ///
  /// - Complexity: O(*w* × *h*) cell comparisons for each of the few shifts tried.
  static func bestScroll(from old: CellBuffer, to new: CellBuffer) -> Scroll? {
    let width = new.width
    guard width > 0, new.height >= 4 else { return nil }
    return new.cells.withUnsafeBufferPointer { newCells in
      old.cells.withUnsafeBufferPointer { oldCells -> Scroll? in
        func same(_ index: Int, _ other: Int) -> Bool {
          guard let newBase = newCells.baseAddress, let oldBase = oldCells.baseAddress else {
            return false
          }
          return Self.sameBytes(newBase + index, oldBase + other)
            || newCells[index] == oldCells[other]
        }
        func rowChanged(_ row: Int) -> Bool {
          let base = row * width
          if let newBase = newCells.baseAddress, let oldBase = oldCells.baseAddress,
            memcmp(newBase + base, oldBase + base, MemoryLayout<Cell>.stride * width) == 0
          {
            return false
          }
          return (0..<width).contains { !same(base + $0, base + $0) }
        }
        guard let top = (0..<new.height).first(where: rowChanged),
          let bottom = (top..<new.height).reversed().first(where: rowChanged),
          bottom - top >= 3
        else { return nil }
        /// The cells of the band that differ from the old rows `lines` below (none past it),
        /// counted up to `limit`.
        func cost(_ lines: Int, limit: Int) -> Int {
          var count = 0
          for row in top...bottom {
            let source = row + lines
            let base = row * width
            if source < top || source > bottom {
              for column in 0..<width where !(newCells[base + column] == Cell.blank()) {
                count += 1
              }
            } else {
              let sourceBase = source * width
              // Most rows are equal or not: one comparison of the whole row first.
              if let newBase = newCells.baseAddress, let oldBase = oldCells.baseAddress,
                memcmp(
                  newBase + base, oldBase + sourceBase, MemoryLayout<Cell>.stride * width) == 0
              {
                continue
              }
              for column in 0..<width where !same(base + column, sourceBase + column) {
                count += 1
              }
            }
            if count >= limit { return count }
          }
          return count
        }
        // The cheapest shift (the first of equals), taken if it leaves fewer than half the
        // cells the frame unshifted would write. Shifts are counted first — a list scrolled by
        // a row costs a row — and the unshifted frame only as far as that decides: counting
        // all of it, where every row differs, was most of the work.
        let half = (bottom - top + 1) * width / 2 + 1
        var best: (lines: Int, cost: Int)?
        let reach = min(2, (bottom - top) / 2)
        for distance in 1...max(1, reach) {
          for lines in [distance, -distance] {
            let limit = min(best?.cost ?? .max, half)
            let shifted = cost(lines, limit: limit)
            if shifted < limit { best = (lines, shifted) }
          }
        }
        guard let found = best, cost(0, limit: 2 * found.cost + 2) >= 2 * found.cost + 2 else {
          return nil
        }
        return Scroll(top: top, bottom: bottom, lines: found.lines)
      }
    }
  }

  /// Scrolls the band on the terminal: margins, SU or SD, margins back.
  ///
  /// Each moves the cursor home. The style is reset first, so that the uncovered rows are blank
  /// in the default colours.
  private mutating func scroll(_ scroll: Scroll, into out: inout [UInt8]) {
    if style != .plain {
      out += ControlSequence.resetStyle
      style = .plain
    }
    out += ControlSequence.csi
    ControlSequence.appendNumber(scroll.top + 1, to: &out)
    out.append(0x3B)
    ControlSequence.appendNumber(scroll.bottom + 1, to: &out)
    out.append(0x72)  // r
    out += ControlSequence.csi
    if abs(scroll.lines) > 1 { ControlSequence.appendNumber(abs(scroll.lines), to: &out) }
    out.append(scroll.lines > 0 ? 0x53 : 0x54)  // S, T
    out += ControlSequence.csi
    out.append(0x72)  // r
    cursor = nil
  }

  /// Whether two cells have identical bytes, which implies equal values (the converse does not
  /// hold: a heap string may equal a different one).
  @inline(__always)
  private func sameBytes(
    _ new: UnsafeBufferPointer<Cell>, _ index: Int, _ old: UnsafeBufferPointer<Cell>,
    _ oldIndex: Int
  ) -> Bool {
    guard let newBase = new.baseAddress, let oldBase = old.baseAddress else { return false }
    return Self.sameBytes(newBase + index, oldBase + oldIndex)
  }

  /// Whether two cells have the same bytes, and so are the same cell.
  ///
  /// Compared a word at a time inline rather than by a `memcmp` call per cell. Different bytes
  /// may still be equal cells (padding, a string stored otherwise): compare values then.
  @inline(__always)
  static func sameBytes(_ one: UnsafePointer<Cell>, _ other: UnsafePointer<Cell>) -> Bool {
    let (first, second) = (UnsafeRawPointer(one), UnsafeRawPointer(other))
    let size = MemoryLayout<Cell>.size
    var offset = 0
    while offset + 8 <= size {
      guard
        first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < size {
      guard
        first.load(fromByteOffset: offset, as: UInt8.self)
          == second.load(fromByteOffset: offset, as: UInt8.self)
      else { return false }
      offset += 1
    }
    return true
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
    // A wide cluster of several scalars (an emoji with U+FE0F, a ZWJ sequence, a flag) is one
    // that terminals measure differently (tmux 3.3 draws `⚠️` one column wide): both columns are
    // blanked first, and what follows is placed by an absolute move, so that a terminal that
    // disagrees shows at worst a blank beside it — never the rest of the row shifted.
    let disputed = cell.width == 2 && !cell.grapheme.unicodeScalars.dropFirst().isEmpty
    if disputed {
      out += [0x20, 0x20]
      ControlSequence.appendMove(x: x, y: y, to: &out)
    }
    out.append(contentsOf: cell.grapheme.utf8)
    let next = x + Int(cell.width)
    // At the right edge the terminal's cursor waits to wrap; its position is then ambiguous.
    cursor = next < width && !disputed ? (next, y) : nil
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
