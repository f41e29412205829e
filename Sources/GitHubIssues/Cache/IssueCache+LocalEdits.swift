import Foundation
import GRDB

extension IssueCache {
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
