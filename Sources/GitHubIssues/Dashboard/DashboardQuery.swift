/// A dashboard section's query, in GitHub's search syntax, answered from the caches rather than
/// by GitHub's search API.
///
///     let query = try DashboardQuery(parsing: #"is:open is:pr author:@me -label:wip sort:created-asc"#)
///     query.terms.count   // 4
///     query.sort          // QuerySort(.created, .ascending)
///
/// Every term must hold (GitHub's implicit AND), except the scope terms (`repo:`, `org:`,
/// `user:`, `host:`): an item in any repository a positive scope term names is in scope, as on
/// GitHub. A term with a leading `-`, or after `NOT`, must not hold. Words and `"quoted
/// phrases"` are searched for in titles and bodies.
public struct DashboardQuery: Hashable, Sendable {
  /// The conditions, in the order written.
  public var terms: [QueryTerm]
  /// The order of the results.
  public var sort: QuerySort

  /// A query of terms.
  public init(terms: [QueryTerm] = [], sort: QuerySort = .updatedDescending) {
    self.terms = terms
    self.sort = sort
  }

  /// Reads a query.
  ///
  /// - Throws: ``QuerySyntaxError`` naming the characters at fault: an unknown qualifier (with
  ///   the closest known one), a qualifier this version cannot answer from the cache (and what
  ///   it would need), a value the qualifier does not take, an unclosed quote, `OR`.
  public init(parsing text: String) throws(QuerySyntaxError) {
    self.init()
    var sortToken: QuerySyntax.Token?
    var negateNext: QuerySyntax.Token?
    for token in try QuerySyntax.tokens(text) {
      if token.text == "NOT" {
        if negateNext != nil {
          throw QuerySyntaxError("NOT twice in a row.", offset: token.offset, length: 3)
        }
        negateNext = token
        continue
      }
      if token.text == "AND", negateNext == nil { continue }
      if token.text == "OR" {
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
          throw QuerySyntaxError(
            "Nothing follows this -: write -label:bug or -word.", offset: token.offset, length: 1)
        }
      }
      negateNext = nil
      switch try Self.term(body, token: token) {
      case .condition(let condition): terms.append(QueryTerm(condition, polarity))
      case .sort(let sort):
        if let earlier = sortToken {
          throw QuerySyntaxError(
            "A second sort: (the first is at column \(earlier.offset + 1)): give one.",
            offset: token.offset, length: token.length)
        }
        if polarity == .exclude {
          throw QuerySyntaxError(
            "A sort cannot be negated.", offset: token.offset, length: token.length)
        }
        sortToken = token
        self.sort = sort
      }
    }
    if let negateNext {
      throw QuerySyntaxError(
        "Nothing follows this NOT.", offset: negateNext.offset, length: negateNext.length)
    }
  }

  /// The query as text: reading it gives this query again.
  public var text: String {
    var parts = terms.map(\.text)
    if sort != .updatedDescending { parts.append(sort.text) }
    return parts.joined(separator: " ")
  }

  /// Whether a term names `@me`, which each host's token answers for itself.
  public var mentionsMe: Bool {
    terms.contains { term in
      switch term.condition {
      case .author(.me), .assignee(.me), .mentions(.me), .commenter(.me), .involves(.me),
        .reviewedBy(.me), .reviewRequested(SearchQuery.me):
        true
      default: false
      }
    }
  }

  /// The terms that choose repositories.
  public var scopeTerms: [QueryTerm] { terms.filter(\.condition.isScope) }

  /// The terms that test items.
  public var itemTerms: [QueryTerm] { terms.filter { !$0.condition.isScope } }

  /// Whether the query reads a repository: no positive scope term, or one naming it; and no
  /// negative one naming it.
  public func includes(_ repository: RepositoryName, host: String) -> Bool {
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

  /// The one repository the query reads, when it names one with `repo:` and nothing widens
  /// the scope.
  ///
  /// A section over one repository's issues shows that repository's milestone chips.
  public var singleRepository: RepositoryName? {
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

  private enum Parsed {
    case condition(QueryCondition)
    case sort(QuerySort)
  }

  private static func term(_ body: Substring, token: QuerySyntax.Token) throws(QuerySyntaxError)
    -> Parsed
  {
    func fail(_ message: String) -> QuerySyntaxError {
      QuerySyntaxError(message, offset: token.offset, length: token.length)
    }
    if body.first == "\"" {
      guard let phrase = QuerySyntax.unquoted(body), !phrase.isEmpty else {
        throw fail("A quoted phrase must end with its quote, and hold something.")
      }
      return .condition(.text(String(phrase)))
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
    guard QuerySyntax.knownKeys.contains(key) else {
      if let needs = QuerySyntax.unansweredKeys[key] {
        throw fail(
          "\(key): is GitHub search syntax that needs \(needs), which the cache does not hold: "
            + "it cannot be answered offline yet.")
      }
      if rawValue.isEmpty { return .condition(.text(String(body))) }
      var message = "Unknown qualifier \(key):."
      if let suggestion = QuerySyntax.suggestion(for: key) {
        message += " Did you mean \(suggestion):?"
      }
      message += " Quote the word (\"\(body)\") to search for it as text."
      throw fail(message)
    }
    if key == "label" {
      var names: [String] = []
      for part in QuerySyntax.commaSeparated(rawValue) {
        guard let name = QuerySyntax.unquoted(part), !name.isEmpty else {
          throw fail(
            rawValue.isEmpty
              ? "label: needs a value."
              : "label: takes names separated by commas, each quoted whole if quoted.")
        }
        names.append(String(name))
      }
      return .condition(.label(anyOf: names))
    }
    guard let value = QuerySyntax.unquoted(rawValue), !value.isEmpty else {
      throw fail(
        rawValue.isEmpty
          ? "\(key): needs a value." : "\(key): has a quote inside its value: quote it whole.")
    }
    let text = String(value)
    func actor() throws(QuerySyntaxError) -> QueryActor {
      if text == SearchQuery.me { return .me }
      guard let login = SearchQuery.actorLogin(text) else {
        throw fail("\(key): takes a login or @me, not “\(text)”.")
      }
      return .login(login)
    }
    func login() throws(QuerySyntaxError) -> String {
      guard text != SearchQuery.me, SearchQuery.isLogin(text) else {
        throw fail("\(key): takes an account name, not “\(text)”.")
      }
      return text
    }
    func interval<Bound: QueryBound>(_ example: String) throws(QuerySyntaxError)
      -> QueryInterval<Bound>
    {
      guard let interval = QueryInterval<Bound>.parse(value) else {
        throw fail("\(key): takes \(example), not “\(text)”.")
      }
      return interval
    }
    let dates = "a date such as 2026-11-25, >=2026-01-01 or 2026-01-01..2026-06-30"
    switch key {
    case "is", "state":
      switch text.lowercased() {
      case "open": return .condition(.state(.open))
      case "closed": return .condition(.state(.closed))
      case "issue" where key == "is": return .condition(.kind(.issue))
      case "pr" where key == "is", "pull-request" where key == "is":
        return .condition(.kind(.pullRequest))
      case "draft" where key == "is": return .condition(.draft(true))
      case "merged" where key == "is": return .condition(.merged(true))
      case "unmerged" where key == "is": return .condition(.merged(false))
      default:
        throw fail(
          key == "is"
            ? "is: takes open, closed, issue, pr, draft, merged or unmerged, not “\(text)”."
            : "state: takes open or closed, not “\(text)”.")
      }
    case "type":
      switch text.lowercased() {
      case "issue": return .condition(.kind(.issue))
      case "pr", "pull-request": return .condition(.kind(.pullRequest))
      default: return .condition(.issueType(text))
      }
    case "milestone": return .condition(.milestone(text))
    case "no":
      guard let field = QueryField(rawValue: text.lowercased()) else {
        throw fail("no: takes label, milestone or assignee, not “\(text)”.")
      }
      return .condition(.missing(field))
    case "repo":
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      if parts.count == 3, let name = RepositoryName(parts[1...].joined(separator: "/")),
        GitHubHost.named(String(parts[0])) != nil
      {
        return .condition(.repository(name, host: String(parts[0])))
      }
      guard let name = RepositoryName(text) else {
        throw fail("repo: takes OWNER/REPO or HOST/OWNER/REPO, not “\(text)”.")
      }
      return .condition(.repository(name, host: nil))
    case "org", "user": return .condition(.owner(try login()))
    case "host":
      guard GitHubHost.named(text) != nil else {
        throw fail("host: takes a host name such as github.com, not “\(text)”.")
      }
      return .condition(.host(text))
    case "author": return .condition(.author(try actor()))
    case "assignee": return .condition(.assignee(try actor()))
    case "mentions": return .condition(.mentions(try actor()))
    case "commenter": return .condition(.commenter(try actor()))
    case "involves": return .condition(.involves(try actor()))
    case "comments": return .condition(.comments(try interval("a count such as 10, >10 or 5..20")))
    case "created": return .condition(.created(try interval(dates)))
    case "updated": return .condition(.updated(try interval(dates)))
    case "closed": return .condition(.closed(try interval(dates)))
    case "draft":
      switch text.lowercased() {
      case "true": return .condition(.draft(true))
      case "false": return .condition(.draft(false))
      default: throw fail("draft: takes true or false, not “\(text)”.")
      }
    case "merged": return .condition(.mergedAt(try interval(dates)))
    case "review-requested":
      // A login, @me, or a team as ORG/TEAM.
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      if parts.count == 2, SearchQuery.isLogin(String(parts[0])), !parts[1].isEmpty,
        parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
      {
        return .condition(.reviewRequested(text))
      }
      if text == SearchQuery.me { return .condition(.reviewRequested(SearchQuery.me)) }
      guard let login = SearchQuery.actorLogin(text) else {
        throw fail("review-requested: takes a login, @me or ORG/TEAM, not “\(text)”.")
      }
      return .condition(.reviewRequested(login))
    case "reviewed-by": return .condition(.reviewedBy(try actor()))
    case "review":
      guard let review = QueryReview(rawValue: text.lowercased()) else {
        throw fail(
          "review: takes approved, changes_requested, required or none, not “\(text)”.")
      }
      return .condition(.review(review))
    case "status":
      guard
        let checks = QueryCondition.statusNames.first(where: { $0.value == text.lowercased() })?
          .key
      else {
        throw fail("status: takes success, failure or pending, not “\(text)”.")
      }
      return .condition(.status(checks))
    case "base": return .condition(.base(text))
    case "head": return .condition(.head(text))
    case "sort":
      let parts = text.lowercased().split(separator: "-", maxSplits: 1)
      guard let key = parts.first.flatMap({ QuerySort.Key(rawValue: String($0)) }),
        let direction = parts.count == 2
          ? QuerySort.Direction(rawValue: String(parts[1])) : .descending
      else {
        throw fail(
          "sort: takes updated, created or comments, then -desc or -asc (sort:updated-desc), "
            + "not “\(text)”.")
      }
      return .sort(QuerySort(key, direction))
    default:
      throw fail("\(key): is known but not handled.")
    }
  }
}
