import GRDB

extension IssueCache {
  /// The triggers that keep the search index in step with the `issue` table, as migration v14
  /// created them (the index's rowid is the row's key).
  ///
  /// While any is missing the index is *deferred*: rows written meanwhile are not searchable
  /// until ``rebuildDeferredSearchIndex()``.
  static let searchTriggers: [(name: String, sql: String)] = [
    (
      "issue_ai",
      """
      CREATE TRIGGER issue_ai AFTER INSERT ON issue BEGIN
        INSERT INTO issueSearch(rowid, title, body) VALUES (new.key, new.title, new.body);
      END
      """
    ),
    (
      "issue_ad",
      """
      CREATE TRIGGER issue_ad AFTER DELETE ON issue BEGIN
        INSERT INTO issueSearch(issueSearch, rowid, title, body) VALUES ('delete', old.key, old.title, old.body);
      END
      """
    ),
    (
      "issue_au",
      """
      CREATE TRIGGER issue_au AFTER UPDATE OF title, body ON issue BEGIN
        INSERT INTO issueSearch(issueSearch, rowid, title, body) VALUES ('delete', old.key, old.title, old.body);
        INSERT INTO issueSearch(rowid, title, body) VALUES (new.key, new.title, new.body);
      END
      """
    ),
  ]

  /// Stops indexing written issues for search until ``rebuildDeferredSearchIndex()``, which
  /// builds the whole index at once: a first sync into an empty cache costs a third less.
  ///
  /// All three triggers go, not only the insert's: removing from the index a row it never held
  /// would leave it inconsistent. Searches meanwhile see only what was indexed before.
  package func deferSearchIndex() throws {
    try writer.write { db in try Self.deferSearchIndex(db) }
  }

  /// Builds the search index from the rows and restores its triggers, if indexing was deferred
  /// (by ``deferSearchIndex()``, or by a sync killed before it ended); does nothing otherwise.
  ///
  /// - Returns: Whether the index was rebuilt.
  @discardableResult
  package func rebuildDeferredSearchIndex() throws -> Bool {
    let missing = try writer.read { db in try Self.missingSearchTriggers(db) }
    guard !missing.isEmpty else { return false }
    return try writer.write { db in try Self.rebuildDeferredSearchIndex(db) }
  }

  static func deferSearchIndex(_ db: Database) throws {
    for trigger in searchTriggers {
      try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.name)")
    }
  }

  /// Rebuilds the index and restores the missing triggers in the caller's transaction.
  @discardableResult
  static func rebuildDeferredSearchIndex(_ db: Database) throws -> Bool {
    let missing = try missingSearchTriggers(db)
    guard !missing.isEmpty else { return false }
    // FTS5 gathers terms in memory and writes a segment each time they pass its hash size (1 MiB
    // by default); 8 MiB while rebuilding writes an eighth as many segments to merge later,
    // and the setting goes back before the transaction ends.
    try db.execute(sql: "INSERT INTO issueSearch(issueSearch, rank) VALUES ('hashsize', 8388608)")
    try db.execute(sql: "INSERT INTO issueSearch(issueSearch) VALUES ('rebuild')")
    try db.execute(sql: "INSERT INTO issueSearch(issueSearch, rank) VALUES ('hashsize', 1048576)")
    for trigger in searchTriggers where missing.contains(trigger.name) {
      try db.execute(sql: trigger.sql)
    }
    return true
  }

  static func missingSearchTriggers(_ db: Database) throws -> Set<String> {
    let present = try String.fetchSet(
      db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'")
    return Set(searchTriggers.map(\.name)).subtracting(present)
  }
}
