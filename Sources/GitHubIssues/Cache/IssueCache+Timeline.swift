import Foundation
import GRDB

/// A timeline event as the cache keeps it: who, when, and what, said.
package struct CachedTimelineEvent: Hashable, Sendable {
  /// Who did it.
  package var actor: String
  /// When, when GitHub said.
  package var createdAt: Date?
  /// What, as ``GitHubTimelineEvent/sentence``.
  package var sentence: String

  /// Creates one.
  package init(actor: String, createdAt: Date?, sentence: String) {
    self.actor = actor
    self.createdAt = createdAt
    self.sentence = sentence
  }
}

extension IssueCache {
  /// The cached timeline events of an issue, in GitHub's order.
  package func timeline(of number: Int) throws -> [CachedTimelineEvent] {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT actor, createdAt, sentence FROM timelineEvent WHERE issueNumber = ?
          ORDER BY position
          """, arguments: [number]
      ).map {
        CachedTimelineEvent(
          actor: $0["actor"], createdAt: $0["createdAt"], sentence: $0["sentence"])
      }
    }
  }

  /// Replaces an issue's timeline with a complete listing's events (those a reader shows, and a
  /// pull request's reviews), in one transaction.
  ///
  /// With `completeAsOf` (the issue's `updated_at` when the listing began), the timeline is
  /// current until the issue changes again.
  package func replaceTimeline(
    of number: Int, with events: [GitHubTimelineEvent], completeAsOf issueUpdatedAt: Date? = nil
  ) throws {
    try writer.write { db in
      try Self.replaceTimeline(of: number, with: events, db)
      if let issueUpdatedAt {
        try Self.recordListing("timelineListing", of: number, issueUpdatedAt, db)
      }
    }
  }

  /// Records that a listing of an issue's comments or timeline (`table`) was complete as of
  /// the issue's `updated_at`.
  static func recordListing(
    _ table: String, of number: Int, _ issueUpdatedAt: Date, _ db: Database
  ) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO \(table)(issueNumber, issueUpdatedAt) VALUES (?, ?)
        ON CONFLICT(issueNumber) DO UPDATE SET issueUpdatedAt = excluded.issueUpdatedAt
        """
    ).execute(arguments: [number, GitHubDate.databaseText(issueUpdatedAt)])
  }

  static func replaceTimeline(
    of number: Int, with events: [GitHubTimelineEvent], _ db: Database
  ) throws {
    try db.cachedStatement(sql: "DELETE FROM timelineEvent WHERE issueNumber = ?")
      .execute(arguments: [number])
    try replaceReviews(
      of: number,
      with: events.compactMap {
        if case .reviewed(let review) = $0.kind { return review }
        return nil
      }, db)
    let insert = try db.cachedStatement(
      sql: """
        INSERT INTO timelineEvent(issueNumber, position, actor, createdAt, sentence)
        VALUES (?, ?, ?, ?, ?)
        """)
    for (position, event) in events.filter(\.isShown).enumerated() {
      try insert.execute(arguments: [
        // Dates as GRDB stores them, formatted without its `DateFormatter`.
        number, position, storable(event.actor.login), event.createdAt.map(GitHubDate.databaseText),
        storable(event.sentence),
      ])
    }
  }
}
