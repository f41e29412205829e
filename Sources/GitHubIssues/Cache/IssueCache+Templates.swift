import Foundation
import GRDB

// The repository's `.github/ISSUE_TEMPLATE/` files, kept as GitHub served them so that the
// template chooser and the forms work offline, and read again only when they changed.

extension IssueCache {
  /// The templates as last read from GitHub, and when; `nil` when they were never read.
  public func issueTemplates() throws -> (templates: IssueTemplates, checkedAt: Date)? {
    try writer.read { db in
      guard
        let checkedAt = try Date.fetchOne(
          db, sql: "SELECT checkedAt FROM issueTemplateFolder WHERE id = 1")
      else { return nil }
      let files = try Row.fetchAll(
        db, sql: "SELECT name, text FROM issueTemplateFile ORDER BY name"
      )
      .map { (name: $0["name"] as String, text: $0["text"] as String) }
      return (IssueTemplates(files: files), checkedAt)
    }
  }

  /// The blob SHA of each template file kept, by name: what a new listing is compared with.
  package func issueTemplateSHAs() throws -> [String: String] {
    try writer.read { db in
      var shas: [String: String] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT name, sha FROM issueTemplateFile") {
        shas[row["name"]] = row["sha"]
      }
      return shas
    }
  }

  /// Replaces the kept files with a complete listing's.
  ///
  /// `kept` names the files unchanged since (their text stays), `fetched` holds the new or
  /// changed ones; every other file is gone from the folder. The listing's entity tag is stored in the same transaction, so that it never
  /// stands for files the cache does not hold.
  public func replaceIssueTemplates(
    kept: Set<String>, fetched: [(name: String, sha: String, text: String)],
    etags: [String: String], checkedAt: Date
  ) throws {
    try writer.write { db in
      let keep = kept.union(fetched.map(\.name))
      for name in try String.fetchAll(db, sql: "SELECT name FROM issueTemplateFile")
      where !keep.contains(name) {
        try db.execute(sql: "DELETE FROM issueTemplateFile WHERE name = ?", arguments: [name])
      }
      for file in fetched {
        try db.execute(
          sql: """
            INSERT INTO issueTemplateFile(name, sha, text) VALUES (?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET sha = excluded.sha, text = excluded.text
            """, arguments: [file.name, file.sha, file.text])
      }
      try Self.storeETags(etags, db)
      try Self.markTemplatesChecked(checkedAt, db)
    }
  }

  /// Records that the folder was found unchanged (or absent, with every file forgotten).
  package func markIssueTemplatesChecked(at date: Date, absent: Bool, etags: [String: String])
    throws
  {
    try writer.write { db in
      if absent { try db.execute(sql: "DELETE FROM issueTemplateFile") }
      try Self.storeETags(etags, db)
      try Self.markTemplatesChecked(date, db)
    }
  }

  private static func markTemplatesChecked(_ date: Date, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO issueTemplateFolder(id, checkedAt) VALUES (1, ?)
        ON CONFLICT(id) DO UPDATE SET checkedAt = excluded.checkedAt
        """, arguments: [date])
  }

  /// Migration v18: the template files, and when the folder was last read.
  static func addIssueTemplates(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE issueTemplateFile (
          name TEXT PRIMARY KEY NOT NULL,
          sha TEXT NOT NULL,
          text TEXT NOT NULL);
        CREATE TABLE issueTemplateFolder (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          checkedAt DATETIME NOT NULL);
        """)
  }
}
