import Foundation
import GRDB

// Pull requests' diffs, one per pull request: the files at the head commit last read.

extension IssueCache {
  /// The diff kept for pull request `number`, if one was read.
  package func pullRequestDiff(_ number: Int) throws -> PullRequestDiff? {
    try writer.read { db in
      try String.fetchOne(
        db, sql: "SELECT diff FROM pullRequestDiff WHERE number = ?", arguments: [number]
      ).map { try Self.decode(PullRequestDiff.self, $0) }
    }
  }

  /// Keeps `diff` as pull request `number`'s, in place of the one kept before.
  package func keepPullRequestDiff(_ diff: PullRequestDiff, of number: Int, at date: Date) throws {
    let json = try Self.json(diff)
    try writer.write { db in
      try db.execute(
        sql: """
          INSERT INTO pullRequestDiff(number, headSHA, diff, readAt) VALUES (?, ?, ?, ?)
          ON CONFLICT(number) DO UPDATE SET
            headSHA = excluded.headSHA, diff = excluded.diff, readAt = excluded.readAt
          """, arguments: [number, diff.headSHA, json, date])
    }
  }

  /// Migration v19: a pull request's diff, as JSON, with the head commit it is of.
  static func addPullRequestDiffs(_ db: Database) throws {
    try db.create(table: "pullRequestDiff") { t in
      t.primaryKey("number", .integer)
      t.column("headSHA", .text).notNull()
      t.column("diff", .text).notNull()
      t.column("readAt", .datetime).notNull()
    }
  }
}
