import Foundation
import GRDB

/// A timeline event as the cache keeps it: who, when, and what, said.
public struct CachedTimelineEvent: Hashable, Sendable {
  /// Who did it.
  public var actor: String
  /// When, when GitHub said.
  public var createdAt: Date?
  /// What, as ``GitHubTimelineEvent/sentence``.
  public var sentence: String

  /// Creates one.
  public init(actor: String, createdAt: Date?, sentence: String) {
    self.actor = actor
    self.createdAt = createdAt
    self.sentence = sentence
  }
}

extension IssueCache {
  /// The cached timeline events of an issue, in GitHub's order.
  public func timeline(of number: Int) throws -> [CachedTimelineEvent] {
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

  /// Replaces an issue's timeline with a complete listing's events (those a reader shows), in
  /// one transaction.
  public func replaceTimeline(of number: Int, with events: [GitHubTimelineEvent]) throws {
    try writer.write { db in
      try db.execute(sql: "DELETE FROM timelineEvent WHERE issueNumber = ?", arguments: [number])
      for (position, event) in events.filter(\.isShown).enumerated() {
        try db.execute(
          sql: """
            INSERT INTO timelineEvent(issueNumber, position, actor, createdAt, sentence)
            VALUES (?, ?, ?, ?, ?)
            """,
          arguments: [
            number, position, Self.storable(event.actor.login), event.createdAt,
            Self.storable(event.sentence),
          ])
      }
    }
  }
}
