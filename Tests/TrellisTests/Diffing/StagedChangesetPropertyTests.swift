import Testing
import Trellis
import TrellisTestSupport

/// Random snapshot pairs replay to the target with the fewest moves and the right updates.
///
/// Every stage must replay under UIKit's rules. 100 seeds × 100 cases = 10,000 cases.
@Suite struct StagedChangesetPropertyTests {
  @Test(arguments: 0..<100 as Range<UInt64>)
  func stagesReplayToTargetWithMinimalChanges(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for step in 0..<100 {
      let pair = SnapshotPairGenerator.pair(using: &rng)
      let changes = StagedChangeset(from: pair.source, to: pair.target) {
        pair.contentChanged.contains($0) ? .reconfigure : nil
      }
      let context = "seed \(seed), step \(step)"

      let replayed: SectionedData<Int, Int>
      do {
        replayed = try BatchUpdateReplayer.replay(changes, from: SectionedData(pair.source))
      } catch {
        Issue.record("\(context): \(error)\n\(pair)\n\(changes)")
        return
      }
      #expect(replayed == SectionedData(pair.target), "\(context)")
      let minimal = MinimalChanges(from: SectionedData(pair.source), to: SectionedData(pair.target))
      #expect(changes.counts == minimal, "\(context)\n\(pair)\n\(changes)")
      #expect(
        changes.map(\.kind)
          == Changeset<Int, Int>.Kind.allCases.filter { kind in
            changes.contains { $0.kind == kind }
          }, "stages out of order, \(context)")
      #expect(!changes.contains { $0.update.isEmpty }, "empty stage, \(context)")

      // Updates: exactly the changed or marked items that are kept (neither side's section is
      // inserted or deleted) and outside reloaded sections.
      let reloadedSections = Set(pair.target.reloadedSectionIdentifiers)
      func isKept(_ item: Int) -> Bool {
        guard let old = pair.source.sectionIdentifier(containingItem: item),
          let new = pair.target.sectionIdentifier(containingItem: item)
        else { return false }
        return pair.target.contains(section: old) && pair.source.contains(section: new)
          && !reloadedSections.contains(new)
      }
      let expected = pair.contentChanged.union(pair.target.reloadedItemIdentifiers)
        .union(pair.target.reconfiguredItemIdentifiers).filter(isKept)
      var updated: Set<Int> = []
      var sectionReloads: Set<Int> = []
      for stage in changes where stage.kind == .updates {
        for path in stage.update.itemReloads + stage.update.itemReconfigures {
          updated.insert(try #require(pair.target.itemIdentifier(at: path)))
        }
        sectionReloads.formUnion(
          stage.update.sectionReloads.compactMap(pair.target.sectionIdentifier(at:)))
      }
      #expect(updated == expected, "\(context)")
      #expect(sectionReloads == reloadedSections, "\(context)")
    }
  }

  /// Marks alone are found through the snapshots' tables rather than by asking about every kept
  /// item: the changeset is the one the per-item path gives, update for update, in order.
  @Test(arguments: 0..<20 as Range<UInt64>)
  func marksAloneGiveTheChangesetOfThePerItemPath(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for step in 0..<100 {
      let pair = SnapshotPairGenerator.pair(using: &rng)
      var target = pair.target
      // Marks on kept, inserted and moved items alike, some items marked both ways.
      let items = target.itemIdentifiers.shuffled(using: &rng)
      target.reloadItems(Array(items.prefix(Int.random(in: 0...4, using: &rng))))
      target.reconfigureItems(Array(items.suffix(Int.random(in: 0...6, using: &rng))))
      let byTables = StagedChangeset(from: pair.source, to: target)
      let byItem = StagedChangeset(from: pair.source, to: target) { _ in nil }
      #expect(byTables == byItem, "seed \(seed), step \(step)\n\(pair)")
    }
  }

  /// Sources too large for the caches are looked up in warmed runs (and their tables filled by
  /// region): the same valid, minimal changesets, in one section and across several.
  @Test(arguments: [1, 3] as [Int])
  func largeSourcesReplayToTargetWithMinimalChanges(sectionCount: Int) throws {
    var rng = SplitMix64(seed: UInt64(sectionCount))
    let perSection = 150_000 / sectionCount
    let sourceItems = (0..<sectionCount).map { section in
      Array((section * perSection)..<((section + 1) * perSection))
    }
    var targetItems = sourceItems.map { items in
      items.filter { _ in Int.random(in: 0..<50, using: &rng) > 0 }
    }
    var next = 1_000_000
    for _ in 0..<2_000 {
      let section = Int.random(in: 0..<sectionCount, using: &rng)
      let at = Int.random(in: 0...targetItems[section].count, using: &rng)
      if Bool.random(using: &rng), !targetItems[section].isEmpty {
        // A move, within the section or into another.
        let item = targetItems[section].remove(
          at: Int.random(in: targetItems[section].indices, using: &rng))
        let to = Int.random(in: 0..<sectionCount, using: &rng)
        targetItems[to].insert(item, at: Int.random(in: 0...targetItems[to].count, using: &rng))
      } else {
        targetItems[section].insert(next, at: at)
        next += 1
      }
    }
    let source = Snapshot(sections: sourceItems.enumerated().map { ($0.offset, $0.element) })
    let target = Snapshot(sections: targetItems.enumerated().map { ($0.offset, $0.element) })
    let changes = StagedChangeset(from: source, to: target)
    let sourceData = SectionedData(source)
    let targetData = SectionedData(target)
    #expect(try BatchUpdateReplayer.replay(changes, from: sourceData) == targetData)
    #expect(changes.counts == MinimalChanges(from: sourceData, to: targetData))
  }

  @Test(arguments: 0..<20 as Range<UInt64>)
  func flatDiffReplaysToTargetWithMinimalMoves(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for step in 0..<50 {
      let count = Int.random(in: 0...300, using: &rng)
      let source = (0..<count).map { Row(id: $0, text: "\($0)") }
      var target = source.filter { _ in Int.random(in: 0..<10, using: &rng) > 0 }
      target.shuffle(using: &rng)
      if Bool.random(using: &rng) { target.sort { $0.id < $1.id } }
      for _ in 0..<Int.random(in: 0...20, using: &rng) {
        target.insert(
          Row(id: count + target.count + 1000, text: "new"),
          at: Int.random(in: 0...target.count, using: &rng))
      }
      for index in target.indices where Int.random(in: 0..<10, using: &rng) == 0 {
        target[index].text += "!"
      }
      let changes = StagedChangeset(source: source, target: target, update: .reconfigure)
      let sourceData = SectionedData(sections: [SingleSection.main], items: [source.map(\.id)])
      let targetData = SectionedData(sections: [SingleSection.main], items: [target.map(\.id)])
      let context = "seed \(seed), step \(step)"
      #expect(try BatchUpdateReplayer.replay(changes, from: sourceData) == targetData, "\(context)")
      #expect(changes.counts == MinimalChanges(from: sourceData, to: targetData), "\(context)")
      let reconfigured = changes.filter { $0.kind == .updates }.flatMap(\.update.itemReconfigures)
      let expected = target.indices.filter { index in
        source.first { $0.id == target[index].id }.map { $0.text != target[index].text } ?? false
      }
      #expect(reconfigured.map(\.item) == expected, "\(context)")
    }
  }
}

struct Row: Identifiable, Equatable {
  var id: Int
  var text: String
}
