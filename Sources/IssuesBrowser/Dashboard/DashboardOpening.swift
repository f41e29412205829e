import Foundation
import Synchronization
import GitHubIssues

/// Opens what a dashboard configuration names: each repository's cache, and `@me` on each host
/// (the token's login, remembered in the caches, asked of GitHub once per token otherwise).
///
/// Nothing is synced here: a dashboard opens on what the caches hold. A repository never synced
/// is left out with a note saying how to fetch it.
public enum DashboardOpening {
  /// A dashboard ready to answer queries, and what the person should know about it.
  public struct Opened: Sendable {
    /// The repositories that have a cache.
    public var dashboard: Dashboard
    /// Sentences for standard error or the status line: repositories not synced yet, hosts
    /// whose `@me` is unknown.
    package var notes: [String]
  }

  /// Opens the caches of `config`'s repositories.
  ///
  /// - Parameters:
  ///   - config: The repositories and sections.
  ///   - offline: Never asks GitHub who `@me` is.
  ///   - timeout: Seconds to wait for GitHub when asking who `@me` is.
  ///   - creatingMissing: Starts an empty cache for a repository never synced (the screen
  ///     syncs it), rather than leaving it out with a note.
  ///   - cacheURL: Where a repository's cache is (the user's cache folder by default).
  /// - Returns: The dashboard over the repositories that have a cache, and notes on the rest.
  /// - Throws: Nothing today: a cache that cannot be opened is a note, not a failure.
  public static func open(
    _ config: DashboardConfig, offline: Bool, timeout: Double?, creatingMissing: Bool = false,
    cacheURL: @Sendable (DashboardSource) -> URL = {
      IssueCache.defaultURL(for: $0.repository, host: $0.host)
    }
  ) async throws -> Opened {
    // Opened side by side: each costs a few milliseconds of file opening and schema reading,
    // and a dashboard opens twenty.
    let sources = config.repositories
    let results = Mutex<[Result<(IssueCache, String?), CacheProblem>?]>(
      Array(repeating: nil, count: sources.count))
    DispatchQueue.concurrentPerform(iterations: sources.count) { index in
      let url = cacheURL(sources[index])
      guard creatingMissing || FileManager.default.fileExists(atPath: url.path) else { return }
      let result = Result { () throws(CacheProblem) -> (IssueCache, String?) in
        let (cache, recovered) = try IssueCache.openRecovering(at: url)
        return (
          cache,
          recovered.map { "\($0.problem) It was moved to \($0.keptAt)." }
        )
      }
      results.withLock { $0[index] = result }
    }
    var notes: [String] = []
    var opened: [(DashboardSource, IssueCache)] = []
    for (source, result) in zip(sources, results.withLock { $0 }) {
      switch result {
      case nil: notes.append("\(source) has not been synced yet: run issues sync \(source).")
      case .success(let (cache, note))?:
        if let note { notes.append(note) }
        opened.append((source, cache))
      case .failure(let problem)?: notes.append("\(source) is left out: \(problem.description)")
      }
    }
    let usesMe = config.sections.contains(where: \.query.mentionsMe)
    // `@me` per host, found once for all its repositories.
    var meByHost: [String: String?] = [:]
    if usesMe {
      for (source, _) in opened where meByHost[source.host.storageName] == nil {
        let caches = opened.filter { $0.0.host.storageName == source.host.storageName }.map(\.1)
        let (login, note) = await me(
          host: source.host, caches: caches, offline: offline, timeout: timeout)
        meByHost[source.host.storageName] = .some(login)
        if let note { notes.append(note) }
      }
    }
    let repositories = opened.map { source, cache in
      Dashboard.Repository(
        source: source, cache: cache, me: meByHost[source.host.storageName] ?? nil)
    }
    return Opened(dashboard: Dashboard(repositories: repositories), notes: notes)
  }

  /// The login of `host`'s token, and a note when it cannot be known.
  static func me(host: GitHubHost, caches: [IssueCache], offline: Bool, timeout: Double?) async
    -> (String?, String?)
  {
    let token: String?
    do {
      token = try TokenDiscovery.token(for: host)
    } catch {
      return (nil, "@me on \(host.name) is unknown: \(error.description)")
    }
    guard let token else {
      return (nil, "@me on \(host.name) is unknown without a token: \(host.tokenAdvice).")
    }
    for cache in caches {
      if let login = try? cache.viewerLogin(token: token) {
        for other in caches { try? other.setViewerLogin(login, token: token) }
        return (login, nil)
      }
    }
    guard !offline else {
      return (
        nil,
        "@me on \(host.name) has not been looked up with this token yet: run once without "
          + "--offline."
      )
    }
    do {
      let user = try await Syncing.client(host: host, token: token, timeout: timeout)
        .authenticatedUser()
      for cache in caches { try? cache.setViewerLogin(user.login, token: token) }
      return (user.login, nil)
    } catch {
      return (nil, "@me on \(host.name) is unknown: could not ask GitHub (\(error)).")
    }
  }
}
