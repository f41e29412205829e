import Foundation
import Synchronization
import GRDB

extension IssueCache {
  /// The list a filter selects, now and again after every committed write that changes it: the
  /// `NSFetchedResultsController` of this cache.
  ///
  ///     for try await list in cache.observeList(filter) {
  ///       show(list.entries, milestones: list.milestones)
  ///     }
  ///
  /// The first element is the list as it is. Each later one is the list after one committed
  /// transaction (never part of one), and says which items changed. A write that changes
  /// nothing the list shows yields nothing. The filter's milestone and limit are ignored (see
  /// ``ObservedIssueList``).
  ///
  /// When the consumer is slower than the writes, elements in between are merged: it gets the
  /// latest list, with the changes of every element it missed.
  ///
  /// - Complexity: The first element costs a query of the whole list; each later one reads only
  ///   the changed rows and merges them, O(*k* log *k* + *n*) for *k* changed rows in a list of
  ///   *n*, on the writer's connection right after the commit.
  public func observeList(_ filter: IssueFilter) -> IssueListObservation {
    IssueListObservation(writer: writer, filter: filter)
  }
}

/// The elements of ``IssueCache/observeList(_:)``: an asynchronous sequence that starts observing
/// when iterated and stops when its iterator is released or its task cancelled.
public struct IssueListObservation: AsyncSequence, Sendable {
  public typealias Element = ObservedIssueList
  let writer: any DatabaseWriter
  let filter: IssueFilter

  public func makeAsyncIterator() -> AsyncIterator {
    let sink = Sink()
    do {
      let observer = try writer.writeWithoutTransaction { db in
        // Registering and reading the first list in one access: no commit falls between.
        let observer = try IssueListObserver(filter: filter, db: db, sink: sink, writer: writer)
        db.add(transactionObserver: observer, extent: .observerLifetime)
        return observer
      }
      return AsyncIterator(sink: sink, observer: observer)
    } catch {
      sink.fail(error)
      return AsyncIterator(sink: sink, observer: nil)
    }
  }

  /// Waits for the next list.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let sink: Sink
    /// Kept alive while iterating: the database holds it weakly.
    let observer: IssueListObserver?

    public mutating func next() async throws -> ObservedIssueList? {
      try await sink.next()
    }
  }

  /// Where the observer leaves lists for the iterator: the latest one, with the changes of
  /// those it replaced merged in.
  final class Sink: ListDelivery {
    private struct State {
      var pending: ObservedIssueList?
      var failure: (any Error)?
      var waiter: CheckedContinuation<ObservedIssueList?, any Error>?
    }
    private let state = Mutex(State())

    func send(_ list: ObservedIssueList) {
      let handOver: (CheckedContinuation<ObservedIssueList?, any Error>, ObservedIssueList)? =
        state.withLock { state in
          var list = list
          if let previous = state.pending {
            list.change = previous.change.merged(with: list.change)
            list.queue = list.queue ?? previous.queue
          }
          guard let waiter = state.waiter else {
            state.pending = list
            return nil
          }
          state.waiter = nil
          state.pending = nil
          return (waiter, list)
        }
      // Resumed outside the lock: the waiter may call back at once.
      if let (waiter, list) = handOver { waiter.resume(returning: list) }
    }

    func fail(_ error: any Error) {
      let waiter = state.withLock { state in
        state.failure = error
        let waiter = state.waiter
        state.waiter = nil
        return waiter
      }
      waiter?.resume(throwing: error)
    }

    /// What a call to `next` finds: a list, a failure, the end, or nothing yet.
    private enum Taken {
      case list(ObservedIssueList)
      case failure(any Error)
      case end
      case wait
    }

    func next() async throws -> ObservedIssueList? {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          let taken: Taken = state.withLock { state in
            if let list = state.pending {
              state.pending = nil
              return .list(list)
            }
            if let failure = state.failure { return .failure(failure) }
            if Task.isCancelled { return .end }
            state.waiter = continuation
            return .wait
          }
          switch taken {
          case .list(let list): continuation.resume(returning: list)
          case .failure(let failure): continuation.resume(throwing: failure)
          case .end: continuation.resume(returning: nil)
          case .wait: break
          }
        }
      } onCancel: {
        let waiter = state.withLock { state in
          let waiter = state.waiter
          state.waiter = nil
          return waiter
        }
        waiter?.resume(returning: nil)
      }
    }
  }
}

extension IssueListChange {
  /// The change of two elements in a row, as if they were one: for a consumer that skipped the
  /// first.
  package func merged(with newer: IssueListChange) -> IssueListChange {
    switch (self, newer) {
    case (.items(let a, let metadataA), .items(let b, let metadataB)):
      .items(
        a.union(b),
        metadata: metadataA == .changed || metadataB == .changed ? .changed : .unchanged)
    default: .everything
    }
  }
}
