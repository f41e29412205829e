import Foundation
import GRDB

/// An issue's conversation as the mirror fetched it: its comments and the events a reader shows,
/// complete as of the issue's `updated_at`.
public struct MirroredConversation: Sendable {
  /// The issue.
  public var number: Int
  /// The issue's `updated_at` when the listing began: the conversation is current until it
  /// changes.
  public var issueUpdatedAt: Date
  /// Every comment, oldest first.
  public var comments: [GitHubComment]
  /// Every event a reader shows, in GitHub's order.
  public var events: [GitHubTimelineEvent]
  /// Cached comments missing from ``comments`` that GitHub confirmed are gone.
  public var confirmedGone: [Int64] = []
}

/// How much of a mirror can be read offline.
public struct MirrorCoverage: Hashable, Sendable {
  /// Whether `sync --all` made this cache a mirror.
  public var isMirror: Bool
  /// Issues (not pull requests) in the cache.
  public var issues: Int
  /// Issues whose comments and timeline are both complete as of their last change.
  public var completeConversations: Int
  /// GraphQL points every mirror sync of this cache has spent.
  public var pointsSpent: Int
}

extension IssueCache {
  /// Writes a page of a mirror in one transaction: the items (recorded as seen by a pending full
  /// listing, moving the marks when `advancingMarks`), their node ids and types, the
  /// conversations that are complete, and the sub-issue lists fetched with them.
  ///
  /// A complete conversation replaces the issue's comments (deleting only cached ones in its
  /// ``MirroredConversation/confirmedGone``) and timeline, and makes both current as of its
  /// ``MirroredConversation/issueUpdatedAt``.
  public func writeMirrorPage(
    _ issues: [GitHubIssue], seenIDs: [Int64] = [], advancingMarks: Bool,
    conversations: [MirroredConversation] = [], subIssues: [(parent: Int, children: [Int])] = []
  ) throws {
    try writer.write { db in
      let recording =
        try Bool.fetchOne(db, sql: "SELECT fullListingPending FROM syncState WHERE id = 1") ?? false
      try Self.writeIssues(issues, recordingSeen: recording, advancingMarks: advancingMarks, db)
      // A version already cached is not written again, but its node id and type may be new.
      let identity = try db.cachedStatement(
        sql: "UPDATE issue SET nodeId = coalesce(?, nodeId), issueType = ? WHERE id = ?")
      for issue in issues {
        try identity.execute(arguments: [issue.nodeID, issue.issueType, issue.id])
      }
      if recording {
        for id in seenIDs {
          try db.execute(
            sql: "INSERT OR IGNORE INTO fullListingSeen(id) VALUES (?)", arguments: [id])
        }
      }
      for conversation in conversations { try Self.write(conversation, db) }
      for (parent, children) in subIssues {
        try Self.replaceSubIssues(of: parent, with: children, db)
      }
    }
  }

  /// Writes complete conversations, each in the same transaction as the others.
  public func writeConversations(_ conversations: [MirroredConversation]) throws {
    guard !conversations.isEmpty else { return }
    try writer.write { db in
      for conversation in conversations { try Self.write(conversation, db) }
    }
  }

  /// Writes the sub-issue lists of parents.
  public func writeSubIssueLists(_ lists: [(parent: Int, children: [Int])]) throws {
    guard !lists.isEmpty else { return }
    try writer.write { db in
      for (parent, children) in lists { try Self.replaceSubIssues(of: parent, with: children, db) }
    }
  }

  static func write(_ conversation: MirroredConversation, _ db: Database) throws {
    let number = conversation.number
    // The issue may have been deleted (or renumbered) since it was listed.
    guard try Bool.fetchOne(
      db, sql: "SELECT 1 FROM issue WHERE number = ? AND isPullRequest = 0", arguments: [number])
      ?? false
    else { return }
    for comment in conversation.comments { try insert(comment, on: number, db) }
    let kept = Set(conversation.comments.map(\.id))
    for id in conversation.confirmedGone where !kept.contains(id) {
      try db.execute(
        sql: "DELETE FROM comment WHERE id = ? AND issueNumber = ?", arguments: [id, number])
    }
    try db.execute(
      sql: "UPDATE issue SET comments = ? WHERE number = ?",
      arguments: [conversation.comments.count, number])
    try replaceTimeline(of: number, with: conversation.events, db)
    for table in ["commentListing", "timelineListing"] {
      try recordListing(table, of: number, conversation.issueUpdatedAt, db)
    }
  }

  /// Issues whose conversation is not complete as of their cached `updated_at`, lowest number
  /// first: what a mirror sync fetches after its listing.
  public func incompleteConversations(limit: Int = .max) throws -> [(number: Int, updatedAt: Date)]
  {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT number, updatedAt FROM issue
          WHERE isPullRequest = 0 AND NOT (\(Self.conversationIsCurrent))
          ORDER BY number LIMIT ?
          """, arguments: [min(limit, Int(Int32.max))]
      ).map { (number: $0["number"], updatedAt: $0["updatedAt"]) }
    }
  }

  /// SQL: whether `issue`'s comments and timeline were both listed completely since it changed.
  static let conversationIsCurrent = """
    EXISTS (SELECT 1 FROM commentListing AS c WHERE c.issueNumber = issue.number
      AND c.issueUpdatedAt >= issue.updatedAt)
    AND EXISTS (SELECT 1 FROM timelineListing AS t WHERE t.issueNumber = issue.number
      AND t.issueUpdatedAt >= issue.updatedAt)
    """

  /// The cached comments of some issues with their node ids, by issue.
  public func cachedCommentIdentities(of numbers: [Int]) throws -> [Int: [(id: Int64, nodeId: String?)]]
  {
    try writer.read { db in
      var result: [Int: [(id: Int64, nodeId: String?)]] = [:]
      let statement = try db.cachedStatement(
        sql: "SELECT id, nodeId FROM comment WHERE issueNumber = ?")
      for number in numbers {
        let rows = try Row.fetchAll(statement, arguments: [number])
        if !rows.isEmpty { result[number] = rows.map { (id: $0["id"], nodeId: $0["nodeId"]) } }
      }
      return result
    }
  }

  /// Marks the cache as a mirror and adds the points a mirror sync spent.
  public func recordMirror(pointsSpent: Int, isMirror: Bool) throws {
    try writer.write { db in
      try db.execute(
        sql: """
          INSERT INTO syncState(id, isMirror, mirrorPoints) VALUES (1, ?, ?)
          ON CONFLICT(id) DO UPDATE SET isMirror = max(isMirror, excluded.isMirror),
            mirrorPoints = mirrorPoints + excluded.mirrorPoints
          """, arguments: [isMirror, pointsSpent])
    }
  }

  /// How much of the cache can be read offline.
  public func mirrorCoverage() throws -> MirrorCoverage {
    try writer.read { db in
      let row = try Row.fetchOne(
        db, sql: "SELECT isMirror, mirrorPoints FROM syncState WHERE id = 1")
      let issues =
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM issue WHERE isPullRequest = 0") ?? 0
      let complete =
        try Int.fetchOne(
          db,
          sql:
            "SELECT COUNT(*) FROM issue WHERE isPullRequest = 0 AND \(Self.conversationIsCurrent)")
        ?? 0
      return MirrorCoverage(
        isMirror: row?["isMirror"] ?? false, issues: issues, completeConversations: complete,
        pointsSpent: row?["mirrorPoints"] ?? 0)
    }
  }
}
