import Foundation
import GRDB

// The draft store: what a person wrote that GitHub does not have, kept until it goes to the
// outbox — and given back, in the same transaction, whenever the outbox lets it go without
// GitHub having it. The queue holds the words from the moment they are queued until they land;
// this table holds them before and after. Nothing leaves both without the landed check's word.

extension IssueCache {
  /// Saves a draft, in one durable write: the issue's draft of the same kind (the thread's,
  /// for a reply) is replaced.
  ///
  /// - Returns: The draft saved.
  @discardableResult
  package func saveDraft(_ words: Draft.Words, onIssue number: Int, now: Date = Date()) throws
    -> Draft
  {
    try Self.writeDurably(writer) { db in
      try Self.saveDraft(words, onIssue: number, kind: words.kind, now: now, db)
    }
  }

  /// The drafts kept for an issue (0: new issues' drafts), oldest first.
  package func drafts(onIssue number: Int) throws -> [Draft] {
    try writer.read { db in try Self.drafts(where: "issueNumber = ?", [number], db) }
  }

  /// Every draft kept, oldest first.
  package func allDrafts() throws -> [Draft] {
    try writer.read { db in try Self.drafts(where: "1", [], db) }
  }

  /// Drops a draft: it went to the outbox, or the person dropped it.
  package func discardDraft(_ id: Int64) throws {
    try Self.writeDurably(writer) { db in
      try db.execute(sql: "DELETE FROM draft WHERE id = ?", arguments: [id])
    }
  }

  /// Gives a queued action's words back to the drafts.
  ///
  /// It runs in the write that lets the action go without GitHub having it (a cancel, or a
  /// refusal taken back): a comment, a new issue, a
  /// review's summary or a reply become a draft again, and a review's line comments its pull
  /// request's pending review again. A draft the person has started meanwhile is kept: the
  /// words given back are added after it, never over it.
  ///
  /// - Returns: The words given back, or `nil` when the action carries none.
  @discardableResult
  static func giveBackWords(of action: QueuedAction, now: Date, _ db: Database) throws
    -> Draft.Words?
  {
    if case .review(let review) = action.operation, !review.comments.isEmpty {
      // Before the comments drafted since: these were drafted first.
      let commit = review.commitID ?? ""
      for comment in review.comments.reversed() {
        let first = try Int64.fetchOne(db, sql: "SELECT min(id) FROM pendingReviewComment") ?? 1
        try db.execute(
          sql: """
            INSERT INTO pendingReviewComment(id, pullRequest, commitID, comment, draftedAt)
            VALUES (?, ?, ?, ?, ?)
            """,
          arguments: [
            min(first, 1) - 1, action.issueNumber, commit, try json(comment), action.queuedAt,
          ])
      }
    }
    guard var words = Draft.Words(action.operation) else {
      if case .review(let review) = action.operation, !review.comments.isEmpty {
        return .review(verdict: review.verdict, body: review.body)
      }
      return nil
    }
    // New issues' drafts are kept under 0, one per issue given back (several may be refused at
    // once); the rest under their issue's number, a provisional one included (its row's `C`
    // opens it).
    let isNewIssue = if case .newIssue = words { true } else { false }
    let number = isNewIssue ? 0 : action.issueNumber
    let kind = isNewIssue ? "newIssue:\(action.id)" : words.kind
    if let kept = try drafts(where: "issueNumber = ? AND kind = ?", [number, kind], db).first,
      kept.words != words
    {
      words = words.appending(to: kept.words)
    }
    _ = try saveDraft(words, onIssue: number, kind: kind, now: now, db)
    return words
  }

  private static func saveDraft(
    _ words: Draft.Words, onIssue number: Int, kind: String, now: Date, _ db: Database
  ) throws -> Draft {
    try db.execute(
      sql: """
        INSERT INTO draft(issueNumber, kind, words, savedAt) VALUES (?, ?, ?, ?)
        ON CONFLICT(issueNumber, kind) DO UPDATE SET words = excluded.words,
          savedAt = excluded.savedAt
        """, arguments: [number, kind, try json(words), now])
    let id =
      try Int64.fetchOne(
        db, sql: "SELECT id FROM draft WHERE issueNumber = ? AND kind = ?",
        arguments: [number, kind]) ?? db.lastInsertedRowID
    return Draft(id: id, issueNumber: number, words: words, savedAt: now)
  }

  private static func drafts(
    where condition: String, _ arguments: StatementArguments, _ db: Database
  ) throws -> [Draft] {
    let decoder = JSONDecoder()
    return try Row.fetchAll(
      db,
      sql: """
        SELECT id, issueNumber, words, savedAt FROM draft WHERE \(condition) ORDER BY savedAt, id
        """, arguments: arguments
    ).map { row in
      Draft(
        id: row["id"], issueNumber: row["issueNumber"],
        words: try decode(Draft.Words.self, row["words"], with: decoder), savedAt: row["savedAt"])
    }
  }

  /// Migration v22: the draft store, and the pause GitHub's rate limits ask of writes.
  static func addDrafts(_ db: Database) throws {
    // One row: until when GitHub asked writes to wait. No longer read or written: the pause is
    // the host's (`WritePause`), kept beside its repositories' caches.
    try db.create(table: "writePause") { t in
      t.column("id", .integer).primaryKey().check { $0 == 1 }
      t.column("until", .datetime).notNull()
      t.column("detail", .text)
    }
    // One row: the host's GraphQL schema features (JSON of `SchemaFeatures`), and when read.
    try db.create(table: "schemaFeatures") { t in
      t.column("id", .integer).primaryKey().check { $0 == 1 }
      t.column("features", .text).notNull()
      t.column("checkedAt", .datetime).notNull()
    }
    try db.create(table: "draft") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("issueNumber", .integer).notNull()
      // `Draft.Words.kind`: one draft of a kind per issue.
      t.column("kind", .text).notNull()
      // JSON of `Draft.Words`.
      t.column("words", .text).notNull()
      t.column("savedAt", .datetime).notNull()
      t.uniqueKey(["issueNumber", "kind"])
    }
  }
}

// The host's schema features, read once and kept with the cache of each of its repositories.
extension IssueCache {
  /// The host's schema features as last read, if read after `date`.
  package func schemaFeatures(readAfter date: Date) throws -> SchemaFeatures? {
    try writer.read { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT features, checkedAt FROM schemaFeatures WHERE id = 1"),
        let checked: Date = row["checkedAt"], checked > date
      else { return nil }
      return try? Self.decode(SchemaFeatures.self, row["features"])
    }
  }

  /// Keeps the host's schema features, read now.
  package func keepSchemaFeatures(_ features: SchemaFeatures, now: Date = Date()) throws {
    try writer.write { db in
      try db.execute(
        sql: """
          INSERT INTO schemaFeatures(id, features, checkedAt) VALUES (1, ?, ?)
          ON CONFLICT(id) DO UPDATE SET features = excluded.features, checkedAt = excluded.checkedAt
          """, arguments: [try Self.json(features), now])
    }
  }
}

extension Draft.Words {
  /// These words given back after `kept`, a draft of the same kind started meanwhile: both
  /// kept, the earlier first.
  func appending(to kept: Draft.Words) -> Draft.Words {
    func joined(_ earlier: String, _ later: String) -> String {
      if CommentDraft.normalized(earlier).isEmpty { return later }
      if CommentDraft.normalized(later).isEmpty { return earlier }
      return earlier + "\n\n" + later
    }
    switch (kept, self) {
    case (.comment(let earlier), .comment(let later)): return .comment(joined(earlier, later))
    case (.review(_, let earlier), .review(let verdict, let later)):
      return .review(verdict: verdict, body: joined(earlier, later))
    case (.reply(let earlier), .reply(var later)):
      later.body = joined(earlier.body, later.body)
      return .reply(later)
    default: return self
    }
  }
}
