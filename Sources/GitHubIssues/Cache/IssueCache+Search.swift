import GRDB

// The search language answered by SQL over one repository's cache: one condition per term,
// for the dashboard, `pr list -S` and every list filter's terms alike.

extension IssueCache {
  /// The entries of the items `query`'s item terms select, in its order, tagged with `source`.
  ///
  /// The scope terms (`repo:`, `org:`, `user:`, `host:`) are the caller's to apply: a cache holds
  /// one repository. `me` is the login `@me` stands for on this cache's host; when it is not
  /// known, a term naming `@me` matches nothing (and its negation everything).
  ///
  /// - Complexity: One indexed query; a scan of the cache's items for terms no index serves.
  package func dashboardEntries(_ query: SearchQuery, me: String?, source: Int) throws
    -> [DashboardEntry]
  {
    try writer.read { db in
      var conditions: [String] = []
      var arguments: [any DatabaseValueConvertible] = []
      for term in query.itemTerms {
        let (condition, values) = Self.condition(term, me: me)
        conditions.append(condition)
        arguments += values
      }
      let direction = query.sort.direction == .descending ? "DESC" : "ASC"
      let keyColumns: String
      let order: String
      switch query.sort.key {
      case .updated:
        keyColumns = "updatedAt, NULL"
        order = "updatedAt \(direction), number \(direction)"
      case .created:
        keyColumns = "createdAt, NULL"
        order = "createdAt \(direction), number \(direction)"
      case .comments:
        keyColumns = "comments, updatedAt"
        order = "comments \(direction), updatedAt \(direction), number \(direction)"
      }
      var sql =
        "SELECT number, state = 'open', isPullRequest, milestoneNumber, \(keyColumns) FROM issue"
      if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
      sql += " ORDER BY " + order
      let statement = try db.cachedStatement(sql: sql)
      let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
      var entries: [DashboardEntry] = []
      let isCount = query.sort.key == .comments
      while let row = try cursor.next() {
        let key: Int64 =
          isCount ? row[4] : DashboardEntry.dateKey(row[4] as String?)
        entries.append(
          DashboardEntry(
            source: source, number: row[0], isOpen: row[1], isPullRequest: row[2],
            milestoneNumber: row[3], key: key,
            secondKey: isCount ? DashboardEntry.dateKey(row[5] as String?) : 0))
      }
      return entries
    }
  }

  /// The SQL of one item term, and its arguments: its condition, or that condition's negation
  /// (an unknown value, such as a pull request's missing details, counts as not holding).
  static func condition(_ term: QueryTerm, me: String?) -> (String, [any DatabaseValueConvertible])
  {
    let (condition, values) = Self.condition(term.condition, me: me)
    switch term.polarity {
    case .include: return ("(\(condition))", values)
    case .exclude: return ("NOT coalesce((\(condition)), 0)", values)
    }
  }

  /// The SQL of one item condition, and its arguments.
  static func condition(_ condition: QueryCondition, me: String?) -> (
    String, [any DatabaseValueConvertible]
  ) {
    func login(_ actor: QueryActor) -> String? {
      switch actor {
      case .me: me.map(storable)
      case .login(let login): storable(login)
      }
    }
    func interval<Bound>(
      _ column: String, _ interval: QueryInterval<Bound>,
      _ span: (Bound) -> (start: any DatabaseValueConvertible, end: any DatabaseValueConvertible)
    ) -> (String, [any DatabaseValueConvertible]) {
      switch interval {
      case .equal(let value):
        let (start, end) = span(value)
        return ("\(column) >= ? AND \(column) < ?", [start, end])
      case .greater(let value): return ("\(column) >= ?", [span(value).end])
      case .atLeast(let value): return ("\(column) >= ?", [span(value).start])
      case .less(let value): return ("\(column) < ?", [span(value).start])
      case .atMost(let value): return ("\(column) < ?", [span(value).end])
      case .between(let low, let high):
        return ("\(column) >= ? AND \(column) < ?", [span(low).start, span(high).end])
      }
    }
    let assigned = "key IN (SELECT issueKey FROM issueAssignee WHERE login = ? COLLATE NOCASE)"
    let commented =
      "number IN (SELECT issueNumber FROM comment WHERE author = ? COLLATE NOCASE)"
    switch condition {
    case .state(let state): return ("state = ?", [state.rawValue])
    case .kind(let kind): return ("isPullRequest = ?", [kind == .pullRequest])
    case .issueType(let name): return ("issueType = ? COLLATE NOCASE", [name])
    case .label(let names):
      // Names as the repository spells them (GitHub compares labels without case), and as
      // written, for labels the cache saw on items but no longer lists.
      let one = "SELECT name FROM label WHERE name = ? COLLATE NOCASE UNION SELECT ?"
      let any = Array(repeating: one, count: names.count).joined(separator: " UNION ")
      return (
        "key IN (SELECT issueKey FROM issueLabel WHERE labelName IN (\(any)))",
        names.flatMap { [storableLabelName($0), storableLabelName($0)] }
      )
    case .milestone(let title):
      return (
        "milestoneNumber IN (SELECT number FROM milestone WHERE title = ? COLLATE NOCASE)",
        [storable(title)]
      )
    case .missing(.label): return ("labelNames = ''", [])
    case .missing(.milestone): return ("milestoneNumber IS NULL", [])
    case .missing(.assignee): return ("key NOT IN (SELECT issueKey FROM issueAssignee)", [])
    case .author(let actor):
      guard let login = login(actor) else { return ("0", []) }
      return ("author = ? COLLATE NOCASE", [login])
    case .assignee(let actor):
      guard let login = login(actor) else { return ("0", []) }
      return (assigned, [login])
    case .mentions(let actor):
      guard let login = login(actor) else { return ("0", []) }
      return mentionCondition(login)
    case .commenter(let actor):
      guard let login = login(actor) else { return ("0", []) }
      return (commented, [login])
    case .involves(let actor):
      guard let login = login(actor) else { return ("0", []) }
      let (mentioned, mentionArguments) = mentionCondition(login)
      return (
        "author = ? COLLATE NOCASE OR \(assigned) OR \(commented) OR \(mentioned)",
        [login, login, login] + mentionArguments
      )
    case .comments(let range):
      // A count's span is itself: `>10` starts at 11, `<=10` ends before 11.
      return interval("comments", range) { ($0, $0 + 1) }
    case .created(let range): return interval("createdAt", range) { ($0.start, $0.end) }
    case .updated(let range): return interval("updatedAt", range) { ($0.start, $0.end) }
    case .closed(let range): return interval("closedAt", range) { ($0.start, $0.end) }
    case .phrase(let phrase):
      let (words, symbols) = searchTerms(phrase)
      guard symbols.isEmpty else {
        // The index has no tokens for symbols: the phrase is found as it is written.
        return (
          "(instr(lower(title), ?) > 0 OR instr(lower(coalesce(body, '')), ?) > 0)",
          [phrase.lowercased(), phrase.lowercased()]
        )
      }
      return (
        "key IN (SELECT rowid FROM issueSearch WHERE issueSearch MATCH ?)",
        [phraseQuery(words.joined(separator: " "))]
      )
    case .text(let text):
      let (words, symbols) = searchTerms(text)
      var parts: [String] = []
      var arguments: [any DatabaseValueConvertible] = []
      if let match = ftsQuery(words.joined(separator: " ")) {
        parts.append("key IN (SELECT rowid FROM issueSearch WHERE issueSearch MATCH ?)")
        arguments.append(match)
      }
      for symbol in symbols {
        parts.append("(instr(title, ?) > 0 OR instr(coalesce(body, ''), ?) > 0)")
        arguments += [symbol, symbol]
      }
      return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
    case .draft(let isDraft): return ("isPullRequest = 1 AND isDraft = ?", [isDraft])
    case .merged(true): return ("isPullRequest = 1 AND mergedAt IS NOT NULL", [])
    case .merged(false): return ("isPullRequest = 1 AND mergedAt IS NULL", [])
    case .mergedAt(let range): return interval("mergedAt", range) { ($0.start, $0.end) }
    case .reviewRequested(let reviewer):
      let name = reviewer == SearchQuery.me ? me.map(storable) : storable(reviewer)
      guard let name else { return ("0", []) }
      return (
        "number IN (SELECT number FROM pullRequestReviewer WHERE reviewer = ? COLLATE NOCASE)",
        [name]
      )
    case .reviewedBy(let actor):
      guard let login = login(actor) else { return ("0", []) }
      return (
        "number IN (SELECT number FROM pullRequestReview WHERE author = ? COLLATE NOCASE"
          + " AND state IN ('APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED'))",
        [login]
      )
    case .review(let review):
      let decision: PullRequestDetails.ReviewDecision? =
        switch review {
        case .approved: .approved
        case .changesRequested: .changesRequested
        case .required: .reviewRequired
        case .none: nil
        }
      guard let decision else {
        return (
          "isPullRequest = 1 AND number NOT IN "
            + "(SELECT number FROM pullRequest WHERE reviewDecision IS NOT NULL)", []
        )
      }
      return (
        "number IN (SELECT number FROM pullRequest WHERE reviewDecision = ?)", [decision.rawValue]
      )
    case .status(let checks):
      return ("number IN (SELECT number FROM pullRequest WHERE checks = ?)", [checks.rawValue])
    case .base(let branch):
      return ("number IN (SELECT number FROM pullRequest WHERE baseRef = ?)", [storable(branch)])
    case .head(let branch):
      return ("number IN (SELECT number FROM pullRequest WHERE headRef = ?)", [storable(branch)])
    case .repository, .owner, .host:
      // Scope: the dashboard chose this cache because the term allows it.
      return ("1", [])
    }
  }
}
