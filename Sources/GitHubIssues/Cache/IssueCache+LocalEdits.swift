import Foundation
import GRDB

extension IssueCache {
  /// Writes an issue as GitHub answered a change or a read.
  ///
  /// GitHub's version replaces whatever was shown locally. The sync's marks do not move (this is
  /// not a listing).
  package func confirm(_ issue: GitHubIssue) throws {
    try writePage([issue], advancingMarks: false)
  }

  static func editableFields(of number: Int, _ db: Database) throws -> EditableFields? {
    try editableRow(of: number, db)?.fields
  }

  /// An issue's key and editable fields, in one read of its row.
  static func editableRow(of number: Int, _ db: Database) throws -> (
    key: IssueKey, fields: EditableFields
  )? {
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT key, state, stateReason, closedAt, milestoneNumber, labelNames FROM issue
            WHERE number = ?
            """), arguments: [number])
    else { return nil }
    let key: Int64 = row["key"]
    let labelNames: String = row["labelNames"]
    let assignees = try String.fetchAll(
      db.cachedStatement(sql: "SELECT login FROM issueAssignee WHERE issueKey = ?"),
      arguments: [key])
    let fields = EditableFields(
      state: GitHubIssue.State(rawValue: row["state"]) ?? .open, stateReason: row["stateReason"],
      closedAt: row["closedAt"], milestoneNumber: row["milestoneNumber"],
      labels: labelNames.isEmpty ? [] : labelNames.split(separator: "\u{1F}").map(String.init),
      assignees: assignees.sorted())
    return (IssueKey(rawValue: key), fields)
  }

  static func write(_ fields: EditableFields, to number: Int, _ db: Database) throws {
    guard
      let key = try Int64.fetchOne(
        db.cachedStatement(sql: "SELECT key FROM issue WHERE number = ?"), arguments: [number])
    else { return }
    try write(fields, toKey: IssueKey(rawValue: key), db)
  }

  static func write(_ fields: EditableFields, toKey issueKey: IssueKey, _ db: Database) throws {
    let key = issueKey.rawValue
    try db.cachedStatement(
      sql: """
        UPDATE issue SET state = ?, stateReason = ?, closedAt = ?, milestoneNumber = ?,
          labelNames = ?, localRevision = localRevision + 1 WHERE key = ?
        """
    ).execute(
      arguments: [
        fields.state.rawValue, fields.stateReason, fields.closedAt, fields.milestoneNumber,
        fields.labels.joined(separator: "\u{1F}"), key,
      ])
    try db.cachedStatement(sql: "DELETE FROM issueLabel WHERE issueKey = ?").execute(
      arguments: [key])
    for name in fields.labels {
      try db.cachedStatement(sql: "INSERT OR IGNORE INTO label(name) VALUES (?)").execute(
        arguments: [name])
      try db.cachedStatement(sql: "INSERT INTO issueLabel(issueKey, labelName) VALUES (?, ?)")
        .execute(
          arguments: [key, name])
    }
    try db.cachedStatement(sql: "DELETE FROM issueAssignee WHERE issueKey = ?").execute(
      arguments: [key])
    for login in fields.assignees {
      try db.cachedStatement(
        sql: "INSERT OR IGNORE INTO issueAssignee(issueKey, login) VALUES (?, ?)"
      ).execute(
        arguments: [key, storable(login)])
    }
  }
}

/// A change the cache cannot show.
package enum LocalEditError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No milestone with this number is cached: sync first, or the milestone does not exist.
  case unknownMilestone(Int)

  package var description: String {
    switch self {
    case .unknownMilestone(let number):
      "no milestone \(number) in the cache; sync to fetch the repository's milestones"
    }
  }
}
