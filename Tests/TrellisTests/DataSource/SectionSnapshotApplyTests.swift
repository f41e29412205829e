import Testing
import Trellis
import TrellisTestSupport

@MainActor
@Suite struct SectionSnapshotApplyTests {
  func make() -> (DiffableDataSource<Int, Int, String>, RecordingView<Int>) {
    RecordingView<Int>.withDataSource()
  }

  @Test func expandingIsOneInsertionOfTheNewRowsAndCollapsingOneDeletion() {
    let (dataSource, view) = make()
    dataSource.apply(Snapshot(sections: [(0, [100]), (1, [200])]))
    var tree = SectionSnapshot<Int>()
    tree.append([1, 2, 3])
    tree.append([10, 11], to: 2)
    tree.append([20], to: 10)
    dataSource.apply(tree, to: 0)
    #expect(view.shown.items == [[1, 2, 3], [200]])
    view.batches.removeAll()
    tree.expand([2, 10])
    dataSource.apply(tree, to: 0)
    #expect(view.shown.items == [[1, 2, 10, 20, 11, 3], [200]])
    #expect(view.batches.count == 1)
    #expect(
      view.batches.first?.itemInserts == [
        IndexPath(item: 2, section: 0), IndexPath(item: 3, section: 0),
        IndexPath(item: 4, section: 0),
      ])
    tree.collapse([2])
    dataSource.apply(tree, to: 0)
    #expect(view.batches.count == 2)
    #expect(view.batches.last?.itemDeletes.count == 3)
    #expect(view.shown.items == [[1, 2, 3], [200]])
    #expect(view.violations == [])
    #expect(dataSource.snapshot(for: 0) == tree)
  }

  @Test func aSectionNotShownIsAppended() {
    let (dataSource, view) = make()
    var tree = SectionSnapshot<Int>()
    tree.append([5, 6])
    dataSource.apply(tree, to: 9)
    #expect(view.shown == SectionedData(sections: [9], items: [[5, 6]]))
  }

  @Test func aWholeSnapshotThatChangesTheSectionForgetsItsTree() {
    let (dataSource, _) = make()
    var tree = SectionSnapshot<Int>()
    tree.append([1])
    tree.append([2], to: 1)
    tree.expand([1])
    dataSource.apply(tree, to: 0)
    dataSource.apply(Snapshot(sections: [(0, [1, 2]), (1, [3])]))
    #expect(dataSource.snapshot(for: 0) == tree, "the section still shows the tree's rows")
    dataSource.apply(Snapshot(sections: [(0, [2, 1])]))
    #expect(dataSource.snapshot(for: 0).items == [2, 1])
    #expect(dataSource.snapshot(for: 0).level(of: 1) == 0)
  }

  /// Random trees and random expand, collapse and structural changes, applied to one section of
  /// several: every batch valid, the section always shows the visible items.
  @Test(arguments: 0..<15 as Range<UInt64>)
  func randomExpandCollapseSequencesReplayValidly(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let (dataSource, view) = make()
    dataSource.apply(Snapshot(sections: [(0, [-1, -2]), (1, []), (2, [-3])]))
    var tree = SectionSnapshot<Int>()
    var next = 0
    for step in 0..<120 {
      let items = tree.items
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<3:
        let parent =
          items.isEmpty || Bool.random(using: &rng) ? nil : items.randomElement(using: &rng)
        let count = Int.random(in: 1...6, using: &rng)
        tree.append(Array(next..<(next + count)), to: parent)
        next += count
      case 3 where !items.isEmpty:
        tree.delete([items.randomElement(using: &rng)!])
      default:
        guard !items.isEmpty else { continue }
        let chosen = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
          items.randomElement(using: &rng)!
        }
        if Bool.random(using: &rng) { tree.expand(chosen) } else { tree.collapse(chosen) }
      }
      dataSource.apply(tree, to: 1)
      #expect(view.violations == [], "seed \(seed), step \(step)")
      #expect(view.shown.items[1] == tree.visibleItems, "seed \(seed), step \(step)")
      #expect(view.shown.items[0] == [-1, -2] && view.shown.items[2] == [-3])
    }
  }

  @Test func expandingTenThousandChildrenInAHundredThousandRowListIsOneBatch() {
    let (dataSource, view) = make()
    var tree = SectionSnapshot<Int>()
    tree.append(Array(0..<90_000))
    tree.append(Array(1_000_000..<1_010_000), to: 45_000)
    dataSource.apply(tree, to: 0)
    view.batches.removeAll()
    tree.expand([45_000])
    dataSource.apply(tree, to: 0)
    #expect(view.batches.count == 1)
    #expect(view.batches[0].itemInserts.count == 10_000)
    #expect(view.batches[0].itemInserts.first == IndexPath(item: 45_001, section: 0))
    #expect(dataSource.numberOfItems(inSection: 0) == 100_000)
  }
}
