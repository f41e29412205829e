import Foundation
import GRDB

extension IssueCache {
  /// Writes a sync's results in one transaction: all of it, or (on any error) none of it.
  ///
  /// - Complexity: O(*n* log *m*), where *n* is the number of issues written and *m* the number
  ///   cached.
  public func apply(_ update: CacheUpdate) throws {
    try writer.write { db in
      if let repository = update.repository {
        try db.execute(sql: "DELETE FROM repository")
        try db.execute(
          sql:
            "INSERT INTO repository(id, fullName, isPrivate, htmlURL, description, openIssuesCount) VALUES (?, ?, ?, ?, ?, ?)",
          arguments: [
            repository.id, repository.fullName, repository.isPrivate, repository.htmlURL,
            repository.description,
            repository.openIssuesCount,
          ])
      }
      if let milestones = update.milestones {
        let kept = Set(milestones.map(\.id))
        let existing = try Int64.fetchAll(db, sql: "SELECT id FROM milestone")
        for id in existing where !kept.contains(id) {
          try db.execute(sql: "DELETE FROM milestone WHERE id = ?", arguments: [id])
        }
        for milestone in milestones { try Self.upsert(milestone, db) }
      }
      if let labels = update.labels {
        try db.execute(sql: "DELETE FROM label")
        for label in labels { try Self.upsert(label, db) }
      }
      if update.isComplete {
        let kept = Set(update.issues.map(\.id))
        let existing = try Int64.fetchAll(db, sql: "SELECT id FROM issue")
        for id in existing where !kept.contains(id) {
          try db.execute(sql: "DELETE FROM issue WHERE id = ?", arguments: [id])
        }
      }
      var latest = try Date.fetchOne(db, sql: "SELECT highWaterMark FROM syncState WHERE id = 1")
      // Milestones and labels embedded in issues, written once each rather than once per issue.
      var embeddedMilestones: [Int64: GitHubMilestone] = [:]
      var embeddedLabels: [String: GitHubLabel] = [:]
      for issue in update.issues {
        if let milestone = issue.milestone { embeddedMilestones[milestone.id] = milestone }
        for label in issue.labels { embeddedLabels[label.name] = label }
      }
      for milestone in embeddedMilestones.values
      where update.milestones == nil
        || !(update.milestones?.contains { $0.id == milestone.id } ?? false)
      {
        try Self.upsert(milestone, db)
      }
      for label in embeddedLabels.values { try Self.upsert(label, db) }
      for issue in update.issues {
        try Self.upsert(issue, db)
        if latest.map({ issue.updatedAt > $0 }) ?? true { latest = issue.updatedAt }
      }
      for (url, etag) in update.etags {
        try db.execute(
          sql:
            "INSERT INTO etag(url, etag) VALUES (?, ?) ON CONFLICT(url) DO UPDATE SET etag = excluded.etag",
          arguments: [url, etag])
      }
      try db.execute(
        sql: """
          INSERT INTO syncState(id, lastSyncedAt, highWaterMark) VALUES (1, ?, ?)
          ON CONFLICT(id) DO UPDATE SET lastSyncedAt = excluded.lastSyncedAt, highWaterMark = excluded.highWaterMark
          """,
        arguments: [update.syncedAt, latest])
    }
  }

  static func upsert(_ milestone: GitHubMilestone, _ db: Database) throws {
    try db.execute(
      sql: "DELETE FROM milestone WHERE number = ? AND id != ?",
      arguments: [milestone.number, milestone.id])
    try db.cachedStatement(
      sql: """
        INSERT INTO milestone(id, number, title, state, description, dueOn, openIssues, closedIssues,
          createdAt, updatedAt, closedAt, htmlURL)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET number = excluded.number, title = excluded.title,
          state = excluded.state, description = excluded.description, dueOn = excluded.dueOn,
          openIssues = coalesce(excluded.openIssues, openIssues),
          closedIssues = coalesce(excluded.closedIssues, closedIssues),
          createdAt = excluded.createdAt, updatedAt = excluded.updatedAt, closedAt = excluded.closedAt,
          htmlURL = excluded.htmlURL
        """
    ).execute(arguments: [
      milestone.id, milestone.number, milestone.title, milestone.state.rawValue,
      milestone.description,
      milestone.dueOn, milestone.openIssues, milestone.closedIssues, milestone.createdAt,
      milestone.updatedAt,
      milestone.closedAt, milestone.htmlURL,
    ])
  }

  static func upsert(_ label: GitHubLabel, _ db: Database) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO label(name, id, color, description) VALUES (?, ?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET id = coalesce(excluded.id, id), color = coalesce(excluded.color, color),
          description = coalesce(excluded.description, description)
        """
    ).execute(arguments: [label.name, label.id, label.color, label.description])
  }

  /// Writes an issue and its label links; its milestone and labels must be written already.
  static func upsert(_ issue: GitHubIssue, _ db: Database) throws {
    try db.cachedStatement(sql: "DELETE FROM issue WHERE number = ? AND id != ?").execute(
      arguments: [
        issue.number, issue.id,
      ])
    let names = issue.labels.map(\.name).sorted()
    try db.cachedStatement(
      sql: """
        INSERT INTO issue(id, number, title, body, state, stateReason, author, milestoneNumber, comments,
          createdAt, updatedAt, closedAt, isPullRequest, htmlURL, labelNames)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET number = excluded.number, title = excluded.title, body = excluded.body,
          state = excluded.state, stateReason = excluded.stateReason, author = excluded.author,
          milestoneNumber = excluded.milestoneNumber, comments = excluded.comments,
          createdAt = excluded.createdAt, updatedAt = excluded.updatedAt, closedAt = excluded.closedAt,
          isPullRequest = excluded.isPullRequest, htmlURL = excluded.htmlURL, labelNames = excluded.labelNames
        """
    ).execute(arguments: [
      issue.id, issue.number, issue.title, issue.body, issue.state.rawValue, issue.stateReason,
      issue.user.login,
      issue.milestone?.number, issue.comments, issue.createdAt, issue.updatedAt, issue.closedAt,
      issue.isPullRequest, issue.htmlURL, names.joined(separator: "\u{1F}"),
    ])
    try db.cachedStatement(sql: "DELETE FROM issueLabel WHERE issueId = ?").execute(arguments: [
      issue.id
    ])
    for label in issue.labels {
      try db.cachedStatement(
        sql: "INSERT OR IGNORE INTO issueLabel(issueId, labelName) VALUES (?, ?)"
      )
      .execute(arguments: [issue.id, label.name])
    }
  }
}
