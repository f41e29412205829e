import Foundation

/// Brings a repository's cache up to date with GitHub.
///
/// The first sync lists every issue and pull request (`state=all`, oldest update first), every
/// milestone and label. Later syncs ask only for issues updated since the last high-water mark,
/// minus a safety margin, and ask for milestones and labels with their entity tags, so unchanged
/// lists cost a `304`.
///
/// **Writes.** Milestones and labels are written in one transaction, then the pages of issues in
/// transactions of about a second each (at most 2,000 items), so the cache (and whatever
/// observes it) fills while the sync runs. The cursor never
/// passes what is committed: the high-water mark advances with a page only while the pages come
/// in `updated_at` order, and otherwise only once the listing completed. An error, a dropped
/// connection or a cancellation part-way keeps every page written, and the next sync resumes
/// after the last one it can vouch for instead of starting again.
///
/// **Sub-issues.** Each issue of a page whose `sub_issues_summary` counts some, and whose
/// `updated_at` or summary differs from the cached one (or whose list the cache lacks), has its
/// `/sub_issues` list fetched (paginated, conditional) before the page is written, and the lists
/// are committed with the page: the marks never pass a page whose trees are not stored. Only
/// sub-issues of this repository are kept, and a list is read for no more pages than its
/// summary's count needs, plus one. A list that fails is reported in ``SyncSummary/skipped`` and
/// does not fail the sync.
///
/// **Listing.** Issues are listed by `updated_at` through ``UpdatedOrderListing``: each request
/// asks again from the latest `updated_at` seen, so an issue edited while the sync runs (which
/// moves it to the end of GitHub's order) is seen twice and never shifts another out of the
/// pages. The argument: each answer is a prefix, at one moment, of the items updated at or after
/// its `since`; an item updated after an answer carries an `updated_at` no earlier than that
/// answer's latest, so a later request lists it; the listing ends only on a page with no next
/// page. A listing from nothing (a first or a new full listing) must also see about as many
/// open items as the repository announces.
///
/// **Deletions.** Only a full listing (`full: true` on a cache with data) deletes, and only what
/// GitHub confirms is gone: once the listing ended, every cached item it did not see is asked
/// for on its own (at most ``maximumUnlistedChecks``), and only those answered `404` or `410`, or
/// now in another repository, are deleted; the others are written. A listing that cannot vouch
/// for itself (it stopped early, an item without an identifier, a refused link, an item that
/// could not be checked) keeps every row, leaves the full listing pending (the next sync resumes
/// it), and throws ``GitHubError/Code/incompleteListing``.
///
/// **One at a time.** A sync of a cache file holds a lock on it (`CACHE.sqlite.lock`) from before
/// its first request; a second sync waits for it or fails at once, as ``lockPolicy`` says.
package struct IssueSynchronizer: Sendable {
  /// What a sync does when another sync of the same cache is running.
  package enum LockPolicy: Sendable {
    /// Fail at once with ``GitHubError/Code/syncInProgress``, naming the other process.
    case failFast
    /// Wait for the other to finish (`waiting` is told the other's process id once), then sync.
    case wait(waiting: @Sendable (Int32?) -> Void)
  }

  /// The client used for requests; its entity tags come from the cache.
  package let client: GitHubClient
  /// The cache written to.
  package let cache: IssueCache
  /// The repository.
  package let repository: RepositoryName
  /// How far before the high-water mark a later sync asks for changes, to cover clock skew and
  /// updates committed while the last sync ran.
  package var sinceMargin: TimeInterval = 120
  /// What to do when another sync of the same cache file is running.
  package var lockPolicy: LockPolicy = .wait(waiting: { _ in })
  /// The entity tags of the sync: read from the cache, new ones written with the page or the
  /// lists they belong to.
  private let etagStore: PendingETagStore

  /// Creates a synchronizer.
  ///
  /// Whatever entity-tag store `client` had, the synchronizer's requests use its own, which
  /// reads tags from `cache` and writes new ones in the same transaction as what they describe.
  package init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    let etagStore = PendingETagStore(cache: cache)
    self.client = client.replacingETagStore(with: etagStore)
    self.cache = cache
    self.repository = repository
    self.etagStore = etagStore
  }

  /// Runs a sync.
  ///
  /// - Parameters:
  ///   - full: List everything and delete what is gone, even if the cache has data.
  ///   - progress: Called after every page.
  /// - Returns: What the sync fetched.
  /// - Throws: ``GitHubError``; every page written before it stays.
  @discardableResult
  package func sync(
    full: Bool = false, progress: @Sendable (SyncProgress) -> Void = { _ in }
  ) async throws(GitHubError) -> SyncSummary {
    let lock = try await acquireLock()
    defer { withExtendedLifetime(lock) {} }
    let state = try cacheStep("read") { try cache.syncState() }
    // Into an empty cache the search index is built once, after the listing: indexing row by
    // row would cost a third of the sync. Killed before that, the next open builds it.
    guard state.highWaterMark == nil, state.itemCount == 0 else {
      return try await run(state: state, full: full, progress: progress)
    }
    try cacheStep("write") { try cache.deferSearchIndex() }
    let summary: SyncSummary
    do {
      summary = try await run(state: state, full: full, progress: progress)
    } catch {
      // The sync's own error is the one to report; a failed rebuild is retried at the next open.
      _ = try? cache.rebuildDeferredSearchIndex()
      throw error
    }
    _ = try cacheStep("write") { try cache.rebuildDeferredSearchIndex() }
    return summary
  }

  /// A sync, under the lock, from the cache's state when it started.
  private func run(
    state: SyncState, full: Bool, progress: @Sendable (SyncProgress) -> Void
  ) async throws(GitHubError) -> SyncSummary {
    let isFirst = state.highWaterMark == nil && state.itemCount == 0
    let listsAll = !isFirst && (full || state.pendingFullListing != nil)
    let metadata = try await syncMetadata(beginningFullListing: listsAll, progress: progress)
    let repositoryInfo = metadata.repository
    let renamedTo = metadata.renamedTo
    var pages = metadata.pages
    var skipped = metadata.skipped

    // Where the listing starts: a pending full listing resumes after its last page written; any
    // other sync after the high-water mark (which an interrupted first sync has advanced).
    let resumeAfter: Date? =
      listsAll
      ? try cacheStep("read") { try cache.syncState() }.pendingFullListing?.resumeAfter
      : state.highWaterMark
    // A renamed or transferred repository is listed under its new name.
    let owner = renamedTo.flatMap { RepositoryName($0) } ?? repository
    var listing = UpdatedOrderListing<GitHubIssue>(
      client: client, since: resumeAfter.map { $0.addingTimeInterval(-sinceMargin) },
      cellDimensions: ListingCells.Dimension.issueListing { [client] in
        await Self.milestoneNumbers(of: owner, client: client)
      }
    ) { [client] since in
      var query = IssueQuery(state: .all, sort: .updated, ascending: true)
      query.since = since
      return client.issuePages(of: owner, query: query).first
    }
    // Cut off inside a block of one second, the last sync stored where its walk stood: the
    // listing re-reads the margin up to that block, then goes on there.
    if let point = try cacheStep("read", { try cache.issueResumePoint() }) {
      listing.resume(at: point)
    }
    var items = 0
    // Open items by identifier, as last listed: the listing may serve an item twice.
    var openIDs: Set<Int64> = []
    var latest: Date?
    // Sub-issue lists that could not be read: reported, not fatal.
    var subIssueProblems: [SkippedItem] = []
    // Pages are written in batches of about a second (or 2,000 items): each transaction costs
    // SQLite a rewrite of the index pages it touches, so one per page would cost more than the
    // listing itself; the browser still fills while the sync runs.
    var batch = PendingPages()
    let clock = ContinuousClock()
    var lastWrite = clock.now
    do throws(GitHubError) {
      while let page = try await listing.next() {
        pages += 1
        items += page.items.count
        skipped += page.skipped
        for issue in page.items {
          if issue.state == .open { openIDs.insert(issue.id) } else { openIDs.remove(issue.id) }
          latest = max(latest ?? issue.updatedAt, issue.updatedAt)
        }
        // The page's parents' sub-issues, committed with the page; only parents that changed:
        // a list the cache holds for this version is not asked for again.
        let candidates = page.items.filter {
          ($0.subIssues?.total ?? 0) > 0 && !$0.isPullRequest
        }
        let current = try cacheStep("read") { try cache.currentSubIssueLists(of: candidates) }
        let parents = candidates.filter { !current.contains($0.number) }
        let trees = try await fetchSubIssues(
          of: parents, in: owner, pages: &pages, problems: &subIssueProblems)
        // A batch moves the marks to its latest item only if every page in it may: a page
        // out of order goes in a batch of its own.
        if batch.inOrder != page.inOrder { try await write(&batch) }
        batch.add(page, trees: trees)
        if batch.items.count >= 2_000 || lastWrite.duration(to: clock.now) >= .seconds(1) {
          try await write(&batch)
          lastWrite = clock.now
        }
        progress(SyncProgress(phase: .issues, pages: pages, items: items))
      }
      try await write(&batch)
    } catch {
      // Every page listed before the failure is good: keep it.
      try? await write(&batch)
      throw error
    }
    if Task.isCancelled { throw GitHubError(.offline, url: "sync", detail: "cancelled") }
    progress(SyncProgress(phase: .saving, pages: pages, items: items))

    var gap = listing.unproven
    if gap != nil {
      // Where its walk stood is not a place to go on from: the next sync walks from the marks.
      try cacheStep("write") { try cache.forgetResumePoints() }
    }
    if gap == nil, resumeAfter == nil, let announced = repositoryInfo.openIssuesCount,
      openIDs.count < announced - max(5, announced / 100)
    {
      gap = "it saw \(openIDs.count) open items where the repository announced \(announced)"
    }
    if gap == nil, listsAll, skipped.contains(where: { $0.id == nil }) {
      gap = "an item without an identifier could not be read"
    }
    var confirmedGone: [Int64] = []
    if gap == nil, listsAll {
      do throws(GitHubError) {
        // Issues listed, then deleted before the listing ended: with a token, GitHub's count
        // tells when to look, and those found are taken out of the seen set, so that the
        // unlisted-item check below proves them gone with the rest.
        if client.isAuthenticated {
          skipped += await findDeletedDuringListing(in: owner, pages: &pages)
        }
        confirmedGone = try await confirmUnlisted(in: owner, pages: &pages)
      } catch {
        gap = error.detail ?? error.description
      }
    }
    if let gap {
      _ = try cacheStep("write") { try cache.finishListing(complete: false, syncedAt: Date()) }
      throw GitHubError(.incompleteListing, url: "sync of \(repository)", detail: gap)
    }
    let deleted = try cacheStep("write") {
      try cache.finishListing(
        complete: true, syncedAt: Date(), highWaterMark: latest, confirmedGone: confirmedGone)
    }
    return SyncSummary(
      wasFull: resumeAfter == nil || listsAll, pages: pages, items: items,
      milestonesChanged: metadata.milestonesChanged, deleted: deleted,
      skipped: skipped + subIssueProblems,
      renamedTo: renamedTo)
  }

  /// What a sync fetches before the issues.
  struct Metadata {
    var repository: GitHubRepository
    /// The repository's name on GitHub when it differs from the one asked for.
    var renamedTo: String?
    var pages: Int
    var skipped: [SkippedItem]
    var milestonesChanged: Bool
  }

  /// Every milestone's number, read whole now, or `nil` if the list could not be read whole.
  static func milestoneNumbers(of repository: RepositoryName, client: GitHubClient) async -> [Int]?
  {
    var numbers: [Int] = []
    do {
      for try await page in client.milestonePages(of: repository, conditional: false) {
        guard page.skipped.isEmpty else { return nil }
        numbers += page.items.map(\.number)
      }
    } catch {
      return nil
    }
    return numbers
  }

  /// Fetches the repository, its milestones and labels (conditionally), and writes them in one
  /// transaction with their entity tags; with `beginningFullListing`, that transaction also
  /// starts (or keeps) a full listing.
  func syncMetadata(
    beginningFullListing: Bool, progress: @Sendable (SyncProgress) -> Void
  ) async throws(GitHubError) -> Metadata {
    // The repository first: a missing or private one fails fast with a clear error.
    let repositoryInfo = try await client.repository(repository)
    let renamedTo =
      repositoryInfo.fullName.caseInsensitiveCompare(repository.description) == .orderedSame
      ? nil : repositoryInfo.fullName

    var pages = 0
    var milestones: [GitHubMilestone]? = []
    var skipped: [SkippedItem] = []
    for try await page in client.milestonePages(of: repository) {
      pages += 1
      if page.isNotModified { milestones = nil } else { milestones?.append(contentsOf: page.items) }
      skipped += page.skipped
      progress(SyncProgress(phase: .milestones, pages: pages, items: 0))
    }
    // A list with an element that could not be read is not a complete list: nothing missing
    // from it is deleted.
    let milestonesComplete = skipped.isEmpty
    var labels: [GitHubLabel]? = []
    var labelsComplete = true
    for try await page in client.labelPages(of: repository) {
      pages += 1
      if page.isNotModified { labels = nil } else { labels?.append(contentsOf: page.items) }
      labelsComplete = labelsComplete && page.skipped.isEmpty
      skipped += page.skipped
      progress(SyncProgress(phase: .labels, pages: pages, items: 0))
    }
    let etags = await etagStore.pending()
    try cacheStep("write") {
      try cache.writeMetadata(
        repository: repositoryInfo, milestones: milestones, labels: labels, etags: etags,
        deletingMissing: milestonesComplete && labelsComplete)
      if beginningFullListing { try cache.beginFullListing() }
    }
    await etagStore.clear()
    return Metadata(
      repository: repositoryInfo, renamedTo: renamedTo, pages: pages, skipped: skipped,
      milestonesChanged: milestones != nil)
  }

  /// Pages listed and not written yet, with their parents' sub-issue lists.
  private struct PendingPages {
    var items: [GitHubIssue] = []
    var seenIDs: [Int64] = []
    var trees: [(parent: Int, children: [Int])] = []
    /// Whether every page added may move the marks.
    var inOrder = true
    /// Where the walk through one second stands after the last page added, if inside one.
    var resumePoint: ListingResumePoint?

    mutating func add(
      _ page: UpdatedOrderListing<GitHubIssue>.Fresh, trees: [(parent: Int, children: [Int])]
    ) {
      items += page.items
      seenIDs += page.skipped.compactMap(\.id)
      self.trees += trees
      inOrder = page.inOrder
      resumePoint = page.resumePoint
    }

    var isEmpty: Bool {
      items.isEmpty && seenIDs.isEmpty && trees.isEmpty && resumePoint == nil
    }
  }

  /// Writes the pending pages in one transaction, with the entity tags fetched for them.
  private func write(_ batch: inout PendingPages) async throws(GitHubError) {
    guard !batch.isEmpty else {
      batch = PendingPages()
      return
    }
    let etags = await etagStore.pending()
    let pending = batch
    try cacheStep("write") {
      try cache.writePage(
        pending.items, seenIDs: pending.seenIDs, advancingMarks: pending.inOrder,
        subIssues: pending.trees, etags: etags, resumePoint: pending.resumePoint)
    }
    await etagStore.clear()
    batch = PendingPages()
  }

  /// Looks for the issues deleted while the full listing ran, through GraphQL's count.
  ///
  /// See ``findDeletedIssues(in:requests:count:)``: 1 point when none was. What it
  /// cannot look for or find is a warning, not a failure: the listing itself is complete, and
  /// the next `sync --full` looks again.
  private func findDeletedDuringListing(
    in owner: RepositoryName, pages: inout Int
  ) async -> [SkippedItem] {
    let session = MirrorSession(client: client)
    do throws(GitHubError) {
      let (gone, unfound) = try await findDeletedIssues(in: owner, requests: &pages) {
        since throws(GitHubError) in
        try await session.issueCount(since: since, in: owner)
      }
      try cacheStep("write") { try cache.forgetSeen(gone) }
      guard unfound > 0 else { return [] }
      return [
        SkippedItem(
          id: nil, number: nil,
          reason:
            "GitHub counts \(unfound) issues fewer than the cache holds; the next `sync --full` looks again"
        )
      ]
    } catch  where error.code == .notFound {
      // An API root without GraphQL (an older GitHub Enterprise Server): nothing to count with.
      return []
    } catch {
      return [
        SkippedItem(
          id: nil, number: nil,
          reason:
            "issues deleted while it listed were not looked for (\(error.summary())); the next `sync --full` looks again"
        )
      ]
    }
  }

  /// The most cached items a full listing asks for one by one because it did not see them; more
  /// than this means the listing itself went wrong, and nothing is deleted.
  package static let maximumUnlistedChecks = 1_000

  /// Asks GitHub for each cached item the full listing did not see: the ones it answers `404` or
  /// `410` for, or moved to another repository, are returned to be deleted; the ones it still has
  /// are written (and counted as seen).
  ///
  /// - Throws: ``GitHubError`` with the reason when an item cannot be confirmed either way, or
  ///   when there are more than ``maximumUnlistedChecks``.
  func confirmUnlisted(
    in repository: RepositoryName, pages: inout Int
  ) async throws(GitHubError) -> [Int64] {
    let candidates = try cacheStep("read") { try cache.unlistedItems() }
    guard candidates.count <= Self.maximumUnlistedChecks else {
      throw GitHubError(
        .incompleteListing, url: "sync of \(repository)",
        detail:
          "\(candidates.count) cached items were not listed, more than can be checked one by one")
    }
    return try await confirmGone(candidates, in: repository, pages: &pages)
  }

  /// Asks GitHub for each of `candidates` on its own: the ones it answers `404` or `410` for, or
  /// that moved to another repository, are returned; the ones it still has are written.
  ///
  /// - Throws: ``GitHubError`` with the reason when an item cannot be confirmed either way.
  func confirmGone(
    _ candidates: [(id: Int64, number: Int)], in repository: RepositoryName, pages: inout Int
  ) async throws(GitHubError) -> [Int64] {
    var gone: [Int64] = []
    for candidate in candidates {
      if Task.isCancelled { throw GitHubError(.offline, url: "sync", detail: "cancelled") }
      pages += 1
      do throws(GitHubError) {
        let issue = try await client.issue(candidate.number, of: repository)
        // Alive here whatever its page is called: a pull request answers from `/issues/N` with
        // an `html_url` under `/pull/N`. Moved away when its id, number or repository differ.
        let isHere =
          issue.id == candidate.id && issue.number == candidate.number
          && (issue.htmlURL.map { Self.isPage($0, of: repository) } ?? true)
        if isHere {
          try cacheStep("write") { try cache.writePage([issue], advancingMarks: false) }
        } else {
          gone.append(candidate.id)
        }
      } catch let error where error.code == .notFound || error.code == .gone {
        gone.append(candidate.id)
      } catch {
        throw GitHubError(
          .incompleteListing, url: "sync of \(repository)",
          detail:
            "#\(candidate.number) was not listed and could not be checked (\(error.summary()))")
      }
    }
    return gone
  }

  /// Whether an `html_url` is an issue's or pull request's page in `repository`
  /// (`…/OWNER/REPO/issues/N` or `…/OWNER/REPO/pull/N`).
  static func isPage(_ url: String, of repository: RepositoryName) -> Bool {
    let path = url.lowercased()
    let base = "/\(repository.owner)/\(repository.name)/".lowercased()
    return path.contains(base + "issues/") || path.contains(base + "pull/")
  }

  /// Fetches the sub-issues of each parent, for the caller to record with the page.
  ///
  /// The requests are conditional: an unchanged list costs a `304` and is left out of the result.
  /// A list that cannot be read is reported in `problems`, not fatal: the issues themselves are
  /// what a sync must bring.
  private func fetchSubIssues(
    of parents: [GitHubIssue], in repository: RepositoryName, pages: inout Int,
    problems: inout [SkippedItem]
  ) async throws(GitHubError) -> [(parent: Int, children: [Int])] {
    var trees: [(parent: Int, children: [Int])] = []
    // An issue of this repository, not a sub-issue that lives elsewhere with a colliding number.
    let ownPath = "/\(repository.owner)/\(repository.name)/issues/".lowercased()
    for parent in parents {
      if Task.isCancelled { break }
      var children: [Int] = []
      // No more pages than the summary's count needs (100 a page), and one to spare: a server
      // that keeps linking further does not keep the sync.
      let total = min(parent.subIssues?.total ?? 0, 10_000)
      let pageLimit = (total + 99) / 100 + 1
      do throws(GitHubError) {
        var unchanged = false
        var parentPages = 0
        for try await page in client.subIssuePages(of: repository, parent: parent.number) {
          pages += 1
          parentPages += 1
          if page.isNotModified {
            unchanged = true
            break
          }
          if parentPages > pageLimit {
            throw GitHubError(
              .pagination, url: "sub-issues of #\(parent.number)",
              detail: "more pages than its \(total) sub-issues need")
          }
          children += page.items.filter {
            !$0.isPullRequest && ($0.htmlURL?.lowercased().contains(ownPath) ?? false)
          }.map(\.number)
        }
        if !unchanged { trees.append((parent.number, children)) }
      } catch {
        problems.append(
          SkippedItem(
            id: parent.id, number: parent.number,
            reason: "its sub-issues could not be read (\(error.code))"))
      }
    }
    return trees
  }

  func acquireLock() async throws(GitHubError) -> SyncLock? {
    guard let path = cache.path else { return nil }
    let policy: SyncLock.Policy =
      switch lockPolicy {
      case .failFast: .failFast
      case .wait(let waiting): .wait(waiting: waiting)
      }
    return try await SyncLock.acquire(forCacheAt: path, policy: policy)
  }

  /// Runs a cache step, turning its failure into a ``GitHubError`` that says so.
  func cacheStep<T>(_ what: String, _ body: () throws -> T) throws(GitHubError) -> T {
    do {
      return try body()
    } catch {
      throw GitHubError(
        .decoding, url: cache.path ?? "cache", detail: "the cache could not be \(what): \(error)")
    }
  }

}

/// Entity tags read from the cache; new ones are held until the sync's transaction writes them.
actor PendingETagStore: ETagStore {
  let cache: IssueCache
  private var fresh: [String: String] = [:]

  init(cache: IssueCache) { self.cache = cache }

  func etag(for url: String) -> String? {
    fresh[url] ?? (try? cache.storedETag(for: url)) ?? nil
  }

  func store(_ etag: String, for url: String) { fresh[url] = etag }

  func pending() -> [String: String] { fresh }

  func clear() { fresh = [:] }
}
