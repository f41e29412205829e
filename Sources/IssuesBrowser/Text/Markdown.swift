import TrellisTerminal

/// GitHub-flavoured Markdown rendered to styled terminal lines: headings, emphasis, code, links,
/// lists and task lists, quotes, rules and fenced code, wrapped to a width by display columns.
///
/// Issue bodies keep their line breaks (GitHub shows them in issues); HTML comments, which issue
/// templates are full of, are dropped.
public enum Markdown {
  static var codeStyle: Style { Theme.accent }
  static var quoteStyle: Style { Theme.dim.with(.italic) }
  static var linkStyle: Style { Theme.accent.with(.underline) }
  static var dim: Style { Theme.dim }

  /// Renders Markdown into lines at most `width` columns wide.
  public static func render(_ markdown: String, width: Int) -> [StyledLine] {
    let width = max(8, width)
    var lines: [StyledLine] = []
    var inFence = false
    var previousBlank = true
    // "\r\n" is one Character in Swift: split on anything that ends a line.
    let rawLines = stripComments(markdown).split(
      omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    for raw in rawLines {
      let line = raw.replacingTabs()
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
        inFence.toggle()
        if inFence {
          let language = trimmed.dropFirst(3).trimmingCharacters()
          if !language.isEmpty { lines.append([StyledRun("  " + language, dim)]) }
        }
        continue
      }
      if inFence {
        lines.append([
          StyledRun("  " + DisplayWidth.truncate(String(line), toColumns: width - 2), codeStyle)
        ])
        continue
      }
      let rendered =
        trimmed.isEmpty
        ? [] : block(String(trimmed), indent: line.count - trimmed.count, width: width)
      // A line of nothing but HTML tags shows nothing: it separates like a blank one.
      if rendered.allSatisfy({ line in line.allSatisfy { $0.text.allSatisfy(\.isWhitespace) } }) {
        if !previousBlank { lines.append([]) }
        previousBlank = true
        continue
      }
      previousBlank = false
      lines += rendered
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// One non-blank line outside code fences.
  private static func block(_ text: String, indent: Int, width: Int) -> [StyledLine] {
    // Headings.
    if let level = headingLevel(text) {
      let content = String(text.dropFirst(level)).trimmingCharacters()
      var style = Style(attributes: .bold)
      if level == 1 { style = style.with(.underline) }
      if level >= 3 { style.foreground = .yellow }
      return wrap(inline(content, base: style), width: width, first: "", rest: "")
    }
    // Rules.
    let compact = text.filter { $0 != " " }
    if compact.count >= 3, Set(compact).count == 1, "-*_".contains(compact.first ?? " ") {
      return [[StyledRun(String(repeating: "─", count: width), dim)]]
    }
    // Quotes.
    if text.hasPrefix(">") {
      let content = String(text.drop { $0 == ">" || $0 == " " })
      return wrap(
        inline(content, base: quoteStyle), width: width, first: "│ ", rest: "│ ", marker: dim)
    }
    // Lists and task lists.
    let pad = String(repeating: " ", count: min(indent, 8))
    if let (marker, content) = listItem(text) {
      let hanging = pad + String(repeating: " ", count: DisplayWidth.of(marker))
      return wrap(
        inline(content, base: .plain), width: width, first: pad + marker, rest: hanging,
        marker: Theme.warning)
    }
    return wrap(inline(text, base: .plain), width: width, first: pad, rest: pad)
  }

  private static func headingLevel(_ text: String) -> Int? {
    let hashes = text.prefix { $0 == "#" }.count
    guard (1...6).contains(hashes) else { return nil }
    let rest = text.dropFirst(hashes)
    return rest.isEmpty || rest.first == " " ? hashes : nil
  }

  private static func listItem(_ text: String) -> (String, String)? {
    for bullet in ["- ", "* ", "+ "] where text.hasPrefix(bullet) {
      let content = String(text.dropFirst(2))
      if content.hasPrefix("[ ] ") { return ("☐ ", String(content.dropFirst(4))) }
      if content.lowercased().hasPrefix("[x] ") { return ("☑ ", String(content.dropFirst(4))) }
      return ("• ", content)
    }
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    if !digits.isEmpty, digits.count <= 3 {
      let rest = text.dropFirst(digits.count)
      if rest.hasPrefix(". ") || rest.hasPrefix(") ") {
        return (digits + ". ", String(rest.dropFirst(2)))
      }
    }
    return nil
  }

  /// Removes `<!-- … -->` comments, across lines.
  static func stripComments(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let start = rest.range(of: "<!--") {
      result += rest[..<start.lowerBound]
      guard let end = rest[start.upperBound...].range(of: "-->") else { return result }
      rest = rest[end.upperBound...]
    }
    return result + rest
  }

  // MARK: Inline

  /// Emphasis, code spans, links, images and autolinks, as styled runs.
  static func inline(_ text: String, base: Style) -> [StyledRun] {
    var runs: [StyledRun] = []
    var plain = ""
    var bold = false
    var italic = false
    var strike = false
    var style: Style {
      var style = base
      if bold { style = style.with(.bold) }
      if italic { style = style.with(.italic) }
      if strike { style = style.with(.dim) }
      return style
    }
    func flush() {
      if !plain.isEmpty { runs.append(StyledRun(plain, style)) }
      plain = ""
    }
    let characters = Array(text)
    var index = 0
    func starts(with token: String, at position: Int) -> Bool {
      let token = Array(token)
      guard position + token.count <= characters.count else { return false }
      return Array(characters[position..<(position + token.count)]) == token
    }
    func find(_ token: String, from position: Int) -> Int? {
      var cursor = position
      while cursor < characters.count {
        if starts(with: token, at: cursor) { return cursor }
        cursor += 1
      }
      return nil
    }
    while index < characters.count {
      let character = characters[index]
      if character == "\\", index + 1 < characters.count, characters[index + 1].isPunctuation {
        plain.append(characters[index + 1])
        index += 2
      } else if character == "`", let end = find("`", from: index + 1) {
        flush()
        runs.append(StyledRun(String(characters[(index + 1)..<end]), codeStyle))
        index = end + 1
      } else if starts(with: "**", at: index) || starts(with: "__", at: index) {
        flush()
        bold.toggle()
        index += 2
      } else if starts(with: "~~", at: index) {
        flush()
        strike.toggle()
        index += 2
      } else if (character == "*" || character == "_"), isEmphasisDelimiter(characters, index) {
        flush()
        italic.toggle()
        index += 1
      } else if character == "!" || character == "[",
        let (label, url, end) = link(characters, at: character == "!" ? index + 1 : index)
      {
        flush()
        if character == "!" {
          runs.append(StyledRun("🖼 " + (label.isEmpty ? "image" : label), dim))
        } else {
          runs += inline(label, base: linkStyle)
          if url != label && !url.hasPrefix("#") { runs.append(StyledRun(" (\(url))", dim)) }
        }
        index = end
      } else if character == "<", let end = find(">", from: index + 1),
        String(characters[(index + 1)..<end]).hasPrefix("http")
      {
        flush()
        runs.append(StyledRun(String(characters[(index + 1)..<end]), linkStyle))
        index = end + 1
      } else if character == "<", index + 1 < characters.count,
        characters[index + 1].isLetter || characters[index + 1] == "/",
        let end = find(">", from: index + 1), !characters[(index + 1)..<end].contains("<")
      {
        // An HTML tag: GitHub renders or hides it; as text it is noise.
        index = end + 1
      } else {
        plain.append(character)
        index += 1
      }
    }
    flush()
    return runs
  }

  /// Whether a `*` or `_` opens or closes emphasis: next to a word on one side only.
  private static func isEmphasisDelimiter(_ characters: [Character], _ index: Int) -> Bool {
    let before = index > 0 ? characters[index - 1] : " "
    let after = index + 1 < characters.count ? characters[index + 1] : " "
    if characters[index] == "_" && before.isLetter && after.isLetter { return false }
    return before.isWhitespace != after.isWhitespace || before.isPunctuation || after.isPunctuation
  }

  /// A `[label](url)` at a position: its parts and the index after it.
  private static func link(_ characters: [Character], at index: Int) -> (String, String, Int)? {
    guard index < characters.count, characters[index] == "[" else { return nil }
    var depth = 0
    var close: Int?
    for cursor in index..<characters.count {
      if characters[cursor] == "[" { depth += 1 }
      if characters[cursor] == "]" {
        depth -= 1
        if depth == 0 {
          close = cursor
          break
        }
      }
    }
    guard let close, close + 1 < characters.count, characters[close + 1] == "(",
      let end = characters[(close + 2)...].firstIndex(of: ")")
    else { return nil }
    let label = String(characters[(index + 1)..<close])
    let url = String(characters[(close + 2)..<end]).split(separator: " ").first.map(String.init)
    return (label, url ?? "", end + 1)
  }

  // MARK: Wrapping

  /// Fills lines with the runs' words, breaking at spaces (or inside a word longer than a line).
  static func wrap(
    _ runs: [StyledRun], width: Int, first: String, rest: String, marker: Style = .plain
  ) -> [StyledLine] {
    // A word is cut at the width: below one column nothing would ever fit.
    let width = max(1, width)
    var lines: [StyledLine] = []
    var line: StyledLine = first.isEmpty ? [] : [StyledRun(first, marker)]
    var column = DisplayWidth.of(first)
    var lineHasWords = false
    func newLine() {
      lines.append(line)
      line = rest.isEmpty ? [] : [StyledRun(rest, marker)]
      column = DisplayWidth.of(rest)
      lineHasWords = false
    }
    func append(_ text: String, _ style: Style) {
      if let last = line.last, last.style == style, line.count > (first.isEmpty ? 0 : 0) {
        line[line.count - 1].text += text
      } else {
        line.append(StyledRun(text, style))
      }
    }
    for run in runs {
      for piece in words(run.text) {
        let pieceWidth = DisplayWidth.of(piece)
        if piece == " " {
          if lineHasWords && column < width {
            append(" ", run.style)
            column += 1
          }
          continue
        }
        if column + pieceWidth > width && lineHasWords {
          // Drop the space the line ended with.
          if var last = line.popLast() {
            if last.text.hasSuffix(" ") { last.text.removeLast() }
            if !last.text.isEmpty { line.append(last) }
          }
          newLine()
        }
        var remaining = piece
        while column + DisplayWidth.of(remaining) > width {
          let head = DisplayWidth.truncate(
            remaining, toColumns: max(1, width - column), ellipsis: "")
          guard !head.isEmpty else {
            newLine()
            continue
          }
          append(head, run.style)
          remaining = String(remaining.dropFirst(head.count))
          newLine()
        }
        if !remaining.isEmpty {
          append(remaining, run.style)
          column += DisplayWidth.of(remaining)
          lineHasWords = true
        }
      }
    }
    lines.append(line)
    return lines
  }

  /// Words and single spaces, in order.
  private static func words(_ text: String) -> [String] {
    var result: [String] = []
    var word = ""
    for character in text {
      if character == " " {
        if !word.isEmpty { result.append(word) }
        word = ""
        result.append(" ")
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { result.append(word) }
    return result
  }
}

extension Substring {
  fileprivate func replacingTabs() -> Substring {
    contains("\t") ? Substring(replacingOccurrences(of: "\t", with: "    ")) : self
  }

  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " || $0 == "#" }.reversed())
  }
}

extension String {
  fileprivate func trimmingCharacters() -> String { Substring(self).trimmingCharacters() }
}
