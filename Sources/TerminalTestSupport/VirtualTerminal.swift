import TrellisTerminal

/// A terminal emulator in memory that interprets the bytes Trellis writes back into a screen of
/// cells, so tests can assert what a person would see and count the bytes each frame costs.
///
///     var terminal = VirtualTerminal(width: 20, height: 2)
///     var renderer = FrameRenderer()
///     terminal.write(renderer.render(frame))
///     terminal.lines  // ["전체 선택            ", "                    "]
///
/// It understands what a modern terminal does with UTF-8 text (grapheme clusters and their
/// display width, wide characters, pending wrap at the right edge), cursor movement (CUP, CUU,
/// CUD, CUF, CUB, CHA), scroll margins and scrolling (DECSTBM, SU, SD; a line feed on the
/// bottom margin scrolls the region), erasing (ED, EL), SGR styles (16, 256 and true colours, bold, dim,
/// italic, underline, reverse), the alternate screen, and private modes (it records them).
/// Other sequences, including OSC strings, are skipped.
public struct VirtualTerminal: Sendable {
  /// The screen being shown (the alternate one while it is active).
  public private(set) var screen: CellBuffer
  private var mainScreen: CellBuffer?
  /// The cursor's column and row, zero-based.
  public private(set) var cursor: (x: Int, y: Int) = (0, 0)
  private var pendingWrap = false
  private var style = Style.plain
  /// The scroll region's first and last rows (DECSTBM), or the whole screen.
  private var margins: (top: Int, bottom: Int)?
  /// The DEC private modes currently set (`?25` cursor, `?1049` alternate screen, `?2004` paste…).
  public private(set) var privateModes: Set<Int> = [25]
  /// Every byte written so far.
  public private(set) var bytesWritten = 0
  /// Bytes of an escape sequence or UTF-8 character not yet complete.
  private var pending: [UInt8] = []

  /// Creates a blank terminal of a size, cursor visible, on the main screen.
  public init(width: Int, height: Int) {
    screen = CellBuffer(width: width, height: height)
  }

  /// The rows of the screen as text.
  public var lines: [String] { screen.lines }

  /// Whether the cursor is shown.
  public var isCursorVisible: Bool { privateModes.contains(25) }

  /// Whether the alternate screen is active.
  public var isAlternateScreen: Bool { mainScreen != nil }

  /// Changes the size, keeping what fits, as a terminal window does.
  public mutating func resize(width: Int, height: Int) {
    var resized = CellBuffer(width: width, height: height)
    for row in 0..<min(height, screen.height) {
      for column in 0..<min(width, screen.width) {
        let cell = screen[column, row]
        if !cell.isContinuation && (cell.width < 2 || column + 1 < width) {
          resized.put(cell, x: column, y: row)
        }
      }
    }
    screen = resized
    cursor = (min(cursor.x, max(0, width - 1)), min(cursor.y, max(0, height - 1)))
    pendingWrap = false
  }

  /// Interprets bytes, as the terminal would on receiving them.
  public mutating func write(_ bytes: some Sequence<UInt8>) {
    let incoming = Array(bytes)
    bytesWritten += incoming.count
    var input = pending
    pending = []
    input.append(contentsOf: incoming)
    var index = 0
    var text: [UInt8] = []
    func flushText() {
      if !text.isEmpty {
        printText(text)
        text = []
      }
    }
    while index < input.count {
      let byte = input[index]
      if byte == 0x1B {
        flushText()
        guard let end = sequenceEnd(input, from: index) else {
          pending = Array(input[index...])
          return
        }
        interpretEscape(Array(input[index..<end]))
        index = end
      } else if byte < 0x20 || byte == 0x7F {
        flushText()
        control(byte)
        index += 1
      } else {
        text.append(byte)
        index += 1
      }
    }
    // Keep an incomplete UTF-8 character for the next write.
    var cut = text.count
    var back = 0
    while back < min(3, text.count) {
      let byte = text[text.count - 1 - back]
      if byte & 0xC0 == 0x80 {
        back += 1
        continue
      }
      if byte >= 0xC0 {
        let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        if back + 1 < needed { cut = text.count - 1 - back }
      }
      break
    }
    pending = Array(text[cut...])
    text.removeSubrange(cut...)
    flushText()
  }

  /// Where the escape sequence at `start` ends, or `nil` if it is incomplete.
  private func sequenceEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    guard start + 1 < bytes.count else { return nil }
    switch bytes[start + 1] {
    case 0x5B:  // CSI: parameters and intermediates, then a final byte 0x40–0x7E.
      var index = start + 2
      while index < bytes.count {
        if (0x40...0x7E).contains(bytes[index]) { return index + 1 }
        index += 1
      }
      return nil
    case 0x5D:  // OSC: until BEL or ESC \.
      var index = start + 2
      while index < bytes.count {
        if bytes[index] == 0x07 { return index + 1 }
        if bytes[index] == 0x1B {
          guard index + 1 < bytes.count else { return nil }
          return index + 2
        }
        index += 1
      }
      return nil
    default:
      return start + 2
    }
  }

  private mutating func control(_ byte: UInt8) {
    switch byte {
    case 0x0D:
      cursor.x = 0
      pendingWrap = false
    case 0x0A:
      lineFeed()
    case 0x08:
      cursor.x = max(0, cursor.x - 1)
      pendingWrap = false
    default:
      break
    }
  }

  private mutating func lineFeed() {
    pendingWrap = false
    let bottom = margins?.bottom ?? screen.height - 1
    if cursor.y == bottom {
      scroll(by: 1)
    } else if cursor.y + 1 < screen.height {
      cursor.y += 1
    }
  }

  /// Moves the rows of the scroll region up by `lines` (down when negative); the rows it
  /// uncovers are blank in the current background, as on a terminal.
  private mutating func scroll(by lines: Int) {
    let top = margins?.top ?? 0
    let bottom = margins?.bottom ?? screen.height - 1
    let height = bottom - top + 1
    guard height > 0, lines != 0 else { return }
    let width = screen.width
    let old = screen.cells
    let blank = Cell.blank(Style(background: style.background))
    for row in top...bottom {
      let source = row + lines
      for column in 0..<width {
        screen.cells[row * width + column] =
          source >= top && source <= bottom ? old[source * width + column] : blank
      }
    }
  }

  private mutating func printText(_ bytes: [UInt8]) {
    let string = String(decoding: bytes, as: UTF8.self)
    for character in string {
      let width = DisplayWidth.of(character)
      guard screen.width > 0, screen.height > 0 else { return }
      if width == 0 {
        // A lone combining mark joins the character before the cursor.
        let x = pendingWrap ? cursor.x : cursor.x - 1
        if x >= 0 {
          var cell = screen[x, cursor.y]
          if cell.isContinuation, x > 0 { cell = screen[x - 1, cursor.y] }
          cell.grapheme += String(character)
          screen.cells[cursor.y * screen.width + x] = cell
        }
        continue
      }
      if pendingWrap || cursor.x + width > screen.width {
        cursor.x = 0
        lineFeed()
      }
      screen.put(
        Cell(grapheme: String(character), width: UInt8(width), style: style), x: cursor.x,
        y: cursor.y)
      if cursor.x + width >= screen.width {
        cursor.x = screen.width - 1
        pendingWrap = true
      } else {
        cursor.x += width
      }
    }
  }

  private mutating func interpretEscape(_ sequence: [UInt8]) {
    guard sequence.count >= 2, sequence[1] == 0x5B, let final = sequence.last else { return }
    var body = Array(sequence[2..<(sequence.count - 1)])
    let isPrivate = body.first == 0x3F
    if isPrivate { body.removeFirst() }
    let parameters = String(decoding: body, as: UTF8.self).split(
      separator: ";", omittingEmptySubsequences: false
    )
    .map { Int($0) }
    func parameter(_ index: Int, default value: Int) -> Int {
      index < parameters.count ? (parameters[index] ?? value) : value
    }
    switch final {
    case 0x48, 0x66:  // H, f
      moveTo(x: parameter(1, default: 1) - 1, y: parameter(0, default: 1) - 1)
    case 0x41: moveTo(x: cursor.x, y: cursor.y - max(1, parameter(0, default: 1)))
    case 0x42: moveTo(x: cursor.x, y: cursor.y + max(1, parameter(0, default: 1)))
    case 0x43: moveTo(x: cursor.x + max(1, parameter(0, default: 1)), y: cursor.y)
    case 0x44: moveTo(x: cursor.x - max(1, parameter(0, default: 1)), y: cursor.y)
    case 0x47: moveTo(x: parameter(0, default: 1) - 1, y: cursor.y)
    case 0x72 where !isPrivate:  // r: DECSTBM; the cursor goes home
      let top = parameter(0, default: 1) - 1
      let bottom = parameter(1, default: screen.height) - 1
      margins =
        top < bottom && top >= 0 && bottom < screen.height
          && (top, bottom) != (0, screen.height - 1)
        ? (top, bottom) : nil
      moveTo(x: 0, y: 0)
    case 0x53 where !isPrivate: scroll(by: max(1, parameter(0, default: 1)))  // S: SU
    case 0x54 where !isPrivate: scroll(by: -max(1, parameter(0, default: 1)))  // T: SD
    case 0x4A: eraseDisplay(parameter(0, default: 0))
    case 0x4B: eraseLine(parameter(0, default: 0))
    case 0x6D: selectGraphicRendition(parameters.map { $0 ?? 0 })
    case 0x68 where isPrivate: for mode in parameters.compactMap({ $0 }) { setMode(mode, on: true) }
    case 0x6C where isPrivate:
      for mode in parameters.compactMap({ $0 }) { setMode(mode, on: false) }
    default: break
    }
  }

  private mutating func moveTo(x: Int, y: Int) {
    cursor = (min(max(0, x), max(0, screen.width - 1)), min(max(0, y), max(0, screen.height - 1)))
    pendingWrap = false
  }

  private mutating func eraseDisplay(_ mode: Int) {
    switch mode {
    case 2, 3: screen = CellBuffer(width: screen.width, height: screen.height, fill: .blank(style))
    case 0:
      eraseLine(0)
      for index in ((cursor.y + 1) * screen.width)..<screen.cells.count {
        screen.cells[index] = .blank(style)
      }
    case 1:
      eraseLine(1)
      for index in 0..<(cursor.y * screen.width) { screen.cells[index] = .blank(style) }
    default: break
    }
  }

  private mutating func eraseLine(_ mode: Int) {
    let range: Range<Int> =
      switch mode {
      case 0: cursor.x..<screen.width
      case 1: 0..<(cursor.x + 1)
      default: 0..<screen.width
      }
    for column in range where column < screen.width {
      screen.put(.blank(style), x: column, y: cursor.y)
    }
  }

  private mutating func setMode(_ mode: Int, on: Bool) {
    if on { privateModes.insert(mode) } else { privateModes.remove(mode) }
    if mode == 1049 {
      if on, mainScreen == nil {
        mainScreen = screen
        screen = CellBuffer(width: screen.width, height: screen.height)
      } else if !on, let main = mainScreen {
        screen = main
        mainScreen = nil
      }
    }
  }

  private mutating func selectGraphicRendition(_ codes: [Int]) {
    var codes = codes.isEmpty ? [0] : codes
    while !codes.isEmpty {
      let code = codes.removeFirst()
      switch code {
      case 0: style = .plain
      case 1: style.attributes.insert(.bold)
      case 2: style.attributes.insert(.dim)
      case 3: style.attributes.insert(.italic)
      case 4: style.attributes.insert(.underline)
      case 7: style.attributes.insert(.reverse)
      case 22: style.attributes.subtract([.bold, .dim])
      case 23: style.attributes.remove(.italic)
      case 24: style.attributes.remove(.underline)
      case 27: style.attributes.remove(.reverse)
      case 30...37: style.foreground = .ansi(UInt8(code - 30))
      case 90...97: style.foreground = .ansi(UInt8(code - 90 + 8))
      case 40...47: style.background = .ansi(UInt8(code - 40))
      case 100...107: style.background = .ansi(UInt8(code - 100 + 8))
      case 39: style.foreground = .default
      case 49: style.background = .default
      case 38, 48:
        let color: Color?
        if codes.first == 5, codes.count >= 2 {
          color = .indexed(UInt8(clamping: codes[1]))
          codes.removeFirst(2)
        } else if codes.first == 2, codes.count >= 4 {
          color = .rgb(
            UInt8(clamping: codes[1]), UInt8(clamping: codes[2]), UInt8(clamping: codes[3]))
          codes.removeFirst(4)
        } else {
          color = nil
        }
        if let color {
          if code == 38 { style.foreground = color } else { style.background = color }
        }
      default: break
      }
    }
  }
}
