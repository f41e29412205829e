/// Help pages laid out for an 80-column terminal and a man page alike: paragraphs the argument
/// parser wraps, and indented entries wrapped here, so that no line is wrapped without its
/// indent.
public enum HelpText {
  /// The width entries are wrapped to: under 80, so the parser never wraps them again.
  public static let width = 76

  /// `text` wrapped at spaces to ``width``, each line indented by `indent` spaces.
  public static func wrapped(_ text: String, indent: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width - indent {
        lines.append(String(repeating: " ", count: indent) + line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(String(repeating: " ", count: indent) + line) }
    return lines
  }

  /// A term and what it means: the term indented by two, the meaning beside it from column
  /// `column` when the term leaves room, else on the lines below; wrapped lines keep the column.
  public static func entry(_ term: String, _ meaning: String, column: Int) -> [String] {
    let body = wrapped(meaning, indent: column)
    let termWidth = 2 + term.count
    guard let first = body.first, termWidth + 2 <= column else {
      return ["  " + term] + body
    }
    let beside =
      "  " + term + String(repeating: " ", count: column - termWidth) + first.dropFirst(column)
    return [beside] + body.dropFirst()
  }
}
