import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local copy of one repository's issues, milestones and labels, in SQLite, so that every
/// filter is instant and the app works offline.
///
/// Rules:
/// 1. **One database per repository**, under the user's cache directory (``defaultURL(for:host:environment:)``).
/// 2. **Every write is one transaction**: ``apply(_:)`` for a whole update; a sync writes its
///    metadata (``writeMetadata(repository:milestones:labels:etags:deletingMissing:)``) and then each page
///    (``writePage(_:seenIDs:advancingMarks:subIssues:etags:)``) in transactions of their own, so a failure
///    part-way keeps every page committed before it and nothing of the page it was writing.
/// 3. **Migrations are named and never edited** once released; new ones are appended.
///
/// Reads run concurrently with writes (WAL). ``observeList(_:)`` yields a list again after every
/// committed write that changes it.
public final class IssueCache: Sendable {
  let writer: any DatabaseWriter
  /// The database file, or `nil` for a cache in memory.
  public let path: String?
  /// The pause GitHub asked of the host's writes, shared by every store of the host.
  package let writePause: WritePause

  /// Opens (creating if needed) the cache database at a path, and migrates it.
  ///
  /// - Throws: An error naming the path when the file cannot be opened or is not a cache.
  public convenience init(path: String) throws {
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    let lock = Self.lockFolder(of: path)
    defer { Self.unlock(lock) }
    try self.init(openingUnderLock: path)
  }

  /// Opens and migrates the file (unless the caller saw every migration applied); the caller
  /// holds the folder's lock (``lockFolder(of:)``).
  init(openingUnderLock path: String, migrated: Bool = false) throws {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
      // Up to 32 MiB of pages per connection, used as needed: a sync updates rows all over a
      // large cache, and rereading evicted index pages cost more than the writes.
      try db.execute(sql: "PRAGMA cache_size = -32768")
      // Statement journals (the pages an upsert with triggers may have to put back) stay in
      // memory: as files they cost a system call per page, more than the rest of a sync's writes.
      try db.execute(sql: "PRAGMA temp_store = MEMORY")
      // Pages read through a mapping of the file, not a system call and a copy each: a new
      // process reads the first screen's entries in two thirds of the time.
      try db.execute(sql: "PRAGMA mmap_size = 268435456")
    }
    // Another process writing (a second sync waits on the sync lock, but the browser may write
    // settings) makes a write wait rather than fail with "database is locked".
    configuration.busyMode = .timeout(10)
    writer = try DatabasePool(path: path, configuration: configuration)
    self.path = path
    writePause = WritePause(forStoreAt: path)
    if !migrated { try Self.migrator.migrate(writer) }
    // A first sync killed before it built the search index: built now.
    try rebuildDeferredSearchIndex()
  }

  /// Locks the folder of a cache file while it is checked, opened and migrated.
  ///
  /// Processes opening one new cache at once would each create its tables (or change its
  /// journal mode) and all but one fail with "database is locked". A folder, not the file:
  /// closing a descriptor of the database would drop the locks SQLite holds on it. Returns the
  /// descriptor to give ``unlock(_:)``, or -1 when the folder cannot be opened (then nothing is
  /// serialized, as before). A shared lock serves to open a cache that is already current: many
  /// may hold it, and none while one process holds the exclusive lock to create or migrate.
  static func lockFolder(of path: String, exclusive: Bool = true) -> Int32 {
    let folder = open(
      URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
    guard folder >= 0 else { return -1 }
    while flock(folder, exclusive ? LOCK_EX : LOCK_SH) != 0 {
      guard errno == EINTR else { break }
    }
    return folder
  }

  static func unlock(_ folder: Int32) {
    guard folder >= 0 else { return }
    flock(folder, LOCK_UN)
    close(folder)
  }

  /// A cache in memory, for tests and the demo.
  public init() throws {
    writer = try DatabaseQueue()
    path = nil
    writePause = WritePause(forStoreAt: nil)
    try Self.migrator.migrate(writer)
  }

  /// Where a repository's cache lives: `$XDG_CACHE_HOME/trellis-issues/HOST/OWNER/REPO.sqlite`,
  /// with `~/.cache` when `XDG_CACHE_HOME` is unset.
  public static func defaultURL(
    for repository: RepositoryName, host: GitHubHost = .github,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let base: URL
    if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty, xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg)
    } else {
      let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
      base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
    }
    return base.appendingPathComponent("trellis-issues").appendingPathComponent(host.storageName)
      .appendingPathComponent(repository.owner).appendingPathComponent("\(repository.name).sqlite")
  }

  // MARK: Schema

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: issues, milestones, labels, etags, sync state") { db in
      try db.create(table: "repository") { t in
        t.column("id", .integer).primaryKey()
        t.column("fullName", .text).notNull()
        t.column("isPrivate", .boolean).notNull()
        t.column("htmlURL", .text)
        t.column("description", .text)
        t.column("openIssuesCount", .integer)
      }
      try db.create(table: "milestone") { t in
        t.column("id", .integer).primaryKey()
        t.column("number", .integer).notNull().unique()
        t.column("title", .text).notNull()
        t.column("state", .text).notNull()
        t.column("description", .text)
        t.column("dueOn", .datetime)
        t.column("openIssues", .integer)
        t.column("closedIssues", .integer)
        t.column("createdAt", .datetime)
        t.column("updatedAt", .datetime)
        t.column("closedAt", .datetime)
        t.column("htmlURL", .text)
      }
      try db.create(table: "label") { t in
        t.column("name", .text).primaryKey()
        t.column("id", .integer)
        t.column("color", .text)
        t.column("description", .text)
      }
      try db.create(table: "issue") { t in
        t.column("id", .integer).primaryKey()
        t.column("number", .integer).notNull().unique()
        t.column("title", .text).notNull()
        t.column("body", .text)
        t.column("state", .text).notNull()
        t.column("stateReason", .text)
        t.column("author", .text).notNull()
        t.column("milestoneNumber", .integer)
        t.column("comments", .integer).notNull()
        t.column("createdAt", .datetime).notNull()
        t.column("updatedAt", .datetime).notNull()
        t.column("closedAt", .datetime)
        t.column("isPullRequest", .boolean).notNull()
        t.column("htmlURL", .text)
        t.column("labelNames", .text).notNull().defaults(to: "")
      }
      // Covering indexes for the list's queries: filter columns, then the sort keys, then `number`.
      try db.create(
        index: "issue_by_milestone", on: "issue",
        columns: ["isPullRequest", "milestoneNumber", "state", "updatedAt", "number"])
      try db.create(
        index: "issue_by_state", on: "issue",
        columns: ["isPullRequest", "state", "updatedAt", "number"])
      try db.create(
        index: "issue_by_created", on: "issue",
        columns: ["isPullRequest", "state", "createdAt", "number"])
      try db.create(table: "issueLabel") { t in
        t.column("issueId", .integer).notNull().references("issue", onDelete: .cascade)
        t.column("labelName", .text).notNull()
        t.primaryKey(["issueId", "labelName"])
      }
      try db.create(
        index: "issueLabel_by_label", on: "issueLabel", columns: ["labelName", "issueId"])
      try db.create(table: "etag") { t in
        t.column("url", .text).primaryKey()
        t.column("etag", .text).notNull()
      }
      try db.create(table: "syncState") { t in
        t.column("id", .integer).primaryKey().check { $0 == 1 }
        t.column("lastSyncedAt", .datetime)
        t.column("highWaterMark", .datetime)
      }
      // Full-text search over title and body, kept in step by triggers.
      try db.execute(
        sql: """
          CREATE VIRTUAL TABLE issueSearch USING fts5(
            title, body, content='issue', content_rowid='id', tokenize='unicode61 remove_diacritics 2',
            prefix='2');
          CREATE TRIGGER issue_ai AFTER INSERT ON issue BEGIN
            INSERT INTO issueSearch(rowid, title, body) VALUES (new.id, new.title, new.body);
          END;
          CREATE TRIGGER issue_ad AFTER DELETE ON issue BEGIN
            INSERT INTO issueSearch(issueSearch, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
          END;
          CREATE TRIGGER issue_au AFTER UPDATE OF title, body ON issue BEGIN
            INSERT INTO issueSearch(issueSearch, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
            INSERT INTO issueSearch(rowid, title, body) VALUES (new.id, new.title, new.body);
          END;
          """)
    }
    migrator.registerMigration("v2: resumable full listings; entity tags only for lists") { db in
      try db.alter(table: "syncState") { t in
        t.add(column: "fullListingPending", .boolean).notNull().defaults(to: false)
        t.add(column: "fullListingMark", .datetime)
      }
      try db.create(table: "fullListingSeen") { t in
        t.column("id", .integer).primaryKey()
      }
      // Issue pages are never requested conditionally: their tags were never read.
      try db.execute(sql: "DELETE FROM etag WHERE url LIKE '%/issues%'")
    }
    migrator.registerMigration("v3: sub-issues; the browser's collapsed sections") { db in
      try db.alter(table: "issue") { t in
        t.add(column: "subIssuesTotal", .integer).notNull().defaults(to: 0)
        t.add(column: "subIssuesCompleted", .integer).notNull().defaults(to: 0)
      }
      // The sub-issues of an issue, in GitHub's order; only those of this repository.
      try db.create(table: "subIssue") { t in
        t.column("parentNumber", .integer).notNull()
        t.column("childNumber", .integer).notNull()
        t.column("position", .integer).notNull()
        t.primaryKey(["parentNumber", "childNumber"])
      }
      try db.create(table: "collapsedSection") { t in
        t.column("key", .text).primaryKey()
      }
    }
    migrator.registerMigration("v4: assignees; the viewer's login; comments") { db in
      // Who each issue is assigned to, one row per login; logins compare without case, as on
      // GitHub.
      try db.create(table: "issueAssignee") { t in
        t.column("issueId", .integer).notNull().references("issue", onDelete: .cascade)
        t.column("login", .text).notNull().collate(.nocase)
        t.primaryKey(["issueId", "login"])
      }
      try db.create(
        index: "issueAssignee_by_login", on: "issueAssignee", columns: ["login", "issueId"])
      // The login behind the token, for `@me`; asked of GitHub once per token (told apart by a
      // digest, never the token).
      try db.create(table: "viewer") { t in
        t.column("id", .integer).primaryKey().check { $0 == 1 }
        t.column("login", .text).notNull()
        t.column("tokenDigest", .text).notNull()
      }
      // Comments, kept for reading offline; `commentListing` says for which `updated_at` of its
      // issue an issue's comments were last listed completely (a new comment changes it).
      try db.create(table: "comment") { t in
        t.column("id", .integer).primaryKey()
        t.column("issueNumber", .integer).notNull()
        t.column("author", .text).notNull()
        t.column("body", .text).notNull()
        t.column("createdAt", .datetime).notNull()
        t.column("updatedAt", .datetime).notNull()
        t.column("htmlURL", .text)
        t.column("authorAssociation", .text)
        t.column("reactions", .text).notNull().defaults(to: "")
      }
      try db.create(
        index: "comment_by_issue", on: "comment", columns: ["issueNumber", "createdAt", "id"])
      try db.create(table: "commentListing") { t in
        t.column("issueNumber", .integer).primaryKey()
        t.column("issueUpdatedAt", .datetime).notNull()
      }
      // Issues cached before have no assignees: the next sync lists everything again (a full
      // listing, resumable, deleting only with proof), as a sync would after an interruption.
      try db.execute(
        sql: """
          UPDATE syncState SET fullListingPending = 1, fullListingMark = NULL
          WHERE id = 1 AND EXISTS (SELECT 1 FROM issue)
          """)
      try db.execute(sql: "DELETE FROM fullListingSeen")
    }
    migrator.registerMigration("v5: local edits; the repository's comments") { db in
      // Bumped by every edit shown before GitHub confirmed it (and by taking one back), which
      // keeps `updatedAt`: observers redraw the row on either.
      try db.alter(table: "issue") { t in
        t.add(column: "localRevision", .integer).notNull().defaults(to: 0)
      }
      // The latest `updated_at` of the repository's comments listed so far (`sync --comments`):
      // the next listing asks for what changed since.
      try db.alter(table: "syncState") { t in
        t.add(column: "commentMark", .datetime)
      }
      // The events of an issue's timeline a reader shows, replaced whole by each complete
      // listing, in GitHub's order.
      try db.create(table: "timelineEvent") { t in
        t.column("issueNumber", .integer).notNull()
        t.column("position", .integer).notNull()
        t.column("actor", .text).notNull()
        t.column("createdAt", .datetime)
        t.column("sentence", .text).notNull()
        t.primaryKey(["issueNumber", "position"])
      }
    }
    migrator.registerMigration("v6: node identifiers and bots, as gh prints them") { db in
      // GraphQL node ids (`node_id`) of an issue's author, its assignees, the labels and the
      // comments, and whether an author is a bot: what gh's `--json` shows. Rows cached before
      // have none until GitHub sends them again (an update, or a full sync).
      try db.alter(table: "issue") { t in
        t.add(column: "authorNodeId", .text)
        t.add(column: "authorIsBot", .boolean).notNull().defaults(to: false)
      }
      try db.alter(table: "issueAssignee") { t in t.add(column: "nodeId", .text) }
      try db.alter(table: "label") { t in t.add(column: "nodeId", .text) }
      try db.alter(table: "comment") { t in
        t.add(column: "nodeId", .text)
        t.add(column: "authorNodeId", .text)
        t.add(column: "authorIsBot", .boolean).notNull().defaults(to: false)
      }
    }
    migrator.registerMigration("v7: the list's entries from its indexes alone") { db in
      // A list's entries are a number, a milestone and a state: with the milestone in the
      // indexes sorted by update and by creation, reading every open entry (the browser's first
      // screen) walks one index instead of looking up each row in the table.
      try db.drop(index: "issue_by_state")
      try db.drop(index: "issue_by_created")
      try db.create(
        index: "issue_by_state", on: "issue",
        columns: ["isPullRequest", "state", "updatedAt", "number", "milestoneNumber"])
      try db.create(
        index: "issue_by_created", on: "issue",
        columns: ["isPullRequest", "state", "createdAt", "number", "milestoneNumber"])
    }
    migrator.registerMigration("v8: the GraphQL mirror") { db in
      // The issue's own node id and its type, as GraphQL (and REST's `node_id`, `type`) give them.
      try db.alter(table: "issue") { t in
        t.add(column: "nodeId", .text)
        t.add(column: "issueType", .text)
      }
      // For which `updated_at` of its issue an issue's timeline (its events a reader shows) was
      // last listed completely: with `commentListing`, what makes a conversation readable offline.
      try db.create(table: "timelineListing") { t in
        t.column("issueNumber", .integer).primaryKey()
        t.column("issueUpdatedAt", .datetime).notNull()
      }
      // Whether the cache is a mirror (`sync --all` ran: later syncs bring changed conversations
      // too), and the GraphQL points every mirror sync has spent.
      try db.alter(table: "syncState") { t in
        t.add(column: "isMirror", .boolean).notNull().defaults(to: false)
        t.add(column: "mirrorPoints", .integer).notNull().defaults(to: 0)
        // Where a pending mirror's pull-request listing stands (GraphQL's `pullRequests` has no
        // `since`): the cursor after its last page written, so a resumed mirror goes on from it.
        t.add(column: "mirrorPullRequestCursor", .text)
        // How far a pending mirror's listing got: 0 listing issues, 1 pull requests, 2 listed.
        t.add(column: "mirrorPhase", .integer).notNull().defaults(to: 0)
      }
      // Parents a mirror listed whose sub-issue lists are still to be fetched: written with
      // their page, so a mirror cut off before it fetched them fetches them when it resumes.
      try db.create(table: "mirrorSubIssuesPending") { t in
        t.column("parentNumber", .integer).primaryKey()
      }
    }
    migrator.registerMigration("v9: pull requests") { db in
      // From REST's issue listing (and GraphQL's rows): a draft, and when it was merged.
      try db.alter(table: "issue") { t in
        t.add(column: "isDraft", .boolean).notNull().defaults(to: false)
        t.add(column: "mergedAt", .datetime)
      }
      // From GraphQL, for open pull requests: current while the item's `updatedAt` is the one
      // they were read for.
      try db.create(table: "pullRequest") { t in
        t.column("number", .integer).primaryKey()
        t.column("updatedAt", .datetime).notNull()
        t.column("reviewDecision", .text)
        t.column("checks", .text)
        t.column("mergeable", .text).notNull()
        t.column("headRef", .text).notNull()
        t.column("baseRef", .text).notNull()
        t.column("additions", .integer).notNull()
        t.column("deletions", .integer).notNull()
      }
      try db.create(table: "pullRequestReviewer") { t in
        t.column("number", .integer).notNull()
        t.column("reviewer", .text).notNull()
        t.primaryKey(["number", "reviewer"])
      }
      try db.create(
        index: "pullRequestReviewer_by_reviewer", on: "pullRequestReviewer",
        columns: ["reviewer", "number"])
      try db.create(table: "pullRequestReview") { t in
        t.column("number", .integer).notNull()
        t.column("author", .text).notNull()
        t.column("state", .text).notNull()
        t.primaryKey(["number", "author"])
      }
      try db.create(
        index: "pullRequestReview_by_author", on: "pullRequestReview",
        columns: ["author", "number"])
    }
    migrator.registerMigration("v10: pull requests' reviews, line comments and checks") { db in
      // From the pull request's timeline (`reviewed` events), replaced with it.
      try db.create(table: "review") { t in
        t.column("id", .integer).primaryKey()
        t.column("issueNumber", .integer).notNull().indexed()
        t.column("author", .text).notNull()
        t.column("state", .text).notNull()
        t.column("body", .text).notNull()
        t.column("submittedAt", .datetime)
        t.column("authorAssociation", .text)
      }
      // From `pulls/{number}/comments`.
      try db.create(table: "reviewComment") { t in
        t.column("id", .integer).primaryKey()
        t.column("issueNumber", .integer).notNull().indexed()
        t.column("reviewID", .integer)
        t.column("inReplyTo", .integer)
        t.column("author", .text).notNull()
        t.column("body", .text).notNull()
        t.column("path", .text).notNull()
        t.column("line", .integer)
        t.column("diffHunk", .text).notNull()
        t.column("createdAt", .datetime).notNull()
        t.column("authorAssociation", .text)
      }
      // The head commit's checks as last read, and how many GitHub announced.
      try db.create(table: "pullRequestCheck") { t in
        t.column("number", .integer).notNull()
        t.column("position", .integer).notNull()
        t.column("name", .text).notNull()
        t.column("state", .text).notNull()
        t.column("url", .text)
        t.column("kind", .text).notNull()
        t.column("conclusion", .text).notNull()
        t.primaryKey(["number", "position"])
      }
      try db.create(table: "pullRequestCheckListing") { t in
        t.column("number", .integer).primaryKey()
        t.column("headSHA", .text).notNull()
        t.column("announced", .integer).notNull()
      }
    }
    migrator.registerMigration("v11: the action queue") { db in
      // Actions on issues, written before anything is sent and sent in `id` order per issue.
      try db.create(table: "queuedAction") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("issueNumber", .integer).notNull()
        t.column("operation", .text).notNull()
        // pending, sending, conflict, done, cancelled
        t.column("status", .text).notNull()
        t.column("statusDate", .datetime)
        t.column("conflict", .text)
        t.column("queuedAt", .datetime).notNull()
        t.column("attempts", .integer).notNull().defaults(to: 0)
        t.column("lastError", .text)
        t.column("forced", .boolean).notNull().defaults(to: false)
        // The issue's editable fields as shown before and after the action.
        t.column("before", .text)
        t.column("after", .text)
        // A comment: the newest comment cached when it was first sent, and what it became.
        t.column("knownCommentID", .integer)
        t.column("resultCommentID", .integer)
      }
      try db.create(
        index: "queuedAction_by_issue", on: "queuedAction", columns: ["issueNumber", "id"])
      try db.create(index: "queuedAction_by_status", on: "queuedAction", columns: ["status"])
    }
    migrator.registerMigration("v12: the outbox's exact landed checks") { db in
      try db.alter(table: "queuedAction") { t in
        // The issue's fields the action was queued against: its conflict check. `before` is
        // re-based on GitHub's version whenever a sync writes the issue (it is what a cancel
        // shows); this never is.
        t.add(column: "base", .text)
        // The token's login at the first send: a comment or an event that landed is by it.
        t.add(column: "viewer", .text)
        // A close or reopen: the newest state event on the issue's timeline at the first send.
        t.add(column: "knownEventID", .integer)
      }
      try db.execute(sql: "UPDATE queuedAction SET base = before")
    }
    migrator.registerMigration("v13: a mirror's walk through one second, to resume inside") { db in
      try db.alter(table: "syncState") { t in
        // JSON of a `ListingResumePoint`: where a pending mirror's issue listing stands inside
        // a block of items updated in one second.
        t.add(column: "mirrorIssueResumePoint", .text)
      }
    }
    migrator.registerMigration("v14: issue rows keyed by the cache, not by GitHub") { db in
      try keyIssueRowsLocally(db)
    }
    migrator.registerMigration("v15: a sync's walk through one second, to resume inside") { db in
      try db.alter(table: "syncState") { t in
        // JSON of a `ListingResumePoint`: where the REST listing of a sync cut off inside a
        // block of items updated in one second stands (the mirror keeps its own, above).
        t.add(column: "issueResumePoint", .text)
      }
    }
    migrator.registerMigration("v16: a list's columns by key, for searches the words drive") { db in
      // What a list entry needs, found by key: a full-text match is looked up here rather than
      // in the table, whose rows hold bodies.
      try db.execute(
        sql: """
          CREATE INDEX \(Self.listingByKey)
            ON issue(key, isPullRequest, state, updatedAt, createdAt, comments, number,
              milestoneNumber)
          """)
    }
    migrator.registerMigration("v17: reviews and checks as gh prints them") { db in
      try addReviewAndCheckShapes(db)
    }
    migrator.registerMigration("v18: issue templates, and issues filed through the outbox") { db in
      try addIssueTemplates(db)
      try addCreateLandedCheck(db)
    }
    migrator.registerMigration("v19: pull requests' diffs") { db in
      try addPullRequestDiffs(db)
    }
    migrator.registerMigration("v20: pending reviews, viewed files, diffs by file") { db in
      try addPendingReviews(db)
      try addViewedFiles(db)
      try splitPullRequestDiffs(db)
    }
    migrator.registerMigration("v21: review threads' states") { db in
      try addThreadStates(db)
    }
    migrator.registerMigration("v22: the draft store") { db in
      try addDrafts(db)
    }
    migrator.registerMigration("v23: diffs' file headers, line comments' sides") { db in
      try addDiffHeaders(db)
      try db.alter(table: "reviewComment") { t in t.add(column: "side", .text) }
    }
    migrator.registerMigration("v24: the base a diff is compared with") { db in
      // A diff kept before has no base: read again once, then kept with it.
      try db.alter(table: "pullRequestDiffHead") { t in
        t.add(column: "baseRef", .text)
        t.add(column: "baseSHA", .text)
      }
    }
    return migrator
  }

  /// Adds what gh prints of reviews, checks and teams, and forgets what was read without it
  /// so that it is read again rather than printed empty: details with reviews or teams (a
  /// command fetches those it prints, a sync the rest), every check (read again with each
  /// conversation), and the timelines of pull requests with reviews.
  private static func addReviewAndCheckShapes(_ db: Database) throws {
    try db.alter(table: "review") { t in
      t.add(column: "nodeID", .text)
      t.add(column: "commitID", .text)
    }
    try db.alter(table: "pullRequestReview") { t in
      t.add(column: "position", .integer).notNull().defaults(to: 0)
      t.add(column: "authorAssociation", .text).notNull().defaults(to: "NONE")
      t.add(column: "body", .text).notNull().defaults(to: "")
      t.add(column: "submittedAt", .datetime)
    }
    try db.alter(table: "pullRequestReviewer") { t in
      t.add(column: "position", .integer).notNull().defaults(to: 0)
      t.add(column: "name", .text)
    }
    try db.alter(table: "pullRequestCheck") { t in
      t.add(column: "startedAt", .datetime)
      t.add(column: "completedAt", .datetime)
      t.add(column: "detailsURL", .text)
      t.add(column: "workflowName", .text).notNull().defaults(to: "")
    }
    try db.execute(
      sql: """
        CREATE TEMPORARY TABLE staleDetails AS
          SELECT number FROM pullRequestReview
          UNION SELECT number FROM pullRequestReviewer WHERE reviewer LIKE '%/%';
        DELETE FROM pullRequest WHERE number IN (SELECT number FROM staleDetails);
        DELETE FROM pullRequestReviewer WHERE number IN (SELECT number FROM staleDetails);
        DELETE FROM pullRequestReview WHERE number IN (SELECT number FROM staleDetails);
        DROP TABLE staleDetails;
        DELETE FROM pullRequestCheck;
        DELETE FROM pullRequestCheckListing;
        DELETE FROM timelineListing WHERE issueNumber IN (SELECT issueNumber FROM review);
        """)
  }

  /// The index of a list entry's columns by key.
  static let listingByKey = "issue_listing_by_key"
}
