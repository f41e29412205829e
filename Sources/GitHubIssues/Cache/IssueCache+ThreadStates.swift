import Foundation
import GRDB

// Whether each review thread is resolved, as GitHub last said (GraphQL: REST does not know), by
// the thread's first comment — with the resolutions waiting in the outbox shown on top.

extension IssueCache {
  /// Keeps pull request `number`'s threads' states from a complete read: every thread read is
  /// written, and a thread no longer listed is forgotten.
  package func keepThreadStates(_ threads: [ReviewThreadState], ofPullRequest number: Int)
    throws
  {
    try writer.write { db in
      try db.execute(
        sql: "DELETE FROM reviewThreadState WHERE pullRequest = ?", arguments: [number])
      for thread in threads {
        guard let first = thread.firstCommentID else { continue }
        try Self.keepThreadState(first, resolved: thread.isResolved, of: number, db)
      }
    }
  }

  /// Keeps one thread's state: what a resolution that landed made it.
  static func keepThreadState(
    _ firstCommentID: Int64, resolved: Bool, of number: Int, _ db: Database
  ) throws {
    try db.execute(
      sql: """
        INSERT INTO reviewThreadState(pullRequest, firstCommentID, isResolved) VALUES (?, ?, ?)
        ON CONFLICT(pullRequest, firstCommentID) DO UPDATE SET isResolved = excluded.isResolved
        """, arguments: [number, firstCommentID, resolved])
  }

  /// Marks a resolution landed and keeps the thread's state it made, in one transaction.
  func markResolutionDone(
    _ id: Int64, _ resolution: ThreadResolution, onPullRequest number: Int, now: Date
  ) throws {
    try writer.write { db in
      try Self.actionLedger.markDone(id, now: now, db)
      try Self.keepThreadState(
        resolution.commentID, resolved: resolution.change.resolves, of: number, db)
    }
  }

  /// The first comments of pull request `number`'s resolved threads: as GitHub last said, with
  /// the resolutions waiting in the queue applied in order (shown before they are sent).
  package func resolvedThreads(of number: Int) throws -> Set<Int64> {
    Set(try threadStates(of: number).filter(\.value).keys)
  }

  /// Whether each of pull request `number`'s threads is resolved, by first comment.
  ///
  /// Only threads whose state is known are there: read from GitHub, or set by a resolution
  /// waiting in the queue (applied in order over what was read). A thread missing was never
  /// read.
  package func threadStates(of number: Int) throws -> [Int64: Bool] {
    try writer.read { db in
      var states: [Int64: Bool] = [:]
      for row in try Row.fetchAll(
        db,
        sql: "SELECT firstCommentID, isResolved FROM reviewThreadState WHERE pullRequest = ?",
        arguments: [number])
      {
        states[row["firstCommentID"]] = row["isResolved"]
      }
      let waiting = try Self.queuedActions(
        where: "issueNumber = ? AND status IN ('pending', 'sending', 'conflict')", [number], db)
      for action in waiting {
        guard case .resolveThread(let resolution) = action.operation else { continue }
        states[resolution.commentID] = resolution.change.resolves
      }
      return states
    }
  }

  /// Migration v21: review threads' states.
  static func addThreadStates(_ db: Database) throws {
    try db.create(table: "reviewThreadState") { t in
      t.column("pullRequest", .integer).notNull()
      t.column("firstCommentID", .integer).notNull()
      t.column("isResolved", .boolean).notNull()
      t.primaryKey(["pullRequest", "firstCommentID"])
    }
  }
}
