import Foundation
import GRDB

// A pull request's pending review: line comments drafted on its diff, kept until the review is
// submitted — then they go to the outbox with it, in the same transaction, and leave here.

extension IssueCache {
  /// Drafts a line comment for pull request `number`'s next review, written durably.
  ///
  /// A pending review is of one commit (GitHub's reviews are): drafting on another head while
  /// comments wait on an older one throws ``ReviewDraftError/otherCommit(pending:drafting:)``.
  ///
  /// - Returns: The draft.
  /// - Throws: ``QueueError/notCached(_:)`` when the pull request is not cached; a comment
  ///   longer than GitHub takes (``QueuedAction/Operation/maximumTextLength``).
  @discardableResult
  package func draftLineComment(
    _ comment: DraftLineComment, onPullRequest number: Int, commitID: String, now: Date = Date()
  ) throws -> PendingLineComment {
    if let overlong = OverlongText.check(
      comment.body, as: "The line comment on \(comment.location)")
    {
      throw overlong
    }
    return try Self.writeDurably(writer) { db in
      guard try Self.editableRow(of: number, db) != nil else { throw QueueError.notCached(number) }
      if let pending = try String.fetchOne(
        db, sql: "SELECT commitID FROM pendingReviewComment WHERE pullRequest = ? LIMIT 1",
        arguments: [number]), pending != commitID
      {
        throw ReviewDraftError.otherCommit(pending: pending, drafting: commitID)
      }
      try db.execute(
        sql: """
          INSERT INTO pendingReviewComment(pullRequest, commitID, comment, draftedAt)
          VALUES (?, ?, ?, ?)
          """, arguments: [number, commitID, try Self.json(comment), now])
      return PendingLineComment(
        id: db.lastInsertedRowID, pullRequest: number, commitID: commitID, comment: comment,
        draftedAt: now)
    }
  }

  /// Pull request `number`'s pending review: its drafted line comments, in drafting order.
  package func pendingReview(of number: Int) throws -> [PendingLineComment] {
    try writer.read { db in try Self.pendingReview(of: number, db) }
  }

  /// Every pull request with a pending review, by number.
  package func pullRequestsWithPendingReviews() throws -> [Int] {
    try writer.read { db in
      try Int.fetchAll(
        db, sql: "SELECT DISTINCT pullRequest FROM pendingReviewComment ORDER BY pullRequest")
    }
  }

  /// Drops drafted line comments: those with these identifiers, or (`nil`) the whole pending
  /// review of pull request `number`.
  ///
  /// - Returns: How many were dropped.
  @discardableResult
  package func discardPendingReview(of number: Int, only ids: Set<Int64>? = nil) throws -> Int {
    try Self.writeDurably(writer) { db in
      let before = db.totalChangesCount
      if let ids {
        for id in ids {
          try db.execute(
            sql: "DELETE FROM pendingReviewComment WHERE pullRequest = ? AND id = ?",
            arguments: [number, id])
        }
      } else {
        try db.execute(
          sql: "DELETE FROM pendingReviewComment WHERE pullRequest = ?", arguments: [number])
      }
      return db.totalChangesCount - before
    }
  }

  /// Submits pull request `number`'s review: queues it, with every line comment of its pending
  /// review, and empties the pending review — in one durable transaction, so a crash leaves the
  /// comments either drafted or queued, never both and never neither.
  ///
  /// `draft` is the review's summary kept as a draft, which leaves the drafts in the same
  /// transaction. The review is of the drafts' commit, or of `headSHA` when none is drafted (`nil`: the
  /// pull request's newest, as GitHub takes it). The same
  /// review (verdict and summary, no line comment) already waiting to be sent is returned
  /// instead of queuing a second: running the same command again after a lost answer settles
  /// the first.
  ///
  /// - Returns: The queued action.
  /// - Throws: ``QueueError/notCached(_:)`` when the pull request is not cached.
  package func enqueueReview(
    _ verdict: ReviewSubmission.Verdict, body: String, onPullRequest number: Int,
    headSHA: String?, replacingDraft draft: Int64? = nil, now: Date = Date()
  ) throws -> QueuedAction {
    try Self.writeDurably(writer) { db in
      let drafts = try Self.pendingReview(of: number, db)
      let review = ReviewSubmission(
        verdict: verdict, body: body, commitID: drafts.first?.commitID ?? headSHA,
        comments: drafts.map(\.comment))
      if drafts.isEmpty {
        let wanted = ActionReplayer.normalized(body)
        let waiting = try Self.queuedActions(
          where: "issueNumber = ? AND status IN ('pending', 'sending')", [number], db)
        if let same = waiting.first(where: {
          guard case .review(let queued) = $0.operation else { return false }
          return queued.verdict == verdict && queued.comments.isEmpty
            && ActionReplayer.normalized(queued.body) == wanted
        }) {
          return same
        }
      }
      let action = try Self.enqueue(.review(review), onIssue: number, now: now, db)
      try db.execute(
        sql: "DELETE FROM pendingReviewComment WHERE pullRequest = ?", arguments: [number])
      if let draft { try db.execute(sql: "DELETE FROM draft WHERE id = ?", arguments: [draft]) }
      return action
    }
  }

  /// The review identifiers found or answered for earlier reviews of pull request `number`:
  /// a lost answer is never settled by a review another action made.
  func claimedReviewIDs(onPullRequest number: Int) throws -> Set<Int64> {
    try writer.read { db in
      Set(
        try Int64.fetchAll(
          db,
          sql: """
            SELECT resultReviewID FROM queuedAction
            WHERE issueNumber = ? AND resultReviewID IS NOT NULL
            """, arguments: [number]))
    }
  }

  /// Marks a review action done, with the review GitHub made for it.
  func markReviewed(_ id: Int64, review: Int64, onPullRequest number: Int, now: Date) throws {
    try writer.write { db in
      try Self.actionLedger.markDone(id, now: now, db)
      try db.execute(
        sql: "UPDATE queuedAction SET resultReviewID = ? WHERE id = ?", arguments: [review, id])
      // What a reader shows of the pull request's reviews is read again with its conversation
      // (whether or not GitHub moved the pull request's update time).
      try db.execute(
        sql: "DELETE FROM timelineListing WHERE issueNumber = ?", arguments: [number])
      try db.execute(
        sql: "DELETE FROM etag WHERE url LIKE ? OR url LIKE ?",
        arguments: ["%/pulls/\(number)/%", "%/issues/\(number)/timeline%"])
    }
  }

  private static func pendingReview(of number: Int, _ db: Database) throws -> [PendingLineComment] {
    let decoder = JSONDecoder()
    return try Row.fetchAll(
      db,
      sql: """
        SELECT id, commitID, comment, draftedAt FROM pendingReviewComment
        WHERE pullRequest = ? ORDER BY id
        """, arguments: [number]
    ).map { row in
      PendingLineComment(
        id: row["id"], pullRequest: number, commitID: row["commitID"],
        comment: try decode(DraftLineComment.self, row["comment"], with: decoder),
        draftedAt: row["draftedAt"])
    }
  }

  /// Migration v20: the pending reviews' line comments, and what a review's landed check keeps.
  static func addPendingReviews(_ db: Database) throws {
    try db.create(table: "pendingReviewComment") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("pullRequest", .integer).notNull().indexed()
      t.column("commitID", .text).notNull()
      t.column("comment", .text).notNull()
      t.column("draftedAt", .datetime).notNull()
    }
    try db.alter(table: "queuedAction") { t in
      // A review: the newest review of the pull request right before the first send.
      t.add(column: "knownReviewID", .integer)
      // A review: the review GitHub made of it (answered or found).
      t.add(column: "resultReviewID", .integer)
    }
  }
}

/// Why a line comment could not be drafted.
package enum ReviewDraftError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Comments wait in the pending review on another head commit.
  case otherCommit(pending: String, drafting: String)

  package var description: String {
    switch self {
    case .otherCommit(let pending, let drafting):
      "the pending review is on commit \(pending.prefix(7)) and the pull request's head is now "
        + "\(drafting.prefix(7)): submit or discard it first"
    }
  }
}

// Files marked viewed: per pull request and path, with the head and the content they were
// viewed at — a push that changes the file makes it "changed since viewed".
extension IssueCache {
  /// The files of pull request `number` marked viewed, by path.
  package func viewedFiles(of number: Int) throws -> [String: ViewedFile] {
    try writer.read { db in
      var marks: [String: ViewedFile] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT path, headSHA, content FROM viewedFile WHERE pullRequest = ?",
        arguments: [number])
      {
        let content: Int64 = row["content"]
        marks[row["path"]] = ViewedFile(
          headSHA: row["headSHA"], content: UInt64(bitPattern: content))
      }
      return marks
    }
  }

  /// Marks a file of pull request `number` viewed as it is now, or (`nil`) not viewed.
  package func setViewed(_ mark: ViewedFile?, path: String, of number: Int) throws {
    try writer.write { db in
      if let mark {
        try db.execute(
          sql: """
            INSERT INTO viewedFile(pullRequest, path, headSHA, content) VALUES (?, ?, ?, ?)
            ON CONFLICT(pullRequest, path) DO UPDATE SET
              headSHA = excluded.headSHA, content = excluded.content
            """,
          arguments: [number, path, mark.headSHA, Int64(bitPattern: mark.content)])
      } else {
        try db.execute(
          sql: "DELETE FROM viewedFile WHERE pullRequest = ? AND path = ?",
          arguments: [number, path])
      }
    }
  }

  /// Migration v20's part for the diff screen: files marked viewed.
  static func addViewedFiles(_ db: Database) throws {
    try db.create(table: "viewedFile") { t in
      t.column("pullRequest", .integer).notNull()
      t.column("path", .text).notNull()
      t.column("headSHA", .text).notNull()
      t.column("content", .integer).notNull()
      t.primaryKey(["pullRequest", "path"])
    }
  }
}

/// A file marked viewed: at which head, and a fingerprint of its changes then.
public struct ViewedFile: Hashable, Sendable {
  /// The head commit it was viewed at.
  public var headSHA: String
  /// ``FileDiff/fingerprint`` when it was viewed.
  public var content: UInt64

  /// A mark.
  public init(headSHA: String, content: UInt64) {
    self.headSHA = headSHA
    self.content = content
  }
}

// Replies to threads: what a reply's landed check keeps.
extension IssueCache {
  /// The line comments found or answered for earlier replies on pull request `number`: a lost
  /// answer is never settled by a reply another action made.
  func claimedReplyIDs(onPullRequest number: Int) throws -> Set<Int64> {
    try writer.read { db in
      Set(
        try Int64.fetchAll(
          db,
          sql: """
            SELECT resultCommentID FROM queuedAction
            WHERE issueNumber = ? AND resultCommentID IS NOT NULL AND operation LIKE '{"reply"%'
            """, arguments: [number]))
    }
  }
}
