import Foundation
import Synchronization
import GitHubIssues

/// Follows the list the browser shows in the cache: observes the browser's filter, and when the
/// filter changes, stops that observation and observes the new one.
///
/// That is a "switch to the latest" of two streams, the filter and the cache's commits, written
/// here rather than taken from swift-async-algorithms, which has `combineLatest` but no switch:
/// combining the latest filter with a stream of commits would need one query that fits every
/// filter, while each filter here is its own incremental observation.
@MainActor
public final class ListFollower {
  private let cache: IssueCache
  private let notify: @Sendable () -> Void
  private let mailbox = LatestList()
  private var task: Task<Void, Never>?
  /// The filter observed, once ``follow(_:)`` was called.
  public private(set) var filter: IssueFilter?

  /// Follows lists of `cache`, calling `notify` (from any thread) when one is ready to take.
  public init(cache: IssueCache, notify: @escaping @Sendable () -> Void) {
    self.cache = cache
    self.notify = notify
  }

  /// Observes `filter`, unless it is already the one observed.
  public func follow(_ filter: IssueFilter) {
    guard filter != self.filter else { return }
    task?.cancel()
    self.filter = filter
    let (cache, mailbox, notify) = (cache, mailbox, notify)
    task = Task.detached {
      do {
        for try await list in cache.observeList(filter) {
          mailbox.put(filter, list)
          notify()
        }
      } catch {
        mailbox.fail(filter, error)
        notify()
      }
    }
  }

  /// The latest list observed for the current filter, with the changes of any it replaced, or
  /// the error the observation ended with.
  public func take() -> Result<ObservedIssueList, any Error>? {
    guard let filter, let (taken, result) = mailbox.take(), taken == filter else { return nil }
    return result
  }

  /// Stops observing.
  public func stop() {
    task?.cancel()
    task = nil
  }
}

/// The latest list of an observation, waiting for the main loop.
private final class LatestList: Sendable {
  private let pending = Mutex<(IssueFilter, Result<ObservedIssueList, any Error>)?>(nil)

  func put(_ filter: IssueFilter, _ list: ObservedIssueList) {
    pending.withLock { pending in
      var list = list
      if let (previous, result) = pending, previous == filter, case .success(let older) = result {
        list.change = older.change.merged(with: list.change)
      }
      pending = (filter, .success(list))
    }
  }

  func fail(_ filter: IssueFilter, _ error: any Error) {
    pending.withLock { $0 = (filter, .failure(error)) }
  }

  func take() -> (IssueFilter, Result<ObservedIssueList, any Error>)? {
    pending.withLock { pending in
      let taken = pending
      pending = nil
      return taken
    }
  }
}
