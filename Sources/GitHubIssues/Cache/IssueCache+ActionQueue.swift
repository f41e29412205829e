import Foundation
import GRDB

// The action queue: actions written before anything is sent, shown at once, sent in order per
// issue by `ActionReplayer`, kept shown over whatever a sync writes until they land.

extension IssueCache {
  /// The action queue's rows go through the one outbox state machine.
  static let actionLedger = OutboxLedger(table: "queuedAction")

  /// Queues an action on a cached issue and shows it at once, in one transaction.
  ///
  /// A change shows at once, on top of the actions queued before it, in the same transaction
  /// (every observer sees the issue move as after a sync); a comment shows in the queue only
  /// (it is in the conversation once posted).
  ///
  /// - Returns: The queued action.
  /// - Throws: ``QueueError/notCached(_:)`` when the issue is not cached,
  ///   ``LocalEditError/unknownMilestone(_:)`` for a milestone the cache does not list; a text
  ///   longer than GitHub takes (``QueuedAction/Operation/maximumTextLength``).
  @discardableResult
  public func enqueue(
    _ operation: QueuedAction.Operation, onIssue number: Int, now: Date = Date(),
    durability: Durability = .synced
  ) throws -> QueuedAction {
    let writer = writer
    let write: ((Database) throws -> QueuedAction) throws -> QueuedAction =
      switch durability {
      case .synced: { try Self.writeDurably(writer, $0) }
      case .deferred: { try writer.write($0) }
      }
    return try write { db in try Self.enqueue(operation, onIssue: number, now: now, db) }
  }

  /// Queues an action within a transaction the caller holds, as
  /// ``enqueue(_:onIssue:now:durability:)`` says.
  static func enqueue(
    _ operation: QueuedAction.Operation, onIssue number: Int, now: Date, _ db: Database
  ) throws -> QueuedAction {
    if let overlong = operation.overlongText { throw overlong }
    guard let (key, before) = try Self.editableRow(of: number, db) else {
      throw QueueError.notCached(number)
    }
    // One encoder for the action's three values; the row before is its base too.
    let encoder = JSONEncoder()
    let beforeJSON = try Self.json(before, with: encoder)
    var after = before
    if case .change(let change) = operation {
      after = before.applying(change, now: now)
      if let milestone = after.milestoneNumber, milestone != before.milestoneNumber,
        try Int.fetchOne(
          db.cachedStatement(sql: "SELECT 1 FROM milestone WHERE number = ?"),
          arguments: [milestone]) == nil
      {
        throw LocalEditError.unknownMilestone(milestone)
      }
      try Self.write(after, toKey: key, db)
    }
    try db.cachedStatement(
      sql: """
        INSERT INTO queuedAction(
          issueKey, issueNumber, operation, status, queuedAt, before, after, base)
        VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)
        """
    ).execute(
      arguments: [
        key, number, try Self.json(operation, with: encoder), now, beforeJSON,
        try Self.json(after, with: encoder), beforeJSON,
      ])
    return QueuedAction(
      id: db.lastInsertedRowID, issueKey: key, issueNumber: number, operation: operation,
      status: .pending, queuedAt: now)
  }

  /// Queues a comment, unless one with the same text already waits on the issue to be sent.
  ///
  /// The same text (line endings and surrounding blank space aside) waiting returns that one,
  /// so that running the same `issues comment N --body …` again after a lost answer settles the
  /// first instead of queuing a second copy. A comment that landed is no longer waiting: the same words written
  /// again later are a new comment, as on GitHub.
  ///
  /// - Returns: The action that carries the comment.
  /// - Throws: ``QueueError/notCached(_:)`` when the issue is not cached.
  package func enqueueComment(_ body: String, onIssue number: Int, now: Date = Date()) throws
    -> QueuedAction
  {
    let wanted = ActionReplayer.normalized(body)
    let waiting = try queuedActions(
      "issueNumber = ? AND status IN ('pending', 'sending')", [number])
    if let same = waiting.first(where: {
      if case .comment(let text) = $0.operation { return ActionReplayer.normalized(text) == wanted }
      return false
    }) {
      return same
    }
    return try enqueue(.comment(body), onIssue: number, now: now)
  }

  /// The comments waiting on an issue to be sent (pending, sent without an answer, or in
  /// conflict), oldest first.
  package func waitingComments(onIssue number: Int) throws -> [QueuedAction] {
    try queuedActions(
      "issueNumber = ? AND status IN ('pending', 'sending', 'conflict')", [number]
    ).filter {
      if case .comment = $0.operation { return true }
      return false
    }
  }

  /// The comment an action became, once it landed and the cache holds it.
  package func postedComment(ofAction id: Int64) throws -> CachedComment? {
    let row = try writer.read { db in
      try Row.fetchOne(
        db, sql: "SELECT resultCommentID, issueNumber FROM queuedAction WHERE id = ?",
        arguments: [id])
    }
    guard let row, let commentID = row["resultCommentID"] as Int64? else { return nil }
    return try comments(of: row["issueNumber"]).first { $0.id == commentID }
  }

  private func queuedActions(_ condition: String, _ arguments: StatementArguments) throws
    -> [QueuedAction]
  {
    try writer.read { db in try Self.queuedActions(where: condition, arguments, db) }
  }

  /// The queued actions in the queue's order: those still waiting to reach GitHub, or with
  /// `all`, the finished ones kept too.
  package func queuedActions(all: Bool = false) throws -> [QueuedAction] {
    try writer.read { db in
      try Self.queuedActions(
        where: all ? "1" : "status IN ('pending', 'sending', 'conflict')", [], db)
    }
  }

  /// The issues with actions still waiting to reach GitHub: what rows mark as pending.
  package func queuedIssueNumbers() throws -> Set<Int> {
    try writer.read { db in try QueueMarks(db).waiting }
  }

  /// The issues with an action in conflict: what rows mark as waiting for the person.
  package func conflictedIssueNumbers() throws -> Set<Int> {
    try writer.read { db in try QueueMarks(db).conflicted }
  }

  /// Cancels an action not sent yet (pending, or in conflict).
  ///
  /// It leaves the queue and the issue shows without it, unless a sync wrote it since in a way
  /// that already shows GitHub's. Its words (a comment, a new issue, a review and its line comments, a reply) go back to the
  /// drafts in the same durable write (`giveBackWords(of:now:_:)`): GitHub does not have
  /// them, and the person wrote them.
  ///
  /// - Returns: The words given back to the drafts, or `nil` when the action carried none.
  /// - Throws: ``QueueError/mayHaveLanded(_:)`` for an action sent without an answer (it is
  ///   checked on GitHub when the queue is sent), ``QueueError/notQueued(_:)`` for one that
  ///   is not waiting.
  @discardableResult
  package func cancelQueuedAction(_ id: Int64, now: Date = Date()) throws -> Draft.Words? {
    try Self.writeDurably(writer) { db in
      guard let action = try Self.queuedActions(where: "id = ?", [id], db).first else {
        throw QueueError.notQueued(id)
      }
      // Shown without it: from what was shown before the issue's first waiting action, the
      // others applied again — unless a write since shows something else (it then stays).
      let first = try String.fetchOne(
        db,
        sql: """
          SELECT before FROM queuedAction WHERE issueNumber = ?
          AND status IN ('pending', 'sending', 'conflict') ORDER BY id LIMIT 1
          """, arguments: [action.issueNumber])
      let shown = try Self.lastShown(onIssue: action.issueNumber, db)
      try Self.actionLedger.cancel(id, now: now, db)
      var returned = action
      if case .create(var issue) = action.operation, let key = action.issueKey {
        // Comments queued on the issue never filed go with it: their words are kept in its
        // draft, after its body, so that none are lost.
        let comments = try Self.queuedActions(
          where: "issueKey = ? AND status IN ('pending', 'conflict')", [key.rawValue], db
        ).compactMap { queued -> String? in
          if case .comment(let body) = queued.operation { body } else { nil }
        }
        for body in comments {
          issue.body += "\n\n---\nA comment queued on it, not sent:\n\n" + body
        }
        returned.operation = .create(issue)
      }
      let given = try Self.giveBackWords(of: returned, now: now, db)
      if case .create = action.operation, let key = action.issueKey {
        // Never filed: the provisional row goes, with what was queued on it.
        try db.execute(
          sql: """
            UPDATE queuedAction SET status = 'cancelled', statusDate = ?
            WHERE issueKey = ? AND status IN ('pending', 'conflict')
            """, arguments: [now, key])
        try db.execute(
          sql: "DELETE FROM issue WHERE key = ? AND githubId IS NULL", arguments: [key])
        return given
      }
      guard let first, let base = try? Self.decode(EditableFields.self, first),
        let current = try Self.editableFields(of: action.issueNumber, db),
        let shown, current.isShown(as: shown)
      else { return given }
      try Self.write(base, to: action.issueNumber, db)
      try Self.reshowQueuedActions(onIssues: [action.issueNumber], db)
      return given
    }
  }

  /// Sends an action in conflict anyway: it is pending again, and its conflict is not checked
  /// again.
  package func sendAnyway(_ id: Int64) throws {
    try writer.write { db in
      try Self.actionLedger.sendAnyway(id, db)
      try db.execute(sql: "UPDATE queuedAction SET forced = 1 WHERE id = ?", arguments: [id])
    }
  }

  /// Forgets finished actions older than `date`; those of the last day are kept, so that a
  /// comment found on GitHub is never claimed by two actions.
  package func pruneQueue(finishedBefore date: Date) throws {
    try writer.write { db in try Self.actionLedger.prune(finishedBefore: date, db) }
  }

  // MARK: The replayer's steps

  /// Marks an action as sent, before its request goes: from now on it may have landed.
  ///
  /// What its landed check needs is kept from the first send on: the viewer (the token's
  /// login), the newest comment id known then (a comment it became is newer), the newest state
  /// event known then (a close or reopen it made is newer).
  ///
  /// The status is checked in the same statement: an action cancelled (or put in conflict)
  /// since the replay read the queue is not marked, and must not be sent.
  ///
  /// - Returns: Whether the action was still waiting to be sent, and is now marked.
  func markSending(
    _ id: Int64, viewer: String?, knownCommentID: Int64?, knownEventID: Int64?,
    knownIssueNumber: Int? = nil, knownReviewID: Int64? = nil,
    sending operation: QueuedAction.Operation? = nil, now: Date
  ) throws -> Bool {
    // On disk before the request leaves, even across a power cut: a send it does not know of
    // would be made again.
    try Self.writeDurably(writer) { db in
      // What is about to be sent is what the row holds: a new issue rewritten since the queue
      // was read is sent as rewritten, by the next pass.
      if let operation,
        try Self.queuedActions(where: "id = ?", [id], db).first?.operation != operation
      {
        return false
      }
      return try Self.actionLedger.markSending(
        id, now: now,
        keeping: [
          ("knownCommentID", knownCommentID), ("knownEventID", knownEventID), ("viewer", viewer),
          ("knownIssueNumber", knownIssueNumber), ("knownReviewID", knownReviewID),
        ], db)
    }
  }

  /// What an action's first send recorded for its landed check.
  func landedCheckMarks(of id: Int64) throws -> LandedCheckMarks {
    try writer.read { db in
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT viewer, knownCommentID, knownEventID, knownIssueNumber, knownReviewID
          FROM queuedAction WHERE id = ?
          """,
        arguments: [id])
      return LandedCheckMarks(
        viewer: row?["viewer"], knownCommentID: row?["knownCommentID"],
        knownEventID: row?["knownEventID"], knownIssueNumber: row?["knownIssueNumber"],
        knownReviewID: row?["knownReviewID"])
    }
  }

  /// Whether an action still waits to be sent (pending or sent without an answer), read now.
  func isWaitingToBeSent(_ id: Int64) throws -> Bool {
    try writer.read { db in try Self.actionLedger.isWaitingToBeSent(id, db) }
  }

  /// Marks an action as on GitHub, writing GitHub's answer (the issue, or the comment) in the
  /// same transaction; the issue's other queued actions show on top of it.
  func markDone(
    _ id: Int64, issue: GitHubIssue?, comment: GitHubComment?, commentID: Int64?,
    onIssue number: Int, now: Date
  ) throws {
    try writer.write { db in
      try Self.actionLedger.markDone(id, now: now, db)
      try db.execute(
        sql: "UPDATE queuedAction SET resultCommentID = ? WHERE id = ?",
        arguments: [commentID, id])
      if let issue {
        try Self.writeIssues([issue], recordingSeen: false, advancingMarks: false, db)
      }
      if let comment { try Self.addPostedComment(comment, to: number, db) }
    }
  }

  /// Puts an action in conflict: it waits for the person; the issue's later actions wait too.
  ///
  /// One cancelled (or finished) meanwhile stays as it is.
  func markConflict(_ id: Int64, reason: String) throws {
    try writer.write { db in try Self.actionLedger.markConflict(id, reason: reason, db) }
  }

  /// Records a failed send as the outbox reads it (``OutboxLedger/classify(_:refusal:)``).
  func recordFailure(_ failure: OutboxLedger.Failure, of id: Int64, error: GitHubError) throws {
    try writer.write { db in try Self.actionLedger.record(failure, id, error: error, db) }
  }

  /// The issue's fields the action was queued against, as its conflicts are judged: never
  /// re-based on a version a sync wrote since, so that a change someone else made between two
  /// sends stays a conflict.
  func conflictBase(_ id: Int64) throws -> EditableFields? {
    try writer.read { db in
      try String.fetchOne(
        db, sql: "SELECT coalesce(base, before) FROM queuedAction WHERE id = ?", arguments: [id]
      )
      .flatMap { try? Self.decode(EditableFields.self, $0) }
    }
  }

  /// The newest comment id the cache holds, on any issue: GitHub's ids only grow, so a comment
  /// made after now has a larger one.
  func newestCommentID() throws -> Int64? {
    try writer.read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM comment") }
  }

  /// Records why an attempt did not settle an action (it stays as it was).
  func noteFailure(_ id: Int64, _ reason: String) throws {
    try writer.write { db in try Self.actionLedger.noteFailure(id, reason, db) }
  }

  /// The comment ids earlier actions became: a comment found on GitHub is claimed once.
  func claimedCommentIDs(onIssue number: Int) throws -> Set<Int64> {
    try writer.read { db in
      Set(
        try Int64.fetchAll(
          db,
          sql: """
            SELECT resultCommentID FROM queuedAction
            WHERE issueNumber = ? AND resultCommentID IS NOT NULL
            """, arguments: [number]))
    }
  }

  /// The newest comment id an action's first send knew of.
  func knownCommentID(of id: Int64) throws -> Int64? {
    try writer.read { db in
      try Int64.fetchOne(
        db, sql: "SELECT knownCommentID FROM queuedAction WHERE id = ?", arguments: [id])
    }
  }

  /// How a write reaches the disk.
  public enum Durability: Hashable, Sendable {
    /// Synced before the call returns: it survives a power cut as soon as it is done.
    case synced
    /// Committed (every reader, every process sees it; a killed process keeps it), synced to
    /// the disk by ``syncWrites()`` or the next synced write — such as the send that marks the
    /// action before its request leaves. A key press commits this way, and syncs off its path.
    case deferred
  }

  /// Syncs every write committed so far to the disk.
  ///
  /// The write-ahead log's file, which holds them, is flushed (`fsync`). A no-op for a cache in
  /// memory.
  public func syncWrites() {
    guard let path else { return }
    let descriptor = open(path + "-wal", O_RDONLY)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  /// Runs a transaction whose commit reaches the disk before it returns (`synchronous = FULL`
  /// for it), where the cache otherwise trades the last commits of a power cut for speed.
  static func writeDurably<T>(
    _ writer: any DatabaseWriter, _ updates: (Database) throws -> T
  ) throws -> T {
    try writer.writeWithoutTransaction { db in
      let was = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 1
      try db.execute(sql: "PRAGMA synchronous = FULL")
      defer { try? db.execute(sql: "PRAGMA synchronous = \(was)") }
      var result: Result<T, any Error> = .failure(CancellationError())
      try db.inTransaction {
        result = Result { try updates(db) }
        if case .failure(let error) = result { throw error }
        return .commit
      }
      return try result.get()
    }
  }

  // MARK: Showing

  /// Shows the waiting actions of these issues on top of what the issue rows hold now (GitHub's
  /// version, just written), each action's before and after kept for a cancel.
  static func reshowQueuedActions(onIssues numbers: [Int], _ db: Database) throws {
    let waiting = try Int.fetchAll(
      db,
      sql: """
        SELECT DISTINCT issueNumber FROM queuedAction
        WHERE status IN ('pending', 'sending', 'conflict')
        """)
    guard !waiting.isEmpty else { return }
    let wanted = Set(numbers)
    for number in waiting where wanted.contains(number) {
      guard var fields = try editableFields(of: number, db) else { continue }
      let start = fields
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT id, operation, queuedAt FROM queuedAction WHERE issueNumber = ?
          AND status IN ('pending', 'sending', 'conflict') ORDER BY id
          """, arguments: [number])
      for row in rows {
        let before = fields
        if case .change(let change)? = try? decode(
          QueuedAction.Operation.self, row["operation"] as String)
        {
          fields = fields.applying(change, now: row["queuedAt"])
        }
        try db.execute(
          sql: "UPDATE queuedAction SET before = ?, after = ? WHERE id = ?",
          arguments: [try json(before), try json(fields), row["id"] as Int64])
      }
      if fields != start { try write(fields, to: number, db) }
    }
  }

  /// What the issue's last waiting action left shown, if it has any.
  private static func lastShown(onIssue number: Int, _ db: Database) throws -> EditableFields? {
    let after = try String.fetchOne(
      db,
      sql: """
        SELECT after FROM queuedAction WHERE issueNumber = ?
        AND status IN ('pending', 'sending', 'conflict') ORDER BY id DESC LIMIT 1
        """, arguments: [number])
    return after.flatMap { try? decode(EditableFields.self, $0) }
  }

  static func queuedActions(
    where condition: String, _ arguments: StatementArguments, _ db: Database
  ) throws -> [QueuedAction] {
    // One decoder for every row: making one per row cost more than the decoding.
    let decoder = JSONDecoder()
    return try Row.fetchAll(
      db,
      sql: """
        SELECT * FROM (
          SELECT queuedAction.id, issueKey, coalesce(issue.number, issueNumber) AS issueNumber,
            operation, status, statusDate, conflict, queuedAt, attempts, lastError, forced
          FROM queuedAction LEFT JOIN issue ON issue.key = queuedAction.issueKey)
        WHERE \(condition) ORDER BY id
        """, arguments: arguments
    ).compactMap { row in
      // An action this version cannot read is left alone (a newer version queued it).
      guard
        let operation = try? decode(
          QueuedAction.Operation.self, row["operation"] as String, with: decoder)
      else { return nil }
      return QueuedAction(
        id: row["id"], issueKey: row["issueKey"], issueNumber: row["issueNumber"],
        operation: operation, status: OutboxLedger.status(of: row),
        queuedAt: row["queuedAt"], attempts: row["attempts"], lastError: row["lastError"],
        isForced: row["forced"])
    }
  }

  static func json<T: Encodable>(_ value: T, with encoder: JSONEncoder = JSONEncoder())
    throws -> String
  {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decode<T: Decodable>(
    _ type: T.Type, _ text: String, with decoder: JSONDecoder = JSONDecoder()
  ) throws -> T {
    try decoder.decode(type, from: Data(text.utf8))
  }
}

/// What an action's first send recorded for its landed check.
struct LandedCheckMarks {
  /// The token's login then: what landed is by it.
  var viewer: String?
  /// The newest comment id known right before the first send.
  var knownCommentID: Int64?
  /// The newest close or reopen event of the issue right before the first send.
  var knownEventID: Int64?
  /// A create: the highest number GitHub had given right before the first send.
  var knownIssueNumber: Int?
  /// A review: the newest review of the pull request right before the first send.
  var knownReviewID: Int64?
}

/// Why a queue operation could not be done.
package enum QueueError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The issue is not cached: sync or fetch it first.
  case notCached(Int)
  /// No waiting action has this identifier.
  case notQueued(Int64)
  /// The action was sent without an answer: it may be on GitHub already.
  case mayHaveLanded(Int64)
  /// The new issue was sent without an answer: it may be filed already, as sent.
  case sentAsItWas(Int64)

  package var description: String {
    switch self {
    case .notCached(let number): "#\(number) is not in the cache: sync or fetch it first"
    case .notQueued(let id): "no queued action \(id) is waiting"
    case .mayHaveLanded(let id):
      "action \(id) was sent without an answer and may be on GitHub already: it is checked "
        + "there before anything is sent again, and cannot be cancelled"
    case .sentAsItWas(let id):
      "the new issue (action \(id)) was sent without an answer and may be filed already: it is "
        + "checked on GitHub before anything is sent again, and can no longer be changed"
    }
  }
}
