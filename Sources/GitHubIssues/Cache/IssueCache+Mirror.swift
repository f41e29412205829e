import Foundation
import GRDB

/// An issue's conversation as the mirror fetched it: its comments and the events a reader shows,
/// complete as of the issue's `updated_at`.
package struct MirroredConversation: Sendable {
  /// The issue.
  package var number: Int
  /// The issue's `updated_at` when the listing began: the conversation is current until it
  /// changes.
  package var issueUpdatedAt: Date
  /// Every comment, oldest first.
  package var comments: [GitHubComment]
  /// Every event a reader shows, in GitHub's order.
  package var events: [GitHubTimelineEvent]
  /// Cached comments missing from ``comments`` that GitHub confirmed are gone.
  package var confirmedGone: [Int64] = []
}

/// How far a mirror's listing got: a mirror cut off resumes at its phase, without listing again
/// what an earlier phase listed to its end.
package enum MirrorListingPhase: Int, Sendable {
  /// Listing issues (from the full listing's mark).
  case issues = 0
  /// Listing pull requests (from the cursor stored with the last page written).
  case pullRequests = 1
  /// Both listed: sub-issue lists, conversations and the check of unlisted items are left.
  case listed = 2
}

/// How much of a mirror can be read offline.
package struct MirrorCoverage: Hashable, Sendable {
  /// Whether `sync --all` made this cache a mirror.
  package var isMirror: Bool
  /// Issues (not pull requests) in the cache.
  package var issues: Int
  /// Issues whose comments and timeline are both complete as of their last change.
  package var completeConversations: Int
  /// GraphQL points every mirror sync of this cache has spent.
  package var pointsSpent: Int
}

extension IssueCache {
  /// Writes a page of a mirror in one transaction: the items (recorded as seen by a pending full
  /// listing, moving the marks when `advancingMarks`), their node ids and types, the
  /// conversations that are complete, and the sub-issue lists fetched with them.
  ///
  /// A complete conversation replaces the issue's comments (deleting only cached ones in its
  /// ``MirroredConversation/confirmedGone``) and timeline, and makes both current as of its
  /// ``MirroredConversation/issueUpdatedAt``.
  ///
  /// A page of pull requests passes the cursor after it (`pullRequestCursor`), stored with the
  /// page for a pending full listing to resume from. A page of issues inside a walk through
  /// one second passes where that walk stands (`issueResumePoint`); a page that moves the marks
  /// outside a walk clears it.
  package func writeMirrorPage(
    _ issues: [GitHubIssue], seenIDs: [Int64] = [], advancingMarks: Bool,
    conversations: [MirroredConversation] = [], parentsToFetch: [Int] = [],
    pullRequestCursor: String? = nil, issueResumePoint: ListingResumePoint? = nil
  ) throws {
    let resumeJSON = try issueResumePoint.map {
      String(decoding: try JSONEncoder().encode($0), as: UTF8.self)
    }
    try writer.write { db in
      if resumeJSON != nil || advancingMarks && pullRequestCursor == nil {
        try db.execute(
          sql:
            "UPDATE syncState SET mirrorIssueResumePoint = ? WHERE id = 1 AND fullListingPending",
          arguments: [resumeJSON])
      }
      if let pullRequestCursor {
        try db.execute(
          sql:
            "UPDATE syncState SET mirrorPullRequestCursor = ? WHERE id = 1 AND fullListingPending",
          arguments: [pullRequestCursor])
      }
      let recording =
        try Bool.fetchOne(db, sql: "SELECT fullListingPending FROM syncState WHERE id = 1") ?? false
      try Self.writeIssues(issues, recordingSeen: recording, advancingMarks: advancingMarks, db)
      // A version already cached is not written again, but its node id and type may be new.
      let identity = try db.cachedStatement(
        sql: "UPDATE issue SET nodeId = coalesce(?, nodeId), issueType = ? WHERE githubId = ?")
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
      for parent in parentsToFetch {
        try db.execute(
          sql: "INSERT OR IGNORE INTO mirrorSubIssuesPending(parentNumber) VALUES (?)",
          arguments: [parent])
      }
    }
  }

  /// Writes complete conversations, each in the same transaction as the others.
  package func writeConversations(_ conversations: [MirroredConversation]) throws {
    guard !conversations.isEmpty else { return }
    try writer.write { db in
      for conversation in conversations { try Self.write(conversation, db) }
    }
  }

  /// Writes the sub-issue lists of parents, and takes the parents in `done` (those written and
  /// those that could not be read) off the list of ``pendingSubIssueParents(limit:)``.
  package func writeSubIssueLists(_ lists: [(parent: Int, children: [Int])], done: [Int]) throws {
    try writer.write { db in
      for (parent, children) in lists { try Self.replaceSubIssues(of: parent, with: children, db) }
      for parent in done {
        try db.execute(
          sql: "DELETE FROM mirrorSubIssuesPending WHERE parentNumber = ?", arguments: [parent])
      }
    }
  }

  /// Parents a mirror listed whose sub-issue lists are still to be fetched, lowest first.
  package func pendingSubIssueParents(limit: Int = .max) throws -> [Int] {
    try writer.read { db in
      try Int.fetchAll(
        db, sql: "SELECT parentNumber FROM mirrorSubIssuesPending ORDER BY parentNumber LIMIT ?",
        arguments: [min(limit, Int(Int32.max))])
    }
  }

  /// How far a pending mirror's listing got, or ``MirrorListingPhase/issues`` when no full
  /// listing is pending.
  package func mirrorListingPhase() throws -> MirrorListingPhase {
    try writer.read { db in
      let value = try Int.fetchOne(
        db, sql: "SELECT mirrorPhase FROM syncState WHERE id = 1 AND fullListingPending")
      return value.flatMap(MirrorListingPhase.init(rawValue:)) ?? .issues
    }
  }

  /// Records how far a pending mirror's listing got.
  package func recordMirrorListingPhase(_ phase: MirrorListingPhase) throws {
    try writer.write { db in
      try db.execute(
        sql: "UPDATE syncState SET mirrorPhase = ? WHERE id = 1 AND fullListingPending",
        arguments: [phase.rawValue])
    }
  }

  static func write(_ conversation: MirroredConversation, _ db: Database) throws {
    let number = conversation.number
    // The issue may have been deleted (or renumbered) since it was listed. Statements are
    // cached: a mirror writes a hundred thousand conversations.
    let exists = try db.cachedStatement(
      sql: "SELECT 1 FROM issue WHERE number = ? AND isPullRequest = 0")
    guard try Bool.fetchOne(exists, arguments: [number]) ?? false else { return }
    for comment in conversation.comments { try insert(comment, on: number, db) }
    let kept = Set(conversation.comments.map(\.id))
    for id in conversation.confirmedGone where !kept.contains(id) {
      try db.cachedStatement(sql: "DELETE FROM comment WHERE id = ? AND issueNumber = ?")
        .execute(arguments: [id, number])
    }
    try db.cachedStatement(sql: "UPDATE issue SET comments = ? WHERE number = ?")
      .execute(arguments: [conversation.comments.count, number])
    try replaceTimeline(of: number, with: conversation.events, db)
    for table in ["commentListing", "timelineListing"] {
      try recordListing(table, of: number, conversation.issueUpdatedAt, db)
    }
  }

  /// Issues whose conversation is not complete as of their cached `updated_at`, lowest number
  /// first: what a mirror sync fetches after its listing (not issues waiting to be filed).
  package func incompleteConversations(limit: Int = .max) throws -> [(number: Int, updatedAt: Date)]
  {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT number, updatedAt FROM issue
          WHERE isPullRequest = 0 AND githubId IS NOT NULL AND NOT (\(Self.conversationIsCurrent))
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
  package func cachedCommentIdentities(of numbers: [Int]) throws -> [Int: [(
    id: Int64, nodeId: String?
  )]] {
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

  /// Where a pending mirror's pull-request listing stands: the cursor after the last page
  /// written, or `nil` to list them from the start.
  package func mirrorPullRequestCursor() throws -> String? {
    try writer.read { db in
      try String.fetchOne(
        db, sql: "SELECT mirrorPullRequestCursor FROM syncState WHERE id = 1 AND fullListingPending"
      )
    }
  }

  /// Where a pending mirror's issue listing stands inside a walk through one second, or `nil`
  /// (none, or one that can no longer be read) to go on from the marks.
  package func mirrorIssueResumePoint() throws -> ListingResumePoint? {
    let json = try writer.read { db in
      try String.fetchOne(
        db, sql: "SELECT mirrorIssueResumePoint FROM syncState WHERE id = 1 AND fullListingPending")
    }
    return json.flatMap { try? JSONDecoder().decode(ListingResumePoint.self, from: Data($0.utf8)) }
  }

  /// How many issues (not pull requests) the cache holds updated at or after `since` (all of
  /// them with `nil`): what GitHub's `totalCount` of the same filter is compared with.
  ///
  /// Issues not filed yet (no GitHub id) are not GitHub's, and are not counted.
  package func issueCount(updatedSince since: Date?) throws -> Int {
    try writer.read { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM issue
          WHERE NOT isPullRequest AND updatedAt >= ? AND githubId IS NOT NULL
          """,
        arguments: [since ?? .distantPast]) ?? 0
    }
  }

  /// Every distinct `updatedAt` of the cached issues (not pull requests), oldest first.
  package func issueUpdateTimes() throws -> [Date] {
    try writer.read { db in
      try Date.fetchAll(
        db,
        sql: """
          SELECT DISTINCT updatedAt FROM issue
          WHERE NOT isPullRequest AND githubId IS NOT NULL ORDER BY updatedAt
          """)
    }
  }

  /// The cached issues (not pull requests) last updated at exactly `updatedAt`.
  public func issues(updatedAt: Date) throws -> [(id: Int64, number: Int)] {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT githubId, number FROM issue
          WHERE NOT isPullRequest AND updatedAt = ? AND githubId IS NOT NULL
          """,
        arguments: [updatedAt]
      ).map { (id: $0["githubId"], number: $0["number"]) }
    }
  }

  /// The cached pull requests GitHub gave an id, by number: what its count of pull requests is
  /// compared with.
  package func cachedPullRequests() throws -> [(id: Int64, number: Int)] {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT githubId, number FROM issue
          WHERE isPullRequest AND githubId IS NOT NULL ORDER BY number
          """
      ).map { (id: $0["githubId"], number: $0["number"]) }
    }
  }

  /// Deletes the items GitHub confirmed gone, one by one.
  ///
  /// Each was answered `404` or `410`, or found in another repository, outside a full listing:
  /// what a mirror's later sync finds by GitHub's counts. Nothing else is deleted.
  ///
  /// - Returns: How many were deleted.
  @discardableResult
  package func deleteGone(_ ids: [Int64]) throws -> Int {
    try writer.write { db in
      var deleted = 0
      for id in ids {
        try db.execute(sql: "DELETE FROM issue WHERE githubId = ?", arguments: [id])
        deleted += db.changesCount
      }
      return deleted
    }
  }

  /// Takes items out of a pending full listing's seen set: items it listed that GitHub has
  /// since deleted, so that ``finishListing(complete:syncedAt:highWaterMark:confirmedGone:)``
  /// deletes them with the unlisted ones.
  package func forgetSeen(_ ids: [Int64]) throws {
    try writer.write { db in
      for id in ids {
        try db.execute(sql: "DELETE FROM fullListingSeen WHERE id = ?", arguments: [id])
      }
    }
  }

  /// Marks the cache as a mirror and adds the points a mirror sync spent.
  package func recordMirror(pointsSpent: Int, isMirror: Bool) throws {
    try writer.write { db in
      try db.execute(
        sql: """
          INSERT INTO syncState(id, isMirror, mirrorPoints) VALUES (1, ?, ?)
          ON CONFLICT(id) DO UPDATE SET isMirror = max(isMirror, excluded.isMirror),
            mirrorPoints = mirrorPoints + excluded.mirrorPoints
          """, arguments: [isMirror, pointsSpent])
    }
  }

  /// Whether `sync --all` made this cache a mirror.
  ///
  /// A plain sync of a mirror fetches changed conversations too. One row is read, where
  /// ``mirrorCoverage()`` counts every issue.
  package func isMirror() throws -> Bool {
    try writer.read { db in
      try Bool.fetchOne(db, sql: "SELECT isMirror FROM syncState WHERE id = 1") ?? false
    }
  }

  /// How much of the cache can be read offline.
  package func mirrorCoverage() throws -> MirrorCoverage {
    try writer.read { db in
      let row = try Row.fetchOne(
        db, sql: "SELECT isMirror, mirrorPoints FROM syncState WHERE id = 1")
      let issues =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM issue WHERE isPullRequest = 0 AND githubId IS NOT NULL")
        ?? 0
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
