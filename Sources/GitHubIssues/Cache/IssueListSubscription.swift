import GRDB

/// Where an ``IssueListObserver`` hands its lists: on the writer's queue, right after the commit
/// that changed them.
protocol ListDelivery: Sendable {
  func send(_ list: ObservedIssueList)
  func fail(_ error: any Error)
}

extension IssueCache {
  /// Observes a filter's list as ``observeList(_:)`` does, handing each list to `deliver` on the
  /// writer's queue right after the commit that made it — before a write made by the caller
  /// returns, so that the screen that wrote shows the change in the same frame.
  ///
  /// The first list is handed over before this returns; `deliver` is called until the
  /// subscription is released or cancelled. It must be quick and must not touch the cache.
  package func followList(
    _ filter: IssueFilter,
    deliver: @escaping @Sendable (Result<ObservedIssueList, any Error>) -> Void
  ) throws -> IssueListSubscription {
    let delivery = CallbackDelivery(deliver: deliver)
    let observer = try writer.writeWithoutTransaction { db in
      let observer = try IssueListObserver(filter: filter, db: db, sink: delivery, writer: writer)
      db.add(transactionObserver: observer, extent: .observerLifetime)
      return observer
    }
    return IssueListSubscription(observer: observer, writer: writer)
  }
}

/// A list followed with ``IssueCache/followList(_:deliver:)``: the observation lasts as long as
/// this, or until ``cancel()``.
package final class IssueListSubscription: Sendable {
  private let observer: IssueListObserver
  private let writer: any DatabaseWriter

  init(observer: IssueListObserver, writer: any DatabaseWriter) {
    self.observer = observer
    self.writer = writer
  }

  /// Stops the observation: no list is handed over after this returns.
  ///
  /// It waits for the writer's current access (a sync's page), so call it off the input path.
  package func cancel() {
    writer.remove(transactionObserver: observer)
  }
}

/// Hands lists to a closure.
private struct CallbackDelivery: ListDelivery {
  let deliver: @Sendable (Result<ObservedIssueList, any Error>) -> Void

  func send(_ list: ObservedIssueList) { deliver(.success(list)) }
  func fail(_ error: any Error) { deliver(.failure(error)) }
}
