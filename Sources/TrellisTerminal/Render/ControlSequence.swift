/// The escape sequences Trellis writes, as bytes.
public enum ControlSequence {
  /// The control sequence introducer, `ESC [`.
  static let csi: [UInt8] = [0x1B, 0x5B]

  /// Begin synchronized output (DEC mode 2026): the terminal shows the frame at once.
  public static let beginSynchronizedUpdate = bytes("\u{1B}[?2026h")
  /// End synchronized output.
  public static let endSynchronizedUpdate = bytes("\u{1B}[?2026l")
  /// Switch to the alternate screen.
  public static let enterAlternateScreen = bytes("\u{1B}[?1049h")
  /// Switch back to the main screen.
  public static let leaveAlternateScreen = bytes("\u{1B}[?1049l")
  /// Hide the cursor.
  public static let hideCursor = bytes("\u{1B}[?25l")
  /// Show the cursor.
  public static let showCursor = bytes("\u{1B}[?25h")
  /// Report pastes between `ESC [200~` and `ESC [201~`.
  public static let enableBracketedPaste = bytes("\u{1B}[?2004h")
  /// Stop bracketing pastes.
  public static let disableBracketedPaste = bytes("\u{1B}[?2004l")
  /// Report presses, releases, drags and wheel in SGR encoding.
  public static let enableMouse = bytes("\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h")
  /// Stop reporting the mouse.
  public static let disableMouse = bytes("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l")
  /// Report focus in and out.
  public static let enableFocusReporting = bytes("\u{1B}[?1004h")
  /// Stop reporting focus.
  public static let disableFocusReporting = bytes("\u{1B}[?1004l")
  /// Reset colours and attributes.
  public static let resetStyle = bytes("\u{1B}[0m")
  /// Clear the whole screen.
  public static let clearScreen = bytes("\u{1B}[2J")

  static func bytes(_ string: String) -> [UInt8] { Array(string.utf8) }

  /// Appends the decimal digits of a non-negative number.
  static func appendNumber(_ value: Int, to out: inout [UInt8]) {
    if value < 10 {
      out.append(UInt8(0x30 + value))
      return
    }
    appendNumber(value / 10, to: &out)
    out.append(UInt8(0x30 + value % 10))
  }

  /// Appends a cursor move to a zero-based column and row (CUP).
  static func appendMove(x: Int, y: Int, to out: inout [UInt8]) {
    out += csi
    if y > 0 { appendNumber(y + 1, to: &out) }
    if x > 0 {
      out.append(0x3B)
      appendNumber(x + 1, to: &out)
    }
    out.append(0x48)  // H
  }

  /// Appends the SGR parameters of a colour, as foreground (`base` 30) or background (40).
  static func appendColor(_ color: Color, foreground: Bool, to out: inout [UInt8]) {
    switch color {
    case .default:
      appendNumber(foreground ? 39 : 49, to: &out)
    case .ansi(let index):
      let base = foreground ? 30 : 40
      appendNumber(index < 8 ? base + Int(index) : base + 60 + Int(index & 7), to: &out)
    case .indexed(let index):
      appendNumber(foreground ? 38 : 48, to: &out)
      out += [0x3B, 0x35, 0x3B]  // ;5;
      appendNumber(Int(index), to: &out)
    case .rgb(let red, let green, let blue):
      appendNumber(foreground ? 38 : 48, to: &out)
      out += [0x3B, 0x32]  // ;2
      for component in [red, green, blue] {
        out.append(0x3B)
        appendNumber(Int(component), to: &out)
      }
    }
  }

  /// Each attribute and the digit of its SGR code, in the order they are written.
  static let attributeCodes: [(TextAttributes, UInt8)] = [
    (.bold, 0x31), (.dim, 0x32), (.italic, 0x33), (.underline, 0x34), (.reverse, 0x37),
  ]

  /// Appends the shortest SGR sequence that changes the terminal from one style to another, or
  /// nothing when they are equal.
  static func appendStyleChange(from old: Style, to new: Style, to out: inout [UInt8]) {
    guard old != new else { return }
    out += csi
    var first = true
    func separate(_ out: inout [UInt8]) {
      if !first { out.append(0x3B) }
      first = false
    }
    var current = old
    // Attributes are removed one by one with distinct codes; a reset is shorter when several go,
    // and it resets colours too.
    if !old.attributes.subtracting(new.attributes).isEmpty {
      separate(&out)
      out.append(0x30)
      current = .plain
    }
    let added = new.attributes.subtracting(current.attributes)
    if !added.isEmpty {
      for (attribute, code) in attributeCodes where added.contains(attribute) {
        separate(&out)
        out.append(code)
      }
    }
    if new.foreground != current.foreground {
      separate(&out)
      appendColor(new.foreground, foreground: true, to: &out)
    }
    if new.background != current.background {
      separate(&out)
      appendColor(new.background, foreground: false, to: &out)
    }
    out.append(0x6D)  // m
  }

  /// The number of decimal digits of a non-negative number.
  static func digitCount(_ value: Int) -> Int {
    var count = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      count += 1
    }
    return count
  }
}
