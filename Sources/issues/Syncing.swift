import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// Running a sync with the token the environment gives.
enum Syncing {
  static func run(
    host: GitHubHost, repository: RepositoryName, cache: IssueCache, full: Bool,
    timeout: Double?,
    progress: @escaping @Sendable (SyncProgress) -> Void,
    waiting: @escaping @Sendable (Int32?) -> Void
  ) async throws(GitHubError) -> SyncSummary {
    let token = try TokenDiscovery.token(for: host)
    let transport = HTTPClientTransport(timeout: timeout ?? HTTPClientTransport.defaultTimeout)
    var client = GitHubClient(host: host, token: token, transport: transport)
    if let timeout { client.timeout = .milliseconds(Int(timeout * 1000)) }
    var synchronizer = IssueSynchronizer(client: client, cache: cache, repository: repository)
    synchronizer.lockPolicy = .wait(waiting: waiting)
    return try await synchronizer.sync(full: full, progress: progress)
  }

  /// A client for the host with a token and the `--timeout` asked for: the one way the commands
  /// reach GitHub outside a sync.
  static func client(host: GitHubHost, token: String?, timeout: Double?) -> GitHubClient {
    let transport = HTTPClientTransport(timeout: timeout ?? HTTPClientTransport.defaultTimeout)
    var client = GitHubClient(host: host, token: token, transport: transport)
    if let timeout { client.timeout = .milliseconds(Int(timeout * 1000)) }
    return client
  }

  static func waitingNote(_ pid: Int32?) -> String {
    "waiting for the sync already running" + (pid.map { " in process \($0)" } ?? "") + "…"
  }

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
}
