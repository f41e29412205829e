import Testing
import Trellis
import TrellisTestSupport

/// A fake view that records every batch update, checks it against the data source's data before
/// and after `updateData` under UIKit's rules, and remembers what it shows.
@MainActor
final class RecordingView<SectionID: Hashable>: BatchUpdatingView {
  weak var dataSource: DiffableDataSource<SectionID, Int, String>?
  var shown = SectionedData<SectionID, Int>(sections: [], items: [])
  var batches: [BatchUpdate] = []
  var reloads = 0
  var violations: [String] = []
  /// Called after each batch update, once the view shows its data: where a test lands work (an
  /// apply, a cancellation) between an apply and what the data source does next.
  var afterBatch: (() -> Void)?

  func read() -> SectionedData<SectionID, Int> {
    guard let dataSource else { return shown }
    let sections = (0..<dataSource.numberOfSections).compactMap {
      dataSource.sectionIdentifier(for: $0)
    }
    let items = sections.indices.map { section in
      (0..<dataSource.numberOfItems(inSection: section)).compactMap {
        dataSource.itemIdentifier(for: IndexPath(item: $0, section: section))
      }
    }
    return SectionedData(sections: sections, items: items)
  }

  func performBatchUpdates(_ update: BatchUpdate, animated: Bool, updateData: () -> Void) {
    let before = read()
    if before != shown { violations.append("data changed outside a batch update") }
    updateData()
    let after = read()
    // During the stage, an item's index path is where the view reads it.
    if let dataSource, after.items.joined().count <= 2_000 {
      for (section, items) in after.items.enumerated() {
        for (item, id) in items.enumerated()
        where dataSource.indexPath(for: id) != IndexPath(item: item, section: section) {
          violations.append("indexPath(for: \(id)) is not where the stage shows it")
        }
      }
    }
    do {
      try BatchUpdateReplayer.apply(update, to: before, expecting: after)
    } catch {
      violations.append(error.description)
    }
    batches.append(update)
    shown = after
    afterBatch?()
  }

  func reloadData() {
    reloads += 1
    shown = read()
  }

  /// A recording view and a data source driving it, whose cells name their item and path.
  static func withDataSource() -> (DiffableDataSource<SectionID, Int, String>, RecordingView) {
    let view = RecordingView()
    let dataSource = DiffableDataSource<SectionID, Int, String>(view: view) { path, id in
      "cell \(id) at \(path)"
    }
    view.dataSource = dataSource
    return (dataSource, view)
  }
}

@MainActor
@Suite struct DiffableDataSourceTests {
  func make<S: Hashable>(
    _: S.Type = String.self
  ) -> (DiffableDataSource<S, Int, String>, RecordingView<S>) {
    RecordingView<S>.withDataSource()
  }

  @Test func applyingHandsTheViewValidStagesAndEndsOnTheSnapshot() {
    let (dataSource, view) = make()
    dataSource.apply(Snapshot(sections: [("a", [1, 2, 3]), ("b", [4])]))
    dataSource.apply(Snapshot(sections: [("b", [4, 1]), ("c", [5]), ("a", [3])]))
    #expect(view.violations == [])
    #expect(view.shown == SectionedData(sections: ["b", "c", "a"], items: [[4, 1], [5], [3]]))
    #expect(dataSource.snapshot() == Snapshot(sections: [("b", [4, 1]), ("c", [5]), ("a", [3])]))
  }

  @Test(arguments: 0..<5 as Range<UInt64>)
  func randomSnapshotSequencesKeepTheViewAndDataInStep(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let (dataSource, view) = make(Int.self)
    for step in 0..<40 {
      let pair = SnapshotPairGenerator.pair(maxSections: 20, maxItems: 20, using: &rng)
      dataSource.apply(pair.source)
      dataSource.apply(pair.target)
      #expect(view.violations == [], "seed \(seed), step \(step)")
      #expect(view.shown == SectionedData(pair.target), "seed \(seed), step \(step)")
    }
  }

  @Test func cellsAreMadeFromIdentifiersAndPaths() {
    let (dataSource, _) = make()
    dataSource.apply(Snapshot(sections: [("a", [7, 8])]))
    #expect(dataSource.cell(at: IndexPath(item: 1, section: 0)) == "cell 8 at [0, 1]")
    #expect(dataSource.indexPath(for: 8) == IndexPath(item: 1, section: 0))
    #expect(dataSource.itemIdentifier(for: IndexPath(item: 2, section: 0)) == nil)
    #expect(dataSource.index(for: "a") == 0)
  }

  @Test func supplementariesReceiveTheirSection() {
    let (dataSource, _) = make()
    dataSource.supplementaryProvider = { kind, _, section in "\(kind) of \(section)" }
    dataSource.apply(Snapshot(sections: [("a", []), ("b", [1])]))
    #expect(
      dataSource.supplementary(ofKind: "header", at: IndexPath(item: 0, section: 1))
        == "header of b")
    #expect(dataSource.supplementary(ofKind: "header", at: IndexPath(item: 0, section: 2)) == nil)
  }

  @Test func applyingTheSameSnapshotTouchesNothing() {
    let (dataSource, view) = make()
    let snapshot = Snapshot(sections: [("a", [1, 2])])
    dataSource.apply(snapshot)
    let batches = view.batches.count
    dataSource.apply(snapshot)
    #expect(view.batches.count == batches)
  }

  @Test func reloadMarksAreAppliedOnceAndNotKept() {
    let (dataSource, view) = make()
    dataSource.apply(Snapshot(sections: [("a", [1, 2])]))
    var snapshot = dataSource.snapshot()
    snapshot.reconfigureItems([2])
    dataSource.apply(snapshot)
    #expect(view.batches.last?.itemReconfigures == [IndexPath(item: 1, section: 0)])
    #expect(dataSource.snapshot().reconfiguredItemIdentifiers == [])
  }

  @Test func contentChangesComeFromTheItemUpdateClosure() {
    let (dataSource, view) = make()
    dataSource.apply(Snapshot(sections: [("a", [1, 2, 3])]))
    dataSource.apply(Snapshot(sections: [("a", [1, 2, 3])])) { $0 == 3 ? .reload : nil }
    #expect(view.batches.last?.itemReloads == [IndexPath(item: 2, section: 0)])
  }

  @Test func reloadDataSkipsTheDiff() {
    let (dataSource, view) = make()
    dataSource.applySnapshotUsingReloadData(Snapshot(sections: [("a", [1, 2])]))
    #expect(view.reloads == 1)
    #expect(view.batches.isEmpty)
    #expect(view.shown == SectionedData(sections: ["a"], items: [[1, 2]]))
  }

  @Test func withoutAViewTheSnapshotIsSimplyTaken() {
    let dataSource = DiffableDataSource<String, Int, String> { _, id in "\(id)" }
    dataSource.apply(Snapshot(sections: [("a", [1])]))
    #expect(dataSource.numberOfSections == 1)
    #expect(dataSource.cell(at: IndexPath(item: 0, section: 0)) == "1")
  }

  @Test func aViewThatNeverUpdatesItsDataTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        final class ForgetfulView: BatchUpdatingView {
          func performBatchUpdates(_ update: BatchUpdate, animated: Bool, updateData: () -> Void) {}
          func reloadData() {}
        }
        let view = ForgetfulView()
        let dataSource = DiffableDataSource<String, Int, String>(view: view) { _, id in "\(id)" }
        dataSource.apply(Snapshot(sections: [("a", [1])]))
      }
    }
  }

  @Test func applyingFromInsideABatchUpdateTraps() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        final class ReentrantView: BatchUpdatingView {
          var dataSource: DiffableDataSource<String, Int, String>?
          func performBatchUpdates(_ update: BatchUpdate, animated: Bool, updateData: () -> Void) {
            updateData()
            dataSource?.apply(Snapshot())
          }
          func reloadData() {}
        }
        let view = ReentrantView()
        let dataSource = DiffableDataSource<String, Int, String>(view: view) { _, id in "\(id)" }
        view.dataSource = dataSource
        dataSource.apply(Snapshot(sections: [("a", [1])]))
      }
    }
  }
}
