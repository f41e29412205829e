import Foundation
import GRDB

// Issues filed through the outbox: a provisional row shown at once, numbered when GitHub files
// it, every action queued on it following it to its number.

extension IssueCache {
  /// Queues a new issue and shows it at once as a provisional row, in one durable transaction.
  ///
  /// The row has a key but no GitHub id; its number is the negation of its key until GitHub
  /// numbers it (GitHub's start at 1, so the two never meet), which lets every action that
  /// takes a number — a comment, a close, an edit — be queued on it and sent after it, on the
  /// number it gets.
  ///
  /// - Parameters:
  ///   - issue: What to file.
  ///   - author: The login it is filed as (the viewer), shown as its author until it is filed.
  ///   - parent: An issue to make it a sub-issue of, once filed: a second action, queued in
  ///     the same transaction and sent after the create.
  ///   - draft: The draft it was filed from: it leaves the drafts in the same write, as the
  ///     queue holds the words now (and gives them back if GitHub never has them).
  ///   - now: When it is queued.
  /// - Returns: The queued create; its ``QueuedAction/issueKey`` is the provisional row's.
  /// - Throws: ``LocalEditError/unknownMilestone(_:)`` for a milestone the cache does not list;
  ///   a body longer than GitHub takes (``QueuedAction/Operation/maximumTextLength``).
  @discardableResult
  public func enqueueNewIssue(
    _ issue: NewIssue, author: String, parent: Int? = nil, replacingDraft draft: Int64? = nil,
    now: Date = Date()
  ) throws -> QueuedAction {
    if let overlong = QueuedAction.Operation.create(issue).overlongText { throw overlong }
    return try Self.writeDurably(writer) { db in
      if let milestone = issue.milestone,
        try Int.fetchOne(
          db, sql: "SELECT 1 FROM milestone WHERE number = ?", arguments: [milestone])
          == nil
      {
        throw LocalEditError.unknownMilestone(milestone)
      }
      var names = Array(Set(issue.labels.map(Self.storableLabelName))).sorted()
      names.removeAll { $0.isEmpty }
      try db.execute(
        sql: """
          INSERT INTO issue(
            title, body, state, author, milestoneNumber, comments, createdAt, updatedAt,
            isPullRequest, labelNames, issueType)
          VALUES (?, ?, 'open', ?, ?, 0, ?, ?, 0, ?, ?)
          """,
        arguments: [
          Self.storable(issue.title), Self.storable(issue.body), Self.storable(author),
          issue.milestone, now, now, names.joined(separator: "\u{1F}"), issue.type,
        ])
      let key = db.lastInsertedRowID
      let number = Self.provisionalNumber(IssueKey(rawValue: key))
      try db.execute(sql: "UPDATE issue SET number = ? WHERE key = ?", arguments: [number, key])
      for name in names {
        try db.execute(
          sql: "INSERT INTO issueLabel(issueKey, labelName) VALUES (?, ?)", arguments: [key, name])
      }
      for login in Set(issue.assignees) {
        try db.execute(
          sql: "INSERT INTO issueAssignee(issueKey, login) VALUES (?, ?)",
          arguments: [key, Self.storable(login)])
      }
      let fields = try Self.json(Self.editableFields(of: number, db))
      // What the row shows does not change with either action until GitHub answers.
      func queue(_ operation: QueuedAction.Operation) throws -> Int64 {
        try db.execute(
          sql: """
            INSERT INTO queuedAction(
              issueKey, issueNumber, operation, status, queuedAt, before, after, base)
            VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)
            """,
          arguments: [key, number, try Self.json(operation), now, fields, fields, fields])
        return db.lastInsertedRowID
      }
      let createID = try queue(.create(issue))
      if let draft { try db.execute(sql: "DELETE FROM draft WHERE id = ?", arguments: [draft]) }
      if let parent { _ = try queue(.setParent(parent)) }
      return QueuedAction(
        id: createID, issueKey: IssueKey(rawValue: key), issueNumber: number,
        operation: .create(issue), status: .pending, queuedAt: now)
    }
  }

  /// Rewrites the title and body of a new issue still waiting to be filed: its queued create
  /// and its provisional row, in one durable transaction.
  ///
  /// - Throws: ``QueueError/sentAsItWas(_:)`` once its create was sent without an answer (it
  ///   may be filed as it was), ``QueueError/notQueued(_:)`` when it is filed or cancelled.
  package func rewriteNewIssue(
    key: IssueKey, title: String, body: String, form: FilledForm? = nil
  ) throws {
    if let overlong = OverlongText.check(body, as: "The issue's body") { throw overlong }
    try Self.writeDurably(writer) { db in
      guard
        let action = try Self.queuedActions(
          where: "issueKey = ? AND status IN ('pending', 'sending', 'conflict')", [key.rawValue],
          db
        ).first(where: {
          if case .create = $0.operation { true } else { false }
        }),
        case .create(var issue) = action.operation
      else { throw QueueError.notQueued(0) }
      if case .sending = action.status { throw QueueError.sentAsItWas(action.id) }
      issue.title = title
      issue.body = body
      issue.form = form
      try db.execute(
        sql: """
          UPDATE queuedAction SET operation = ?
          WHERE id = ? AND status IN ('pending', 'conflict')
          """, arguments: [try Self.json(QueuedAction.Operation.create(issue)), action.id])
      try db.execute(
        sql: """
          UPDATE issue SET title = ?, body = ?, localRevision = localRevision + 1
          WHERE key = ? AND githubId IS NULL
          """, arguments: [Self.storable(title), Self.storable(body), key.rawValue])
    }
  }

  /// The new issue queued on a provisional row and not filed yet, as it will be filed: what a
  /// rewrite opens.
  package func waitingNewIssue(key: IssueKey) throws -> NewIssue? {
    try writer.read { db in
      for action in try Self.queuedActions(
        where: "issueKey = ? AND status IN ('pending', 'sending', 'conflict')", [key.rawValue], db)
      {
        if case .create(let issue) = action.operation { return issue }
      }
      return nil
    }
  }

  /// The number a provisional row holds until GitHub numbers it: its key, negated.
  package static func provisionalNumber(_ key: IssueKey) -> Int {
    -Int(key.rawValue)
  }

  /// Records that a new issue was filed as `issue` (sent and answered, or found on GitHub): the
  /// provisional row becomes it, keeping its key, and every action queued on the row now names
  /// its number.
  ///
  /// A sync may have brought the filed issue in meanwhile as a row of its own: that row is
  /// folded into the provisional one (its queued actions move over) so the issue has one row.
  func markFiled(_ id: Int64, as issue: GitHubIssue, key: IssueKey, now: Date) throws {
    try writer.write { db in
      let others = try Int64.fetchAll(
        db, sql: "SELECT key FROM issue WHERE (githubId = ? OR number = ?) AND key != ?",
        arguments: [issue.id, issue.number, key])
      for other in others {
        try db.execute(
          sql: "UPDATE queuedAction SET issueKey = ? WHERE issueKey = ?", arguments: [key, other])
        try db.execute(sql: "DELETE FROM issue WHERE key = ?", arguments: [other])
      }
      // GitHub's version wins over the provisional one whatever the clocks say.
      try db.execute(
        sql: "UPDATE issue SET githubId = ?, number = ?, updatedAt = ? WHERE key = ?",
        arguments: [issue.id, issue.number, Date(timeIntervalSince1970: 0), key])
      try db.execute(
        sql: "UPDATE queuedAction SET issueNumber = ? WHERE issueKey = ?",
        arguments: [issue.number, key])
      try Self.actionLedger.markDone(id, now: now, db)
      try db.execute(
        sql: "UPDATE queuedAction SET resultIssueNumber = ? WHERE id = ?",
        arguments: [issue.number, id])
      try Self.writeIssues([issue], recordingSeen: false, advancingMarks: false, db)
    }
  }

  /// The issue numbers earlier creates were found as or filed as: never claimed twice.
  func claimedIssueNumbers() throws -> Set<Int> {
    try writer.read { db in
      Set(
        try Int.fetchAll(
          db, sql: "SELECT resultIssueNumber FROM queuedAction WHERE resultIssueNumber IS NOT NULL")
      )
    }
  }

  /// The highest issue or pull request number the cache holds (0 when none).
  func highestCachedNumber() throws -> Int {
    try writer.read { db in try Int.fetchOne(db, sql: "SELECT max(number) FROM issue") ?? 0 }
  }

  /// Migration v18's part for the outbox: what a create's landed check keeps.
  static func addCreateLandedCheck(_ db: Database) throws {
    try db.alter(table: "queuedAction") { t in
      // A create: the highest number GitHub had given right before the first send.
      t.add(column: "knownIssueNumber", .integer)
      // A create: the number the issue was filed as (found or answered).
      t.add(column: "resultIssueNumber", .integer)
    }
  }
}
