import Foundation
import GitHubIssues
import Synchronization

/// Follows the list the browser shows in the cache: observes the browser's filter, and when the
/// filter changes, stops that observation and observes the new one.
///
/// That is a "switch to the latest" of two streams, the filter and the cache's commits, written
/// here rather than taken from swift-async-algorithms, which has `combineLatest` but no switch:
/// combining the latest filter with a stream of commits would need one query that fits every
/// filter, while each filter here is its own incremental observation.
///
/// A commit's list is left for the browser on the writer's queue, before the write returns: a
/// write made on the input path (an action) finds its list with ``take()`` in the same key
/// press. Starting an observation (the first list's query) runs off the input path.
@MainActor
public final class ListFollower {
  private let cache: IssueCache
  private let notify: @Sendable () -> Void
  private let mailbox = LatestList()
  private let current = CurrentSubscription()
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
    self.filter = filter
    let stale = current.replace(with: filter)
    let (cache, mailbox, notify, current) = (cache, mailbox, notify, current)
    Task.detached {
      stale?.cancel()
      do {
        let subscription = try cache.followList(filter) { result in
          switch result {
          case .success(let list): mailbox.put(filter, list)
          case .failure(let error): mailbox.fail(filter, error)
          }
          notify()
        }
        // A newer filter came meanwhile: this one stops at once.
        current.install(subscription, for: filter)?.cancel()
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
    filter = nil
    let stale = current.replace(with: nil)
    Task.detached { stale?.cancel() }
  }
}

/// The subscription of the filter followed now.
private final class CurrentSubscription: Sendable {
  private let state = Mutex<(filter: IssueFilter?, subscription: IssueListSubscription?)>(
    (nil, nil))

  /// Follows `filter` from now; returns the subscription it replaces, to cancel.
  func replace(with filter: IssueFilter?) -> IssueListSubscription? {
    state.withLock { state in
      let old = state.subscription
      state = (filter, nil)
      return old
    }
  }

  /// Keeps `subscription` when `filter` is still the one followed; returns it otherwise, to
  /// cancel.
  func install(_ subscription: IssueListSubscription, for filter: IssueFilter)
    -> IssueListSubscription?
  {
    state.withLock { state in
      guard state.filter == filter else { return subscription }
      state.subscription = subscription
      return nil
    }
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
        list.queue = list.queue ?? older.queue
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
