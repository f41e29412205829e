import TrellisTerminal

extension Style {
  /// A style as the configuration writes it: attributes, a colour, and `on` a background
  /// colour, in any order — `bold cyan`, `white on #005f87`, `underline 208 on default`.
  ///
  /// Colours are the terminal's sixteen by name (`red`, `bright-red`, `gray`), one of its 256
  /// by number, `#rrggbb`, or `default`.
  ///
  /// - Throws: What is wrong, in words, for the caller to place in the file.
  public init(configText text: String) throws(StyleTextError) {
    var style = Style()
    var words = text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }[...]
    guard !words.isEmpty else {
      throw StyleTextError("an empty style: write a colour, such as cyan.")
    }
    var setForeground = false
    while let word = words.popFirst() {
      if let attribute = Self.attributeNames[word] {
        style.attributes.insert(attribute)
      } else if word == "on" {
        guard let next = words.popFirst() else {
          throw StyleTextError("“on” needs a background colour after it.")
        }
        style.background = try Self.color(next)
      } else if !setForeground {
        style.foreground = try Self.color(word)
        setForeground = true
      } else {
        throw StyleTextError("“\(word)”: a style has one colour, and one after “on”.")
      }
    }
    self = style
  }

  static let attributeNames: [String: TextAttributes] = [
    "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse,
  ]

  static let colorNames: [String: UInt8] = [
    "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6,
    "white": 7, "gray": 8, "grey": 8,
  ]

  static func color(_ word: String) throws(StyleTextError) -> Color {
    if word == "default" { return .default }
    if let index = colorNames[word] { return .ansi(index) }
    if word.hasPrefix("bright-"), let index = colorNames[String(word.dropFirst(7))], index < 8 {
      return .ansi(index + 8)
    }
    if let index = UInt8(word) { return .indexed(index) }
    if word.hasPrefix("#"), word.count == 7, let value = UInt32(word.dropFirst(), radix: 16) {
      return .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }
    throw StyleTextError(
      "“\(word)” is not a colour or an attribute: write a name (cyan, bright-red), 0–255, "
        + "#rrggbb, default, or bold, dim, italic, underline, reverse.")
  }
}

/// Why a style's text could not be read.
public struct StyleTextError: Error, Hashable, Sendable {
  /// What is wrong.
  public var message: String

  init(_ message: String) { self.message = message }
}
