import Foundation
import GRDB

/// The life of every write waiting to reach GitHub, whatever it writes and wherever it is kept:
/// the one state machine behind the repository caches' action queue (`queuedAction`) and the
/// inbox's triage queue (`triage`).
///
/// A row is **pending**, then **sending** from the moment before its request leaves (on disk,
/// `synchronous = FULL`: a send it does not know of would be made twice), then **done**; or it
/// waits for the person in **conflict** (GitHub refused it, or changed meanwhile), or was
/// **cancelled** before it left. Each step checks the status it moves from in the same
/// statement, so a cancel racing a send wins exactly when the send has not marked the row yet,
/// and a row cancelled meanwhile is never sent. What a failed request means for the row is
/// decided once, by ``classify(_:refusal:)``.
///
/// The table needs the columns `id`, `status`, `statusDate`, `attempts`, `lastError` and
/// `conflict`; each queue keeps what it sends, and its landed checks, in columns of its own.
struct OutboxLedger: Sendable {
  /// The table the rows are in.
  let table: String

  /// The statuses of a row still waiting to reach GitHub.
  static let waiting = "('pending', 'sending', 'conflict')"

  /// What a failed send means for its row.
  enum Failure: Equatable {
    /// It proves the write did not land (a refused token, a rate limit, a request that never
    /// left this machine): pending again unless an earlier send went unanswered.
    case notLanded
    /// GitHub refused it, or redirected it where it is not sent: in conflict, with the reason.
    case refused(String)
    /// No answer that settles it: it may have landed, and stays marked as sent.
    case unanswered
  }

  /// GitHub's refusal of a write, said for the person, or `nil` when the failure is not one:
  /// what every queue says unless it words a case of its own.
  static func refusal(_ error: GitHubError) -> String? {
    switch error.code {
    case .validation: error.summary()
    case .forbidden: "GitHub refused it: \(error.summary())"
    case .untrustedURL: "GitHub redirected it outside the API root; not sent there"
    case .unexpectedStatus where (300..<400).contains(error.status ?? 0):
      "GitHub redirected it (\(error.summary())); not sent again"
    default: nil
    }
  }

  /// What a failed request means, given the queue's own wording of a refusal (`nil` when the
  /// error is not one for this write).
  static func classify(_ error: GitHubError, refusal: String?) -> Failure {
    if [.unauthorized, .invalidToken, .rateLimited].contains(error.code) || error.neverLeft {
      return .notLanded
    }
    if let refusal { return .refused(refusal) }
    return .unanswered
  }

  /// Where a row stands, read from its `status`, `statusDate`, `conflict` and `queuedAt`
  /// columns: the one reading of the ledger's statuses, for every queue.
  static func status(of row: Row) -> QueuedAction.Status {
    let date: Date = row["statusDate"] ?? row["queuedAt"]
    return switch row["status"] as String {
    case "sending": .sending(since: date)
    case "conflict": .conflict(row["conflict"] ?? "it conflicts with GitHub's version")
    case "done": .done(at: date)
    case "cancelled": .cancelled(at: date)
    default: .pending
    }
  }

  /// Marks a row as sent, before its request goes, setting `extra` columns that are still
  /// unset (what its landed check needs from the first send).
  ///
  /// - Returns: Whether the row was still waiting to be sent, and is now marked; `false` when it
  ///   was cancelled (or put in conflict) since it was read: it must not be sent.
  func markSending(
    _ id: Int64, now: Date,
    keeping extra: [(column: String, value: (any DatabaseValueConvertible)?)] = [],
    _ db: Database
  ) throws -> Bool {
    let kept = extra.map { ", \($0.column) = coalesce(\($0.column), ?)" }.joined()
    try db.execute(
      sql: """
        UPDATE \(table) SET status = 'sending', statusDate = coalesce(
          CASE WHEN status = 'sending' THEN statusDate END, ?), attempts = attempts + 1\(kept)
        WHERE id = ? AND status IN ('pending', 'sending')
        """,
      arguments: StatementArguments(
        [now as any DatabaseValueConvertible] + extra.map(\.value) + [id]))
    return db.changesCount > 0
  }

  /// Marks a row as on GitHub (sent, or found there).
  func markDone(_ id: Int64, now: Date, _ db: Database) throws {
    try db.execute(
      sql: "UPDATE \(table) SET status = 'done', statusDate = ?, lastError = NULL WHERE id = ?",
      arguments: [now, id])
  }

  /// Puts a row in conflict, to wait for the person; one cancelled or done meanwhile stays so.
  func markConflict(_ id: Int64, reason: String, _ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE \(table) SET status = 'conflict', statusDate = NULL, conflict = ?
        WHERE id = ? AND status IN \(Self.waiting)
        """, arguments: [IssueCache.storable(reason), id])
  }

  /// Puts a row back to pending after a failure that proves its send did not land, unless an
  /// earlier send of it went unanswered: that one may have landed, and the mark stays.
  func markPendingAgain(_ id: Int64, reason: String, _ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE \(table) SET lastError = ?,
          status = CASE WHEN attempts <= 1 THEN 'pending' ELSE status END,
          statusDate = CASE WHEN attempts <= 1 THEN NULL ELSE statusDate END
        WHERE id = ? AND status = 'sending'
        """, arguments: [IssueCache.storable(reason), id])
  }

  /// Records why an attempt did not settle a row (it stays as it was).
  func noteFailure(_ id: Int64, _ reason: String, _ db: Database) throws {
    try db.execute(
      sql: "UPDATE \(table) SET lastError = ? WHERE id = ?",
      arguments: [IssueCache.storable(reason), id])
  }

  /// Records a failed send as ``classify(_:refusal:)`` reads it.
  func record(_ failure: Failure, _ id: Int64, error: GitHubError, _ db: Database) throws {
    switch failure {
    case .notLanded: try markPendingAgain(id, reason: error.summary(), db)
    case .refused(let reason): try markConflict(id, reason: reason, db)
    case .unanswered: try noteFailure(id, error.summary(), db)
    }
  }

  /// Sends a row in conflict anyway: pending again.
  ///
  /// - Throws: ``QueueError/notQueued(_:)`` when it is not in conflict.
  func sendAnyway(_ id: Int64, _ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE \(table) SET status = 'pending', statusDate = NULL, conflict = NULL
        WHERE id = ? AND status = 'conflict'
        """, arguments: [id])
    guard db.changesCount > 0 else { throw QueueError.notQueued(id) }
  }

  /// Cancels a row not sent yet (pending, or in conflict).
  ///
  /// - Throws: ``QueueError/mayHaveLanded(_:)`` for a row sent without an answer (it is checked
  ///   on GitHub before anything is sent again, and cannot be taken back),
  ///   ``QueueError/notQueued(_:)`` for one that is not waiting.
  func cancel(_ id: Int64, now: Date, _ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE \(table) SET status = 'cancelled', statusDate = ?
        WHERE id = ? AND status IN ('pending', 'conflict')
        """, arguments: [now, id])
    guard db.changesCount == 0 else { return }
    let status = try String.fetchOne(
      db, sql: "SELECT status FROM \(table) WHERE id = ?", arguments: [id])
    throw status == "sending" ? QueueError.mayHaveLanded(id) : QueueError.notQueued(id)
  }

  /// Whether a row still waits to be sent (pending, or sent without an answer), read now.
  func isWaitingToBeSent(_ id: Int64, _ db: Database) throws -> Bool {
    try Int.fetchOne(
      db, sql: "SELECT 1 FROM \(table) WHERE id = ? AND status IN ('pending', 'sending')",
      arguments: [id]) != nil
  }

  /// Forgets rows finished (done or cancelled) before `date`.
  func prune(finishedBefore date: Date, _ db: Database) throws {
    try db.execute(
      sql: "DELETE FROM \(table) WHERE status IN ('done', 'cancelled') AND statusDate < ?",
      arguments: [date])
  }
}
