import GRDB

/// The columns of the cache's `issue` table, named once for the code that writes and reads rows:
/// the `SELECT` list of a row, the upsert statement and the decoding of a row all come from here.
///
/// The migrations keep their literal names on purpose (a released migration never changes, even
/// if a column here is renamed later), and the `WHERE` and `ORDER BY` clauses of list queries are
/// written as SQL so that they match the covering indexes column for column.
enum IssueColumns {
  /// The row's own key (``IssueKey``), its rowid: given by the cache, never by GitHub.
  static let key = Column("key")
  /// GitHub's numeric id, once GitHub has the item.
  static let githubId = Column("githubId")
  /// GitHub's number, once GitHub has the item.
  static let number = Column("number")
  static let title = Column("title")
  static let body = Column("body")
  static let state = Column("state")
  static let stateReason = Column("stateReason")
  static let author = Column("author")
  static let milestoneNumber = Column("milestoneNumber")
  static let comments = Column("comments")
  static let createdAt = Column("createdAt")
  static let updatedAt = Column("updatedAt")
  static let closedAt = Column("closedAt")
  static let isPullRequest = Column("isPullRequest")
  static let htmlURL = Column("htmlURL")
  /// The label names, sorted and distinct, joined by U+001F: a copy of the `issueLabel` rows.
  static let labelNames = Column("labelNames")
  static let subIssuesTotal = Column("subIssuesTotal")
  static let subIssuesCompleted = Column("subIssuesCompleted")
  /// The author's GraphQL node id, when GitHub sent it.
  static let authorNodeId = Column("authorNodeId")
  /// Whether the author is a bot.
  static let authorIsBot = Column("authorIsBot")
  /// The issue's own GraphQL node id; an answer without one keeps the cached one.
  static let nodeId = Column("nodeId")
  /// Its issue type's name.
  static let issueType = Column("issueType")
  /// Whether a pull request is a draft.
  static let isDraft = Column("isDraft")
  /// When a pull request was merged.
  static let mergedAt = Column("mergedAt")

  /// What a list row reads: every column but the body and the state reason.
  static let row: [Column] = [
    key, githubId, number, title, state, author, milestoneNumber, labelNames, comments, createdAt,
    updatedAt,
    closedAt, isPullRequest, htmlURL, subIssuesTotal, subIssuesCompleted, isDraft, mergedAt,
  ]

  /// What an upsert writes, in the order of its arguments.
  static let written: [Column] = [
    githubId, number, title, body, state, stateReason, author, milestoneNumber, comments, createdAt,
    updatedAt, closedAt, isPullRequest, htmlURL, labelNames, subIssuesTotal, subIssuesCompleted,
    authorNodeId, authorIsBot, nodeId, issueType, isDraft, mergedAt,
  ]

  /// The assignees' logins, sorted, joined by U+001F: read from `issueAssignee`, the only copy.
  static let assigneeLogins = Column("assigneeLogins")

  /// The `SELECT` list of ``row``, without the assignees (a window of list rows reads them in
  /// one query of its own: see `IssueCache.issues(numbers:)`).
  static let rowSQL =
    row.map(\.name).joined(separator: ", ")
    + ", (SELECT reviewDecision FROM pullRequest WHERE pullRequest.number = issue.number)"
    + ", (SELECT checks FROM pullRequest WHERE pullRequest.number = issue.number)"

  /// The assignees' `login` U+001E `node id` pairs, joined by U+001F.
  static let assigneeNodeIds = Column("assigneeNodeIds")

  /// ``rowSQL`` and the assignees' logins, for reads of single issues and of whole lists, with
  /// the accounts' node ids (what gh's `--json` prints).
  static let rowWithAssigneesSQL =
    rowSQL
    + ", (SELECT group_concat(login, char(31)) FROM (SELECT login FROM issueAssignee"
    + " WHERE issueKey = issue.key ORDER BY login)) AS \(assigneeLogins.name)"
    + ", \(authorNodeId.name), \(authorIsBot.name)"
    + ", (SELECT group_concat(login || char(30) || nodeId, char(31)) FROM issueAssignee"
    + " WHERE issueKey = issue.key AND nodeId IS NOT NULL) AS \(assigneeNodeIds.name)"
    + ", issue.\(nodeId.name)"

  /// Where each column is in a row read with ``rowSQL`` (the first ``row``.count), or with
  /// ``rowWithAssigneesSQL`` and then `body`: rows are read by position, as GRDB's lookup by
  /// name compares names without case on every access.
  enum Position {
    static let key = position(of: IssueColumns.key)
    static let githubId = position(of: IssueColumns.githubId)
    static let number = position(of: IssueColumns.number)
    static let title = position(of: IssueColumns.title)
    static let state = position(of: IssueColumns.state)
    static let author = position(of: IssueColumns.author)
    static let milestoneNumber = position(of: IssueColumns.milestoneNumber)
    static let labelNames = position(of: IssueColumns.labelNames)
    static let comments = position(of: IssueColumns.comments)
    static let createdAt = position(of: IssueColumns.createdAt)
    static let updatedAt = position(of: IssueColumns.updatedAt)
    static let closedAt = position(of: IssueColumns.closedAt)
    static let isPullRequest = position(of: IssueColumns.isPullRequest)
    static let htmlURL = position(of: IssueColumns.htmlURL)
    static let subIssuesTotal = position(of: IssueColumns.subIssuesTotal)
    static let subIssuesCompleted = position(of: IssueColumns.subIssuesCompleted)
    static let isDraft = position(of: IssueColumns.isDraft)
    static let mergedAt = position(of: IssueColumns.mergedAt)
    // After ``row``: a pull request's review decision and checks, as ``rowSQL`` reads them;
    // then, in the order ``rowWithAssigneesSQL`` adds them, the accounts; then `body`.
    static let reviewDecision = row.count
    static let checks = row.count + 1
    static let assigneeLogins = row.count + 2
    static let authorNodeId = row.count + 3
    static let authorIsBot = row.count + 4
    static let assigneeNodeIds = row.count + 5
    static let nodeId = row.count + 6
    static let body = row.count + 7

    static func position(of column: Column) -> Int {
      guard let index = row.firstIndex(where: { $0.name == column.name }) else {
        preconditionFailure("\(column.name) is not a column of IssueColumns.row")
      }
      return index
    }
  }

  /// Inserts a row of ``written`` values under a new key: for an item the cache does not hold.
  static let insertSQL: String = {
    let names = written.map(\.name)
    return "INSERT INTO issue(\(names.joined(separator: ", "))) "
      + "VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
  }()

  /// Inserts a row of ``written`` values under a new key, or updates every column of the row
  /// with its GitHub id (keeping its key); answers the row's key.
  static let upsertSQL: String = {
    let names = written.map(\.name)
    return "INSERT INTO issue(\(names.joined(separator: ", "))) "
      + "VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", "))) "
      + "ON CONFLICT(githubId) DO UPDATE SET "
      + names.filter { $0 != githubId.name }.map {
        $0 == nodeId.name ? "\($0) = coalesce(excluded.\($0), \($0))" : "\($0) = excluded.\($0)"
      }.joined(separator: ", ") + " RETURNING key"
  }()
}
