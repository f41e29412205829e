/// A search as people type it in GitHub's search box and gh's `--search`: words, and qualifiers
/// such as `assignee:@me`, `author:octocat`, `mentions:hubot` and `label:"good first issue"`.
///
/// The browser's search field and `issues list --search` read the same language, so that a
/// filter typed in one works in the other. A token that is not a known qualifier with a valid
/// value is a word (searched for as text): nothing typed is ever dropped.
public struct SearchQuery: Hashable, Sendable {
  /// The words searched for in titles and bodies, in order.
  public var words: [String]
  /// Every one of these labels.
  public var labels: [String]
  /// Assigned to this login, or `@me`.
  public var assignee: String?
  /// Opened by this login, or `@me`.
  public var author: String?
  /// Mentioning this login, or `@me`.
  public var mention: String?

  /// What stands for the token's own account.
  public static let me = "@me"

  /// A query of words and qualifiers.
  public init(
    words: [String] = [], labels: [String] = [], assignee: String? = nil, author: String? = nil,
    mention: String? = nil
  ) {
    self.words = words
    self.labels = labels
    self.assignee = assignee
    self.author = author
    self.mention = mention
  }

  /// Reads a query.
  ///
  /// Tokens split at white space outside double quotes; `key:value` with a known key (any case)
  /// and a valid value is a qualifier, anything else a word. A later qualifier of the same kind
  /// replaces an earlier one, except labels, which add up.
  public init(parsing text: String) {
    self.init()
    for token in Self.tokens(text) {
      guard let colon = token.firstIndex(of: ":") else {
        words.append(token)
        continue
      }
      let key = token[..<colon].lowercased()
      var value = String(token[token.index(after: colon)...])
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast())
      }
      switch key {
      case "label" where !value.isEmpty && !value.contains("\""):
        labels.append(value)
      case "assignee" where Self.actorLogin(value) != nil: assignee = Self.actorLogin(value)
      case "author" where Self.actorLogin(value) != nil: author = Self.actorLogin(value)
      case "mentions" where Self.actorLogin(value) != nil,
        "mention" where Self.actorLogin(value) != nil:
        mention = Self.actorLogin(value)
      default: words.append(token)
      }
    }
  }

  /// The query written back, qualifiers first: reading it gives this query again.
  public var text: String {
    var parts: [String] = []
    if let assignee { parts.append("assignee:\(assignee)") }
    if let author { parts.append("author:\(author)") }
    if let mention { parts.append("mentions:\(mention)") }
    for label in labels {
      parts.append(label.contains(where: \.isWhitespace) ? "label:\"\(label)\"" : "label:\(label)")
    }
    return (parts + words).joined(separator: " ")
  }

  /// Whether a qualifier is `@me`, which only the token's account can resolve.
  public var mentionsMe: Bool {
    [assignee, author, mention].contains(Self.me)
  }

  /// `filter` narrowed by this query, with `@me` as `me`; `nil` when the query says `@me` and
  /// `me` is not known yet.
  public func applied(to filter: IssueFilter, me: String?) -> IssueFilter? {
    func resolved(_ login: String?) -> String?? {
      guard login == Self.me else { return .some(login) }
      return me.map { .some($0) } ?? nil
    }
    guard let assignee = resolved(assignee), let author = resolved(author),
      let mention = resolved(mention)
    else { return nil }
    var narrowed = filter
    narrowed.labels += labels.filter { !narrowed.labels.contains($0) }
    narrowed.assignee = assignee ?? filter.assignee
    narrowed.author = author ?? filter.author
    narrowed.mention = mention ?? filter.mention
    narrowed.text = words.isEmpty ? nil : words.joined(separator: " ")
    return narrowed
  }

  /// The login a filter looks for, as GitHub writes it on issues: `@me`, a user's login, a
  /// bot's `NAME[bot]`, or gh's `app/NAME` for that same bot; `nil` when the text is none of
  /// them.
  public static func actorLogin(_ text: String) -> String? {
    if isLogin(text) { return text }
    if text.hasPrefix("app/"), text != "app/" + me, isLogin(String(text.dropFirst(4))) {
      return String(text.dropFirst(4)) + "[bot]"
    }
    if text.hasSuffix("[bot]"), text != me + "[bot]", isLogin(String(text.dropLast(5))) {
      return text
    }
    return nil
  }

  /// Whether the text is a GitHub login (letters, digits, single inner hyphens, 1 to 39
  /// characters) or `@me`.
  public static func isLogin(_ text: String) -> Bool {
    if text == me { return true }
    guard (1...39).contains(text.count), !text.hasPrefix("-"), !text.hasSuffix("-"),
      !text.contains("--")
    else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
  }

  /// The tokens of a query: split at white space, except inside double quotes.
  static func tokens(_ text: String) -> [String] {
    var tokens: [String] = []
    var current = ""
    var quoted = false
    for character in text {
      if character == "\"" { quoted.toggle() }
      if character.isWhitespace && !quoted {
        if !current.isEmpty { tokens.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { tokens.append(current) }
    return tokens
  }
}
