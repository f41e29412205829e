import GRDB

extension IssueCache {
  /// The keys of the sections a person collapsed in a list of this repository, kept with the
  /// cache so that they stay collapsed after a restart.
  ///
  /// The keys are the browser's own (a milestone's, say); the cache only stores them.
  package func collapsedSections() throws -> Set<String> {
    try writer.read { db in
      Set(try String.fetchAll(db, sql: "SELECT key FROM collapsedSection"))
    }
  }

  /// Records that a section is collapsed or expanded.
  package func setSection(_ key: String, collapsed: Bool) throws {
    try writer.write { db in
      if collapsed {
        try db.execute(
          sql: "INSERT OR IGNORE INTO collapsedSection(key) VALUES (?)", arguments: [key])
      } else {
        try db.execute(sql: "DELETE FROM collapsedSection WHERE key = ?", arguments: [key])
      }
    }
  }
}
