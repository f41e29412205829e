import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser

/// `issues sync OWNER/REPO`: brings the cache up to date, with a progress bar.
struct Sync: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Download a repository's issues into the local cache.")

  @OptionGroup var options: RepositoryOptions

  @Flag(help: "Download everything again instead of what changed since the last sync.")
  var full = false

  func run() async throws {
    let (host, repository) = try options.resolve()
    let path = IssueCache.defaultURL(for: repository, host: host)
    let cache = try Terminal.openCache(at: path)
    let showsProgress = isatty(STDERR_FILENO) == 1
    let start = Date()
    do {
      let summary = try await Syncing.run(
        host: host, repository: repository, cache: cache, full: full,
        progress: { progress in
          guard showsProgress else { return }
          let line = ProgressLine.line(
            progress, expected: nil, width: Terminal.width(STDERR_FILENO))
          Terminal.standardError("\r\u{1B}[2K" + line)
        })
      if showsProgress { Terminal.standardError("\r\u{1B}[2K") }
      let seconds = String(format: "%.1f", Date().timeIntervalSince(start))
      let total = (try? cache.syncState().itemCount) ?? summary.items
      print(
        "Synced \(repository): \(summary.items) items changed in \(summary.pages) pages"
          + "\(summary.wasFull ? " (full)" : "") in \(seconds) s; \(total) in the cache at \(path.path)"
      )
    } catch {
      if showsProgress { Terminal.standardError("\r\u{1B}[2K") }
      throw Terminal.failure(error, repository: repository)
    }
  }
}

/// Running a sync with the token the environment gives.
enum Syncing {
  static func run(
    host: GitHubHost, repository: RepositoryName, cache: IssueCache, full: Bool,
    progress: @escaping @Sendable (SyncProgress) -> Void
  ) async throws(GitHubError) -> SyncSummary {
    let token = TokenDiscovery.token(for: host)
    let client = IssueSynchronizer.makeClient(host: host, token: token, cache: cache)
    let synchronizer = IssueSynchronizer(client: client, cache: cache, repository: repository)
    return try await synchronizer.sync(full: full, progress: progress)
  }
}
