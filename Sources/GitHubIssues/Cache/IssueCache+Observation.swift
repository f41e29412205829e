import Foundation
import GRDB

extension IssueCache {
  /// The issues a filter selects, with their rows, now and after every change to them.
  ///
  /// Each change reads the whole selection again: right for a short list (a milestone, a
  /// search). For a list of any length, ``observeList(_:)`` merges only the changed rows.
  public func observeIssues(_ filter: IssueFilter) -> AsyncThrowingStream<[CachedIssue], any Error>
  {
    observe { db in try Self.issues(filter, db) }
  }

  /// The chip bar's counts, now and after every change.
  public func observeMilestoneCounts(state: IssueStateFilter) -> AsyncThrowingStream<
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
