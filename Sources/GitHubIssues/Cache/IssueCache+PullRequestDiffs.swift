import Foundation
import GRDB

// Pull requests' diffs, one per pull request: the files at the head commit last read, a row
// per file — a diff of 50,000 lines is read back in a few milliseconds, not decoded from one
// JSON document.

extension IssueCache {
  /// The diff kept for pull request `number`, if one was read.
  public func pullRequestDiff(_ number: Int) throws -> PullRequestDiff? {
    try writer.read { db in
      guard
        let head = try Row.fetchOne(
          db,
          sql: """
            SELECT headSHA, announcedFiles, baseRef, baseSHA FROM pullRequestDiffHead
            WHERE number = ?
            """,
          arguments: [number])
      else { return nil }
      var files: [FileDiff] = []
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT path, previousPath, status, additions, deletions, kind, content, header
          FROM pullRequestDiffFile WHERE number = ? ORDER BY position
          """, arguments: [number])
      while let row = try rows.next() {
        let text: String = row[6]
        let content: FileDiff.Content =
          switch row[5] as String {
          case "patch": .patch(text)
          case "binary": .binary
          case "none": .noTextChanges
          default: .unavailable(text)
          }
        files.append(
          FileDiff(
            path: row[0], previousPath: row[1], status: row[2], additions: row[3],
            deletions: row[4], content: content, header: row[7]))
      }
      let base = (head[2] as String?).map { PullRequestDiff.Base(ref: $0, sha: head[3]) }
      return PullRequestDiff(
        headSHA: head[0], files: files, announcedFiles: head[1], base: base)
    }
  }

  /// Keeps `diff` as pull request `number`'s, in place of the one kept before.
  public func keepPullRequestDiff(_ diff: PullRequestDiff, of number: Int, at date: Date) throws {
    try writer.write { db in try Self.keep(diff, of: number, at: date, db) }
  }

  /// Writes `diff`'s rows; `withHeaders` false for the tables as migration v20 left them.
  private static func keep(
    _ diff: PullRequestDiff, of number: Int, at date: Date, withHeaders: Bool = true,
    _ db: Database
  ) throws {
    if withHeaders {
      try db.execute(
        sql: """
          INSERT INTO pullRequestDiffHead(number, headSHA, announcedFiles, readAt, baseRef, baseSHA)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT(number) DO UPDATE SET headSHA = excluded.headSHA,
            announcedFiles = excluded.announcedFiles, readAt = excluded.readAt,
            baseRef = excluded.baseRef, baseSHA = excluded.baseSHA
          """,
        arguments: [
          number, diff.headSHA, diff.announcedFiles, date, diff.base?.ref, diff.base?.sha,
        ])
    } else {
      try db.execute(
        sql: """
          INSERT INTO pullRequestDiffHead(number, headSHA, announcedFiles, readAt)
          VALUES (?, ?, ?, ?)
          ON CONFLICT(number) DO UPDATE SET headSHA = excluded.headSHA,
            announcedFiles = excluded.announcedFiles, readAt = excluded.readAt
          """, arguments: [number, diff.headSHA, diff.announcedFiles, date])
    }
    try db.execute(sql: "DELETE FROM pullRequestDiffFile WHERE number = ?", arguments: [number])
    let insert = try db.cachedStatement(
      sql: """
        INSERT INTO pullRequestDiffFile(
          number, position, path, previousPath, status, additions, deletions, kind, content
          \(withHeaders ? ", header" : ""))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?\(withHeaders ? ", ?" : ""))
        """)
    for (position, file) in diff.files.enumerated() {
      let (kind, text): (String, String) =
        switch file.content {
        case .patch(let patch): ("patch", patch)
        case .binary: ("binary", "")
        case .noTextChanges: ("none", "")
        case .unavailable(let reason): ("unavailable", reason)
        }
      try insert.execute(
        arguments: [
          number, position, file.path, file.previousPath, file.status, file.additions,
          file.deletions, kind, text,
        ] + (withHeaders ? [file.header] : []))
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

  /// Migration v20's part for diffs: a row per file instead of one JSON document (the diffs
  /// kept as JSON are moved over).
  static func splitPullRequestDiffs(_ db: Database) throws {
    try db.create(table: "pullRequestDiffHead") { t in
      t.primaryKey("number", .integer)
      t.column("headSHA", .text).notNull()
      t.column("announcedFiles", .integer).notNull()
      t.column("readAt", .datetime).notNull()
    }
    try db.create(table: "pullRequestDiffFile") { t in
      t.column("number", .integer).notNull()
      t.column("position", .integer).notNull()
      t.column("path", .text).notNull()
      t.column("previousPath", .text)
      t.column("status", .text).notNull()
      t.column("additions", .integer).notNull()
      t.column("deletions", .integer).notNull()
      t.column("kind", .text).notNull()
      t.column("content", .text).notNull()
      t.primaryKey(["number", "position"])
    }
    for row in try Row.fetchAll(db, sql: "SELECT number, diff, readAt FROM pullRequestDiff") {
      // One that cannot be read is left out: it is read again from GitHub when asked for.
      guard let diff = try? decode(PullRequestDiff.self, row["diff"] as String) else { continue }
      try keep(diff, of: row["number"], at: row["readAt"], withHeaders: false, db)
    }
    try db.drop(table: "pullRequestDiff")
  }

  /// Migration v23: each file's header as git wrote it in GitHub's whole diff.
  ///
  /// Diffs kept before have none (they print a rebuilt one) until a push reads them again.
  static func addDiffHeaders(_ db: Database) throws {
    try db.alter(table: "pullRequestDiffFile") { t in t.add(column: "header", .text) }
  }
}
