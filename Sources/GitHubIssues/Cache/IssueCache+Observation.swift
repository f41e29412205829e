import Foundation
import GRDB

extension IssueCache {
  /// The issues a filter selects, now and after every change to them, as an async sequence —
  /// what `NSFetchedResultsController` is to UIKit.
  public func observeIssues(_ filter: IssueFilter) -> AsyncThrowingStream<[CachedIssue], any Error>
  {
    observe { db in try Self.issues(filter, db) }
  }

  /// The chip bar's counts, now and after every change.
  public func observeMilestoneCounts(state: IssueFilter.State) -> AsyncThrowingStream<
    MilestoneCounts, any Error
  > {
    observe { db in try Self.milestoneCounts(state: state, db) }
  }

  private func observe<Value: Sendable & Equatable>(
    _ fetch: @escaping @Sendable (Database) throws -> Value
  ) -> AsyncThrowingStream<Value, any Error> {
    let observation = ValueObservation.tracking(fetch).removeDuplicates()
    let values = observation.values(in: writer)
    return AsyncThrowingStream { continuation in
      let task = Task {
        do {
          for try await value in values { continuation.yield(value) }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}
