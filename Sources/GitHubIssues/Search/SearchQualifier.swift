/// One qualifier of the search language, written once: its name, the values it takes, what it
/// means in a line, an example, and how its value becomes a ``QueryCondition`` — or, for a
/// GitHub qualifier the cache cannot answer, what answering it would need.
///
/// ``all`` is the language. The parser reads qualifiers only through it, the suggestions for a
/// misspelt name come from its names, and `issues help search` (and its man page) is
/// generated from it. The SQL of each condition is
/// ``IssueCache``'s exhaustive switch over ``QueryCondition``: a qualifier whose condition had
/// no SQL would not compile.
package struct SearchQualifier: Sendable {
  /// The name before the colon, in lower case.
  package let name: String
  /// The values it takes, as help shows them (`open|closed|issue|pr`).
  package let values: String
  /// What it selects, in one line.
  package let summary: String
  /// A term that uses it, as a person would write it.
  package let example: String
  let meaning: Meaning

  enum Meaning: Sendable {
    case answered(@Sendable (QualifierValue) throws(QuerySyntaxError) -> ParsedTerm)
    case unanswered(needs: String)
  }

  /// What the cache would need to answer the qualifier; `nil` when it answers it.
  package var needs: String? {
    switch meaning {
    case .answered: nil
    case .unanswered(let needs): needs
    }
  }

  init(
    _ name: String, _ values: String, _ summary: String, example: String,
    _ parse: @escaping @Sendable (QualifierValue) throws(QuerySyntaxError) -> ParsedTerm
  ) {
    self.name = name
    self.values = values
    self.summary = summary
    self.example = example
    self.meaning = .answered(parse)
  }

  init(_ name: String, needs: String) {
    self.name = name
    self.values = "—"
    self.summary = "GitHub's; not answered from the cache (it needs \(needs))."
    self.example = "\(name):x"
    self.meaning = .unanswered(needs: needs)
  }

  /// The qualifier named `name` (any case), answered or not.
  package static func named(_ name: String) -> SearchQualifier? {
    let lowered = name.lowercased()
    return all.first { $0.name == lowered }
  }

  /// The known name closest to a misspelt one, if one is close.
  package static func suggestion(for name: String) -> String? {
    let scored = all.map { ($0.name, QuerySyntax.editDistance(name.lowercased(), $0.name)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= (name.count <= 3 ? 1 : 2) else {
      return nil
    }
    return best.0
  }
}

/// What a qualifier's value reads as.
enum ParsedTerm: Sendable {
  case condition(QueryCondition)
  case sort(QuerySort)
}

/// A qualifier's value as written, with what reading it needs: its text unquoted, and an error
/// that points at the term.
struct QualifierValue {
  let key: String
  /// As written after the colon, quotes included.
  let raw: Substring
  let token: QuerySyntax.Token

  func fail(_ message: String) -> QuerySyntaxError {
    QuerySyntaxError(message, offset: token.offset, length: token.length)
  }

  /// The value without its quotes.
  func text() throws(QuerySyntaxError) -> String {
    guard let value = QuerySyntax.unquoted(raw), !value.isEmpty else {
      throw fail(
        raw.isEmpty
          ? "\(key): needs a value." : "\(key): has a quote inside its value: quote it whole.")
    }
    return String(value)
  }

  /// A login, a bot's (`NAME[bot]`, `app/NAME`) or `@me`.
  func actor() throws(QuerySyntaxError) -> QueryActor {
    let text = try text()
    if text == SearchQuery.me { return .me }
    guard let login = SearchQuery.actorLogin(text) else {
      throw fail("\(key): takes a login or @me, not “\(text)”.")
    }
    return .login(login)
  }

  /// An account name, without `@me`.
  func account() throws(QuerySyntaxError) -> String {
    let text = try text()
    guard text != SearchQuery.me, SearchQuery.isLogin(text) else {
      throw fail("\(key): takes an account name, not “\(text)”.")
    }
    return text
  }

  func interval<Bound: QueryBound>(_ example: String) throws(QuerySyntaxError)
    -> QueryInterval<Bound>
  {
    let text = try text()
    guard let interval = QueryInterval<Bound>.parse(Substring(text)) else {
      throw fail("\(key): takes \(example), not “\(text)”.")
    }
    return interval
  }

  /// One of `choices` (any case), or an error listing them.
  func choice<Value>(_ choices: KeyValuePairs<String, Value>) throws(QuerySyntaxError) -> Value {
    let text = try text()
    if let match = choices.first(where: { $0.key == text.lowercased() }) { return match.value }
    let names = choices.map(\.key)
    let listed = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    throw fail("\(key): takes \(listed), not “\(text)”.")
  }
}

extension SearchQualifier {
  private static let dates = "a date such as 2026-11-25, >=2026-01-01 or 2026-01-01..2026-06-30"
  private static let dateValues = "DATE, >DATE, <=DATE, DATE..DATE"

  /// The search language: every qualifier, answered ones first, in the order help lists them.
  package static let all: [SearchQualifier] = [
    SearchQualifier(
      "is", "open|closed|issue|pr|draft|merged|unmerged", "state, kind, or a pull request's state",
      example: "is:open"
    ) { value throws(QuerySyntaxError) in
      .condition(
        try value.choice([
          "open": .state(.open), "closed": .state(.closed), "issue": .kind(.issue),
          "pr": .kind(.pullRequest), "pull-request": .kind(.pullRequest), "draft": .draft(true),
          "merged": .merged(true), "unmerged": .merged(false),
        ]))
    },
    SearchQualifier("state", "open|closed", "open or closed", example: "state:closed") {
      value throws(QuerySyntaxError) in
      .condition(.state(try value.choice(["open": .open, "closed": .closed])))
    },
    SearchQualifier(
      "type", "issue|pr|NAME", "issues, pull requests, or an issue type by name",
      example: "type:Bug"
    ) { value throws(QuerySyntaxError) in
      let text = try value.text()
      switch text.lowercased() {
      case "issue": return .condition(.kind(.issue))
      case "pr", "pull-request": return .condition(.kind(.pullRequest))
      default: return .condition(.issueType(text))
      }
    },
    SearchQualifier(
      "label", "NAME[,NAME…]", "has the label (any one of several, comma-separated)",
      example: #"label:bug,"good first issue""#
    ) { value throws(QuerySyntaxError) in
      var names: [String] = []
      for part in QuerySyntax.commaSeparated(value.raw) {
        guard let name = QuerySyntax.unquoted(part), !name.isEmpty else {
          throw value.fail(
            value.raw.isEmpty
              ? "label: needs a value."
              : "label: takes names separated by commas, each quoted whole if quoted.")
        }
        names.append(String(name))
      }
      return .condition(.label(anyOf: names))
    },
    SearchQualifier(
      "milestone", "TITLE", "in the milestone of that title", example: #"milestone:"1.0""#
    ) {
      value throws(QuerySyntaxError) in .condition(.milestone(try value.text()))
    },
    SearchQualifier(
      "no", "label|milestone|assignee", "has no label, milestone or assignee",
      example: "no:assignee"
    ) {
      value throws(QuerySyntaxError) in
      .condition(
        .missing(
          try value.choice([
            "label": QueryField.label, "milestone": .milestone, "assignee": .assignee,
          ])))
    },
    SearchQualifier("author", "LOGIN|@me", "opened by", example: "author:@me") {
      value throws(QuerySyntaxError) in .condition(.author(try value.actor()))
    },
    SearchQualifier("assignee", "LOGIN|@me", "assigned to", example: "assignee:octocat") {
      value throws(QuerySyntaxError) in .condition(.assignee(try value.actor()))
    },
    SearchQualifier(
      "mentions", "LOGIN|@me", "@LOGIN in the body or a cached comment", example: "mentions:@me"
    ) { value throws(QuerySyntaxError) in .condition(.mentions(try value.actor())) },
    SearchQualifier(
      "commenter", "LOGIN|@me", "wrote one of the cached comments", example: "commenter:hubot"
    ) { value throws(QuerySyntaxError) in .condition(.commenter(try value.actor())) },
    SearchQualifier(
      "involves", "LOGIN|@me", "author, assignee, mentioned or commenter", example: "involves:@me"
    ) { value throws(QuerySyntaxError) in .condition(.involves(try value.actor())) },
    SearchQualifier("comments", "N, >N, N..M", "how many comments", example: "comments:>10") {
      value throws(QuerySyntaxError) in
      .condition(.comments(try value.interval("a count such as 10, >10 or 5..20")))
    },
    SearchQualifier("created", dateValues, "opened on or in", example: "created:>=2026-01-01") {
      value throws(QuerySyntaxError) in .condition(.created(try value.interval(dates)))
    },
    SearchQualifier("updated", dateValues, "last changed on or in", example: "updated:<2026-06-01")
    {
      value throws(QuerySyntaxError) in .condition(.updated(try value.interval(dates)))
    },
    SearchQualifier(
      "closed", dateValues, "closed on or in", example: "closed:2026-11-01..2026-11-30"
    ) { value throws(QuerySyntaxError) in .condition(.closed(try value.interval(dates))) },
    SearchQualifier(
      "draft", "true|false", "a pull request that is (not) a draft", example: "draft:false"
    ) {
      value throws(QuerySyntaxError) in
      .condition(.draft(try value.choice(["true": true, "false": false])))
    },
    SearchQualifier(
      "merged", dateValues, "a pull request merged on or in", example: "merged:>=2026-01-01"
    ) {
      value throws(QuerySyntaxError) in .condition(.mergedAt(try value.interval(dates)))
    },
    SearchQualifier(
      "review-requested", "LOGIN|@me|ORG/TEAM", "a pull request asking them to review",
      example: "review-requested:@me"
    ) { value throws(QuerySyntaxError) in
      let text = try value.text()
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      if parts.count == 2, SearchQuery.isLogin(String(parts[0])), !parts[1].isEmpty,
        parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
      {
        return .condition(.reviewRequested(text))
      }
      if text == SearchQuery.me { return .condition(.reviewRequested(SearchQuery.me)) }
      guard let login = SearchQuery.actorLogin(text) else {
        throw value.fail("review-requested: takes a login, @me or ORG/TEAM, not “\(text)”.")
      }
      return .condition(.reviewRequested(login))
    },
    SearchQualifier(
      "reviewed-by", "LOGIN|@me", "a pull request they reviewed", example: "reviewed-by:@me"
    ) {
      value throws(QuerySyntaxError) in .condition(.reviewedBy(try value.actor()))
    },
    SearchQualifier(
      "review", "approved|changes_requested|required|none", "a pull request's review decision",
      example: "review:approved"
    ) { value throws(QuerySyntaxError) in
      .condition(
        .review(
          try value.choice([
            "approved": QueryReview.approved, "changes_requested": .changesRequested,
            "required": .required, "none": .none,
          ])))
    },
    SearchQualifier(
      "status", "success|failure|pending", "a pull request's checks on its head commit",
      example: "status:failure"
    ) { value throws(QuerySyntaxError) in
      .condition(
        .status(
          try value.choice([
            "success": PullRequestDetails.Checks.passing, "failure": .failing, "pending": .pending,
          ])))
    },
    SearchQualifier("base", "BRANCH", "a pull request into the branch", example: "base:main") {
      value throws(QuerySyntaxError) in .condition(.base(try value.text()))
    },
    SearchQualifier("head", "BRANCH", "a pull request from the branch", example: "head:fix/crash") {
      value throws(QuerySyntaxError) in .condition(.head(try value.text()))
    },
    SearchQualifier(
      "repo", "OWNER/REPO|HOST/OWNER/REPO",
      "in the repository (without a host: github.com's, when the dashboard reads it)",
      example: "repo:acme/tracker"
    ) { value throws(QuerySyntaxError) in
      let text = try value.text()
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      if parts.count == 3, let name = RepositoryName(parts[1...].joined(separator: "/")),
        GitHubHost.named(String(parts[0])) != nil
      {
        return .condition(.repository(name, host: String(parts[0])))
      }
      guard let name = RepositoryName(text) else {
        throw value.fail("repo: takes OWNER/REPO or HOST/OWNER/REPO, not “\(text)”.")
      }
      return .condition(.repository(name, host: nil))
    },
    SearchQualifier("org", "OWNER", "in the owner's configured repositories", example: "org:acme") {
      value throws(QuerySyntaxError) in .condition(.owner(try value.account()))
    },
    SearchQualifier("user", "OWNER", "the same as org:", example: "user:octocat") {
      value throws(QuerySyntaxError) in .condition(.owner(try value.account()))
    },
    SearchQualifier(
      "host", "HOST", "in the configured repositories on that host (not GitHub's)",
      example: "host:ghe.example.com"
    ) { value throws(QuerySyntaxError) in
      let text = try value.text()
      guard GitHubHost.named(text) != nil else {
        throw value.fail("host: takes a host name such as github.com, not “\(text)”.")
      }
      return .condition(.host(text))
    },
    SearchQualifier(
      "sort", "updated|created|comments[-desc|-asc]",
      "the order (without it: the command's own; the dashboard's is updated-desc)",
      example: "sort:created-asc"
    ) { value throws(QuerySyntaxError) in
      let text = try value.text()
      let parts = text.lowercased().split(separator: "-", maxSplits: 1)
      guard let key = parts.first.flatMap({ QuerySort.Key(rawValue: String($0)) }),
        let direction = parts.count == 2
          ? QuerySort.Direction(rawValue: String(parts[1])) : .descending
      else {
        throw value.fail(
          "sort: takes updated, created or comments, then -desc or -asc (sort:updated-desc), "
            + "not “\(text)”.")
      }
      return .sort(QuerySort(key, direction))
    },
    SearchQualifier("team-review-requested", needs: "the teams a pull request asks to review"),
    SearchQualifier("linked", needs: "linked pull requests"),
    SearchQualifier("project", needs: "projects"),
    SearchQualifier("team", needs: "team mentions"),
    SearchQualifier("reason", needs: "why an issue was closed"),
    SearchQualifier("in", needs: "per-field search; words are searched for in titles and bodies"),
    SearchQualifier("language", needs: "repository languages"),
    SearchQualifier("archived", needs: "whether a repository is archived"),
    SearchQualifier("interactions", needs: "interaction counts"),
    SearchQualifier("reactions", needs: "reaction counts"),
    SearchQualifier("is-private", needs: "repository visibility"),
  ]

  /// The language as `issues help search` prints it: what a search is, then each qualifier
  /// as its values, then what it selects and an example, wrapped for an 80-column terminal and a
  /// man page.
  package static var helpText: String {
    var lines = [
      "A search is words, \"quoted phrases\" and qualifiers; every one must hold. A leading - "
        + "or NOT excludes a term (-label:wontfix). Words match titles and bodies by prefix; a "
        + "phrase matches its words next to each other, in order. `issues list -S`, "
        + "`issues pr list -S`, the browser's / and the dashboard read the same language.",
      "",
      "Qualifiers (names in any case; LOGIN may be @me, NAME[bot] or app/NAME):",
    ]
    for qualifier in all where qualifier.needs == nil {
      lines.append("  \(qualifier.name):\(qualifier.values)")
      lines += HelpText.wrapped("\(qualifier.summary); e.g. \(qualifier.example)", indent: 6)
    }
    lines.append("")
    lines.append("GitHub qualifiers the cache cannot answer; a search using one is refused:")
    for qualifier in all where qualifier.needs != nil {
      lines += HelpText.entry("\(qualifier.name):", "needs \(qualifier.needs ?? "")", column: 24)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
