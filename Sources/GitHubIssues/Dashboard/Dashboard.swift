import Foundation
import Synchronization

/// The caches of several repositories, on one host or several, read as one: a
/// ``SearchQuery`` is answered across all of them at once, from the cache, without GitHub's
/// search API.
///
///     let dashboard = Dashboard(repositories: [
///       .init(source: tracker, cache: trackerCache, me: "octocat"),
///       .init(source: platform, cache: platformCache, me: "octo-enterprise"),
///     ])
///     let mine = try dashboard.entries(SearchQuery(parsing: "is:open is:pr author:@me"))
///     let firstScreen = try dashboard.items(mine.prefix(40))
///
/// `@me` stands for each host's own account: a repository whose `me` is `nil` (no token, or
/// never looked up) matches no `author:@me`.
public final class Dashboard: Sendable {
  /// A repository with its cache and the account `@me` is there.
  public struct Repository: Sendable {
    /// Which repository.
    public var source: DashboardSource
    /// Its cache.
    public var cache: IssueCache
    /// The login `@me` stands for on its host, if known.
    public var me: String?

    /// A repository to read.
    public init(source: DashboardSource, cache: IssueCache, me: String?) {
      self.source = source
      self.cache = cache
      self.me = me
    }
  }

  /// The repositories, in the order entries name them (``DashboardEntry/source``).
  public let repositories: [Repository]

  /// A dashboard over these repositories.
  public init(repositories: [Repository]) {
    self.repositories = repositories
  }

  /// The sources, in the order entries name them.
  public var sources: [DashboardSource] { repositories.map(\.source) }

  /// Every item `query` selects, across the repositories it reaches, in its order.
  ///
  /// The repositories are read concurrently, each with one SQL query, and their lists merged.
  ///
  /// - Complexity: One query per repository in scope, then O(*n* log *k*) to merge *n* entries
  ///   from *k* repositories.
  public func entries(_ query: SearchQuery) throws -> [DashboardEntry] {
    let query = query.resolvingHosts(among: sources)
    let reached = repositories.indices.filter {
      query.includes(repositories[$0].source.repository, host: repositories[$0].source.host.name)
    }
    guard !reached.isEmpty else { return [] }
    let results = Mutex<[Result<[DashboardEntry], any Error>?]>(
      Array(repeating: nil, count: reached.count))
    let read: @Sendable (Int) -> Void = { slot in
      let index = reached[slot]
      let repository = self.repositories[index]
      let result = Result {
        try repository.cache.dashboardEntries(query, me: repository.me, source: index)
      }
      results.withLock { $0[slot] = result }
    }
    if reached.count == 1 {
      read(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: reached.count, execute: read)
    }
    var merged: [DashboardEntry] = []
    for result in results.withLock({ $0 }) {
      guard let result else { continue }
      merged += try result.get()
    }
    // Sorted runs, one per repository: the standard library's sort merges runs it finds.
    if reached.count > 1 {
      let direction = query.sort.direction
      merged.sort { $0.precedes($1, in: direction) }
    }
    return merged
  }

  /// The items of some entries, with their repositories, in the order given.
  ///
  /// - Complexity: One query per repository the entries come from.
  public func items(_ entries: some Collection<DashboardEntry>) throws -> [DashboardItem] {
    var numbersBySource: [Int: [Int]] = [:]
    for entry in entries { numbersBySource[entry.source, default: []].append(entry.number) }
    var issues: [Int: [Int: CachedIssue]] = [:]
    for (source, numbers) in numbersBySource {
      let found = try repositories[source].cache.issues(numbers: numbers)
      issues[source] = Dictionary(found.map { ($0.number, $0) }) { first, _ in first }
    }
    return entries.compactMap { entry in
      issues[entry.source]?[entry.number].map {
        DashboardItem(source: repositories[entry.source].source, issue: $0)
      }
    }
  }
}

/// An item on a dashboard: the cached issue or pull request and its repository.
public struct DashboardItem: Hashable, Sendable {
  /// Where it is.
  public var source: DashboardSource
  /// The item, without its body.
  public var issue: CachedIssue

  /// An item.
  public init(source: DashboardSource, issue: CachedIssue) {
    self.source = source
    self.issue = issue
  }
}
