import Foundation
import GRDB

extension IssueCache {
  /// Records the sub-issues of an issue, in GitHub's order, replacing what was recorded; the
  /// entity tags of the list's pages are stored in the same transaction.
  ///
  /// An issue is recorded under one parent only, as on GitHub: a child already recorded under
  /// another parent moves here.
  package func replaceSubIssues(
    of parent: Int, with children: [Int], etags: [String: String] = [:]
  ) throws {
    try writer.write { db in
      try Self.replaceSubIssues(of: parent, with: children, db)
      try Self.storeETags(etags, db)
    }
  }

  static func replaceSubIssues(of parent: Int, with children: [Int], _ db: Database) throws {
    try db.execute(sql: "DELETE FROM subIssue WHERE parentNumber = ?", arguments: [parent])
    var seen: Set<Int> = [parent]
    for (position, child) in children.enumerated() where seen.insert(child).inserted {
      try db.execute(sql: "DELETE FROM subIssue WHERE childNumber = ?", arguments: [child])
      try db.execute(
        sql: "INSERT INTO subIssue(parentNumber, childNumber, position) VALUES (?, ?, ?)",
        arguments: [parent, child, position])
    }
  }

  static func storeETags(_ etags: [String: String], _ db: Database) throws {
    for (url, etag) in etags {
      try db.execute(
        sql:
          "INSERT INTO etag(url, etag) VALUES (?, ?) ON CONFLICT(url) DO UPDATE SET etag = excluded.etag",
        arguments: [url, etag])
    }
  }

  /// The numbers of the parents among `issues` whose sub-issue list the cache holds as of the
  /// version given.
  ///
  /// That is the same `updated_at` and sub-issue counts as cached, and children recorded: their
  /// lists need not be asked for again.
  package func currentSubIssueLists(of issues: [GitHubIssue]) throws -> Set<Int> {
    try writer.read { db in
      var current: Set<Int> = []
      let statement = try db.cachedStatement(
        sql: """
          SELECT updatedAt, subIssuesTotal, subIssuesCompleted,
            EXISTS (SELECT 1 FROM subIssue WHERE parentNumber = issue.number)
          FROM issue WHERE githubId = ? AND number = ?
          """)
      for issue in issues {
        guard let row = try Row.fetchOne(statement, arguments: [issue.id, issue.number]),
          let cached = row[0] as Date?,
          abs(cached.timeIntervalSince(issue.updatedAt)) < 0.001,
          row[1] as Int == issue.subIssues?.total ?? 0,
          row[2] as Int == issue.subIssues?.completed ?? 0,
          row[3] as Bool
        else { continue }
        current.insert(issue.number)
      }
      return current
    }
  }

  /// The sub-issues of every issue that has some, by parent number, in GitHub's order.
  package func subIssues() throws -> [Int: [Int]] {
    try writer.read { db in try Self.subIssues(db) }
  }

  static func subIssues(_ db: Database) throws -> [Int: [Int]] {
    var children: [Int: [Int]] = [:]
    let rows = try Row.fetchCursor(
      db, sql: "SELECT parentNumber, childNumber FROM subIssue ORDER BY parentNumber, position")
    while let row = try rows.next() {
      children[row[0], default: []].append(row[1])
    }
    return children
  }
}
