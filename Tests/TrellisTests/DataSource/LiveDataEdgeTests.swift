import Testing
import Trellis
import TrellisTestSupport

/// Trees expanded through the data source's handlers, trees checked whole, and one ordered queue
/// for bindings and asynchronous applies.
@MainActor
@Suite struct LiveDataEdgeTests {
  func make() -> (DiffableDataSource<Int, Int, String>, RecordingView<Int>) {
    RecordingView<Int>.withDataSource()
  }

  /// Folders 1 and 2 with children; 10 has a child of its own.
  func folders() -> SectionSnapshot<Int> {
    var tree = SectionSnapshot<Int>()
    tree.append([1, 2])
    tree.append([10, 11], to: 1)
    tree.append([100], to: 10)
    tree.append([20], to: 2)
    return tree
  }

  @Test func expandedItemsAreListedInTreeOrder() {
    var tree = folders()
    #expect(tree.expandedItems == [])
    tree.expand([2, 10, 1])
    #expect(tree.expandedItems == [1, 10, 2])
    tree.collapse([10])
    #expect(tree.expandedItems == [1, 2])
    tree.delete([2])
    #expect(tree.expandedItems == [1])
  }

  @Test func expandAndCollapseAskTheHandlersAndAreOneBatchEach() {
    let (dataSource, view) = make()
    dataSource.apply(folders(), to: 0)
    var log: [String] = []
    dataSource.sectionSnapshotHandlers.shouldExpandItem = { $0 != 2 }
    dataSource.sectionSnapshotHandlers.willExpandItem = { log.append("will expand \($0)") }
    dataSource.sectionSnapshotHandlers.shouldCollapseItem = { _ in true }
    dataSource.sectionSnapshotHandlers.willCollapseItem = { log.append("will collapse \($0)") }
    view.batches.removeAll()
    #expect(!dataSource.expand(2, in: 0))
    #expect(view.batches.isEmpty)
    #expect(dataSource.expand(1, in: 0))
    #expect(!dataSource.expand(1, in: 0), "already expanded")
    #expect(view.shown.items == [[1, 10, 11, 2]])
    #expect(view.batches.count == 1)
    #expect(dataSource.collapse(1, in: 0))
    #expect(!dataSource.collapse(1, in: 0), "already collapsed")
    #expect(view.shown.items == [[1, 2]])
    #expect(log == ["will expand 1", "will collapse 1"])
    #expect(view.violations == [])
  }

  @Test func aParentsChildrenCanBeLoadedAsItExpands() {
    let (dataSource, view) = make()
    var tree = SectionSnapshot<Int>()
    tree.append([1, 2])
    dataSource.apply(tree, to: 0)
    dataSource.sectionSnapshotHandlers.snapshotForExpandingParentItem = { parent, children in
      #expect(children.items.isEmpty)
      var loaded = SectionSnapshot<Int>()
      loaded.append([parent * 10, parent * 10 + 1])
      return loaded
    }
    #expect(dataSource.expand(2, in: 0))
    #expect(view.shown.items == [[1, 2, 20, 21]])
    #expect(dataSource.snapshot(for: 0).children(of: 2) == [20, 21])
    #expect(dataSource.snapshot(for: 0).expandedItems == [2])
    #expect(view.violations == [])
  }

  @Test func aTreeWhoseHiddenItemIsInAnotherSectionIsRefusedWhenApplied() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let dataSource = DiffableDataSource<Int, Int, String> { _, id in "\(id)" }
        dataSource.apply(Snapshot(sections: [(0, []), (1, [100])]))
        var tree = SectionSnapshot<Int>()
        tree.append([1])
        tree.append([100], to: 1)  // Hidden: 1 is collapsed.
        dataSource.apply(tree, to: 0)
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("its item 100 is already in section 1"))
    }
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let dataSource = DiffableDataSource<Int, Int, String> { _, id in "\(id)" }
        var first = SectionSnapshot<Int>()
        first.append([1])
        first.append([7], to: 1)
        dataSource.apply(first, to: 0)
        var second = SectionSnapshot<Int>()
        second.append([7])  // Hidden in section 0's tree.
        dataSource.apply(second, to: 1)
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("its item 7 is already in section 0"))
    }
  }

  @Test func aSecondBindingIsRefusedAndTheFirstKeepsGoing() async throws {
    let (dataSource, view) = make()
    let (first, firstContinuation) = AsyncStream<Snapshot<Int, Int>>.makeStream()
    let binding = Task { @MainActor in try await dataSource.bind(first) }
    await Task.yield()
    let (second, secondContinuation) = AsyncStream<Snapshot<Int, Int>>.makeStream()
    secondContinuation.finish()
    await #expect(throws: DataSourceAlreadyBound.self) { try await dataSource.bind(second) }
    firstContinuation.yield(Snapshot(sections: [(0, [1, 2])]))
    firstContinuation.finish()
    let report = try await binding.value
    #expect(report.applied == 1)
    #expect(view.shown.items == [[1, 2]])
    // Once the first binding ended, another may start.
    let (third, thirdContinuation) = AsyncStream<Snapshot<Int, Int>>.makeStream()
    thirdContinuation.yield(Snapshot(sections: [(0, [3])]))
    thirdContinuation.finish()
    #expect(try await dataSource.bind(third).applied == 1)
  }

  /// A binding's snapshot received after an asynchronous apply was queued lands after it, even
  /// when the apply's diff runs off the main actor the whole time.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func bindingsAndAsynchronousAppliesShareOneQueue(seed: UInt64) async throws {
    let (dataSource, view) = make()
    dataSource.concurrentDiffThreshold = 0
    let (stream, continuation) = AsyncStream<Snapshot<Int, Int>>.makeStream()
    let binding = Task { @MainActor in try await dataSource.bind(stream) }
    await Task.yield()
    let large = Snapshot(sections: [(0, Array(0..<(20_000 + Int(seed) * 1_000)))])
    let small = Snapshot(sections: [(1, [1, 2, 3])])
    let apply = Task { @MainActor in await dataSource.apply(large) }
    await Task.yield()
    continuation.yield(small)
    continuation.finish()
    _ = try await binding.value
    await apply.value
    #expect(dataSource.snapshot() == small, "seed \(seed): the later snapshot lands last")
    #expect(view.shown == SectionedData(small))
    #expect(view.violations == [])
  }
}
