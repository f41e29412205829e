/// A search in GitHub's syntax, answered from the caches rather than by GitHub's search API:
/// the one search language of `issues list -S`, the browser's `/`, `pr list -S` and the
/// dashboard's sections.
///
///     let query = try SearchQuery(parsing: #"is:open is:pr author:@me -label:wip sort:created-asc"#)
///     query.terms.count   // 4
///     query.sort          // QuerySort(.created, .ascending)
///
/// Every term must hold (GitHub's implicit AND), except the scope terms (`repo:`, `org:`,
/// `user:`, `host:`): an item in any repository a positive scope term names is in scope, as on
/// GitHub. A term with a leading `-`, or after `NOT`, must not hold. Words are searched for in
/// titles and bodies by prefix, a `"quoted phrase"` as its words in order. The qualifiers are
/// ``SearchQualifier/all``.
public struct SearchQuery: Hashable, Sendable {
  /// The conditions, in the order written.
  public var terms: [QueryTerm]
  /// The order the query writes (`sort:`), if it writes one.
  package var writtenSort: QuerySort?

  /// The order of the results: the written one, or most recently updated first.
  public var sort: QuerySort { writtenSort ?? .updatedDescending }

  /// What stands for the token's own account.
  public static let me = "@me"

  /// A query of terms.
  public init(terms: [QueryTerm] = [], sort: QuerySort? = nil) {
    self.terms = terms
    self.writtenSort = sort
  }

  /// Reads a query.
  ///
  /// - Throws: ``QuerySyntaxError`` naming the characters at fault: an unknown qualifier (with
  ///   the closest known one), a qualifier this version cannot answer from the cache (and what
  ///   it would need), a value the qualifier does not take, an unclosed quote, `OR`.
  public init(parsing text: String) throws(QuerySyntaxError) {
    self.init()
    try read(text, lenient: false)
  }

  /// Reads a query as it is being typed: what does not read as a term yet (an unfinished
  /// qualifier, an unclosed quote, `OR`) is searched for as words, so that nothing typed is
  /// dropped and nothing typed is an error.
  public init(typing text: String) {
    self.init()
    do {
      try read(text, lenient: true)
    } catch {
      // A lenient reading throws only for the quote; read again without it.
      self.init()
      let unquoted = String(text.filter { $0 != "\"" })
      try? read(unquoted, lenient: true)
    }
  }

  private mutating func read(_ text: String, lenient: Bool) throws(QuerySyntaxError) {
    var sortToken: QuerySyntax.Token?
    var negateNext: QuerySyntax.Token?
    // What does not read yet, without its `-` (the polarity says it): words.
    func asWords(_ body: Substring, _ polarity: QueryTerm.Polarity) {
      for word in body.split(whereSeparator: { $0 == "\"" || $0.isWhitespace }) {
        terms.append(QueryTerm(.text(String(word)), polarity))
      }
    }
    for token in try QuerySyntax.tokens(text) {
      if token.text == "NOT" {
        if negateNext != nil {
          if lenient { continue }
          throw QuerySyntaxError("NOT twice in a row.", offset: token.offset, length: 3)
        }
        negateNext = token
        continue
      }
      if token.text == "AND", negateNext == nil { continue }
      if token.text == "OR" {
        if lenient { continue }
        throw QuerySyntaxError(
          "OR is not supported: every term must hold. Use label:a,b for any of several labels, "
            + "or a section for each alternative.", offset: token.offset, length: 2)
      }
      var body = token.text
      var polarity = QueryTerm.Polarity.include
      if negateNext != nil {
        polarity = .exclude
      } else if body.hasPrefix("-") {
        body = body.dropFirst()
        polarity = .exclude
        if body.isEmpty {
          if lenient { continue }
          throw QuerySyntaxError(
            "Nothing follows this -: write -label:bug or -word.", offset: token.offset, length: 1)
        }
      }
      negateNext = nil
      let parsed: ParsedTerm
      do {
        parsed = try Self.term(body, token: token)
      } catch {
        guard lenient else { throw error }
        asWords(body, polarity)
        continue
      }
      switch parsed {
      case .condition(let condition): terms.append(QueryTerm(condition, polarity))
      case .sort(let sort):
        if let earlier = sortToken {
          if lenient { continue }
          throw QuerySyntaxError(
            "A second sort: (the first is at column \(earlier.offset + 1)): give one.",
            offset: token.offset, length: token.length)
        }
        if polarity == .exclude {
          if lenient { continue }
          throw QuerySyntaxError(
            "A sort cannot be negated.", offset: token.offset, length: token.length)
        }
        sortToken = token
        writtenSort = sort
      }
    }
    if let negateNext, !lenient {
      throw QuerySyntaxError(
        "Nothing follows this NOT.", offset: negateNext.offset, length: negateNext.length)
    }
  }

  /// The query as text: reading it gives this query again.
  public var text: String {
    var parts = terms.map(\.text)
    if let writtenSort { parts.append(writtenSort.text) }
    return parts.joined(separator: " ")
  }

  /// The terms that choose repositories.
  package var scopeTerms: [QueryTerm] { terms.filter(\.condition.isScope) }

  /// The terms that test items.
  package var itemTerms: [QueryTerm] { terms.filter { !$0.condition.isScope } }

  /// Whether the query reads a repository: no positive scope term, or one naming it; and no
  /// negative one naming it.
  package func includes(_ repository: RepositoryName, host: String) -> Bool {
    var named = false
    var anyPositive = false
    for term in scopeTerms {
      let matches = Self.scope(term.condition, matches: repository, host: host)
      switch term.polarity {
      case .include:
        anyPositive = true
        named = named || matches
      case .exclude:
        if matches { return false }
      }
    }
    return !anyPositive || named
  }

  /// The query with each host-less `repo:OWNER/REPO` naming github.com's copy when `sources`
  /// hold one there, as on GitHub, whose search knows one host; a name only other hosts hold
  /// keeps matching those.
  package func resolvingHosts(among sources: [DashboardSource]) -> SearchQuery {
    var resolved = self
    resolved.terms = terms.map { term in
      guard case .repository(let name, nil) = term.condition,
        sources.contains(where: {
          $0.host.name.lowercased() == GitHubHost.github.name
            && Self.scope(term.condition, matches: $0.repository, host: $0.host.name)
        })
      else { return term }
      return QueryTerm(.repository(name, host: GitHubHost.github.name), term.polarity)
    }
    return resolved
  }

  /// The one repository the query reads, when it names one with `repo:` and nothing widens
  /// the scope.
  ///
  /// A section over one repository's issues shows that repository's milestone chips.
  package var singleRepository: RepositoryName? {
    let positive = scopeTerms.filter { $0.polarity == .include }
    guard positive.count == 1, case .repository(let name, _) = positive[0].condition else {
      return nil
    }
    return name
  }

  static func scope(_ condition: QueryCondition, matches repository: RepositoryName, host: String)
    -> Bool
  {
    switch condition {
    case .repository(let name, let onHost):
      return name.owner.lowercased() == repository.owner.lowercased()
        && name.name.lowercased() == repository.name.lowercased()
        && (onHost.map { $0.lowercased() == host.lowercased() } ?? true)
    case .owner(let owner): return owner.lowercased() == repository.owner.lowercased()
    case .host(let name): return name.lowercased() == host.lowercased()
    default: return false
    }
  }

  // MARK: Reading one term

  private static func term(_ body: Substring, token: QuerySyntax.Token) throws(QuerySyntaxError)
    -> ParsedTerm
  {
    func fail(_ message: String) -> QuerySyntaxError {
      QuerySyntaxError(message, offset: token.offset, length: token.length)
    }
    if body.first == "\"" {
      guard let phrase = QuerySyntax.unquoted(body),
        !phrase.allSatisfy({ $0.isWhitespace })
      else {
        throw fail("A quoted phrase must end with its quote, and hold something.")
      }
      let words = phrase.split(whereSeparator: \.isWhitespace)
      return .condition(
        words.count == 1 ? .text(String(words[0])) : .phrase(words.joined(separator: " ")))
    }
    guard let colon = body.firstIndex(of: ":"),
      body[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }),
      !body[..<colon].isEmpty
    else {
      guard !body.contains("\"") else {
        throw fail("A quote inside a word: quote the whole phrase, as \"two words\".")
      }
      return .condition(.text(String(body)))
    }
    let key = body[..<colon].lowercased()
    let rawValue = body[body.index(after: colon)...]
    guard let qualifier = SearchQualifier.named(key) else {
      if rawValue.isEmpty { return .condition(.text(String(body))) }
      var message = "Unknown qualifier \(key):."
      if let suggestion = SearchQualifier.suggestion(for: key) {
        message += " Did you mean \(suggestion):?"
      }
      message += " Quote the word (\"\(body)\") to search for it as text."
      throw fail(message)
    }
    switch qualifier.meaning {
    case .unanswered(let needs):
      throw fail(
        "\(key): is GitHub search syntax that needs \(needs), which the cache does not hold: "
          + "it cannot be answered offline yet.")
    case .answered(let parse):
      return try parse(QualifierValue(key: key, raw: rawValue, token: token))
    }
  }
}
