import Foundation
import GRDB

extension IssueCache {
  /// Writes a sync's results in one transaction: all of it, or (on any error) none of it.
  ///
  /// - Complexity: O(*n* log *m*), where *n* is the number of issues written and *m* the number
  ///   cached.
  public func apply(_ update: CacheUpdate) throws {
    try writer.write { db in
      try Self.writeMetadata(
        repository: update.repository, milestones: update.milestones, labels: update.labels,
        etags: update.etags, db)
      if update.isComplete {
        // Only rows GitHub has: one filed here and not yet sent is no one's to delete.
        let kept = Set(update.issues.map(\.id))
        let existing = try Int64.fetchAll(
          db, sql: "SELECT githubId FROM issue WHERE githubId IS NOT NULL")
        for id in existing where !kept.contains(id) {
          try db.execute(sql: "DELETE FROM issue WHERE githubId = ?", arguments: [id])
        }
      }
      // Into an empty cache, the search index and the secondary indexes are built once at the
      // end, from the rows (sorting once costs a fraction of inserting into them row by row);
      // they are all back before the commit. The unique indexes on GitHub's id and number stay:
      // their integer keys cost little to keep, and no row goes in unchecked.
      let isEmpty = try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM issue)") ?? true)
      let bulk = update.issues.count >= 1_000 && isEmpty
      var dropped: [String] = []
      var cacheSize: Int?
      if bulk {
        // Room for every page the import writes, so that none is spilled to the log and read
        // back while the indexes are built; the connection's own size comes back at the end.
        cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size")
        try db.execute(sql: "PRAGMA cache_size = -262144")
        try Self.deferSearchIndex(db)
        // The indexes the migrations created by name (constraints' own have no SQL), read
        // from the schema so that they come back exactly as they were.
        let indexes = try Row.fetchAll(
          db,
          sql: """
            SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
              AND tbl_name IN ('issue', 'issueLabel', 'issueAssignee')
              AND name NOT IN ('issue_by_githubId', 'issue_by_number')
            """)
        for index in indexes {
          try db.execute(sql: "DROP INDEX \"\(index["name"] as String)\"")
          dropped.append(index["sql"])
        }
      }
      defer {
        if let cacheSize { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
      }
      // One version per id and per number, as writing them one by one would leave: a plain
      // insert of a second one would break the unique indexes.
      let issues = bulk ? Self.oneVersionEach(update.issues) : update.issues
      try Self.writeIssues(issues, recordingSeen: false, advancingMarks: true, db)
      if bulk {
        for sql in dropped { try db.execute(sql: sql) }
        try Self.rebuildDeferredSearchIndex(db)
      }
      try Self.finish(syncedAt: update.syncedAt, db)
    }
  }

  /// The issues as writing them in order would leave the cache: per GitHub id the latest
  /// `updated_at` (the later one on a tie), then per number the last of those listed.
  static func oneVersionEach(_ issues: [GitHubIssue]) -> [GitHubIssue] {
    var byID: [Int64: Int] = [:]
    for (index, issue) in issues.enumerated() {
      if let kept = byID[issue.id], issues[kept].updatedAt > issue.updatedAt { continue }
      byID[issue.id] = index
    }
    guard byID.count < issues.count || Set(issues.map(\.number)).count < issues.count else {
      return issues
    }
    var byNumber: [Int: Int] = [:]
    for index in byID.values.sorted() { byNumber[issues[index].number] = index }
    return byNumber.values.sorted().map { issues[$0] }
  }

  /// Writes what a sync fetched before the issues, in one transaction: the repository, the complete
  /// list of milestones (issues of a deleted one lose it, as on GitHub) and labels, and their
  /// entity tags.
  ///
  /// `nil` lists are unchanged (`304`). Without `deletingMissing` (a list had an element that
  /// could not be read, so it is not known to be complete) nothing missing from them is deleted.
  package func writeMetadata(
    repository: GitHubRepository?, milestones: [GitHubMilestone]?, labels: [GitHubLabel]?,
    etags: [String: String], deletingMissing: Bool = true
  ) throws {
    try writer.write { db in
      try Self.writeMetadata(
        repository: repository, milestones: milestones, labels: labels, etags: etags,
        deletingMissing: deletingMissing, db)
    }
  }

  /// Writes one page of issues in its own transaction.
  ///
  /// With `advancingMarks` (the listing is in `updated_at` order so far), the high-water mark moves
  /// to the latest `updated_at` written, so that an interrupted sync resumes after it. During a
  /// full listing (``beginFullListing()``), the page's identifiers and `seenIDs` (items skipped but
  /// known to exist) are recorded as seen.
  ///
  /// The sub-issues of the page's parents, fetched before it is written, are recorded in the
  /// same transaction (see ``replaceSubIssues(of:with:etags:)``), with the entity tags of their
  /// lists: the marks never move past a page whose trees are not stored.
  ///
  /// A page inside a walk through one second passes where that walk stands (`resumePoint`),
  /// stored with it for a sync cut off there to go on from (``issueResumePoint()``); a page that
  /// moves the marks outside a walk clears it.
  public func writePage(
    _ issues: [GitHubIssue], seenIDs: [Int64] = [], advancingMarks: Bool,
    subIssues: [(parent: Int, children: [Int])] = [], etags: [String: String] = [:],
    resumePoint: ListingResumePoint? = nil
  ) throws {
    let resumeJSON = try resumePoint.map {
      String(decoding: try JSONEncoder().encode($0), as: UTF8.self)
    }
    try writer.write { db in
      if resumeJSON != nil || advancingMarks {
        try db.execute(
          sql: """
            INSERT INTO syncState(id, issueResumePoint) VALUES (1, ?)
            ON CONFLICT(id) DO UPDATE SET issueResumePoint = excluded.issueResumePoint
            """,
          arguments: [resumeJSON])
      }
      let recording =
        try Bool.fetchOne(db, sql: "SELECT fullListingPending FROM syncState WHERE id = 1") ?? false
      try Self.writeIssues(issues, recordingSeen: recording, advancingMarks: advancingMarks, db)
      for (parent, children) in subIssues {
        try Self.replaceSubIssues(of: parent, with: children, db)
      }
      try Self.storeETags(etags, db)
      if recording {
        for id in seenIDs {
          try db.execute(
            sql: "INSERT OR IGNORE INTO fullListingSeen(id) VALUES (?)", arguments: [id])
        }
      }
    }
  }

  /// Where a sync's issue listing cut off inside a walk through one second stands, or `nil`
  /// (none, or one that can no longer be read) to go on from the marks.
  package func issueResumePoint() throws -> ListingResumePoint? {
    let json = try writer.read { db in
      try String.fetchOne(db, sql: "SELECT issueResumePoint FROM syncState WHERE id = 1")
    }
    return json.flatMap { try? JSONDecoder().decode(ListingResumePoint.self, from: Data($0.utf8)) }
  }

  /// Forgets where walks through one second stood (the sync's and the mirror's): for a listing
  /// that found its walk could not be proved, so that the next one walks from the marks.
  package func forgetResumePoints() throws {
    try writer.write { db in
      try db.execute(
        sql: "UPDATE syncState SET issueResumePoint = NULL, mirrorIssueResumePoint = NULL")
    }
  }

  /// Starts a full listing: from now on written pages are recorded as seen, until
  /// ``finishListing(complete:syncedAt:highWaterMark:)`` deletes what was not seen.
  ///
  /// Starting one while another is pending keeps the pending one, so an interrupted full sync
  /// resumes. A new one forgets where an earlier listing's walk stood: a full listing must see
  /// every item itself, so it goes on only from points it stored.
  package func beginFullListing() throws {
    try writer.write { db in
      let pending =
        try Bool.fetchOne(db, sql: "SELECT fullListingPending FROM syncState WHERE id = 1") ?? false
      guard !pending else { return }
      try db.execute(sql: "DELETE FROM fullListingSeen")
      try db.execute(
        sql: """
          INSERT INTO syncState(id, fullListingPending, fullListingMark) VALUES (1, 1, NULL)
          ON CONFLICT(id) DO UPDATE SET fullListingPending = 1, fullListingMark = NULL,
            mirrorPullRequestCursor = NULL, mirrorIssueResumePoint = NULL, mirrorPhase = 0,
            issueResumePoint = NULL
          """)
    }
  }

  /// The cached items a pending full listing has not seen: each is deleted only once GitHub
  /// confirms it is gone (see ``finishListing(complete:syncedAt:highWaterMark:confirmedGone:)``).
  package func unlistedItems() throws -> [(id: Int64, number: Int)] {
    try writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT githubId, number FROM issue
          WHERE githubId IS NOT NULL AND githubId NOT IN (SELECT id FROM fullListingSeen)
          ORDER BY number
          """
      ).map { (id: $0["githubId"], number: $0["number"]) }
    }
  }

  /// Ends a sync: records when it finished and keeps the milestone identity true.
  ///
  /// With `complete` (the listing ended, and every cached item it did not see was asked for on
  /// its own), a pending full listing deletes the items of `confirmedGone` it did not see
  /// (deleted or transferred on GitHub) and ends; without it nothing is deleted and the full
  /// listing stays pending. An unseen item that is not in `confirmedGone` is never deleted.
  ///
  /// - Returns: How many items were deleted.
  @discardableResult
  package func finishListing(
    complete: Bool, syncedAt: Date, highWaterMark: Date? = nil, confirmedGone: [Int64] = []
  ) throws -> Int {
    try writer.write { db in
      // The marks move only now when the pages came out of `updated_at` order.
      if complete, let highWaterMark { try Self.advanceMarks(to: highWaterMark, db) }
      var deleted = 0
      let pending =
        try Bool.fetchOne(db, sql: "SELECT fullListingPending FROM syncState WHERE id = 1") ?? false
      if pending, complete {
        for id in confirmedGone {
          try db.execute(
            sql: """
              DELETE FROM issue WHERE githubId = ? AND githubId NOT IN (SELECT id FROM fullListingSeen)
              """,
            arguments: [id])
          deleted += db.changesCount
        }
        try db.execute(sql: "DELETE FROM fullListingSeen")
        try db.execute(
          sql: """
            UPDATE syncState SET fullListingPending = 0, fullListingMark = NULL,
              mirrorPullRequestCursor = NULL, mirrorIssueResumePoint = NULL, mirrorPhase = 0
            WHERE id = 1
            """)
      }
      if complete {
        // The listing ended: no walk is left to go on with.
        try db.execute(sql: "UPDATE syncState SET issueResumePoint = NULL WHERE id = 1")
        try Self.finish(syncedAt: syncedAt, db)
      } else {
        try Self.keepMilestoneIdentity(db)
      }
      return deleted
    }
  }

  // MARK: Steps, inside a transaction

  static func writeMetadata(
    repository: GitHubRepository?, milestones: [GitHubMilestone]?, labels: [GitHubLabel]?,
    etags: [String: String], deletingMissing: Bool = true, _ db: Database
  ) throws {
    if let repository {
      try db.execute(sql: "DELETE FROM repository")
      try db.execute(
        sql:
          "INSERT INTO repository(id, fullName, isPrivate, htmlURL, description, openIssuesCount) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [
          repository.id, repository.fullName, repository.isPrivate, repository.htmlURL,
          repository.description,
          repository.openIssuesCount,
        ])
    }
    if let milestones {
      let kept = Set(milestones.map(\.id))
      let keptNumbers = Set(milestones.map(\.number))
      let existing = try Row.fetchAll(db, sql: "SELECT id, number FROM milestone")
      for row in existing where deletingMissing && !kept.contains(row["id"]) {
        let number: Int = row["number"]
        // A row under another id with a number GitHub still lists (a stand-in a mirror wrote)
        // is replaced below, and its issues keep the milestone.
        if !keptNumbers.contains(number) {
          // Deleting a milestone on GitHub takes it off its issues without touching their
          // `updated_at`, so no later sync would bring them back: do it here.
          try db.execute(
            sql: "UPDATE issue SET milestoneNumber = NULL WHERE milestoneNumber = ?",
            arguments: [number])
        }
        try db.execute(sql: "DELETE FROM milestone WHERE id = ?", arguments: [row["id"] as Int64])
      }
      for milestone in milestones { try upsert(milestone, db) }
    }
    if let labels {
      if deletingMissing { try db.execute(sql: "DELETE FROM label") }
      for label in labels { try upsert(label, db) }
    }
    for (url, etag) in etags {
      try db.execute(
        sql:
          "INSERT INTO etag(url, etag) VALUES (?, ?) ON CONFLICT(url) DO UPDATE SET etag = excluded.etag",
        arguments: [url, etag])
    }
  }

  /// Upserts issues with the milestones and labels they embed, and advances the high-water marks.
  static func writeIssues(
    _ issues: [GitHubIssue], recordingSeen: Bool, advancingMarks: Bool, _ db: Database
  ) throws {
    guard !issues.isEmpty else { return }
    // Milestones and labels embedded in issues, written once each rather than once per issue.
    // By number, the key REST and GraphQL share (GraphQL's have no REST id).
    var embeddedMilestones: [Int: GitHubMilestone] = [:]
    var embeddedLabels: [String: GitHubLabel] = [:]
    var latest: Date?
    for issue in issues {
      if let milestone = issue.milestone { embeddedMilestones[milestone.number] = milestone }
      for label in issue.labels { embeddedLabels[label.name] = label }
      if latest.map({ issue.updatedAt > $0 }) ?? true { latest = issue.updatedAt }
    }
    for milestone in embeddedMilestones.values { try upsert(milestone, db) }
    for label in embeddedLabels.values { try upsert(label, db) }
    // Issues the cache has never held (by identifier or number) need none of the checks and
    // deletions an update does: found for the whole batch at once.
    var known = try knownIdentities(of: issues, db)
    let statements = try IssueStatements(db)
    let recordSeen = try db.cachedStatement(
      sql: "INSERT OR IGNORE INTO fullListingSeen(id) VALUES (?)")
    for issue in issues {
      let isNew = !known.ids.contains(issue.id) && !known.numbers.contains(issue.number)
      try upsert(issue, isNew: isNew, statements, db)
      known.ids.insert(issue.id)
      known.numbers.insert(issue.number)
      if recordingSeen { try recordSeen.execute(arguments: [issue.id]) }
    }
    if advancingMarks, let latest { try advanceMarks(to: latest, db) }
    // GitHub's version of an issue with queued actions shows them on top, as before.
    try reshowQueuedActions(onIssues: issues.map(\.number), db)
  }

  /// The identifiers and numbers among `issues` that the cache already holds.
  static func knownIdentities(of issues: [GitHubIssue], _ db: Database) throws -> (
    ids: Set<Int64>, numbers: Set<Int>
  ) {
    var ids: Set<Int64> = []
    var numbers: Set<Int> = []
    guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM issue)") ?? false else {
      return (ids, numbers)
    }
    for chunk in stride(from: 0, to: issues.count, by: 400) {
      let part = issues[chunk..<min(issues.count, chunk + 400)]
      let marks = Array(repeating: "?", count: part.count).joined(separator: ",")
      let rows = try Row.fetchAll(
        db,
        sql:
          "SELECT githubId, number FROM issue WHERE githubId IN (\(marks)) OR number IN (\(marks))",
        arguments: StatementArguments(part.map(\.id) + part.map { Int64($0.number) }))
      for row in rows {
        if let id: Int64 = row[0] { ids.insert(id) }
        if let number: Int = row[1] { numbers.insert(number) }
      }
    }
    return (ids, numbers)
  }

  /// Moves the high-water mark (and a pending full listing's resume point) to `latest` if later.
  static func advanceMarks(to latest: Date, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO syncState(id, highWaterMark) VALUES (1, ?)
        ON CONFLICT(id) DO UPDATE SET
          highWaterMark = max(coalesce(highWaterMark, excluded.highWaterMark), excluded.highWaterMark),
          fullListingMark = CASE WHEN fullListingPending
            THEN max(coalesce(fullListingMark, excluded.highWaterMark), excluded.highWaterMark)
            ELSE fullListingMark END
        """,
      arguments: [latest])
  }

  /// Records a finished sync and keeps the milestone identity.
  static func finish(syncedAt: Date, _ db: Database) throws {
    try keepMilestoneIdentity(db)
    try db.execute(
      sql: """
        INSERT INTO syncState(id, lastSyncedAt) VALUES (1, ?)
        ON CONFLICT(id) DO UPDATE SET lastSyncedAt = excluded.lastSyncedAt
        """,
      arguments: [syncedAt])
  }

  /// Every issue's milestone is one the cache lists, so that "All" is always "No milestone" plus
  /// the sum of the milestones.
  static func keepMilestoneIdentity(_ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE issue SET milestoneNumber = NULL
        WHERE milestoneNumber IS NOT NULL AND milestoneNumber NOT IN (SELECT number FROM milestone)
        """)
  }

  /// Writes a milestone, keyed by its number within the repository.
  ///
  /// REST and GraphQL share the number; one known by number alone (id 0: embedded in a GraphQL node, which has no REST
  /// id) never replaces a REST row — it refreshes that row's title, or, when there is none yet,
  /// stands in for it under a placeholder id (minus its number) that the REST row replaces.
  static func upsert(_ milestone: GitHubMilestone, _ db: Database) throws {
    if milestone.id == 0 {
      try db.execute(
        sql: "UPDATE milestone SET title = ? WHERE number = ?",
        arguments: [storable(milestone.title), milestone.number])
      guard db.changesCount == 0 else { return }
      var placeholder = milestone
      placeholder.id = -Int64(milestone.number)
      try upsert(placeholder, db)
      return
    }
    try db.execute(
      sql: "DELETE FROM milestone WHERE number = ? AND id != ?",
      arguments: [milestone.number, milestone.id])
    try db.cachedStatement(
      sql: """
        INSERT INTO milestone(id, number, title, state, description, dueOn, openIssues, closedIssues,
          createdAt, updatedAt, closedAt, htmlURL)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET number = excluded.number, title = excluded.title,
          state = excluded.state, description = excluded.description, dueOn = excluded.dueOn,
          openIssues = coalesce(excluded.openIssues, openIssues),
          closedIssues = coalesce(excluded.closedIssues, closedIssues),
          createdAt = excluded.createdAt, updatedAt = excluded.updatedAt, closedAt = excluded.closedAt,
          htmlURL = excluded.htmlURL
        """
    ).execute(arguments: [
      milestone.id, milestone.number, storable(milestone.title), milestone.state.rawValue,
      milestone.description,
      milestone.dueOn, milestone.openIssues, milestone.closedIssues, milestone.createdAt,
      milestone.updatedAt,
      milestone.closedAt, milestone.htmlURL,
    ])
  }

  static func upsert(_ label: GitHubLabel, _ db: Database) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO label(name, id, color, description, nodeId) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET id = coalesce(excluded.id, id), color = coalesce(excluded.color, color),
          description = coalesce(excluded.description, description),
          nodeId = coalesce(excluded.nodeId, nodeId)
        """
    ).execute(arguments: [
      storableLabelName(label.name), label.id, label.color, label.description, label.nodeID,
    ])
  }

  /// Writes an issue and its label links; its milestone and labels must be written already.
  ///
  /// The labels go to two places written together here: `issueLabel` (one row per label, what
  /// the label filter reads) and `issue.labelNames` (the same names, sorted and distinct, joined
  /// by U+001F, so that reading a row needs no join). Under `TRELLIS_INTERNAL_CHECKS` every write
  /// checks that the two agree (``labelCopyMismatches(_:keys:)``).
  ///
  /// A version older than the cached one is not written: a sync page fetched before an edit
  /// landed must not put the old state back over GitHub's answer to the edit. A cached version
  /// dated more than a day ahead of this machine's clock (a server whose clock was wrong) holds
  /// nothing off.
  static func upsert(
    _ issue: GitHubIssue, isNew: Bool = false, _ statements: IssueStatements? = nil,
    _ db: Database
  ) throws {
    let statements = try statements ?? IssueStatements(db)
    if !isNew,
      let cached = try Date.fetchOne(statements.updatedAt, arguments: [issue.id]),
      // The cache keeps milliseconds: a stored date may round up past the one it came from.
      cached.timeIntervalSince(issue.updatedAt) >= 0.001,
      cached.timeIntervalSinceNow < 86_400
    {
      return
    }
    if !isNew {
      try statements.deleteOtherWithNumber.execute(arguments: [issue.number, issue.id])
    }
    var names = issue.labels.map { storableLabelName($0.name) }.sorted()
    if names.count > 1 {
      // Distinct: a label listed twice is linked once.
      names = names.indices.filter { $0 == 0 || names[$0] != names[$0 - 1] }.map { names[$0] }
    }
    // The row's key: a new one for an item the cache never held (a plain insert), the kept one
    // otherwise.
    let key: Int64
    if isNew {
      bindColumns(of: issue, labelNames: names, to: statements.insert)
      try statements.insert.execute()
      key = db.lastInsertedRowID
    } else {
      // Prepared when first needed: an import into an empty cache never runs it.
      let upsert = try statements.upsert(db)
      bindColumns(of: issue, labelNames: names, to: upsert)
      guard let written = try upsert.fetchInteger() else {
        preconditionFailure("The upsert of #\(issue.number) answered no key.")
      }
      key = written
    }
    if (issue.subIssues?.total ?? 0) == 0, let deleteSubIssues = statements.deleteSubIssues {
      // No sub-issues any more: none to nest under it.
      try deleteSubIssues.execute(arguments: [issue.number])
    }
    if !isNew {
      try statements.deleteAssignees.execute(arguments: [key])
      try statements.deleteLabels.execute(arguments: [key])
    }
    for assignee in issue.assignees {
      statements.insertAssignee.bind(key)
      statements.insertAssignee.bind(storable(assignee.login))
      statements.insertAssignee.bind(assignee.nodeID)
      try statements.insertAssignee.execute()
    }
    for name in names {
      statements.insertLabel.bind(key)
      statements.insertLabel.bind(name)
      try statements.insertLabel.execute()
    }
    #if TRELLIS_INTERNAL_CHECKS
    let mismatches = try labelCopyMismatches(db, keys: [key])
    precondition(
      mismatches.isEmpty, "issue.labelNames disagrees with issueLabel for #\(issue.number)")
    #endif
  }

  /// Binds an issue's ``IssueColumns/written`` values, in that order.
  private static func bindColumns(
    of issue: GitHubIssue, labelNames names: [String], to statement: BoundStatement
  ) {
    statement.bind(issue.id)
    statement.bind(issue.number)
    statement.bind(storable(issue.title))
    statement.bind(issue.body.map(storable))
    statement.bind(issue.state.rawValue)
    statement.bind(issue.stateReason)
    statement.bind(storable(issue.user.login))
    statement.bind(issue.milestone?.number)
    statement.bind(issue.comments)
    // Dates as GRDB stores them, formatted without its `DateFormatter`.
    statement.bind(GitHubDate.databaseText(issue.createdAt))
    statement.bind(GitHubDate.databaseText(issue.updatedAt))
    statement.bind(issue.closedAt.map(GitHubDate.databaseText))
    statement.bind(issue.isPullRequest)
    statement.bind(issue.htmlURL)
    statement.bind(names.joined(separator: "\u{1F}"))
    statement.bind(issue.subIssues?.total ?? 0)
    statement.bind(issue.subIssues?.completed ?? 0)
    statement.bind(issue.user.nodeID)
    statement.bind(issue.user.isBot)
    statement.bind(issue.nodeID)
    statement.bind(issue.issueType)
    statement.bind(issue.isDraft)
    statement.bind(issue.mergedAt.map(GitHubDate.databaseText))
  }

  /// The statements an issue's upsert runs, prepared once for a batch of issues rather than
  /// looked up by their SQL for every row; those run for every row bind their values directly.
  final class IssueStatements {
    let updatedAt: Statement
    let deleteOtherWithNumber: Statement
    let insert: BoundStatement
    /// `nil` while no issue has sub-issues recorded: nothing to delete, for any row of the batch
    /// (a batch writes its trees after its issues).
    let deleteSubIssues: Statement?
    let deleteAssignees: Statement
    let deleteLabels: Statement
    let insertAssignee: BoundStatement
    let insertLabel: BoundStatement
    private var preparedUpsert: BoundStatement?

    init(_ db: Database) throws {
      updatedAt = try db.cachedStatement(sql: "SELECT updatedAt FROM issue WHERE githubId = ?")
      deleteOtherWithNumber = try db.cachedStatement(
        sql: "DELETE FROM issue WHERE number = ? AND githubId IS NOT ?")
      insert = try BoundStatement(db, sql: IssueColumns.insertSQL)
      deleteSubIssues =
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM subIssue)") ?? true
        ? try db.cachedStatement(sql: "DELETE FROM subIssue WHERE parentNumber = ?") : nil
      deleteAssignees = try db.cachedStatement(sql: "DELETE FROM issueAssignee WHERE issueKey = ?")
      deleteLabels = try db.cachedStatement(sql: "DELETE FROM issueLabel WHERE issueKey = ?")
      // Listed twice, or in two cases, an assignee is one row: the key compares without case.
      insertAssignee = try BoundStatement(
        db, sql: "INSERT OR IGNORE INTO issueAssignee(issueKey, login, nodeId) VALUES (?, ?, ?)")
      insertLabel = try BoundStatement(
        db, sql: "INSERT INTO issueLabel(issueKey, labelName) VALUES (?, ?)")
    }

    /// The upsert by GitHub id, answering the row's key.
    func upsert(_ db: Database) throws -> BoundStatement {
      if let preparedUpsert { return preparedUpsert }
      let statement = try BoundStatement(db, sql: IssueColumns.upsertSQL)
      preparedUpsert = statement
      return statement
    }
  }

  /// A label's name as stored: ``storable(_:)``, and U+001F, which separates the names in
  /// `issue.labelNames`, as `␟`, so that no name from the network can split into two.
  static func storableLabelName(_ name: String) -> String {
    let text = storable(name)
    return text.utf8.contains(0x1F)
      ? text.replacingOccurrences(of: "\u{1F}", with: "\u{241F}") : text
  }

  /// The numbers of the issues (of `keys`, or all when `nil`) whose `labelNames` is not the
  /// sorted list of their `issueLabel` rows: empty while the two copies agree.
  static func labelCopyMismatches(_ db: Database, keys: [Int64]? = nil) throws -> [Int] {
    var links: [Int64: [String]] = [:]
    var rows: [(id: Int64, number: Int, names: String)] = []
    if let keys {
      for key in keys {
        for name in try String.fetchAll(
          db, sql: "SELECT labelName FROM issueLabel WHERE issueKey = ?", arguments: [key])
        {
          links[key, default: []].append(name)
        }
        if let row = try Row.fetchOne(
          db, sql: "SELECT key, number, labelNames FROM issue WHERE key = ?", arguments: [key])
        {
          rows.append((row[0], row[1], row[2]))
        }
      }
    } else {
      for row in try Row.fetchAll(db, sql: "SELECT issueKey, labelName FROM issueLabel") {
        links[row[0], default: []].append(row[1])
      }
      rows = try Row.fetchAll(db, sql: "SELECT key, number, labelNames FROM issue").map {
        ($0[0], $0[1], $0[2])
      }
    }
    return rows.filter { row in
      (links[row.id] ?? []).sorted().joined(separator: "\u{1F}") != row.names
    }.map(\.number).sorted()
  }

  /// The private-use character that escapes what SQLite's C strings cannot carry.
  static let escape: Character = "\u{E000}"

  /// Text as the cache keeps it: a NUL would end it there (GRDB binds C strings), so it is
  /// written as U+E000 `0`, and U+E000 itself as U+E000 `e`; ``restored(_:)`` gives back the text
  /// as GitHub sent it.
  static func storable(_ text: String) -> String {
    // U+E000 is EE 80 80 in UTF-8: most text has neither byte and is stored as it is (found by
    // `memchr`, many bytes a step, where it can read the bytes in place).
    let mayNeedEscapes =
      text.utf8.withContiguousStorageIfAvailable { bytes in
        guard let start = bytes.baseAddress else { return false }
        return memchr(start, 0, bytes.count) != nil || memchr(start, 0xEE, bytes.count) != nil
      } ?? text.utf8.contains(where: { $0 == 0 || $0 == 0xEE })
    guard mayNeedEscapes else { return text }
    guard text.contains(where: { $0 == "\u{0}" || $0 == escape }) else { return text }
    var stored = ""
    stored.reserveCapacity(text.utf8.count + 8)
    for character in text {
      switch character {
      case "\u{0}": stored += "\u{E000}0"
      case escape: stored += "\u{E000}e"
      default: stored.append(character)
      }
    }
    return stored
  }

  /// Text read back from the cache as it was before ``storable(_:)``.
  static func restored(_ text: String) -> String {
    guard text.utf8.contains(0xEE), text.contains(escape) else { return text }
    var restored = ""
    restored.reserveCapacity(text.utf8.count)
    var escaping = false
    for character in text {
      if escaping {
        restored.append(character == "0" ? "\u{0}" : character == "e" ? escape : character)
        escaping = false
      } else if character == escape {
        escaping = true
      } else {
        restored.append(character)
      }
    }
    return restored
  }
}
