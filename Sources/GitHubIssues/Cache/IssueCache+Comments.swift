import Foundation
import GRDB

// An issue's comments, kept for reading offline.

extension IssueCache {
  /// The comments on an issue, oldest first: all of them, or `limit` from the `offset`th.
  ///
  /// - Complexity: An index range scan of the comments returned (and skipped).
  public func comments(of number: Int, offset: Int = 0, limit: Int? = nil) throws
    -> [CachedComment]
  {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT id, issueNumber, author, body, createdAt, updatedAt, htmlURL, authorAssociation,
            reactions, nodeId, authorNodeId, authorIsBot
          FROM comment WHERE issueNumber = ? ORDER BY createdAt, id LIMIT ? OFFSET ?
          """, arguments: [number, limit ?? -1, max(0, offset)]
      ).map { row in
        CachedComment(
          id: row["id"], issueNumber: row["issueNumber"], author: row["author"],
          body: Self.restored(row["body"]), createdAt: row["createdAt"],
          updatedAt: row["updatedAt"],
          htmlURL: row["htmlURL"], authorAssociation: row["authorAssociation"],
          reactions: Self.reactions(from: row["reactions"]), nodeID: row["nodeId"],
          authorNodeID: row["authorNodeId"], authorIsBot: row["authorIsBot"])
      }
    }
  }

  /// How many comments on an issue the cache holds.
  package func commentCount(of number: Int) throws -> Int {
    try writer.read { db in
      try Int.fetchOne(
        db, sql: "SELECT count(*) FROM comment WHERE issueNumber = ?", arguments: [number]) ?? 0
    }
  }

  /// Whether the cached comments of an issue are all of them as of the issue's cached
  /// `updated_at`: listed completely since it last changed (a new comment changes it).
  package func commentsAreCurrent(of number: Int) throws -> Bool {
    try writer.read { db in
      try Bool.fetchOne(
        db,
        sql: """
          SELECT listing.issueUpdatedAt >= issue.updatedAt FROM commentListing AS listing
          JOIN issue ON issue.number = listing.issueNumber WHERE listing.issueNumber = ?
          """, arguments: [number]) ?? false
    }
  }

  /// The identifiers of an issue's cached comments.
  package func commentIDs(of number: Int) throws -> [Int64] {
    try writer.read { db in
      try Int64.fetchAll(
        db, sql: "SELECT id FROM comment WHERE issueNumber = ? ORDER BY id", arguments: [number])
    }
  }

  /// Stores comments listed from GitHub for an issue, in one transaction.
  ///
  /// With `completeAsOf` (the listing is proved complete, and the issue's `updated_at` was this
  /// when it started), the issue's comments are current until the issue changes again, and the
  /// comments of `confirmedGone` (each answered `404` on its own) missing from the list are
  /// deleted; without it, nothing is deleted.
  public func writeComments(
    _ comments: [GitHubComment], of number: Int, completeAsOf issueUpdatedAt: Date?,
    confirmedGone: [Int64] = []
  ) throws {
    try writer.write { db in
      for comment in comments { try Self.insert(comment, on: number, db) }
      guard let issueUpdatedAt else { return }
      let kept = Set(comments.map(\.id))
      for id in confirmedGone where !kept.contains(id) {
        try db.execute(
          sql: "DELETE FROM comment WHERE id = ? AND issueNumber = ?", arguments: [id, number])
      }
      try db.execute(
        sql: """
          INSERT INTO commentListing(issueNumber, issueUpdatedAt) VALUES (?, ?)
          ON CONFLICT(issueNumber) DO UPDATE SET issueUpdatedAt = excluded.issueUpdatedAt
          """, arguments: [number, issueUpdatedAt])
    }
  }

  /// Caches a comment GitHub returned when it was posted, and counts it on its issue, in one
  /// transaction.
  ///
  /// Whether the issue's comments are current does not change: if they were complete, they
  /// are with this one.
  package func addPostedComment(_ comment: GitHubComment, to number: Int) throws {
    try writer.write { db in try Self.addPostedComment(comment, to: number, db) }
  }

  static func addPostedComment(_ comment: GitHubComment, to number: Int, _ db: Database) throws {
    let known =
      try Bool.fetchOne(db, sql: "SELECT 1 FROM comment WHERE id = ?", arguments: [comment.id])
      ?? false
    try insert(comment, on: number, db)
    guard !known else { return }
    try db.execute(
      sql: """
        UPDATE issue SET comments = comments + 1, localRevision = localRevision + 1
        WHERE number = ?
        """, arguments: [number])
  }

  static func insert(_ comment: GitHubComment, on number: Int, _ db: Database) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO comment(id, issueNumber, author, body, createdAt, updatedAt, htmlURL,
          authorAssociation, reactions, nodeId, authorNodeId, authorIsBot)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET issueNumber = excluded.issueNumber,
          author = excluded.author, body = excluded.body, createdAt = excluded.createdAt,
          updatedAt = excluded.updatedAt, htmlURL = excluded.htmlURL,
          authorAssociation = excluded.authorAssociation, reactions = excluded.reactions,
          nodeId = excluded.nodeId, authorNodeId = excluded.authorNodeId,
          authorIsBot = excluded.authorIsBot
        """
    ).execute(arguments: [
      comment.id, number, Self.storable(comment.user.login), Self.storable(comment.body),
      GitHubDate.databaseText(comment.createdAt), GitHubDate.databaseText(comment.updatedAt),
      comment.htmlURL, comment.authorAssociation,
      Self.reactionsText(comment.reactions), comment.nodeID, comment.user.nodeID,
      comment.user.isBot,
    ])
  }

  /// Reactions as stored: `content=count` pairs joined by `,`, in GitHub's order.
  static func reactionsText(_ reactions: [String: Int]) -> String {
    GitHubComment.reactionContents.compactMap { content in
      reactions[content].flatMap { $0 > 0 ? "\(content)=\($0)" : nil }
    }.joined(separator: ",")
  }

  /// Reactions read back; anything that is not a known content with a positive count is skipped.
  static func reactions(from text: String) -> [(content: String, count: Int)] {
    text.split(separator: ",").compactMap { pair in
      let parts = pair.split(separator: "=")
      guard parts.count == 2, GitHubComment.reactionContents.contains(String(parts[0])),
        let count = Int(parts[1]), count > 0
      else { return nil }
      return (String(parts[0]), count)
    }
  }
}

// The repository's comments, listed together (`issues sync --comments`).

extension IssueCache {
  /// The latest `updated_at` of the repository's comments listed so far, if a listing ran.
  package func commentMark() throws -> Date? {
    try writer.read { db in
      try Date.fetchOne(db, sql: "SELECT commentMark FROM syncState WHERE id = 1")
    }
  }

  /// How many comments the cached issues announce in all: what a full listing may bring.
  package func announcedCommentCount() throws -> Int {
    try writer.read { db in
      try Int.fetchOne(db, sql: "SELECT coalesce(sum(max(comments, 0)), 0) FROM issue") ?? 0
    }
  }

  /// Writes one page of the repository's comments in one transaction, each on the issue its
  /// `issue_url` names (comments that name none are skipped), and with `advancingMark` (the
  /// listing kept `updated_at` order so far) moves the comment mark to the page's latest
  /// `updated_at`.
  ///
  /// - Returns: How many comments were written.
  @discardableResult
  package func writeRepositoryComments(
    _ comments: [GitHubComment], advancingMark: Bool = true
  ) throws -> Int {
    try writer.write { db in
      var written = 0
      var latest: Date?
      for comment in comments {
        guard let number = comment.issueNumber else { continue }
        try Self.insert(comment, on: number, db)
        written += 1
        if latest.map({ comment.updatedAt > $0 }) ?? true { latest = comment.updatedAt }
      }
      if advancingMark, let latest {
        try db.execute(
          sql: """
            INSERT INTO syncState(id, commentMark) VALUES (1, ?)
            ON CONFLICT(id) DO UPDATE SET
              commentMark = max(coalesce(commentMark, excluded.commentMark), excluded.commentMark)
            """, arguments: [latest])
      }
      return written
    }
  }

  /// The identifiers of cached comments that are not in `seen`: what a full listing did not
  /// list, each to be asked for on its own before it is deleted.
  package func unlistedComments(seen: Set<Int64>) throws -> [Int64] {
    try writer.read { db in
      try Int64.fetchAll(db, sql: "SELECT id FROM comment ORDER BY id").filter {
        !seen.contains($0)
      }
    }
  }

  /// Finishes a complete listing of the repository's comments, in one transaction: the comments
  /// of `confirmedGone` (each answered `404` on its own) that are not in `seen` are deleted, and
  /// every cached issue's comments are current as of its cached `updated_at`.
  ///
  /// - Returns: How many comments were deleted.
  @discardableResult
  package func finishCompleteCommentListing(seen: Set<Int64>, confirmedGone: [Int64]) throws -> Int
  {
    try writer.write { db in
      var deleted = 0
      for id in confirmedGone where !seen.contains(id) {
        try db.execute(sql: "DELETE FROM comment WHERE id = ?", arguments: [id])
        deleted += db.changesCount
      }
      try db.execute(
        sql: """
          INSERT INTO commentListing(issueNumber, issueUpdatedAt)
            SELECT number, updatedAt FROM issue WHERE githubId IS NOT NULL
          ON CONFLICT(issueNumber) DO UPDATE SET issueUpdatedAt = excluded.issueUpdatedAt
          """)
      return deleted
    }
  }
}
