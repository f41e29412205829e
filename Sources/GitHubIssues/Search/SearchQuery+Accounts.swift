// Accounts as the search language names them: logins, bots, and `@me`.

extension SearchQuery {
  /// Whether a term names `@me`, which each host's token answers for itself.
  package var mentionsMe: Bool {
    terms.contains { $0.condition.namesMe }
  }

  /// The query with `@me` standing for `login`: what a cache of one host is asked.
  package func resolvingMe(as login: String) -> SearchQuery {
    var resolved = self
    resolved.terms = terms.map { term in
      QueryTerm(term.condition.resolvingMe(as: login), term.polarity)
    }
    return resolved
  }

  /// The login a filter looks for, as GitHub writes it on issues: `@me`, a user's login, a
  /// bot's `NAME[bot]`, or gh's `app/NAME` for that same bot; `nil` when the text is none of
  /// them.
  package static func actorLogin(_ text: String) -> String? {
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
  package static func isLogin(_ text: String) -> Bool {
    if text == me { return true }
    guard (1...39).contains(text.count), !text.hasPrefix("-"), !text.hasSuffix("-"),
      !text.contains("--")
    else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
  }
}

extension QueryCondition {
  /// Whether the condition names `@me`.
  var namesMe: Bool {
    switch self {
    case .author(.me), .assignee(.me), .mentions(.me), .commenter(.me), .involves(.me),
      .reviewedBy(.me), .reviewRequested(SearchQuery.me):
      true
    default: false
    }
  }

  /// The condition with `@me` standing for `login`.
  func resolvingMe(as login: String) -> QueryCondition {
    switch self {
    case .author(.me): .author(.login(login))
    case .assignee(.me): .assignee(.login(login))
    case .mentions(.me): .mentions(.login(login))
    case .commenter(.me): .commenter(.login(login))
    case .involves(.me): .involves(.login(login))
    case .reviewedBy(.me): .reviewedBy(.login(login))
    case .reviewRequested(SearchQuery.me): .reviewRequested(login)
    default: self
    }
  }
}
