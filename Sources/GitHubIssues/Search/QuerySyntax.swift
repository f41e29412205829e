/// The lexical side of the search language: tokens with their places, and quoting.
enum QuerySyntax {
  /// A token of a query and where it is, in characters.
  struct Token {
    var text: Substring
    var offset: Int
    var length: Int { text.count }
  }

  /// Splits a query at white space outside double quotes.
  static func tokens(_ query: String) throws(QuerySyntaxError) -> [Token] {
    var tokens: [Token] = []
    var start: String.Index?
    var startOffset = 0
    var quoteOffset: Int?
    var offset = 0
    var index = query.startIndex
    while index < query.endIndex {
      let character = query[index]
      if character == "\"" {
        quoteOffset = quoteOffset == nil ? offset : nil
      }
      if character.isWhitespace && quoteOffset == nil {
        if let begun = start {
          tokens.append(Token(text: query[begun..<index], offset: startOffset))
          start = nil
        }
      } else if start == nil {
        start = index
        startOffset = offset
      }
      index = query.index(after: index)
      offset += 1
    }
    if let quoteOffset {
      throw QuerySyntaxError(
        "This quote is not closed: end the phrase with another \".", offset: quoteOffset,
        length: 1)
    }
    if let begun = start {
      tokens.append(Token(text: query[begun...], offset: startOffset))
    }
    return tokens
  }

  /// The text of a value or phrase: without its quotes when it is quoted whole, as it is when
  /// it has none; `nil` when a quote sits inside it (`ab"c d"`), which would not read back.
  static func unquoted(_ text: Substring) -> Substring? {
    if text.first == "\"" {
      guard text.count >= 2, text.last == "\"" else { return nil }
      let inner = text.dropFirst().dropLast()
      return inner.contains("\"") ? nil : inner
    }
    return text.contains("\"") ? nil : text
  }

  /// Splits `a,"b c",d` at the commas outside quotes.
  static func commaSeparated(_ text: Substring) -> [Substring] {
    var parts: [Substring] = []
    var quoted = false
    var start = text.startIndex
    for index in text.indices {
      switch text[index] {
      case "\"": quoted.toggle()
      case "," where !quoted:
        parts.append(text[start..<index])
        start = text.index(after: index)
      default: break
      }
    }
    parts.append(text[start...])
    return parts
  }

  /// A value written so that it reads back as itself: quoted when it holds white space or a
  /// character the syntax gives meaning to.
  static func quotedIfNeeded(_ text: String) -> String {
    let plain =
      !text.isEmpty && !text.hasPrefix("-") && !["NOT", "AND", "OR"].contains(text)
      && !text.contains { $0.isWhitespace || $0 == ":" || $0 == "," }
    return plain ? text : "\"\(text)\""
  }

  /// Levenshtein distance, for suggestions between short names.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
