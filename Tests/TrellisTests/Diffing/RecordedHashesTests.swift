import Testing
import TrellisTestSupport

@testable import Trellis

/// The fused path of `DiffableDataSource.apply(sections:)`: hashes recorded while a snapshot's
/// table is built, then read by the diff instead of hashing the items it looks up again.
@Suite struct RecordedHashesTests {
  /// The sections of a snapshot with string identifiers (whose hash is worth keeping).
  private func named(_ snapshot: Snapshot<Int, Int>) -> [(Int, [String])] {
    (0..<snapshot.numberOfSections).map { index in
      (
        snapshot.sectionIdentifiers[index],
        snapshot.itemIdentifiers(inSectionAt: index).map { "item \($0)" }
      )
    }
  }

  private func recorded(
    _ sections: [(Int, [String])]
  ) -> (snapshot: Snapshot<Int, String>, hashes: [UInt32]) {
    var hashes: [UInt32] = []
    let snapshot = Snapshot(sections: sections, recordingHashes: &hashes)
    return (snapshot, hashes)
  }

  @Test(arguments: [1, 1_000, 300_000])
  func recordedHashesAreTheTablesOwn(count: Int) {
    // 300,000 items need a table of 2^20 slots, which is filled region by region.
    let sections = [
      (0, (0..<count / 3).map { "a\($0)" }), (1, []), (2, (count / 3..<count).map { "b\($0)" }),
    ]
    let (snapshot, hashes) = recorded(sections)
    #expect(snapshot == Snapshot(sections: sections))
    #expect(hashes.count == count)
    let all = sections.flatMap(\.1)
    let mismatched = all.indices.filter {
      hashes[$0] != UInt32(truncatingIfNeeded: PositionTable.hash(all[$0], key: integerHashKey))
    }
    #expect(mismatched.isEmpty, "\(mismatched.count) of \(count) hashes differ")
  }

  @Test(arguments: 0..<4 as Range<UInt64>)
  func theDiffReadingRecordedHashesEqualsTheDiff(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for step in 0..<150 {
      let pair = SnapshotPairGenerator.pair(maxSections: 30, maxItems: 60, using: &rng)
      let source = Snapshot(sections: named(pair.source))
      let (target, hashes) = recorded(named(pair.target))
      let changed = Set(pair.contentChanged.map { "item \($0)" })
      let update: (String) -> ItemUpdate? = { changed.contains($0) ? .reconfigure : nil }
      #expect(
        StagedChangeset(from: source, to: target, targetHashes: hashes, itemUpdate: update)
          == StagedChangeset(from: source, to: target, itemUpdate: update),
        "seed \(seed), step \(step)")
    }
  }

  @Test func largeSnapshotsWarmTheirLookupsFromRecordedHashes() {
    // 200,000 items outgrow the caches (lookups warmed in batches); every tenth moves, every
    // twentieth is replaced.
    var rng = SplitMix64(seed: 7)
    let count = 200_000
    let old = (0..<count).map { "issue \($0)" }
    var new = old
    for index in stride(from: 0, to: count, by: 20) { new[index] = "new \(index)" }
    for _ in 0..<(count / 10) {
      let from = Int.random(in: 0..<new.count, using: &rng)
      let item = new.remove(at: from)
      new.insert(item, at: Int.random(in: 0...new.count, using: &rng))
    }
    let source = Snapshot(sections: [(0, old)])
    let (target, hashes) = recorded([(0, new)])
    let fused = StagedChangeset(from: source, to: target, targetHashes: hashes, itemUpdate: nil)
    #expect(fused == StagedChangeset(from: source, to: target))
    // Hashes that are not the items' would make kept items look inserted: the diff reads them.
    let wrong = hashes.map { $0 ^ 0x5555_5555 }
    #expect(
      StagedChangeset(from: source, to: target, targetHashes: wrong, itemUpdate: nil) != fused)
  }

  /// A view that records the batch updates it is handed.
  @MainActor
  final class BatchLog: BatchUpdatingView {
    var batches: [BatchUpdate] = []
    func performBatchUpdates(_ update: BatchUpdate, animated: Bool, updateData: () -> Void) {
      updateData()
      batches.append(update)
    }
    func reloadData() {}
  }

  @MainActor
  @Test(arguments: 0..<3 as Range<UInt64>)
  func applyingSectionsEqualsApplyingTheirSnapshot(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let (fusedView, plainView) = (BatchLog(), BatchLog())
    let fused = DiffableDataSource<Int, String, String>(view: fusedView) { _, id in id }
    let plain = DiffableDataSource<Int, String, String>(view: plainView) { _, id in id }
    for step in 0..<60 {
      let pair = SnapshotPairGenerator.pair(maxSections: 20, maxItems: 40, using: &rng)
      for sections in [named(pair.source), named(pair.target)] {
        fused.apply(sections: sections)
        plain.apply(Snapshot(sections: sections))
        #expect(fused.snapshot() == plain.snapshot(), "seed \(seed), step \(step)")
        #expect(fusedView.batches == plainView.batches, "seed \(seed), step \(step)")
      }
    }
    // Integer identifiers take the same path without recording (rehashing is cheaper).
    let numbers = DiffableDataSource<Int, Int, Int>(view: nil) { _, id in id }
    numbers.apply(sections: [(0, [3, 1, 2])])
    numbers.apply(sections: [(0, [2, 3]), (1, [1])])
    #expect(numbers.snapshot() == Snapshot(sections: [(0, [2, 3]), (1, [1])]))
  }
}
