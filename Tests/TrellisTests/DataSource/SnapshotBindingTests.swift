import Testing
import Trellis
import TrellisTestSupport

struct StreamFailure: Error, Equatable {}

@MainActor
@Suite struct SnapshotBindingTests {
  func make() -> (DiffableDataSource<Int, Int, String>, RecordingView<Int>) {
    RecordingView<Int>.withDataSource()
  }

  @Test func asyncApplyReturnsOnceTheViewShowsTheSnapshot() async {
    let (dataSource, view) = make()
    dataSource.concurrentDiffThreshold = 0
    let snapshot = Snapshot(sections: [(0, [1, 2, 3]), (1, [4])])
    await dataSource.apply(snapshot)
    #expect(view.shown == SectionedData(snapshot))
    #expect(view.violations == [])
    var done = false
    dataSource.apply(Snapshot(sections: [(1, [4, 2])]), completion: { done = true })
    #expect(done)
  }

  @Test func asyncAppliesLandInCallOrder() async {
    let (dataSource, view) = make()
    dataSource.concurrentDiffThreshold = 0
    let first = Snapshot(sections: [(0, Array(0..<5_000))])
    let second = Snapshot(sections: [(0, [7, 3])])
    // Entering the task and queueing the apply happen in one main-actor job, so `entered` is the
    // call order, whatever order the tasks run in.
    var entered: [Snapshot<Int, Int>] = []
    let a = Task { @MainActor in
      entered.append(first)
      await dataSource.apply(first)
    }
    let b = Task { @MainActor in
      entered.append(second)
      await dataSource.apply(second)
    }
    await a.value
    await b.value
    #expect(dataSource.snapshot() == entered.last, "the apply called last lands last")
    #expect(view.shown == SectionedData(dataSource.snapshot()))
    #expect(view.violations == [])
  }

  @Test func aSynchronousApplyDuringAnOffActorDiffIsNotOverwrittenByStaleStages() async {
    let (dataSource, view) = make()
    dataSource.concurrentDiffThreshold = 0
    let large = Snapshot(sections: [(0, Array(0..<30_000))])
    let small = Snapshot(sections: [(5, [1, 2])])
    let pending = Task { await dataSource.apply(large) }
    await Task.yield()
    // In an async context `apply` means the asynchronous one; this one applies at once, most
    // likely while the large diff runs: the large one must then be diffed again from it.
    func applyNow() { dataSource.apply(small) }
    applyNow()
    await pending.value
    #expect(view.violations == [])
    let shown = dataSource.snapshot()
    #expect(shown == large || shown == small)
    #expect(view.shown == SectionedData(shown))
  }

  /// Random streams: bursts, off-actor diffs, cancellation at random points, errors.
  ///
  /// After each
  /// applied element the view shows exactly that element, elements are applied in the order they
  /// were sent, and every stage is valid under the batch-update rules.
  @Test(arguments: 0..<12 as Range<UInt64>)
  func randomStreamsKeepTheViewOnTheLatestElement(seed: UInt64) async throws {
    var rng = SplitMix64(seed: seed)
    let (dataSource, view) = make()
    dataSource.concurrentDiffThreshold = Int.random(in: 0...60, using: &rng)
    let (stream, continuation) = AsyncThrowingStream<Snapshot<Int, Int>, any Error>.makeStream()
    var sent: [Snapshot<Int, Int>] = []
    var appliedIndexes: [Int] = []
    let binding = Task { @MainActor in
      try await dataSource.bind(stream) { snapshot in
        #expect(view.shown == SectionedData(snapshot), "seed \(seed)")
        appliedIndexes.append(-1 - (snapshot.itemIdentifiers(inSection: -1_000).first ?? 0))
      }
    }
    let ending = Int.random(in: 0..<3, using: &rng)  // 0 finish, 1 throw, 2 cancel
    let count = Int.random(in: 5...60, using: &rng)
    for _ in 0..<count {
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        var snapshot = SnapshotPairGenerator.pair(maxSections: 6, maxItems: 30, using: &rng).target
        // A section naming the element, so that equal contents sent twice stay distinguishable.
        snapshot.appendSections([-1_000])
        snapshot.appendItems([-1 - sent.count], toSection: -1_000)
        sent.append(snapshot)
        continuation.yield(snapshot)
      }
      for _ in 0..<Int.random(in: 0...3, using: &rng) { await Task.yield() }
    }
    switch ending {
    case 0: continuation.finish()
    case 1: continuation.finish(throwing: StreamFailure())
    default: binding.cancel()
    }
    let result = await binding.result
    #expect(view.violations == [], "seed \(seed)")
    #expect(
      zip(appliedIndexes, appliedIndexes.dropFirst()).allSatisfy { $0 < $1 },
      "seed \(seed): applied out of order or twice")
    #expect(!appliedIndexes.contains(-1), "seed \(seed)")
    #expect(view.shown == SectionedData(dataSource.snapshot()), "seed \(seed)")
    switch (ending, result) {
    case (0, .success(let report)):
      #expect(report.ending == .finished)
      #expect(view.shown == SectionedData(sent.last!), "seed \(seed): the last element wins")
      #expect(report.applied == appliedIndexes.count)
      #expect(report.applied + report.skipped == sent.count, "seed \(seed)")
    case (1, .failure(let error)):
      #expect(error as? StreamFailure == StreamFailure())
      #expect(view.shown == SectionedData(sent.last!), "seed \(seed): applied before rethrowing")
    case (2, .success(let report)):
      #expect(report.ending == .cancelled)
      if let last = appliedIndexes.last {
        #expect(view.shown == SectionedData(sent[last]))
      }
    default:
      Issue.record("seed \(seed): ending \(ending) gave \(result)")
    }
  }

  /// A main-actor job queued while the view applies a bound snapshot (an apply from elsewhere, a
  /// move by the person) runs after `didApply`, which therefore sees the view and `snapshot()`
  /// equal to its own snapshot.
  @Test(arguments: [false, true])
  func didApplySeesItsOwnSnapshotWhenAnotherApplyIsQueuedDuringTheStage(large: Bool) async throws {
    let (dataSource, view) = make()
    dataSource.concurrentDiffThreshold = large ? 0 : 1_000_000
    let bound = Snapshot(sections: [(0, [1, 2, 3])])
    let other = Snapshot(sections: [(0, [3, 9])])
    var queued = false
    view.afterBatch = {
      guard !queued else { return }
      queued = true
      Task { @MainActor in dataSource.apply(other) }
      Task { @MainActor in
        var moved = dataSource.snapshot()
        if let first = moved.itemIdentifiers.first, let last = moved.itemIdentifiers.last,
          first != last
        {
          moved.moveItem(first, afterItem: last)
          dataSource.apply(moved)
        }
      }
    }
    var seen: [(callback: Snapshot<Int, Int>, source: Snapshot<Int, Int>, shown: Bool)] = []
    let (stream, continuation) = AsyncStream<Snapshot<Int, Int>>.makeStream()
    continuation.yield(bound)
    continuation.finish()
    let report = try await dataSource.bind(stream) { snapshot in
      seen.append((snapshot, dataSource.snapshot(), view.shown == SectionedData(snapshot)))
    }
    #expect(report.applied == 1)
    #expect(seen.count == 1)
    #expect(seen.first?.source == bound, "didApply ran after another apply landed")
    #expect(seen.first?.shown == true, "the view no longer showed the bound snapshot")
    #expect(view.violations == [])
  }

  /// A binding cancelled while its snapshot is being applied (here by a job the view queued during
  /// the stage, and by the stage itself) never calls `didApply` again.
  @Test(arguments: [false, true])
  func nothingIsCalledForABindingAfterItsCancellation(cancelInsideTheStage: Bool) async {
    let (dataSource, view) = make()
    let (stream, continuation) = AsyncStream<Snapshot<Int, Int>>.makeStream()
    var cancelled = false
    var callsAfterCancellation = 0
    var binding: Task<SnapshotBindingReport, any Error>?
    view.afterBatch = {
      guard !cancelled else { return }
      if cancelInsideTheStage {
        cancelled = true
        binding?.cancel()
      } else {
        Task { @MainActor in
          cancelled = true
          binding?.cancel()
        }
      }
    }
    binding = Task { @MainActor in
      try await dataSource.bind(stream) { _ in
        if cancelled { callsAfterCancellation += 1 }
      }
    }
    continuation.yield(Snapshot(sections: [(0, [1, 2])]))
    _ = await binding?.result
    continuation.finish()
    #expect(cancelled)
    #expect(callsAfterCancellation == 0, "didApply was called after the binding was cancelled")
    #expect(view.violations == [])
  }

  @Test func sectionListsCanDriveTheBindingToo() async throws {
    let (dataSource, view) = make()
    let (stream, continuation) = AsyncStream<[(Int, [Int])]>.makeStream()
    continuation.yield([(0, [1, 2]), (1, [3])])
    continuation.finish()
    let report = try await dataSource.bind(sections: stream)
    #expect(report.applied == 1)
    #expect(view.shown == SectionedData(sections: [0, 1], items: [[1, 2], [3]]))
  }
}
