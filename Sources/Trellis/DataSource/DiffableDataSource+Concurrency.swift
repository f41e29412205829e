// Applying snapshots asynchronously: one at a time, large diffs computed off the main actor.

extension DiffableDataSource where SectionID: Sendable, ItemID: Sendable {
  /// Shows a new snapshot and returns once the view has applied the last stage.
  ///
  /// When the old and new snapshots hold ``concurrentDiffThreshold`` items or more together, the
  /// diff is computed off the main actor, and only the stages are applied on it, as UIKit's
  /// `apply` from a background queue does: the view stays responsive during a large diff and never
  /// shows a half-applied state. Asynchronous applies land in the order they were called. If the
  /// data changed while the diff was computed (a synchronous apply, a move by the person), the
  /// diff is computed again from what the view shows.
  ///
  /// The caller resumes in a main-actor job of its own after the view applied the last stage, so
  /// another apply (or a move by the person) may land first: code that must see exactly this
  /// snapshot belongs in the `didApply` of ``bind(_:animatingDifferences:didApply:)`` or the
  /// `completion` of the synchronous apply, which run in the job that applied it.
  ///
  /// - Parameters:
  ///   - snapshot: The data to show; its reload and reconfigure marks are honoured.
  ///   - animatingDifferences: Whether the view should animate the changes.
  /// - Complexity: That of ``StagedChangeset/init(from:to:itemUpdate:)``, off the main actor at or
  ///   above ``concurrentDiffThreshold`` items, plus O(*n*) on it for each stage.
  public func apply(
    _ snapshot: Snapshot<SectionID, ItemID>, animatingDifferences: Bool = true
  ) async {
    _ = await enqueue(snapshot, animated: animatingDifferences, cancellable: false)
  }

  /// Diffs and applies a snapshot after every asynchronous apply and binding step queued before
  /// it: the one queue that keeps ``apply(_:animatingDifferences:)`` and
  /// ``bind(_:animatingDifferences:didApply:)`` in call order.
  ///
  /// `didApply` runs in the main-actor job that applied the last stage, before any other job can
  /// change the data, and only when the calling task is still not cancelled after the apply.
  ///
  /// - Returns: Whether the snapshot was applied (a cancellable one is dropped when the calling
  ///   task is cancelled).
  func enqueue(
    _ snapshot: Snapshot<SectionID, ItemID>, animated: Bool, cancellable: Bool,
    didApply: ((Snapshot<SectionID, ItemID>) -> Void)? = nil
  ) async -> Bool {
    let previous = lastAsynchronousApply
    let task = Task { @MainActor in
      _ = await previous?.value
      return await self.diffAndPerform(
        snapshot, animated: animated, cancellable: cancellable, didApply: didApply)
    }
    lastAsynchronousApply = task
    let applied: Bool
    if cancellable {
      applied = await withTaskCancellationHandler {
        await task.value
      } onCancel: {
        task.cancel()
      }
    } else {
      applied = await task.value
    }
    if lastAsynchronousApply == task { lastAsynchronousApply = nil }
    return applied
  }

  /// Diffs `snapshot` against the current data (off the main actor when large) and applies it;
  /// when `cancellable`, a cancelled task drops the diff instead.
  ///
  /// Between the last check of the generation and `didApply` nothing suspends: the apply and its
  /// callback are one main-actor job, so no other apply or move can land between them.
  ///
  /// - Returns: Whether the snapshot was applied.
  @inlinable
  func diffAndPerform(
    _ snapshot: Snapshot<SectionID, ItemID>, animated: Bool, cancellable: Bool,
    didApply: ((Snapshot<SectionID, ItemID>) -> Void)? = nil
  ) async -> Bool {
    while true {
      if cancellable && Task.isCancelled { return false }
      let source = current
      let started = generation
      let changes: StagedChangeset<SectionID, ItemID>
      if source.numberOfItems + snapshot.numberOfItems >= concurrentDiffThreshold {
        changes = await Task.detached(priority: Task.currentPriority) {
          StagedChangeset(from: source, to: snapshot)
        }.value
      } else {
        changes = StagedChangeset(from: source, to: snapshot)
      }
      if cancellable && Task.isCancelled { return false }
      // Another apply landed while the diff ran: its stages would not fit. Diff again.
      guard generation == started else { continue }
      perform(changes, reaching: snapshot.withoutMarks(), animated: animated)
      // A view's batch update may cancel the binding (its callback is then never called).
      if !(cancellable && Task.isCancelled) { didApply?(snapshot) }
      return true
    }
  }

  /// Keeps the view in step with a stream of snapshots until the stream ends, throws, or the
  /// calling task is cancelled.
  ///
  ///     let (snapshots, continuation) = AsyncStream<Snapshot<Section, Item.ID>>.makeStream()
  ///     model.onChange = { continuation.yield($0.snapshot) }
  ///     let report = try await dataSource.bind(snapshots)
  ///
  /// Each snapshot is diffed against what the view shows and applied stage by stage (large ones
  /// diffed off the main actor, as ``apply(_:animatingDifferences:)`` does). When snapshots arrive
  /// faster than they are applied, the ones in between are skipped: the latest wins, and an older
  /// snapshot is never applied after a newer one. A snapshot received before the stream ended or
  /// threw is applied before the binding returns or rethrows.
  ///
  /// Cancelling the task stops the binding at once: a diff in flight is dropped, and the view
  /// shows the last snapshot applied, whole.
  ///
  /// The binding's snapshots and asynchronous ``apply(_:animatingDifferences:)`` calls share one
  /// queue: each lands after everything queued before it. A data source follows one stream at a
  /// time: binding a second while the first runs throws ``DataSourceAlreadyBound`` and leaves the
  /// first in charge.
  ///
  /// `didApply` runs in the same main-actor job as the apply it reports, right after the view
  /// took the last stage: when it runs, ``snapshot()`` and the view are exactly its snapshot, as
  /// no other apply, binding step or move can land in between. It is never called once the
  /// binding's task is cancelled, even for a snapshot whose apply had already begun.
  ///
  /// - Parameters:
  ///   - snapshots: The data to show, newest last.
  ///   - animatingDifferences: Whether the view should animate the changes.
  ///   - didApply: Called with each snapshot once the view has applied it: the place to restore
  ///     focus or update what the view draws around the data.
  /// - Complexity: For each snapshot applied, that of ``apply(_:animatingDifferences:)``.
  /// - Returns: How many snapshots were applied and skipped, and how the binding ended.
  /// - Throws: The error the stream threw, after applying what came before it.
  @discardableResult
  public func bind<Snapshots: AsyncSequence & Sendable>(
    _ snapshots: Snapshots, animatingDifferences: Bool = true,
    didApply: ((Snapshot<SectionID, ItemID>) -> Void)? = nil
  ) async throws -> SnapshotBindingReport
  where Snapshots.Element == Snapshot<SectionID, ItemID> {
    guard !isBound else { throw DataSourceAlreadyBound() }
    isBound = true
    defer { isBound = false }
    let mailbox = LatestValueMailbox<Snapshot<SectionID, ItemID>>()
    let reader = Task { @MainActor in
      do {
        for try await snapshot in snapshots {
          mailbox.put(snapshot)
        }
        mailbox.finish(throwing: nil)
      } catch {
        mailbox.finish(throwing: error)
      }
    }
    var report = SnapshotBindingReport()
    do {
      try await withTaskCancellationHandler {
        while let snapshot = try await mailbox.next() {
          if await enqueue(
            snapshot, animated: animatingDifferences, cancellable: true, didApply: didApply)
          {
            report.applied += 1
          }
        }
      } onCancel: {
        reader.cancel()
        Task { @MainActor in mailbox.cancel() }
      }
    } catch {
      reader.cancel()
      report.skipped = mailbox.skipped
      throw error
    }
    reader.cancel()
    report.skipped = mailbox.skipped
    report.ending = mailbox.wasCancelled || Task.isCancelled ? .cancelled : .finished
    return report
  }

  /// Keeps the view in step with a stream of section lists, each shown as a snapshot; see
  /// ``bind(_:animatingDifferences:didApply:)``.
  ///
  /// - Complexity: For each list applied, O(*n*) to build its snapshot, plus that of
  ///   ``apply(_:animatingDifferences:)``.
  @discardableResult
  public func bind<Sections: AsyncSequence & Sendable>(
    sections: Sections, animatingDifferences: Bool = true,
    didApply: ((Snapshot<SectionID, ItemID>) -> Void)? = nil
  ) async throws -> SnapshotBindingReport
  where Sections.Element == [(SectionID, [ItemID])] {
    try await bind(
      SnapshotsOfSections<Sections, SectionID, ItemID>(base: sections),
      animatingDifferences: animatingDifferences, didApply: didApply)
  }
}

/// The error of binding a data source to a second stream while it follows one.
public struct DataSourceAlreadyBound: Error, CustomStringConvertible {
  /// Creates the error.
  public init() {}

  public var description: String {
    "This data source already follows a stream of snapshots: cancel that binding's task before "
      + "binding another."
  }
}

/// What a binding to a stream of snapshots did.
public struct SnapshotBindingReport: Hashable, Sendable {
  /// How a binding ended.
  public enum Ending: Hashable, Sendable {
    /// The stream finished; its last snapshot is shown.
    case finished
    /// The task was cancelled; the last snapshot applied is shown.
    case cancelled
  }

  /// Snapshots applied to the view.
  public var applied = 0
  /// Snapshots replaced by a newer one before they could be applied.
  public var skipped = 0
  /// How the binding ended.
  public var ending = Ending.finished

  /// Creates an empty report.
  public init() {}
}

/// Holds the latest value a producer sent until a consumer takes it; older values not taken are
/// dropped and counted.
@MainActor
final class LatestValueMailbox<Value> {
  private var pending: Value?
  private var ending: (any Error)??
  private var waiter: CheckedContinuation<Void, Never>?
  private(set) var skipped = 0
  private(set) var wasCancelled = false

  func put(_ value: Value) {
    guard ending == nil else { return }
    if pending != nil { skipped += 1 }
    pending = value
    wake()
  }

  /// Ends the stream of values: `nil` for a normal end, or the error it ended with.
  func finish(throwing error: (any Error)?) {
    guard ending == nil else { return }
    ending = .some(error)
    wake()
  }

  func cancel() {
    guard ending == nil else { return }
    wasCancelled = true
    pending = nil
    ending = .some(nil)
    wake()
  }

  /// The latest value not taken yet, waiting for one; `nil` once finished and drained.
  func next() async throws -> Value? {
    while true {
      if let value = pending {
        pending = nil
        return value
      }
      if let ending {
        if let error = ending { throw error }
        return nil
      }
      await withCheckedContinuation { waiter = $0 }
    }
  }

  private func wake() {
    waiter?.resume()
    waiter = nil
  }
}

/// A stream of section lists seen as a stream of snapshots.
struct SnapshotsOfSections<Base: AsyncSequence & Sendable, SectionID: Hashable, ItemID: Hashable>:
  AsyncSequence, Sendable
where Base.Element == [(SectionID, [ItemID])] {
  typealias Element = Snapshot<SectionID, ItemID>
  let base: Base

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    mutating func next() async throws -> Snapshot<SectionID, ItemID>? {
      try await base.next().map { Snapshot(sections: $0) }
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}
