import Foundation
import GitHubIssues
import TrellisTerminal

/// Running a sync with the token the environment gives.
public enum Syncing {
  /// Syncs the repository into the cache with the host's token, waiting for a sync already
  /// running elsewhere (`waiting` says so), and reports progress.
  public static func run(
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
  public static func client(host: GitHubHost, token: String?, timeout: Double?) -> GitHubClient {
    let transport = HTTPClientTransport(timeout: timeout ?? HTTPClientTransport.defaultTimeout)
    var client = GitHubClient(host: host, token: token, transport: transport)
    if let timeout { client.timeout = .milliseconds(Int(timeout * 1000)) }
    return client
  }

  /// What to say while another process's sync holds the cache.
  public static func waitingNote(_ pid: Int32?) -> String {
    "waiting for the sync already running" + (pid.map { " in process \($0)" } ?? "") + "…"
  }
}
