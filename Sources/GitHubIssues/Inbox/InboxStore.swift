import Foundation
import GRDB

/// One host's notification inbox kept on disk: the threads GitHub listed, where polling stands
/// (`Last-Modified`, the poll interval), and the triage taken offline or not yet confirmed, in a
/// durable queue sent in order, each once: its rows go through the same outbox state machine as
/// the repositories' action queue (``OutboxLedger``).
///
/// It lives beside the repositories' caches, one per host:
/// `$XDG_CACHE_HOME/trellis-issues/HOST/inbox.sqlite`.
public final class InboxStore: Sendable {
  let writer: any DatabaseWriter
  /// The database file, or `nil` in memory.
  public let path: String?
  /// The pause GitHub asked of the host's writes, shared with its repositories' caches.
  package let writePause: WritePause

  /// Opens (creating) the inbox at a path.
  public init(path: String) throws {
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    writer = try DatabasePool(path: path, configuration: configuration)
    self.path = path
    writePause = WritePause(forStoreAt: path)
    try Self.migrator.migrate(writer)
  }

  /// An inbox in memory, for tests and the demo.
  public init() throws {
    writer = try DatabaseQueue()
    path = nil
    writePause = WritePause(forStoreAt: nil)
    try Self.migrator.migrate(writer)
  }

  /// Where a host's inbox lives.
  public static func defaultURL(
    host: GitHubHost, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    IssueCache.defaultURL(
      for: RepositoryName(owner: "_", name: "_"), host: host, environment: environment
    ).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("inbox.sqlite")
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: threads, polling, triage") { db in
      try db.create(table: "thread") { t in
        t.column("id", .text).primaryKey()
        t.column("repository", .text).notNull()
        t.column("number", .integer)
        t.column("subjectType", .text).notNull()
        t.column("title", .text).notNull()
        t.column("reason", .text).notNull()
        t.column("unread", .boolean).notNull()
        t.column("updatedAt", .datetime).notNull()
        // Gone from GitHub's listing (done, or read and listed no more), or triaged away here.
        t.column("listed", .boolean).notNull().defaults(to: true)
      }
      try db.create(index: "thread_by_update", on: "thread", columns: ["updatedAt"])
      try db.create(table: "poll") { t in
        t.column("id", .integer).primaryKey()
        t.column("lastModified", .text)
        t.column("pollInterval", .integer).notNull()
        t.column("polledAt", .datetime)
      }
      try db.create(table: "triage") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("threadID", .text).notNull()
        t.column("kind", .text).notNull()
        // pending, sending, done
        t.column("status", .text).notNull()
        t.column("queuedAt", .datetime).notNull()
        t.column("attempts", .integer).notNull().defaults(to: 0)
        t.column("lastError", .text)
      }
    }
    migrator.registerMigration("v2: waiting triage found by its status") { db in
      try db.create(index: "triage_by_status", on: "triage", columns: ["status", "id"])
    }
    migrator.registerMigration("v3: triage on the outbox's state machine") { db in
      // The outbox's columns: when a row was sent or finished, and why GitHub refused it
      // (a refused triage waits in conflict instead of blocking the queue).
      try db.alter(table: "triage") { t in
        t.add(column: "statusDate", .datetime)
        t.add(column: "conflict", .text)
      }
      try db.execute(sql: "UPDATE triage SET statusDate = queuedAt WHERE status = 'done'")
    }
    return migrator
  }

  // MARK: Threads

  /// The threads in the inbox, newest first: those GitHub lists (unread, or read here and not
  /// synced since), less those triaged away here; filtered by reason and repository when given.
  public func threads(reason: String? = nil, repository: RepositoryName? = nil) throws
    -> [InboxThread]
  {
    try writer.read { db in
      var conditions = ["thread.listed = 1"]
      var arguments: [any DatabaseValueConvertible] = []
      if let reason {
        conditions.append("thread.reason = ?")
        arguments.append(reason)
      }
      if let repository {
        conditions.append("thread.repository = ? COLLATE NOCASE")
        arguments.append(repository.description)
      }
      // The latest waiting triage of each thread, read once.
      var pending: [String: GitHubClient.Triage] = [:]
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT threadID, kind FROM triage WHERE status IN ('pending', 'sending') ORDER BY id
          """)
      {
        pending[row[0]] = GitHubClient.Triage(rawValue: row[1])
      }
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT id, repository, number, subjectType, title, reason, unread, updatedAt
          FROM thread WHERE \(conditions.joined(separator: " AND "))
          ORDER BY thread.updatedAt DESC, thread.id DESC
          """, arguments: StatementArguments(arguments))
      var repositories: [String: RepositoryName] = [:]
      return rows.compactMap { row -> InboxThread? in
        let id: String = row[0]
        let waiting = pending[id]
        // Done or unsubscribed here: gone from the list at once.
        if waiting == .done || waiting == .unsubscribe { return nil }
        let text: String = row[1]
        guard let repository = repositories[text] ?? RepositoryName(text) else { return nil }
        repositories[text] = repository
        let unread: Bool = row[6]
        return InboxThread(
          notification: GitHubNotification(
            id: id, unread: waiting == .read ? false : unread, reason: row[5], updatedAt: row[7],
            title: row[4], subjectType: row[3], number: row[2], repository: repository),
          pendingTriage: waiting)
      }
    }
  }

  /// Takes a listing of the inbox: its threads are written.
  ///
  /// With a complete listing, those it no longer has leave the list (read, done or unsubscribed
  /// elsewhere). A `304` writes only the poll's state.
  public func apply(_ listing: GitHubClient.NotificationListing, polledAt: Date) throws {
    try writer.write { db in
      try db.execute(
        sql: """
          INSERT INTO poll(id, lastModified, pollInterval, polledAt) VALUES (1, ?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET lastModified = excluded.lastModified,
            pollInterval = excluded.pollInterval, polledAt = excluded.polledAt
          """, arguments: [listing.lastModified, listing.pollInterval, polledAt])
      guard let threads = listing.threads else { return }
      // Triage finished more than a day ago is history no listing needs.
      try Self.ledger.prune(finishedBefore: polledAt.addingTimeInterval(-86_400), db)
      if listing.isComplete, listing.skipped == 0 {
        try db.execute(sql: "UPDATE thread SET listed = 0")
      }
      for thread in threads {
        try db.execute(
          sql: """
            INSERT INTO thread(id, repository, number, subjectType, title, reason, unread,
              updatedAt, listed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)
            ON CONFLICT(id) DO UPDATE SET repository = excluded.repository,
              number = excluded.number, subjectType = excluded.subjectType,
              title = excluded.title, reason = excluded.reason, unread = excluded.unread,
              updatedAt = excluded.updatedAt, listed = 1
            """,
          arguments: [
            thread.id, thread.repository.description, thread.number, thread.subjectType,
            IssueCache.storable(thread.title), thread.reason, thread.unread, thread.updatedAt,
          ])
      }
    }
  }

  /// Where polling stands: what to send as `If-Modified-Since`, how long GitHub asks to wait,
  /// and when it was last asked.
  package func pollState() throws -> (lastModified: String?, interval: Int, polledAt: Date?) {
    try writer.read { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT * FROM poll WHERE id = 1") else {
        return (nil, 60, nil)
      }
      return (row["lastModified"], row["pollInterval"], row["polledAt"])
    }
  }

  // MARK: Triage

  /// The triage queue's rows go through the one outbox state machine.
  static let ledger = OutboxLedger(table: "triage")

  /// Queues a triage and shows it at once: a thread marked read shows read, one marked done
  /// or unsubscribed leaves the list.
  ///
  /// - Returns: The triage's row in the queue.
  @discardableResult
  public func triage(_ kind: GitHubClient.Triage, thread id: String, now: Date = Date()) throws
    -> Int64
  {
    try IssueCache.writeDurably(writer) { db in
      guard
        try Bool.fetchOne(db, sql: "SELECT 1 FROM thread WHERE id = ?", arguments: [id])
          ?? false
      else { throw InboxError.unknownThread(id) }
      try db.execute(
        sql: "INSERT INTO triage(threadID, kind, status, queuedAt) VALUES (?, ?, 'pending', ?)",
        arguments: [id, kind.rawValue, now])
      return db.lastInsertedRowID
    }
  }

  /// Where a triage stands, as the outbox's ledger says; `nil` when the queue has no such row.
  func state(ofTriage id: Int64) throws -> QueuedAction.Status? {
    try writer.read { db in
      try Row.fetchOne(
        db, sql: "SELECT status, statusDate, conflict, queuedAt FROM triage WHERE id = ?",
        arguments: [id]
      ).map(OutboxLedger.status(of:))
    }
  }

  /// A triage waiting in the queue: what is done to which thread, and where it stands.
  package struct TriageItem: Sendable, Hashable, OutboxRow {
    /// The queue's order.
    package var id: Int64
    /// The thread triaged.
    package var thread: String
    /// What is done to it.
    package var kind: GitHubClient.Triage
    /// Where it stands: pending, or sent without an answer.
    package var status: QueuedAction.Status

    /// Whether it was sent before without an answer: it may have landed.
    package var unanswered: Bool {
      if case .sending = status { return true }
      return false
    }
  }

  /// The triage waiting to reach GitHub, in order.
  package func pendingTriage() throws -> [TriageItem] {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT id, threadID, kind, status, statusDate, conflict, queuedAt FROM triage
          WHERE status IN ('pending', 'sending') ORDER BY id
          """
      ).compactMap { row in
        guard let kind = GitHubClient.Triage(rawValue: row["kind"]) else { return nil }
        return TriageItem(
          id: row["id"], thread: row["threadID"], kind: kind, status: OutboxLedger.status(of: row))
      }
    }
  }

  /// The triage GitHub refused, waiting for the person, with the reason, in order.
  package func refusedTriage() throws -> [(
    id: Int64, thread: String, kind: GitHubClient.Triage, reason: String
  )] {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT id, threadID, kind, conflict FROM triage WHERE status = 'conflict' ORDER BY id"
      ).compactMap { row in
        guard let kind = GitHubClient.Triage(rawValue: row["kind"]) else { return nil }
        return (row["id"], row["threadID"], kind, row["conflict"] ?? "GitHub refused it")
      }
    }
  }

  /// Cancels a triage not sent yet (pending, or refused): the thread shows as before.
  ///
  /// - Throws: ``QueueError/mayHaveLanded(_:)`` for one sent without an answer,
  ///   ``QueueError/notQueued(_:)`` for one that is not waiting.
  package func cancelTriage(_ id: Int64, now: Date = Date()) throws {
    try writer.write { db in try Self.ledger.cancel(id, now: now, db) }
  }

  /// Marks a triage as sent, before its request goes.
  ///
  /// - Returns: `false` when it was cancelled since it was read: it must not be sent.
  func markSending(_ id: Int64, now: Date = Date()) throws -> Bool {
    try IssueCache.writeDurably(writer) { db in try Self.ledger.markSending(id, now: now, db) }
  }

  /// Records a failed send as the outbox reads it.
  func recordFailure(_ failure: OutboxLedger.Failure, of id: Int64, error: GitHubError) throws {
    try writer.write { db in try Self.ledger.record(failure, id, error: error, db) }
  }

  /// Marks a triage as on GitHub and shows its thread so.
  func markDone(_ id: Int64, thread: String, kind: GitHubClient.Triage, now: Date = Date()) throws {
    try writer.write { db in
      try Self.ledger.markDone(id, now: now, db)
      switch kind {
      case .read:
        try db.execute(sql: "UPDATE thread SET unread = 0 WHERE id = ?", arguments: [thread])
      case .done, .unsubscribe:
        try db.execute(sql: "UPDATE thread SET listed = 0 WHERE id = ?", arguments: [thread])
      }
    }
  }

}

/// Why an inbox operation could not be done.
package enum InboxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No thread with this identifier is in the inbox.
  case unknownThread(String)

  package var description: String {
    switch self {
    case .unknownThread(let id): "no thread \(id) in the inbox (poll it first)"
    }
  }
}
