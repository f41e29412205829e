import Foundation
import GitHubIssues
import Synchronization

/// Syncs every repository of a dashboard, one at a time, in turns.
///
/// Each gets a slice of time, and a repository whose sync is longer (a first sync of a large one) is cut off at the end of
/// its slice and taken up again on its next turn, where its sync resumes from the last page it
/// committed. No repository waits for another's whole sync.
///
/// The budget is the host's: every sync starts with conditional requests (a quiet repository
/// answers 304 and costs nothing), and a rate limit on a host ends that host's turns for this
/// run: its other repositories are reported with the same error rather than spending more.
package struct DashboardSyncScheduler: Sendable {
  /// What the scheduler reports, in order.
  package enum Report: Sendable {
    /// A repository's sync moved on.
    case progress(DashboardSource, position: Int, of: Int, SyncProgress)
    /// A repository's sync ended: finished, failed, or (`finished == false`) cut off at the end
    /// of its turn, to be continued.
    case turnEnded(DashboardSource, Result<Bool, GitHubError>)
    /// Every repository is up to date, or failed.
    case roundFinished(failures: Int)
  }

  /// How the repositories are synced: by default with ``Syncing/run``.
  package typealias Sync =
    @Sendable (
      DashboardSource, IssueCache, @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> Void

  let repositories: [(DashboardSource, IssueCache)]
  let slice: Duration
  let sync: Sync

  /// A scheduler over `repositories`, giving each turns of `slice`.
  package init(
    repositories: [(DashboardSource, IssueCache)], slice: Duration = .seconds(10),
    timeout: Double?, sync: Sync? = nil
  ) {
    self.repositories = repositories
    self.slice = slice
    self.sync =
      sync ?? { source, cache, progress in
        _ = try await Syncing.run(
          host: source.host, repository: source.repository, cache: cache, full: false,
          timeout: timeout, progress: progress, waiting: { _ in })
      }
  }

  /// Syncs every repository until each is up to date or failed, reporting as it goes.
  package func run(report: @escaping @Sendable (Report) -> Void) async {
    var unfinished = Array(repositories.indices)
    var failures = 0
    // A host out of budget: its other repositories are not tried again in this run (the
    // error says when the limit lifts).
    var limited: [String: GitHubError] = [:]
    while !unfinished.isEmpty, !Task.isCancelled {
      var stillUnfinished: [Int] = []
      for index in unfinished {
        guard !Task.isCancelled else { return }
        let (source, cache) = repositories[index]
        if let error = limited[source.host.storageName] {
          failures += 1
          report(.turnEnded(source, .failure(error)))
          continue
        }
        let position = index + 1
        let count = repositories.count
        let result = await turn(source, cache) { progress in
          report(.progress(source, position: position, of: count, progress))
        }
        report(.turnEnded(source, result))
        switch result {
        case .success(true): break
        case .success(false): stillUnfinished.append(index)
        case .failure(let error):
          failures += 1
          if error.code == .rateLimited { limited[source.host.storageName] = error }
        }
      }
      unfinished = stillUnfinished
    }
    report(.roundFinished(failures: failures))
  }

  /// One turn: the repository's sync, cut off after the slice.
  ///
  /// - Returns: `true` when the sync finished, `false` when it was cut off.
  func turn(
    _ source: DashboardSource, _ cache: IssueCache,
    progress: @escaping @Sendable (SyncProgress) -> Void
  ) async -> Result<Bool, GitHubError> {
    let cutOff = Mutex(false)
    let sync = self.sync
    let work = Task { () async -> Result<Void, GitHubError> in
      do {
        try await sync(source, cache, progress)
        return .success(())
      } catch let error as GitHubError {
        return .failure(error)
      } catch {
        return .failure(GitHubError(.offline, url: "sync of \(source)", detail: "\(error)"))
      }
    }
    let slice = self.slice
    let timer = Task {
      try? await Task.sleep(for: slice)
      guard !Task.isCancelled else { return }
      cutOff.withLock { $0 = true }
      work.cancel()
    }
    let result = await withTaskCancellationHandler {
      await work.value
    } onCancel: {
      work.cancel()
    }
    timer.cancel()
    switch result {
    case .success: return .success(true)
    case .failure(let error):
      // Cut off: whatever the cancelled request threw, the sync resumes next turn.
      return cutOff.withLock { $0 } || Task.isCancelled ? .success(false) : .failure(error)
    }
  }
}
