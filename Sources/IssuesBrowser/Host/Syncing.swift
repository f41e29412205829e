import Foundation
import GitHubIssues
import TrellisTerminal

/// Running a sync with the token the environment gives.
package enum Syncing {
  /// Syncs the repository into the cache with the host's token, waiting for a sync already
  /// running elsewhere (`waiting` says so), and reports progress.
  package static func run(
    host: GitHubHost, repository: RepositoryName, cache: IssueCache, full: Bool,
    timeout: Double?,
    progress: @escaping @Sendable (SyncProgress) -> Void,
    waiting: @escaping @Sendable (Int32?) -> Void
  ) async throws(GitHubError) -> SyncSummary {
    let token = try TokenDiscovery.token(for: host)
    let transport = HTTPClientTransport(timeout: timeout ?? HTTPClientTransport.defaultTimeout)
    var client = GitHubClient(host: host, token: token, transport: transport)
    if let timeout { client.timeout = .milliseconds(Int(timeout * 1000)) }
    // What waits in the queue goes first: GitHub then holds what the person did, and the
    // listing brings it back as it is.
    var queue: ActionReplayer.Summary?
    if let token, (try? cache.queuedActions().isEmpty) == false {
      queue = await ActionReplayer(
        client: client, cache: cache, repository: repository,
        viewer: try? cache.viewerLogin(token: token)
      ).replay()
    }
    var synchronizer = IssueSynchronizer(client: client, cache: cache, repository: repository)
    synchronizer.lockPolicy = .wait(waiting: waiting)
    var summary = try await synchronizer.sync(full: full, progress: progress)
    if let queue {
      summary.queueSent = queue.sent + queue.foundLanded + queue.alreadyHeld
      summary.queueWaiting = queue.waiting
    }
    guard let token else { return summary }
    // Who the token's account is, asked once per token and remembered: offline, `@me` and
    // gh's `viewerDidAuthor` are then known without asking.
    if (try? cache.viewerLogin(token: token)) ?? nil == nil,
      let user = try? await client.authenticatedUser()
    {
      try? cache.setViewerLogin(user.login, token: token)
    }
    var mirror = MirrorSynchronizer(client: client, cache: cache, repository: repository)
    mirror.lockPolicy = .wait(waiting: waiting)
    // Pull requests' reviews and checks, through GraphQL, for those that changed (none
    // changed, nothing spent): every open one, and a budget of closed and merged ones. When GraphQL does not answer, REST brings a few (the newest);
    // failing that leaves the rows synced, and says so.
    var reason: String?
    do {
      let details = try await mirror.fetchPullRequestDetails(progress: progress)
      if details.fetched == 0, let first = details.skipped.first {
        reason = first.reason
      } else {
        summary.skipped += details.skipped
      }
    } catch {
      reason = "pull request reviews and checks were not fetched (\(error.summary()))"
    }
    if let reason {
      let fallback = await PullRequestFetcher(client: client, cache: cache, repository: repository)
        .fetchMissingDetails()
      if fallback.left > 0 {
        summary.skipped.append(
          SkippedItem(
            id: nil, number: nil,
            reason: "\(reason); \(fallback.fetched) fetched through REST, \(fallback.left) left "
              + "for the next sync or their reading"))
      }
    }
    // A mirror keeps every conversation: the ones that changed are fetched through GraphQL
    // (nothing changed, nothing spent).
    guard (try? cache.isMirror()) == true else { return summary }
    do {
      let conversations = try await mirror.completeConversations(progress: progress)
      summary.skipped += conversations.skipped
      summary.deleted += conversations.deleted
    } catch {
      summary.skipped.append(
        SkippedItem(
          id: nil, number: nil,
          reason: "changed conversations were not fetched (\(error.summary()))"))
    }
    return summary
  }

  /// Mirrors a repository through GraphQL (`issues sync --all`): every issue with its whole
  /// conversation, every pull request as a row; a cache that is a mirror already is brought up
  /// to date as a plain sync would (REST for what changed, GraphQL for its conversations),
  /// unless `full` asks to list everything again.
  package static func mirror(
    host: GitHubHost, repository: RepositoryName, cache: IssueCache, full: Bool,
    pointLimit: Int?, timeout: Double?,
    progress: @escaping @Sendable (SyncProgress) -> Void,
    waiting: @escaping @Sendable (Int32?) -> Void
  ) async throws(GitHubError) -> MirrorSummary {
    let token = try TokenDiscovery.token(for: host)
    let client = Self.client(host: host, token: token, timeout: timeout)
    var mirror = MirrorSynchronizer(client: client, cache: cache, repository: repository)
    mirror.lockPolicy = .wait(waiting: waiting)
    mirror.pointLimit = pointLimit
    let state = try? cache.syncState()
    guard !full, (try? cache.isMirror()) == true, state?.pendingFullListing == nil else {
      var summary = try await mirror.sync(progress: progress)
      try await addPullRequestDetails(
        to: &summary, mirror: mirror, pointLimit: pointLimit, progress: progress)
      return summary
    }
    var synchronizer = IssueSynchronizer(client: client, cache: cache, repository: repository)
    synchronizer.lockPolicy = .wait(waiting: waiting)
    let rows = try await synchronizer.sync(progress: progress)
    var summary = try await mirror.completeConversations(progress: progress)
    summary.items = rows.items
    summary.restRequests = rows.pages + 1
    summary.deleted += rows.deleted
    summary.skipped = rows.skipped + summary.skipped
    try await addPullRequestDetails(
      to: &summary, mirror: mirror, pointLimit: pointLimit, progress: progress)
    return summary
  }

  /// Fetches the reviews and checks of pull requests that changed (open ones, and a budget of
  /// closed and merged ones), counting what they cost in the mirror's summary.
  ///
  /// One budget bounds the run: the details get what `pointLimit` leaves after the rest of
  /// it (`summary.pointsSpent`); when that is spent, what was fetched is kept and the rest is
  /// left for the next sync, said as skipped (``MirrorSynchronizer/fetchPullRequestDetails(progress:)``).
  static func addPullRequestDetails(
    to summary: inout MirrorSummary, mirror: MirrorSynchronizer, pointLimit: Int?,
    progress: @escaping @Sendable (SyncProgress) -> Void
  ) async throws(GitHubError) {
    var mirror = mirror
    mirror.pointLimit = pointLimit.map { max(0, $0 - summary.pointsSpent) }
    let details = try await mirror.fetchPullRequestDetails(progress: progress)
    summary.pointsSpent += details.pointsSpent
    summary.queries += details.queries
    summary.skipped += details.skipped
  }

  /// A client for the host with a token and the `--timeout` asked for: the one way the commands
  /// reach GitHub outside a sync.
  package static func client(host: GitHubHost, token: String?, timeout: Double?) -> GitHubClient {
    let transport = HTTPClientTransport(timeout: timeout ?? HTTPClientTransport.defaultTimeout)
    var client = GitHubClient(host: host, token: token, transport: transport)
    if let timeout { client.timeout = .milliseconds(Int(timeout * 1000)) }
    return client
  }

  /// What to say while another process's sync holds the cache.
  package static func waitingNote(_ pid: Int32?) -> String {
    "waiting for the sync already running" + (pid.map { " in process \($0)" } ?? "") + "…"
  }
}
