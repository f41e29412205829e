import Foundation

/// Makes the cache a mirror of a repository through GitHub's GraphQL API: every issue with its
/// whole conversation (comments with reactions, the events a reader shows, sub-issues with their
/// order, issue types), and every pull request as a row, for reading offline.
///
/// REST would take a request per issue for each conversation (about 100,000 requests, 20 hours
/// of a token's quota, for a repository of 100,000 issues); a GraphQL page brings 49 issues with
/// their labels, assignees and first 100 timeline entries for one point (see ``MirrorQuery``).
///
/// **Listing.** Issues are listed oldest update first through an ``UpdatedOrderListing``: each
/// page asks again from the latest `updatedAt` seen (GraphQL's `since` is exact), so an issue
/// edited during the listing is seen again and never shifts another out, whatever the server's
/// cursors are; ties are walked through the cursors. Pull requests (GraphQL's `pullRequests` has
/// no `since`) are walked through their cursors after the issues, as rows.
///
/// **Conversations.** An issue whose timeline fits its page is written complete with the page.
/// The others, and any whose timeline came back with an error, are fetched after the listing,
/// up to 149 issues a query (one point), continued with their own cursors; a conversation is
/// complete only when it reached its last page and holds the `totalCount` GitHub announced. A
/// cached comment missing from a complete conversation is deleted only once GitHub confirms it
/// is gone (its node answers `NOT_FOUND`, or REST answers `404`).
///
/// **Budget.** See ``MirrorSession``: estimated before each query, read back from each answer,
/// stopped (with ``GitHubError/Code/rateLimited``) before it would run out; everything fetched
/// stays, and the next sync resumes from the last page written. Pages that time out shrink.
///
/// **Deletions.** The mirror is a full listing (``IssueCache/beginFullListing()``): only when
/// issues and pull requests were both listed to their end, nothing was unreadable, and every
/// cached item not listed was asked for on its own, is what GitHub confirms gone deleted.
///
/// Later syncs of a mirror use REST for what changed (a `304` costs nothing), then fetch through
/// GraphQL only the conversations that changed: see ``completeConversations(progress:)``. A
/// deleted item is listed nowhere, so each later sync also counts the repository's issues and
/// pull requests (one query, 1 point) and, where the cache holds more, finds which ones GitHub
/// confirms gone and deletes only those (``findDeletions(in:rest:run:)``).
package struct MirrorSynchronizer: Sendable {
  /// The client; it must carry a token (GraphQL has no anonymous access).
  package let client: GitHubClient
  /// The cache written to.
  package let cache: IssueCache
  /// The repository.
  package let repository: RepositoryName
  /// Points never spent, left for other work with the same token.
  package var reserve = 50
  /// The most points this sync may spend, or `nil` for what the budget allows.
  package var pointLimit: Int?
  /// GraphQL points a minute at most (GitHub's secondary limit is 2,000).
  package var pointsPerMinute = 1_800
  /// What to do when another sync of the same cache file is running.
  package var lockPolicy: IssueSynchronizer.LockPolicy = .wait(waiting: { _ in })

  /// Creates a synchronizer.
  package init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// Lists every issue with its conversation, and every pull request, into the cache; resumes a
  /// mirror that was cut off.
  ///
  /// - Throws: ``GitHubError``; everything written before it stays. ``GitHubError/Code/rateLimited``
  ///   when the budget would run out (the next sync resumes), ``GitHubError/Code/incompleteListing``
  ///   when the listing cannot prove it saw everything (nothing was deleted).
  @discardableResult
  package func sync(
    progress: @Sendable (SyncProgress) -> Void = { _ in }
  ) async throws(GitHubError) -> MirrorSummary {
    let (rest, lock) = try await begin()
    defer { withExtendedLifetime(lock) {} }
    let session = makeSession()
    var run = Run(session: session)
    // Into an empty cache the search index is built once, at the end, as a first REST sync
    // does; killed before that, the next open builds it.
    let state = try step("read") { try cache.syncState() }
    let defersIndex = state.highWaterMark == nil && state.itemCount == 0
    if defersIndex { try step("write") { try cache.deferSearchIndex() } }
    do throws(GitHubError) {
      try await mirror(&run, rest: rest, progress: progress)
    } catch {
      _ = try? cache.recordMirror(pointsSpent: session.spent, isMirror: false)
      if defersIndex { _ = try? cache.rebuildDeferredSearchIndex() }
      throw error
    }
    if defersIndex { _ = try step("write") { try cache.rebuildDeferredSearchIndex() } }
    return try summary(of: run, restRequests: run.restRequests)
  }

  /// Fetches through GraphQL every conversation the cache holds incomplete.
  ///
  /// An issue's conversation is incomplete when it was not listed whole since the issue last
  /// changed: this is what a plain sync of a mirror does after its REST listing (which brings
  /// the rows and sub-issue lists). Nothing to fetch costs nothing.
  @discardableResult
  package func completeConversations(
    progress: @Sendable (SyncProgress) -> Void = { _ in }
  ) async throws(GitHubError) -> MirrorSummary {
    let (_, lock) = try await begin()
    defer { withExtendedLifetime(lock) {} }
    var run = Run(session: makeSession())
    do throws(GitHubError) {
      try await fetchIncompleteConversations(&run, progress: progress)
    } catch {
      _ = try? cache.recordMirror(pointsSpent: run.session.spent, isMirror: false)
      throw error
    }
    await deleteWhatGitHubNoLongerHas(&run)
    _ = try step("write") {
      try cache.recordMirror(pointsSpent: run.session.spent, isMirror: false)
    }
    return try summary(of: run, restRequests: 0)
  }

  // MARK: The mirror

  /// What one run has done so far.
  struct Run {
    let session: MirrorSession
    var items = 0
    var conversations = 0
    var subIssueLists = 0
    var restRequests = 0
    var deleted = 0
    var skipped: [SkippedItem] = []
    /// Why the listing cannot vouch for having seen everything, or `nil`.
    var gap: String?
  }

  private func mirror(
    _ run: inout Run, rest: IssueSynchronizer, progress: @Sendable (SyncProgress) -> Void
  ) async throws(GitHubError) {
    let metadata = try await rest.syncMetadata(beginningFullListing: true, progress: progress)
    run.restRequests += metadata.pages + 1
    run.session.features = try await schemaFeatures()
    run.skipped += metadata.skipped
    let owner = metadata.renamedTo.flatMap { RepositoryName($0) } ?? repository
    let state = try step("read") { try cache.syncState() }
    let resumeAfter = state.pendingFullListing?.resumeAfter
    let session = run.session
    func report(_ phase: SyncProgress.Phase, _ pages: Int, _ items: Int) {
      progress(
        SyncProgress(
          phase: phase, pages: pages, items: items, points: (session.spent, session.remaining)))
    }

    // A mirror cut off resumes at the phase it reached: what an earlier phase listed to its
    // end is not listed again (what changed since, the next sync brings).
    var phase = try step("read") { try cache.mirrorListingPhase() }
    var latest: Date?
    if phase == .issues {
      // Issues, with what fits of their conversations.
      var issues = UpdatedOrderListing<MirrorItem>(
        since: resumeAfter, overlap: 0, defaultPageBudget: 1
      ) { since in
        MirrorPages(kind: .issues, session: session, repository: owner, since: since)
      }
      issues.openAfter = { since, after in
        MirrorPages(kind: .issues, session: session, repository: owner, since: since, after: after)
      }
      // Inside a block of one second, a resumed mirror goes on from where it stood.
      if resumeAfter != nil, let point = try step("read", { try cache.mirrorIssueResumePoint() }) {
        issues.resume(at: point)
      }
      let gapBefore = run.gap
      // Once an item could not be read, no mark moves past it in this run: the next run lists
      // from the mark again and reads it.
      var unreadItem = false
      while let page = try await issues.next() {
        run.items += page.items.count
        run.skipped += page.skipped
        if let unread = page.skipped.first(where: { $0.id == nil }) {
          unreadItem = true
          run.gap = "\(unread)"
        }
        for item in page.items { latest = max(latest ?? item.updatedAt, item.updatedAt) }
        try await write(
          page, advancingMarks: page.inOrder && !unreadItem,
          issueResumePoint: unreadItem ? nil : page.resumePoint, run: &run)
        report(.issues, session.queries, run.items)
        if try step("read", { try cache.pendingSubIssueParents(limit: batchSize(session)) })
          .count >= batchSize(session)
        {
          try await fetchSubIssueLists(&run, in: owner, progress: report)
        }
      }
      if let unproven = issues.unproven {
        run.gap = unproven
        // Where its walk stood is not a place to go on from: the next run walks from the mark.
        try step("write") { try cache.forgetResumePoints() }
      }
      if run.gap == gapBefore {
        phase = .pullRequests
        try step("write") { try cache.recordMirrorListingPhase(phase) }
      }
    }

    if phase == .pullRequests {
      // Pull requests, as rows: their `updatedAt` order is walked through cursors (GraphQL's
      // `pullRequests` has no `since`), and moves no mark; a resumed mirror goes on from the
      // cursor stored with the last page written.
      let resumedCursor = try step("read") { try cache.mirrorPullRequestCursor() }
      let gapBefore = run.gap
      do throws(GitHubError) {
        try await listPullRequests(from: resumedCursor, in: owner, run: &run, progress: report)
      } catch let error where error.code == .validation && resumedCursor != nil {
        // A cursor GitHub no longer takes: the pull requests are listed again from the start.
        do throws(GitHubError) {
          try await listPullRequests(from: nil, in: owner, run: &run, progress: report)
        } catch let error where error.code == .validation {
          noPullRequests(error, &run)
        }
      } catch let error where error.code == .validation {
        noPullRequests(error, &run)
      }
      if run.gap == gapBefore {
        phase = .listed
        try step("write") { try cache.recordMirrorListingPhase(phase) }
      }
    }

    try await fetchSubIssueLists(&run, in: owner, progress: report)
    try await fetchIncompleteConversations(&run, progress: progress)

    report(.saving, session.queries, run.items)
    var confirmedGone: [Int64] = []
    if run.gap == nil {
      do throws(GitHubError) {
        // Issues listed, then deleted before the listing ended: taken out of the seen set, so
        // that the unlisted-item check below proves them gone with the rest.
        let found = try await findDeletions(in: owner, rest: rest, run: &run)
        try step("write") { try cache.forgetSeen(found) }
        var pages = 0
        confirmedGone = try await rest.confirmUnlisted(in: owner, pages: &pages)
        run.restRequests += pages
      } catch  where error.code == .rateLimited {
        // The budget ran out: the next run goes on from here (the phase is recorded).
        throw error
      } catch {
        run.gap = error.detail ?? error.description
      }
    }
    if let gap = run.gap {
      // The points are counted once, by the caller that sees this run end in an error.
      _ = try step("write") { try cache.finishListing(complete: false, syncedAt: Date()) }
      throw GitHubError(.incompleteListing, url: "mirror of \(repository)", detail: gap)
    }
    run.deleted = try step("write") {
      let deleted = try cache.finishListing(
        complete: true, syncedAt: Date(), highWaterMark: latest, confirmedGone: confirmedGone)
      try cache.recordMirror(pointsSpent: session.spent, isMirror: true)
      return deleted
    }
  }

  /// Lists the pull requests as rows, from a cursor, storing the cursor with each page.
  private func listPullRequests(
    from cursor: String?, in owner: RepositoryName, run: inout Run,
    progress report: (SyncProgress.Phase, Int, Int) -> Void
  ) async throws(GitHubError) {
    let session = run.session
    let position = CursorPosition(cursor)
    var pullRequests = UpdatedOrderListing<MirrorItem>(
      since: nil, overlap: 0, defaultPageBudget: 1, isKeyed: false
    ) { _ in
      MirrorPages(
        kind: .pullRequests, session: session, repository: owner, since: nil, after: cursor,
        position: position)
    }
    while let page = try await pullRequests.next() {
      run.items += page.items.count
      run.skipped += page.skipped
      if let unread = page.skipped.first(where: { $0.id == nil }) {
        run.gap = "\(unread)"
      }
      try await write(page, advancingMarks: false, pullRequestCursor: position.cursor, run: &run)
      report(.pullRequests, session.queries, run.items)
    }
    if let unproven = pullRequests.unproven { run.gap = unproven }
  }

  /// A GitHub without `pullRequests` in its schema: their REST rows stay, and nothing is
  /// deleted, since they were not listed.
  private func noPullRequests(_ error: GitHubError, _ run: inout Run) {
    run.gap = "pull requests could not be listed (\(error.detail ?? error.description))"
    run.skipped.append(SkippedItem(id: nil, number: nil, reason: run.gap ?? ""))
  }

  /// Writes a listed page: its items, the conversations that fit it, and notes the parents
  /// whose sub-issue lists are to be fetched.
  private func write(
    _ page: UpdatedOrderListing<MirrorItem>.Fresh, advancingMarks: Bool,
    pullRequestCursor: String? = nil, issueResumePoint: ListingResumePoint? = nil,
    run: inout Run
  ) async throws(GitHubError) {
    var conversations: [MirroredConversation] = []
    for item in page.items where !item.issue.isPullRequest {
      guard let timeline = item.node.timelineItems,
        timeline.pageInfo?.hasNextPage != true,
        let conversation = ConversationPages.complete(
          number: item.issue.number, updatedAt: item.issue.updatedAt, total: timeline.totalCount,
          entries: timeline.nodes)
      else { continue }
      conversations.append(conversation)
    }
    conversations = try await confirmingGone(conversations, run: &run)
    let parents = page.items.filter {
      ($0.issue.subIssues?.total ?? 0) > 0 && !$0.issue.isPullRequest
    }
    let current = try step("read") { try cache.currentSubIssueLists(of: parents.map(\.issue)) }
    let parentsToFetch = parents.map(\.issue.number).filter { !current.contains($0) }
    let pending = conversations
    try step("write") {
      try cache.writeMirrorPage(
        page.items.map(\.issue), seenIDs: page.skipped.compactMap(\.id),
        advancingMarks: advancingMarks, conversations: pending, parentsToFetch: parentsToFetch,
        pullRequestCursor: pullRequestCursor, issueResumePoint: issueResumePoint)
    }
    run.conversations += conversations.count
  }

  /// Aliases a batch query may carry for one point, at the session's current size.
  private func batchSize(_ session: MirrorSession) -> Int {
    session.sizes.page(MirrorQuery.bestPageSize(nested: 1, fixed: 0, limit: 200))
  }

  // MARK: Conversations

  /// Fetches every conversation the cache holds incomplete, from its start, a batch of issues a
  /// query, each continued with its own cursor until complete.
  private func fetchIncompleteConversations(
    _ run: inout Run, progress: @Sendable (SyncProgress) -> Void
  ) async throws(GitHubError) {
    let session = run.session
    var queue = try step("read") { try cache.incompleteConversations() }[...]
    var active: [ConversationPages] = []
    // Issues that cannot be completed now (changed meanwhile, gone, unreadable) are left for
    // the next sync; the cache query would otherwise offer them again.
    var done = 0
    // Queries GitHub refused for a cursor, those it answered, and refusals in a row.
    var refusals = 0
    var queriesAnswered = 0
    var inARow = 0
    while !queue.isEmpty || !active.isEmpty {
      let size = batchSize(session)
      while active.count < size, let next = queue.popFirst() {
        active.append(ConversationPages(number: next.number, updatedAt: next.updatedAt))
      }
      let batch = active
      let response: GraphQLResponse<AliasedIssues>
      do {
        response = try await session.send("MirrorTimelines", as: AliasedIssues.self) { sizes in
          let count = min(batch.count, sizes.page(size))
          var variables: [String: GraphQLValue] = [
            "owner": .string(repository.owner), "name": .string(repository.name),
            "timeline": .int(sizes.timeline),
          ]
          for (index, pages) in batch.prefix(count).enumerated() {
            variables["n\(index)"] = .int(pages.number)
            variables["a\(index)"] = pages.cursor.map(GraphQLValue.string) ?? .null
          }
          return (
            MirrorQuery.timelines(count: count), variables, MirrorQuery.points(requests: count)
          )
        }
        queriesAnswered += 1
        inARow = 0
      } catch  where error.isRefusedCursor && batch.contains(where: { $0.cursor != nil }) {
        // A cursor GitHub did not take: each is where its conversation's pages so far end, so
        // the query is asked again with them; refused again and again, the continued
        // conversations start over from their first page (twice at most, then they are left
        // for the next sync), and the others go on.
        refusals += 1
        inARow += 1
        guard CursorRefusals.allowsRefusal(refusals, afterPages: queriesAnswered) else {
          throw error
        }
        if inARow >= CursorRefusals.triesPerCursor {
          inARow = 0
          active = batch.compactMap { pages in
            guard pages.cursor != nil else { return pages }
            let restarted = pages.restarted()
            guard restarted.restarts <= CursorRefusals.maximumRestarts else {
              run.skipped.append(
                SkippedItem(
                  id: nil, number: pages.number,
                  reason: "its conversation could not be read (GitHub refused its cursors)"))
              return nil
            }
            return restarted
          }
        }
        continue
      }
      let answered = response.data?.entries ?? [:]
      var finished: [MirroredConversation] = []
      var next: [ConversationPages] = []
      // A query that answered none of its aliases would be sent forever: its issues are left
      // for the next sync instead.
      let reason = response.errors.first?.message ?? "no answer"
      for (index, var pages) in batch.enumerated() {
        guard answered.keys.contains("i\(index)") else {
          if answered.isEmpty {
            run.skipped.append(
              SkippedItem(
                id: nil, number: pages.number,
                reason: "its conversation could not be read (\(reason.prefix(200)))"))
          } else {
            // Not in this (shrunk) query: asked again next time.
            next.append(pages)
          }
          continue
        }
        switch pages.take(answered["i\(index)"] ?? nil) {
        case .more: next.append(pages)
        case .complete(let conversation): finished.append(conversation)
        case .abandoned(let reason):
          run.skipped.append(
            SkippedItem(id: nil, number: pages.number, reason: "its conversation \(reason)"))
        }
      }
      finished = try await confirmingGone(finished, run: &run)
      let written = finished
      try step("write") { try cache.writeConversations(written) }
      run.conversations += finished.count
      done += finished.count
      active = next
      progress(
        SyncProgress(
          phase: .conversations, pages: session.queries, items: done,
          points: (session.spent, session.remaining)))
    }
  }

  /// The conversations, with the cached comments each does not list checked one by one: those
  /// GitHub confirms gone are recorded to be deleted; a conversation with one that cannot be
  /// confirmed either way is left out (not complete).
  private func confirmingGone(
    _ conversations: [MirroredConversation], run: inout Run
  ) async throws(GitHubError) -> [MirroredConversation] {
    guard !conversations.isEmpty else { return [] }
    let cached = try step("read") {
      try cache.cachedCommentIdentities(of: conversations.map(\.number))
    }
    var unlisted: [(conversation: Int, id: Int64, nodeId: String?)] = []
    for (index, conversation) in conversations.enumerated() {
      let listed = Set(conversation.comments.map(\.id))
      for comment in cached[conversation.number] ?? [] where !listed.contains(comment.id) {
        unlisted.append((index, comment.id, comment.nodeId))
      }
    }
    guard !unlisted.isEmpty else { return conversations }
    var result = conversations
    var unsure: Set<Int> = []
    let byNode = unlisted.filter { $0.nodeId != nil }
    for chunk in stride(from: 0, to: byNode.count, by: 100) {
      let part = Array(byNode[chunk..<min(byNode.count, chunk + 100)])
      let ids = part.compactMap(\.nodeId)
      let response = try await run.session.send("MirrorNodes", as: NodesPayload.self) { _ in
        (MirrorQuery.nodes, ["ids": .list(ids.map(GraphQLValue.string))], 1)
      }
      let nodes = response.data?.nodes ?? []
      for (index, entry) in part.enumerated() {
        let notFound = response.errors.contains {
          $0.type == "NOT_FOUND" && $0.indexes.first == index
        }
        if index < nodes.count, nodes[index] == nil, notFound {
          result[entry.conversation].confirmedGone.append(entry.id)
        } else if index < nodes.count, nodes[index] != nil {
          // Still there, on another issue (moved): not this conversation's to delete.
          continue
        } else {
          unsure.insert(entry.conversation)
        }
      }
    }
    for entry in unlisted where entry.nodeId == nil {
      run.restRequests += 1
      do throws(GitHubError) {
        _ = try await client.comment(entry.id, of: repository)
      } catch let error where error.code == .notFound || error.code == .gone {
        result[entry.conversation].confirmedGone.append(entry.id)
      } catch {
        unsure.insert(entry.conversation)
      }
    }
    return result.enumerated().filter { !unsure.contains($0.offset) }.map(\.element)
  }

  // MARK: Sub-issues

  /// Fetches the sub-issue lists of the parents the cache notes as pending, a batch of parents
  /// a query.
  private func fetchSubIssueLists(
    _ run: inout Run, in owner: RepositoryName,
    progress: (SyncProgress.Phase, Int, Int) -> Void
  ) async throws(GitHubError) {
    let session = run.session
    // A host without sub-issues has no lists to read (its REST side says none either).
    guard session.features.subIssues else { return }
    let ownName = "\(owner.owner)/\(owner.name)".lowercased()
    var queue = try step("read") { try cache.pendingSubIssueParents() }[...]
    while !queue.isEmpty {
      let size = batchSize(session)
      let batch = Array(queue.prefix(size))
      let response = try await session.send("MirrorSubIssues", as: AliasedIssues.self) { sizes in
        let count = min(batch.count, sizes.page(size))
        var variables: [String: GraphQLValue] = [
          "owner": .string(owner.owner), "name": .string(owner.name),
        ]
        for (index, number) in batch.prefix(count).enumerated() {
          variables["n\(index)"] = .int(number)
        }
        return (MirrorQuery.subIssues(count: count), variables, MirrorQuery.points(requests: count))
      }
      let answered = response.data?.entries ?? [:]
      var lists: [(parent: Int, children: [Int])] = []
      var handled = 0
      for (index, parent) in batch.enumerated() {
        guard let entry = answered["i\(index)"] else { break }
        handled += 1
        guard let issue = entry, let connection = issue.subIssues,
          connection.pageInfo?.hasNextPage != true,
          !connection.nodes.contains(where: { $0.node == nil })
        else {
          run.skipped.append(
            SkippedItem(id: nil, number: parent, reason: "its sub-issues could not be read"))
          continue
        }
        let children = connection.nodes.compactMap(\.node).filter {
          $0.repository?.nameWithOwner.lowercased() == ownName
        }.map(\.number)
        lists.append((parent, children))
      }
      // A query that answered none of its aliases would loop: its parents are reported instead.
      if handled == 0 {
        run.skipped += batch.map {
          SkippedItem(id: nil, number: $0, reason: "its sub-issues could not be read")
        }
        handled = batch.count
      }
      queue.removeFirst(handled)
      let written = lists
      let done = Array(batch.prefix(handled))
      try step("write") { try cache.writeSubIssueLists(written, done: done) }
      run.subIssueLists += lists.count
      progress(.subIssues, session.queries, run.subIssueLists)
    }
  }

  // MARK: Helpers

  /// Checks for a token and takes the cache's sync lock (held while the lock lives), with the
  /// REST synchronizer the mirror shares its metadata and checks with.
  func begin() async throws(GitHubError) -> (IssueSynchronizer, SyncLock?) {
    try requireToken()
    var rest = IssueSynchronizer(client: client, cache: cache, repository: repository)
    rest.lockPolicy = lockPolicy
    return (rest, try await rest.acquireLock())
  }

  private func requireToken() throws(GitHubError) {
    guard client.isAuthenticated else {
      var error = GitHubError(
        .unauthorized, method: "POST", url: client.host.graphQLURL.absoluteString,
        detail: "GitHub's GraphQL API needs a token; without one, `issues sync` uses REST")
      error.host = client.host
      throw error
    }
  }

  /// How long a host's schema features, once read, are taken as they were.
  static var schemaFeaturesFreshFor: TimeInterval { 7 * 86_400 }

  /// The host's schema features, read once a week.
  ///
  /// As the cache keeps them when read in the last week, else read now (one introspection
  /// query) and kept. A host whose answer lacks the types is taken to
  /// have every feature, as github.com does; its refusal of a query then says what it lacks.
  func schemaFeatures() async throws(GitHubError) -> SchemaFeatures {
    let now = Date()
    if let kept = try step(
      "read", { try cache.schemaFeatures(readAfter: now - Self.schemaFeaturesFreshFor) })
    {
      return kept
    }
    let features: SchemaFeatures
    do {
      features = try await client.schemaFeatures()
    } catch  where error.code == .decoding {
      return .all
    }
    _ = try step("write") { try cache.keepSchemaFeatures(features, now: now) }
    return features
  }

  func makeSession() -> MirrorSession {
    MirrorSession(
      client: client, reserve: reserve, pointLimit: pointLimit, pointsPerMinute: pointsPerMinute)
  }

  private func summary(of run: Run, restRequests: Int) throws(GitHubError) -> MirrorSummary {
    MirrorSummary(
      queries: run.session.queries, restRequests: restRequests, items: run.items,
      conversations: run.conversations, subIssueLists: run.subIssueLists,
      pointsSpent: run.session.spent, pointsLeft: run.session.remaining, deleted: run.deleted,
      skipped: run.skipped, coverage: try step("read") { try cache.mirrorCoverage() })
  }

  func step<T>(_ what: String, _ body: () throws -> T) throws(GitHubError) -> T {
    do {
      return try body()
    } catch {
      throw GitHubError(
        .decoding, url: cache.path ?? "cache", detail: "the cache could not be \(what): \(error)")
    }
  }
}

/// What a query of aliased fields of one repository (`i0`, `i1`… or `p0`, `p1`…) answers: each
/// alias's entry, read on its own so that one GitHub could not answer leaves the others.
struct AliasedEntries<Entry: Decodable & Sendable>: RateLimitedPayload {
  var rateLimit: GraphQLRateLimit?
  /// Each alias's entry; `nil` where GitHub answered `null` or it could not be read.
  var entries: [String: Entry?]

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    rateLimit = try container.decodeIfPresent(
      GraphQLRateLimit.self, forKey: Key(stringValue: "rateLimit"))
    entries = [:]
    guard container.contains(Key(stringValue: "repository")),
      !(try container.decodeNil(forKey: Key(stringValue: "repository")))
    else { return }
    let repository = try container.nestedContainer(
      keyedBy: Key.self, forKey: Key(stringValue: "repository"))
    for key in repository.allKeys {
      entries[key.stringValue] = try? repository.decodeIfPresent(Entry.self, forKey: key)
    }
  }
}

/// An issue as an aliased timeline or sub-issue query answers it.
struct AliasedIssue: Decodable, Sendable {
  var number: Int
  var updatedAt: Date?
  var timelineItems: MirrorNode.Connection<MirrorNode.TimelineItem>?
  var subIssues: MirrorNode.Connection<MirrorNode.Parent>?
}

/// What a query of aliased issues (`i0`, `i1`…) answers.
typealias AliasedIssues = AliasedEntries<AliasedIssue>

/// What a `nodes(ids:)` query answers: each node, or `nil` where it is gone.
struct NodesPayload: RateLimitedPayload {
  struct Node: Decodable, Sendable, Equatable { var id: String? }
  var rateLimit: GraphQLRateLimit?
  var nodes: [Node?]
}
