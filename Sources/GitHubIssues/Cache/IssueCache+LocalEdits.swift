import Foundation
import GRDB

extension IssueCache {
  /// Shows changes to a cached issue at once, before GitHub confirms them: its state, milestone,
  /// labels and assignees change in one transaction, so every observer sees the issue move (to
  /// another milestone's section, out of an "open" list) as it would after a sync.
  ///
  /// The issue's `updated_at` is kept: the sync's marks and the comments' currency still refer
  /// to what GitHub last said. GitHub's answer replaces the row (``confirm(_:)``); a failure
  /// takes the changes back (``takeBack(_:)``).
  ///
  /// - Returns: What to take back, or `nil` when the issue is not cached (nothing is shown).
  /// - Throws: ``LocalEditError/unknownMilestone(_:)`` for a milestone the cache does not list.
  public func showLocally(
    _ changes: [IssueChange], onIssue number: Int, now: Date = Date()
  ) throws -> PendingEdit? {
    try writer.write { db in
      guard let before = try Self.editableFields(of: number, db) else { return nil }
      var after = before
      for change in changes { after = after.applying(change, now: now) }
      if let milestone = after.milestoneNumber, milestone != before.milestoneNumber,
        try Int.fetchOne(
          db, sql: "SELECT 1 FROM milestone WHERE number = ?", arguments: [milestone]) == nil
      {
        throw LocalEditError.unknownMilestone(milestone)
      }
      try Self.write(after, to: number, db)
      // As stored (dates lose what SQLite does not keep), so that taking back recognises it.
      let stored = try Self.editableFields(of: number, db) ?? after
      return PendingEdit(number: number, changes: changes, before: before, after: stored)
    }
  }

  /// Takes back changes shown with ``showLocally(_:onIssue:now:)`` that GitHub refused.
  ///
  /// When the issue changed since (a sync or another edit wrote it), the newer row stays:
  /// taking back would put older data over it.
  ///
  /// - Returns: Whether the row was restored.
  @discardableResult
  public func takeBack(_ edit: PendingEdit) throws -> Bool {
    try writer.write { db in
      guard try Self.editableFields(of: edit.number, db) == edit.after else { return false }
      try Self.write(edit.before, to: edit.number, db)
      return true
    }
  }

  /// Writes an issue as GitHub answered a change or a read.
  ///
  /// GitHub's version replaces whatever was shown locally. The sync's marks do not move (this is
  /// not a listing).
  public func confirm(_ issue: GitHubIssue) throws {
    try writePage([issue], advancingMarks: false)
  }

  static func editableFields(of number: Int, _ db: Database) throws -> EditableFields? {
    guard
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT id, state, stateReason, closedAt, milestoneNumber, labelNames FROM issue
          WHERE number = ?
          """, arguments: [number])
    else { return nil }
    let id: Int64 = row["id"]
    let labelNames: String = row["labelNames"]
    let assignees = try String.fetchAll(
      db, sql: "SELECT login FROM issueAssignee WHERE issueId = ?", arguments: [id])
    return EditableFields(
      state: GitHubIssue.State(rawValue: row["state"]) ?? .open, stateReason: row["stateReason"],
      closedAt: row["closedAt"], milestoneNumber: row["milestoneNumber"],
      labels: labelNames.isEmpty ? [] : labelNames.split(separator: "\u{1F}").map(String.init),
      assignees: assignees.sorted())
  }

  static func write(_ fields: EditableFields, to number: Int, _ db: Database) throws {
    guard
      let id = try Int64.fetchOne(
        db, sql: "SELECT id FROM issue WHERE number = ?", arguments: [number])
    else { return }
    try db.execute(
      sql: """
        UPDATE issue SET state = ?, stateReason = ?, closedAt = ?, milestoneNumber = ?,
          labelNames = ?, localRevision = localRevision + 1 WHERE id = ?
        """,
      arguments: [
        fields.state.rawValue, fields.stateReason, fields.closedAt, fields.milestoneNumber,
        fields.labels.joined(separator: "\u{1F}"), id,
      ])
    try db.execute(sql: "DELETE FROM issueLabel WHERE issueId = ?", arguments: [id])
    for name in fields.labels {
      try db.execute(
        sql: "INSERT OR IGNORE INTO label(name) VALUES (?)", arguments: [name])
      try db.execute(
        sql: "INSERT INTO issueLabel(issueId, labelName) VALUES (?, ?)", arguments: [id, name])
    }
    try db.execute(sql: "DELETE FROM issueAssignee WHERE issueId = ?", arguments: [id])
    for login in fields.assignees {
      try db.execute(
        sql: "INSERT OR IGNORE INTO issueAssignee(issueId, login) VALUES (?, ?)",
        arguments: [id, storable(login)])
    }
  }
}

/// A change the cache cannot show.
public enum LocalEditError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No milestone with this number is cached: sync first, or the milestone does not exist.
  case unknownMilestone(Int)

  public var description: String {
    switch self {
    case .unknownMilestone(let number):
      "no milestone \(number) in the cache; sync to fetch the repository's milestones"
    }
  }
}
