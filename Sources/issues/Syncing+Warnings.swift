import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

extension Syncing {
  /// Warnings a successful sync leaves: skipped items, a renamed repository.
  static func warn(_ summary: SyncSummary, repository: RepositoryName) {
    for skipped in summary.skipped.prefix(20) {
      Terminal.standardError("warning: \(ControlCharacters.visible(skipped.description))\n")
    }
    if summary.skipped.count > 20 {
      Terminal.standardError("warning: \(summary.skipped.count - 20) more items skipped\n")
    }
    if let renamed = summary.renamedTo {
      Terminal.standardError(
        "note: \(repository) is now \(ControlCharacters.visible(renamed)) on GitHub; use that name.\n"
      )
    }
  }

  /// The repository's cache, synced first unless `offline`.
  ///
  /// REST brings what changed, then (with a token) GraphQL the reviews and checks of the open
  /// pull requests that changed. A failed sync over a cache that holds items shows the cache with a warning; over an empty
  /// one it is the command's failure.
  static func syncedCache(
    host: GitHubHost, repository: RepositoryName, offline: Bool, timeout: Double?
  ) async throws -> IssueCache {
    let cache = try Terminal.openCache(at: IssueCache.defaultURL(for: repository, host: host))
    guard !offline else { return cache }
    do {
      let summary = try await run(
        host: host, repository: repository, cache: cache, full: false, timeout: timeout,
        progress: { _ in },
        waiting: { Terminal.standardError("note: \(waitingNote($0))\n") })
      warn(summary, repository: repository)
    } catch {
      let count = (try? cache.syncState().itemCount) ?? 0
      guard count > 0 else { throw Terminal.failure(error, repository: repository) }
      Terminal.standardError(
        "warning: \(Terminal.failure(error, repository: repository)) Showing the cache.\n")
    }
    return cache
  }
}
