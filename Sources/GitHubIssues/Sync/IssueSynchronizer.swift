import Foundation

/// How far a sync has come, reported after every page.
public struct SyncProgress: Hashable, Sendable {
  /// What is being fetched.
  public enum Phase: Hashable, Sendable {
    /// Milestones.
    case milestones
    /// Labels.
    case labels
    /// Issues and pull requests.
    case issues
    /// Writing to the cache.
    case saving
  }

  /// What is being fetched.
  public var phase: Phase
  /// Pages fetched so far, all phases.
  public var pages: Int
  /// Issues and pull requests fetched so far.
  public var items: Int

  /// Creates a progress report.
  public init(phase: Phase, pages: Int, items: Int) {
    self.phase = phase
    self.pages = pages
    self.items = items
  }
}

/// What a finished sync did.
public struct SyncSummary: Hashable, Sendable {
  /// Whether everything was fetched (the first sync), or only changes.
  public var wasFull: Bool
  /// Pages fetched.
  public var pages: Int
  /// Issues and pull requests fetched and written.
  public var items: Int
  /// Whether the milestones changed (`false` when GitHub answered `304`).
  public var milestonesChanged: Bool
}

/// Brings a repository's cache up to date with GitHub.
///
/// The first sync fetches every issue and pull request (`state=all`), every milestone and label.
/// Later syncs ask only for issues updated since the last high-water mark, minus a safety margin,
/// and ask for milestones and labels with their entity tags, so unchanged lists cost a `304`.
/// Everything is written at the end in one transaction, entity tags included: an error or a
/// cancellation part-way leaves the cache exactly as it was, and the next sync starts from the same
/// high-water mark.
public struct IssueSynchronizer: Sendable {
  /// The client used for requests; its entity tags come from the cache.
  public let client: GitHubClient
  /// The cache written to.
  public let cache: IssueCache
  /// The repository.
  public let repository: RepositoryName
  /// How far before the high-water mark a later sync asks for changes, to cover clock skew and
  /// updates committed while the last sync ran.
  public var sinceMargin: TimeInterval = 120

  /// Creates a synchronizer.
  ///
  /// Pass a client made with ``makeClient(host:token:cache:transport:)`` so that its entity tags
  /// are kept in the cache.
  public init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// Runs a sync.
  ///
  /// - Parameters:
  ///   - full: Fetch everything even if the cache has data.
  ///   - progress: Called after every page.
  /// - Returns: What the sync fetched.
  /// - Throws: ``GitHubError``; the cache is then unchanged.
  @discardableResult
  public func sync(
    full: Bool = false, progress: @Sendable (SyncProgress) -> Void = { _ in }
  ) async throws(GitHubError) -> SyncSummary {
    let state: SyncState
    do {
      state = try cache.syncState()
    } catch {
      throw GitHubError(.decoding, url: "cache", detail: "the cache could not be read: \(error)")
    }
    let mark = full ? nil : state.highWaterMark
    let isFull = mark == nil
    var pages = 0
    var items: [GitHubIssue] = []
    // The repository first: a missing or private one fails fast with a clear error.
    let repositoryInfo = try await client.repository(repository)

    var milestones: [GitHubMilestone]? = []
    for try await page in checked(client.milestonePages(of: repository, conditional: !isFull)) {
      pages += 1
      if page.isNotModified { milestones = nil } else { milestones?.append(contentsOf: page.items) }
      progress(SyncProgress(phase: .milestones, pages: pages, items: 0))
    }
    var labels: [GitHubLabel]? = []
    for try await page in checked(client.labelPages(of: repository, conditional: !isFull)) {
      pages += 1
      if page.isNotModified { labels = nil } else { labels?.append(contentsOf: page.items) }
      progress(SyncProgress(phase: .labels, pages: pages, items: 0))
    }
    var query = IssueQuery(state: .all, sort: .updated, ascending: true)
    query.since = mark.map { $0.addingTimeInterval(-sinceMargin) }
    for try await page in checked(client.issuePages(of: repository, query: query)) {
      pages += 1
      items.append(contentsOf: page.items)
      progress(SyncProgress(phase: .issues, pages: pages, items: items.count))
    }
    if Task.isCancelled { throw GitHubError(.offline, url: "sync", detail: "cancelled") }
    progress(SyncProgress(phase: .saving, pages: pages, items: items.count))
    let etags = await (client.etagStore as? PendingETagStore)?.pending() ?? [:]
    do {
      try cache.apply(
        CacheUpdate(
          repository: repositoryInfo, issues: items, isComplete: isFull, milestones: milestones,
          labels: labels, etags: etags,
          syncedAt: Date()))
    } catch {
      throw GitHubError(.decoding, url: "cache", detail: "the cache could not be written: \(error)")
    }
    await (client.etagStore as? PendingETagStore)?.clear()
    return SyncSummary(
      wasFull: isFull, pages: pages, items: items.count, milestonesChanged: milestones != nil)
  }

  /// A client whose entity tags are read from the cache and written with the sync's transaction.
  public static func makeClient(
    host: GitHubHost, token: String?, cache: IssueCache,
    transport: any HTTPTransport = URLSessionTransport()
  ) -> GitHubClient {
    GitHubClient(
      host: host, token: token, transport: transport, etags: PendingETagStore(cache: cache))
  }

  /// Rethrows a page sequence's errors as ``GitHubError``.
  private func checked<Item>(
    _ pages: AsyncThrowingStream<Page<Item>, any Error>
  ) -> GitHubPages<Item> {
    GitHubPages(base: pages)
  }
}

/// A page sequence whose errors are ``GitHubError``s.
struct GitHubPages<Item: Sendable>: AsyncSequence {
  typealias Element = Page<Item>
  typealias Failure = GitHubError
  let base: AsyncThrowingStream<Page<Item>, any Error>

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Page<Item>, any Error>.AsyncIterator

    mutating func next() async throws(GitHubError) -> Page<Item>? {
      do {
        return try await base.next()
      } catch let error as GitHubError {
        throw error
      } catch {
        throw GitHubError(.offline, url: "sync", detail: "\(error)")
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
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
