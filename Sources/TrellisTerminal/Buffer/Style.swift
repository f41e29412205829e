/// A terminal colour: the terminal's default, one of the 16 ANSI colours, one of the 256 indexed
/// colours, or 24-bit true colour.
public enum Color: Hashable, Sendable {
  /// The terminal's own foreground or background colour.
  case `default`
  /// One of the 16 ANSI colours: 0–7 normal, 8–15 bright.
  case ansi(UInt8)
  /// One of the 256 indexed colours.
  case indexed(UInt8)
  /// A 24-bit colour.
  case rgb(UInt8, UInt8, UInt8)

  /// Black (ANSI 0).
  public static let black = Color.ansi(0)
  /// Red (ANSI 1).
  public static let red = Color.ansi(1)
  /// Green (ANSI 2).
  public static let green = Color.ansi(2)
  /// Yellow (ANSI 3).
  public static let yellow = Color.ansi(3)
  /// Blue (ANSI 4).
  public static let blue = Color.ansi(4)
  /// Magenta (ANSI 5).
  public static let magenta = Color.ansi(5)
  /// Cyan (ANSI 6).
  public static let cyan = Color.ansi(6)
  /// White (ANSI 7).
  public static let white = Color.ansi(7)
  /// Bright black, a grey (ANSI 8).
  public static let gray = Color.ansi(8)
}

/// Text attributes a terminal can combine freely.
public struct TextAttributes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  /// Creates a value from its raw bits.
  ///
  /// - Complexity: O(1).
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bold or increased intensity (SGR 1).
  public static let bold = TextAttributes(rawValue: 1 << 0)
  /// Dim or decreased intensity (SGR 2).
  public static let dim = TextAttributes(rawValue: 1 << 1)
  /// Italic (SGR 3).
  public static let italic = TextAttributes(rawValue: 1 << 2)
  /// Underline (SGR 4).
  public static let underline = TextAttributes(rawValue: 1 << 3)
  /// Foreground and background swapped (SGR 7).
  public static let reverse = TextAttributes(rawValue: 1 << 4)
  /// Reverse video where the terminal shows no colour (``ColorSupport/none``), nothing elsewhere.
  ///
  /// A style whose meaning is its background (a focused row) stays visible under `NO_COLOR`.
  /// ``ColorSupport`` resolves it when it adapts a style; it never reaches the terminal.
  public static let reverseWithoutColor = TextAttributes(rawValue: 1 << 5)
}

/// How a cell is drawn: colours and attributes.
public struct Style: Hashable, Sendable {
  /// The text colour.
  public var foreground: Color
  /// The cell's background colour.
  public var background: Color
  /// Bold, dim, italic, underline, reverse.
  public var attributes: TextAttributes

  /// Creates a style; by default the terminal's own colours with no attributes.
  ///
  /// - Complexity: O(1).
  public init(
    foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  /// The terminal's default style.
  public static let plain = Style()

  /// This style with attributes added.
  ///
  /// - Complexity: O(1).
  public func with(_ attributes: TextAttributes) -> Style {
    var copy = self
    copy.attributes.formUnion(attributes)
    return copy
  }
}
