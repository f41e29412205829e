import GRDB

extension IssueCache {
  /// Migration v14: the `issue` table's rowid becomes the cache's own key for a row
  /// (``IssueKey``), and GitHub's id and number become nullable facts about it.
  ///
  /// GitHub's id and number are unique through named indexes rather than column constraints, so
  /// that an import into an empty cache can drop them and build them once at its end, as it does
  /// the other indexes.
  ///
  /// Rows keep their rowid as their key (it was GitHub's id), so the search index, the label and
  /// assignee links and every observer's rows stay valid. `AUTOINCREMENT` makes SQLite hand out
  /// keys above every one ever used: a deleted row's key never comes back for another issue, so
  /// an action queued on it can never land on someone else's. The tables that link to rows
  /// (`issueLabel`, `issueAssignee`) are rebuilt to reference the key; the search index is built
  /// again over `key`. SQLite cannot change a column's constraints in place, hence the copies;
  /// GRDB runs migrations with foreign keys off and checks them before the commit.
  static func keyIssueRowsLocally(_ db: Database) throws {
    for trigger in searchTriggers { try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.name)") }
    try db.execute(sql: "DROP TABLE issueSearch")
    try db.execute(
      sql: """
        CREATE TABLE issue_keyed (
          key INTEGER PRIMARY KEY AUTOINCREMENT,
          githubId INTEGER,
          number INTEGER,
          title TEXT NOT NULL,
          body TEXT,
          state TEXT NOT NULL,
          stateReason TEXT,
          author TEXT NOT NULL,
          milestoneNumber INTEGER,
          comments INTEGER NOT NULL,
          createdAt DATETIME NOT NULL,
          updatedAt DATETIME NOT NULL,
          closedAt DATETIME,
          isPullRequest BOOLEAN NOT NULL,
          htmlURL TEXT,
          labelNames TEXT NOT NULL DEFAULT '',
          subIssuesTotal INTEGER NOT NULL DEFAULT 0,
          subIssuesCompleted INTEGER NOT NULL DEFAULT 0,
          localRevision INTEGER NOT NULL DEFAULT 0,
          authorNodeId TEXT,
          authorIsBot BOOLEAN NOT NULL DEFAULT 0,
          nodeId TEXT,
          issueType TEXT,
          isDraft BOOLEAN NOT NULL DEFAULT 0,
          mergedAt DATETIME);
        INSERT INTO issue_keyed (
          key, githubId, number, title, body, state, stateReason, author, milestoneNumber, comments,
          createdAt, updatedAt, closedAt, isPullRequest, htmlURL, labelNames, subIssuesTotal,
          subIssuesCompleted, localRevision, authorNodeId, authorIsBot, nodeId, issueType, isDraft,
          mergedAt)
        SELECT
          id, id, number, title, body, state, stateReason, author, milestoneNumber, comments,
          createdAt, updatedAt, closedAt, isPullRequest, htmlURL, labelNames, subIssuesTotal,
          subIssuesCompleted, localRevision, authorNodeId, authorIsBot, nodeId, issueType, isDraft,
          mergedAt
        FROM issue;
        DROP TABLE issue;
        ALTER TABLE issue_keyed RENAME TO issue;
        CREATE UNIQUE INDEX issue_by_githubId ON issue(githubId);
        CREATE UNIQUE INDEX issue_by_number ON issue(number);
        CREATE INDEX issue_by_milestone
          ON issue(isPullRequest, milestoneNumber, state, updatedAt, number);
        CREATE INDEX issue_by_state
          ON issue(isPullRequest, state, updatedAt, number, milestoneNumber);
        CREATE INDEX issue_by_created
          ON issue(isPullRequest, state, createdAt, number, milestoneNumber);

        CREATE TABLE issueLabel_keyed (
          issueKey INTEGER NOT NULL REFERENCES issue(key) ON DELETE CASCADE,
          labelName TEXT NOT NULL,
          PRIMARY KEY (issueKey, labelName));
        INSERT INTO issueLabel_keyed (issueKey, labelName) SELECT issueId, labelName FROM issueLabel;
        DROP TABLE issueLabel;
        ALTER TABLE issueLabel_keyed RENAME TO issueLabel;
        CREATE INDEX issueLabel_by_label ON issueLabel(labelName, issueKey);

        CREATE TABLE issueAssignee_keyed (
          issueKey INTEGER NOT NULL REFERENCES issue(key) ON DELETE CASCADE,
          login TEXT NOT NULL COLLATE NOCASE,
          nodeId TEXT,
          PRIMARY KEY (issueKey, login));
        INSERT INTO issueAssignee_keyed (issueKey, login, nodeId)
          SELECT issueId, login, nodeId FROM issueAssignee;
        DROP TABLE issueAssignee;
        ALTER TABLE issueAssignee_keyed RENAME TO issueAssignee;
        CREATE INDEX issueAssignee_by_login ON issueAssignee(login, issueKey);

        CREATE VIRTUAL TABLE issueSearch USING fts5(
          title, body, content='issue', content_rowid='key',
          tokenize='unicode61 remove_diacritics 2', prefix='2');
        INSERT INTO issueSearch(issueSearch) VALUES ('rebuild');
        """)
    for trigger in searchTriggers { try db.execute(sql: trigger.sql) }
    // The outbox holds on to the row, not to the number: an issue filed offline has none yet.
    try db.alter(table: "queuedAction") { t in
      t.add(column: "issueKey", .integer)
    }
    try db.execute(
      sql: """
        UPDATE queuedAction SET issueKey = (SELECT key FROM issue WHERE number = issueNumber)
        """)
    try db.create(
      index: "queuedAction_by_key", on: "queuedAction", columns: ["issueKey", "id"])
  }
}
