/// Help pages laid out for an 80-column terminal and a man page alike: paragraphs the argument
/// parser wraps, and indented entries wrapped here, so that no line is wrapped without its
/// indent.
package enum HelpText {
  /// The width entries are wrapped to: a man page indents its text by 5 and an 80-column
  /// terminal leaves room for 75, so neither wraps them again.
  package static let width = 72

  /// `text` wrapped at spaces to ``width``, each line indented by `indent` spaces.
  package static func wrapped(_ text: String, indent: Int) -> [String] {
    let room = width - indent
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    // Counted as the line grows: a String's count walks its characters every time.
    var length = 0
    for word in text.split(separator: " ") {
      let wordLength = word.count
      if length > 0, length + 1 + wordLength > room {
        lines.append(margin + line)
        line = ""
        length = 0
      }
      if length > 0 {
        line += " "
        length += 1
      }
      line += word
      length += wordLength
    }
    if length > 0 { lines.append(margin + line) }
    return lines
  }

  /// A term and what it means: the term indented by two, the meaning beside it from column
  /// `column` when the term leaves room, else on the lines below; wrapped lines keep the column.
  package static func entry(_ term: String, _ meaning: String, column: Int) -> [String] {
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
