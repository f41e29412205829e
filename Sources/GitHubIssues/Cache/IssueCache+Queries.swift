import Foundation
import GRDB
import GRDBSQLite

extension IssueCache {
  /// The issues a filter selects, in its order, without bodies.
  ///
  /// - Complexity: Index lookups; a text filter uses the full-text index.
  public func issues(_ filter: IssueFilter) throws -> [CachedIssue] {
    try writer.read { db in try Self.issues(filter, db) }
  }

  /// Calls `body` with each issue a filter selects, in its order, reading them one at a time so
  /// that memory stays constant however many there are; with their bodies when `withBody`.
  package func forEachIssue(
    _ filter: IssueFilter, withBody: Bool = false, _ body: (CachedIssue) throws -> Void
  ) throws {
    try writer.read { db in
      let columns = IssueColumns.rowWithAssigneesSQL + (withBody ? ", body" : "")
      if let (match, rest) = Self.searchDriver(filter) {
        let keys = try Self.searchedEntries(match, rest, db).map(\.key)
        try Self.forEachRow(keys: keys, columns: columns, withBody: withBody, db, body)
        return
      }
      let (sql, arguments) = Self.selectSQL(filter, columns: columns)
      let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
      while let row = try cursor.next() { try body(Self.cachedIssue(row, withBody: withBody)) }
    }
  }

  /// Calls `body` with the rows of `keys`, in that order, read 500 at a time.
  private static func forEachRow(
    keys: [IssueKey], columns: String, withBody: Bool, _ db: Database,
    _ body: (CachedIssue) throws -> Void
  ) throws {
    for start in stride(from: 0, to: keys.count, by: 500) {
      let window = Array(keys[start..<min(start + 500, keys.count)])
      let placeholders = Array(repeating: "?", count: window.count).joined(separator: ",")
      let rows = try Row.fetchAll(
        db, sql: "SELECT \(columns) FROM issue WHERE key IN (\(placeholders))",
        arguments: StatementArguments(window))
      var byKey: [IssueKey: CachedIssue] = [:]
      for row in rows {
        let issue = cachedIssue(row, withBody: withBody)
        byKey[issue.key] = issue
      }
      for key in window { if let issue = byKey[key] { try body(issue) } }
    }
  }

  /// What a list needs to build its sections, in the filter's order.
  ///
  /// Each matching item's number, milestone and state, without the heavier columns.
  public func listEntries(_ filter: IssueFilter) throws -> [IssueListEntry] {
    if let (match, rest) = Self.searchDriver(filter) {
      return try writer.read { db in try Self.searchedEntries(match, rest, db) }
    }
    return try writer.read { db in
      let (sql, arguments) = Self.selectSQL(
        filter,
        columns: [
          IssueColumns.number.name, IssueColumns.milestoneNumber.name,
          "\(IssueColumns.state.name) = 'open'", IssueColumns.key.name,
        ].joined(separator: ", "))
      let statement = try db.makeStatement(sql: sql)
      try statement.setArguments(StatementArguments(arguments))
      return try Self.entries(stepping: statement, db)
    }
  }

  /// Runs a statement whose columns are an issue's number, milestone number (or NULL), whether
  /// it is open, and key, reading each row's integers straight from SQLite: the whole list of
  /// a repository is read this way before the first frame, where a row decoded column by column
  /// costs several times as much.
  static func entries(stepping statement: Statement, _ db: Database) throws -> [IssueListEntry] {
    let raw = statement.sqliteStatement
    defer { sqlite3_reset(raw) }
    var entries: [IssueListEntry] = []
    while true {
      let code = sqlite3_step(raw)
      if code == SQLITE_DONE { return entries }
      guard code == SQLITE_ROW else {
        throw DatabaseError(
          resultCode: ResultCode(rawValue: code),
          message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
      }
      let milestone =
        sqlite3_column_type(raw, 1) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(raw, 1))
      entries.append(
        IssueListEntry(
          key: IssueKey(rawValue: sqlite3_column_int64(raw, 3)),
          number: Int(sqlite3_column_int64(raw, 0)), milestoneNumber: milestone,
          isOpen: sqlite3_column_int64(raw, 2) != 0))
    }
  }

  /// The entries of a filter whose words drive the query: the full-text index's matches, each
  /// looked up by key in the index of a list's columns and tested against the rest of the
  /// filter, then put in the filter's order here.
  ///
  /// Scanning the list's index in order and probing the matches costs a probe per item of
  /// the repository; looking the matches up costs one per match, and sorting a few thousand
  /// entries in memory is cheaper than SQLite's sorter.
  private static func searchedEntries(
    _ match: String, _ rest: IssueFilter, _ db: Database
  ) throws -> [IssueListEntry] {
    var (conditions, arguments) = conditions(rest)
    let keys =
      switch rest.sort {
      case .updated: "julianday(updatedAt), 0"
      case .created: "julianday(createdAt), 0"
      case .comments: "comments, julianday(updatedAt)"
      }
    var sql =
      "SELECT number, milestoneNumber, state, key, \(keys) FROM "
      + "(SELECT rowid AS matched FROM issueSearch WHERE issueSearch MATCH ?) "
      + "CROSS JOIN issue INDEXED BY \(listingByKey) ON issue.key = matched"
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    arguments.insert(match, at: 0)
    let cursor = try Row.fetchCursor(
      db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
    var found: [(entry: IssueListEntry, primary: Double, secondary: Double)] = []
    while let row = try cursor.next() {
      let state: String = row[2]
      found.append(
        (
          IssueListEntry(
            key: IssueKey(rawValue: row[3]), number: row[0], milestoneNumber: row[1],
            isOpen: state == "open"), row[4], row[5]
        ))
    }
    // The order of ``orderClause(_:_:)``: the keys, then the number.
    let ascending = rest.direction == .ascending
    found.sort { a, b in
      let first = (a.primary, a.secondary, a.entry.number)
      let second = (b.primary, b.secondary, b.entry.number)
      return ascending ? first < second : first > second
    }
    let entries = found.map(\.entry)
    return rest.limit.map { Array(entries.prefix(max($0, 0))) } ?? entries
  }

  /// The words and phrases of a filter that the full-text index can answer, as one FTS5 query
  /// (every one must match), and the filter without them; `nil` when it has none.
  ///
  /// Words holding emoji or symbols, which the index does not tokenize, and excluded words stay
  /// in the filter.
  static func searchDriver(_ filter: IssueFilter) -> (match: String, rest: IssueFilter)? {
    var rest = filter
    var pieces: [String] = []
    rest.terms = []
    if let text = filter.text {
      let (words, symbols) = searchTerms(text)
      if let query = ftsQuery(words.joined(separator: " ")) { pieces.append(query) }
      rest.text = nil
      rest.terms += symbols.map { QueryTerm(.text($0)) }
    }
    for term in filter.terms {
      switch (term.condition, term.polarity) {
      case (.text(let word), .include) where searchTerms(word).symbols.isEmpty:
        if let query = ftsQuery(word) { pieces.append(query) }
      case (.phrase(let phrase), .include) where searchTerms(phrase).symbols.isEmpty:
        pieces.append(phraseQuery(phrase))
      default: rest.terms.append(term)
      }
    }
    return pieces.isEmpty ? nil : (pieces.joined(separator: " "), rest)
  }

  /// An FTS5 phrase: the words as whole tokens, next to each other, in this order.
  static func phraseQuery(_ phrase: String) -> String {
    let words = phrase.split(whereSeparator: \.isWhitespace).map {
      $0.replacingOccurrences(of: "\"", with: "\"\"")
    }
    return "\"" + words.joined(separator: " ") + "\""
  }

  /// The issues with these numbers, without bodies, in the order given (missing ones left out).
  public func issues(numbers: [Int]) throws -> [CachedIssue] {
    guard !numbers.isEmpty else { return [] }
    let found = try writer.read { db in try Self.rows(where: "number", in: numbers, db) }
    let byNumber = Dictionary(found.map { ($0.number, $0) }) { first, _ in first }
    return numbers.compactMap { byNumber[$0] }
  }

  /// The rows with these keys, without bodies, in the order given (missing ones left out).
  public func issues(keys: [IssueKey]) throws -> [CachedIssue] {
    guard !keys.isEmpty else { return [] }
    let found = try writer.read { db in try Self.rows(where: "key", in: keys, db) }
    let byKey = Dictionary(found.map { ($0.key, $0) }) { first, _ in first }
    return keys.compactMap { byKey[$0] }
  }

  /// The rows whose `column` is one of `values`, without bodies, each window of 500 read with
  /// its assignees in one indexed query rather than a subquery per row.
  private static func rows<Value: DatabaseValueConvertible>(
    where column: String, in values: [Value], _ db: Database
  ) throws -> [CachedIssue] {
    var found: [CachedIssue] = []
    for start in stride(from: 0, to: values.count, by: 500) {
      let chunk = Array(values[start..<min(start + 500, values.count)])
      let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
      // Prepared once per length of the list: a screen's rows come in the same few sizes.
      var window = try Row.fetchAll(
        db.cachedStatement(
          sql: "SELECT \(IssueColumns.rowSQL) FROM issue WHERE \(column) IN (\(placeholders))"),
        arguments: StatementArguments(chunk)
      ).map { cachedIssue($0, withBody: false) }
      guard !window.isEmpty else { continue }
      var position: [IssueKey: Int] = [:]
      for (index, issue) in window.enumerated() { position[issue.key] = index }
      let keyList = Array(repeating: "?", count: window.count).joined(separator: ",")
      let links = try Row.fetchCursor(
        db.cachedStatement(
          sql:
            "SELECT issueKey, login FROM issueAssignee WHERE issueKey IN (\(keyList)) ORDER BY login"
        ),
        arguments: StatementArguments(window.map(\.key)))
      while let link = try links.next() {
        if let index = position[IssueKey(rawValue: link[0])] {
          window[index].assignees.append(link[1])
        }
      }
      found += window
    }
    return found
  }

  /// The row with this key, with its body, or `nil`.
  public func issue(key: IssueKey) throws -> CachedIssue? {
    try writer.read { db in
      // A prepared statement kept by the connection: an action reads its row this way.
      try Row.fetchOne(
        db.cachedStatement(
          sql: "SELECT \(IssueColumns.rowWithAssigneesSQL), body FROM issue WHERE key = ?"),
        arguments: [key]
      )
      .map { Self.cachedIssue($0, withBody: true) }
    }
  }

  /// One issue with its body, or `nil`.
  public func issue(number: Int) throws -> CachedIssue? {
    try writer.read { db in
      // A prepared statement kept by the connection: an action reads its row this way.
      try Row.fetchOne(
        db.cachedStatement(
          sql: "SELECT \(IssueColumns.rowWithAssigneesSQL), body FROM issue WHERE number = ?"),
        arguments: [number]
      )
      .map { Self.cachedIssue($0, withBody: true) }
    }
  }

  /// Milestones: open ones first by due date (undated after dated), then closed ones by due date.
  public func milestones() throws -> [GitHubMilestone] {
    try writer.read { db in try Self.milestones(db) }
  }

  /// The labels, by name.
  public func labels() throws -> [GitHubLabel] {
    try writer.read { db in try Self.labels(db) }
  }

  static func labels(_ db: Database) throws -> [GitHubLabel] {
    try Row.fetchAll(db, sql: "SELECT * FROM label ORDER BY name COLLATE NOCASE").map { row in
      GitHubLabel(
        id: row["id"], name: row["name"], color: row["color"], description: row["description"],
        nodeID: row["nodeId"])
    }
  }

  /// The repository's description, once a sync has fetched it (tests check what a sync stored).
  func repository() throws -> GitHubRepository? {
    try writer.read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM repository").map { row in
        GitHubRepository(
          id: row["id"], fullName: row["fullName"], isPrivate: row["isPrivate"],
          htmlURL: row["htmlURL"],
          description: row["description"], openIssuesCount: row["openIssuesCount"])
      }
    }
  }

  /// When the last sync finished, or `nil` before the first: what a screen says before it syncs.
  ///
  /// Reads one row; ``syncState()`` also counts every cached item, which on a large cache reads
  /// the whole table (milliseconds a launch would wait for).
  package func lastSyncedAt() throws -> Date? {
    try writer.read { db in
      try Date.fetchOne(db, sql: "SELECT lastSyncedAt FROM syncState WHERE id = 1")
    }
  }

  /// Where the cache stands.
  package func syncState() throws -> SyncState {
    try writer.read { db in
      let row = try Row.fetchOne(
        db,
        sql:
          "SELECT lastSyncedAt, highWaterMark, fullListingPending, fullListingMark FROM syncState WHERE id = 1"
      )
      let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM issue") ?? 0
      let pending: Bool = row?["fullListingPending"] ?? false
      return SyncState(
        lastSyncedAt: row?["lastSyncedAt"], highWaterMark: row?["highWaterMark"], itemCount: count,
        pendingFullListing: pending ? PendingFullListing(resumeAfter: row?["fullListingMark"]) : nil
      )
    }
  }

  /// The stored entity tag of a URL.
  func storedETag(for url: String) throws -> String? {
    try writer.read { db in
      try String.fetchOne(db, sql: "SELECT etag FROM etag WHERE url = ?", arguments: [url])
    }
  }

  // MARK: SQL

  static func issues(_ filter: IssueFilter, _ db: Database) throws -> [CachedIssue] {
    if let (match, rest) = searchDriver(filter) {
      // The words drive it: the matches in order, then their rows (see `searchedEntries`).
      var found: [CachedIssue] = []
      let keys = try searchedEntries(match, rest, db).map(\.key)
      try forEachRow(keys: keys, columns: IssueColumns.rowWithAssigneesSQL, withBody: false, db) {
        found.append($0)
      }
      return found
    }
    return try orderedIssues(filter, db)
  }

  /// The issues a filter selects, read in its order by SQL's `ORDER BY` (the way a filter
  /// without words is answered, and what the word-driven way must agree with).
  static func orderedIssues(_ filter: IssueFilter, _ db: Database) throws -> [CachedIssue] {
    let (sql, arguments) = selectSQL(filter, columns: IssueColumns.rowWithAssigneesSQL)
    return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map {
      cachedIssue($0, withBody: false)
    }
  }

  /// The SELECT statement of a filter, for some columns of `issue`.
  static func selectSQL(_ filter: IssueFilter, columns: String) -> (
    String, [any DatabaseValueConvertible]
  ) {
    var (conditions, arguments) = conditions(filter)
    let order = orderClause(filter.sort, filter.direction)
    var sql = "SELECT \(columns) FROM issue"
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    sql += " ORDER BY \(order)"
    if let limit = filter.limit {
      sql += " LIMIT ?"
      arguments.append(limit)
    }
    return (sql, arguments)
  }

  /// The ORDER BY clause of a sort: a total order, ties broken by number, so that a list read
  /// again or merged row by row comes out the same.
  static func orderClause(_ sort: IssueSort, _ direction: QuerySort.Direction) -> String {
    let way = direction == .descending ? "DESC" : "ASC"
    return switch sort {
    case .updated: "updatedAt \(way), number \(way)"
    case .created: "createdAt \(way), number \(way)"
    case .comments: "comments \(way), updatedAt \(way), number \(way)"
    }
  }

  /// The WHERE conditions of a filter, and their arguments.
  static func conditions(_ filter: IssueFilter) -> ([String], [any DatabaseValueConvertible]) {
    var conditions: [String] = []
    var arguments: [any DatabaseValueConvertible] = []
    switch filter.kind {
    case .issues: conditions.append("isPullRequest = 0")
    case .pullRequests: conditions.append("isPullRequest = 1")
    case .both: break
    }
    switch filter.state {
    case .open: conditions.append("state = 'open'")
    case .closed: conditions.append("state = 'closed'")
    case .all: break
    }
    switch filter.milestone {
    case .all: break
    case .withMilestone: conditions.append("milestoneNumber IS NOT NULL")
    case .withoutMilestone: conditions.append("milestoneNumber IS NULL")
    case .number(let number):
      conditions.append("milestoneNumber = ?")
      arguments.append(number)
    }
    for label in Set(filter.labels) {
      conditions.append("key IN (SELECT issueKey FROM issueLabel WHERE labelName = ?)")
      arguments.append(storableLabelName(label))
    }
    if let assignee = filter.assignee {
      conditions.append("key IN (SELECT issueKey FROM issueAssignee WHERE login = ?)")
      arguments.append(storable(assignee))
    }
    if let author = filter.author {
      conditions.append("author = ? COLLATE NOCASE")
      arguments.append(storable(author))
    }
    if let mention = filter.mention {
      let (condition, values) = mentionCondition(mention)
      conditions.append(condition)
      arguments += values
    }
    if let text = filter.text {
      let (words, symbols) = searchTerms(text)
      if let match = ftsQuery(words.joined(separator: " ")) {
        conditions.append("key IN (SELECT rowid FROM issueSearch WHERE issueSearch MATCH ?)")
        arguments.append(match)
      }
      // The full-text index has no tokens for emoji and symbols: those are found as they are.
      for symbol in symbols {
        conditions.append("(instr(title, ?) > 0 OR instr(coalesce(body, ''), ?) > 0)")
        arguments += [symbol, symbol]
      }
    }
    for term in filter.terms {
      let (condition, values) = Self.condition(term, me: nil)
      conditions.append(condition)
      arguments += values
    }
    return (conditions, arguments)
  }

  /// The condition that the issue's body, or one of its cached comments, mentions `@login`.
  static func mentionCondition(_ login: String) -> (String, [any DatabaseValueConvertible]) {
    // `@login` in any case, neither inside a word (`a@login`, an e-mail address) nor the start
    // of a longer login: at the start or after a character that is not a letter, digit or
    // `_`, and at the end or before one that is not a letter, digit or `-`. The login's own
    // GLOB characters are bracketed to stand for themselves.
    let at = "@" + globLiteral(login.lowercased())
    let before = "[^a-z0-9_]"
    let after = "[^a-z0-9-]"
    // The body, and the issue's comments the cache holds.
    return (
      "EXISTS (SELECT 1 FROM (SELECT lower(coalesce(issue.body, '')) AS text UNION ALL "
        + "SELECT lower(comment.body) FROM comment WHERE comment.issueNumber = issue.number) "
        + "WHERE text GLOB ? OR text GLOB ? OR text GLOB ? OR text GLOB ?)",
      [at, "\(at)\(after)*", "*\(before)\(at)", "*\(before)\(at)\(after)*"]
    )
  }

  /// Text that a GLOB pattern matches literally: `*`, `?` and `[` bracketed.
  static func globLiteral(_ text: String) -> String {
    var pattern = ""
    for character in text {
      switch character {
      case "*", "?", "[": pattern += "[\(character)]"
      default: pattern.append(character)
      }
    }
    return pattern
  }

  /// The words of a search for the full-text index, and those holding emoji or symbols, which
  /// the index does not tokenize and which are matched literally instead.
  static func searchTerms(_ text: String) -> (words: [String], symbols: [String]) {
    var words: [String] = []
    var symbols: [String] = []
    for word in text.split(whereSeparator: { $0.isWhitespace }).map(String.init) {
      let hasSymbol = word.unicodeScalars.contains {
        $0.properties.isEmojiPresentation || $0.properties.generalCategory == .otherSymbol
          || ($0.properties.isEmoji && $0.value > 0xFF)
      }
      if hasSymbol { symbols.append(word) } else { words.append(word) }
    }
    return (words, symbols)
  }

  /// An FTS5 query matching every word of `text` as a prefix, or `nil` when it has no words.
  static func ftsQuery(_ text: String) -> String? {
    let words = text.split(whereSeparator: { $0.isWhitespace }).map {
      "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*"
    }
    return words.isEmpty ? nil : words.joined(separator: " ")
  }

  static func cachedIssue(_ row: Row, withBody: Bool) -> CachedIssue {
    typealias P = IssueColumns.Position
    let labelNames: String = row[P.labelNames]
    // Read with ``IssueColumns/rowWithAssigneesSQL``: the assignees and accounts follow the row.
    let hasAccounts = row.count > P.assigneeLogins
    let assignees: String? = hasAccounts ? row[P.assigneeLogins] : nil
    let total: Int? = row[P.subIssuesTotal]
    let key: Int64 = row[P.key]
    var issue = CachedIssue(
      // An issue not filed yet has no GitHub id: it holds its negated key, as its number does.
      key: IssueKey(rawValue: key), id: row[P.githubId] ?? -key, number: row[P.number],
      title: restored(row[P.title]),
      state: GitHubIssue.State(rawValue: row[P.state]) ?? .open, author: row[P.author],
      milestoneNumber: row[P.milestoneNumber],
      labels: labelNames.isEmpty ? [] : labelNames.split(separator: "\u{1F}").map(String.init),
      comments: row[P.comments], createdAt: row[P.createdAt], updatedAt: row[P.updatedAt],
      closedAt: row[P.closedAt], isPullRequest: row[P.isPullRequest], htmlURL: row[P.htmlURL],
      body: withBody && row.count > P.body ? (row[P.body] as String?).map(restored) : nil,
      subIssues: total.flatMap { total in
        total > 0 ? SubIssueSummary(total: total, completed: row[P.subIssuesCompleted] ?? 0) : nil
      },
      assignees: assignees.map { $0.split(separator: "\u{1F}").map(String.init).sorted() } ?? [])
    if issue.isPullRequest {
      issue.isDraft = row[P.isDraft]
      issue.mergedAt = row[P.mergedAt]
      issue.reviewDecision = (row[P.reviewDecision] as String?).flatMap(
        PullRequestDetails.ReviewDecision.init(rawValue:))
      issue.checks = (row[P.checks] as String?).flatMap(PullRequestDetails.Checks.init(rawValue:))
    }
    if hasAccounts {
      issue.authorNodeID = row[P.authorNodeId]
      issue.authorIsBot = row[P.authorIsBot]
      issue.nodeID = row[P.nodeId]
      let pairs: String = row[P.assigneeNodeIds] ?? ""
      for pair in pairs.split(separator: "\u{1F}") {
        let parts = pair.split(separator: "\u{1E}", maxSplits: 1)
        if parts.count == 2 { issue.assigneeNodeIDs[String(parts[0])] = String(parts[1]) }
      }
    }
    return issue
  }

  static func milestones(_ db: Database) throws -> [GitHubMilestone] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT * FROM milestone
        ORDER BY state = 'closed', dueOn IS NULL, dueOn, number
        """
    ).map { row in
      GitHubMilestone(
        id: row["id"], number: row["number"], title: restored(row["title"]),
        state: GitHubMilestone.State(rawValue: row["state"]) ?? .open,
        description: row["description"],
        dueOn: row["dueOn"], openIssues: row["openIssues"], closedIssues: row["closedIssues"],
        createdAt: row["createdAt"], updatedAt: row["updatedAt"], closedAt: row["closedAt"],
        htmlURL: row["htmlURL"])
    }
  }
}

extension IssueCache {
  /// The cached milestones' titles by number, to name them in messages; none when the cache
  /// cannot be read (a message then gives numbers).
  package func milestoneTitles() -> [Int: String] {
    do {
      return Dictionary(try milestones().map { ($0.number, $0.title) }) { first, _ in first }
    } catch {
      return [:]
    }
  }
}
