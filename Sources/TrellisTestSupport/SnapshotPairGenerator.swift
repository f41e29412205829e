import Trellis

/// A random source snapshot and a target made from it by random edits, for property tests.
public struct SnapshotPair: CustomStringConvertible {
  /// The snapshot before the edits.
  public var source: Snapshot<Int, Int>
  /// The snapshot after the edits, with some items and sections marked for reload.
  public var target: Snapshot<Int, Int>
  /// Items kept from source to target whose content the edits changed.
  public var contentChanged: Set<Int>

  public var description: String {
    "source: \(SectionedData(source))\ntarget: \(SectionedData(target))\nchanged: \(contentChanged.sorted())"
  }
}

/// Makes random snapshot pairs: deletes, inserts, moves within and across sections, section
/// inserts, deletes and moves, items moved into inserted sections, content changes and reload marks.
public enum SnapshotPairGenerator {
  /// A pair whose size and amount of editing are drawn from `rng`.
  ///
  /// Sizes are drawn from scales up to `maxSections` sections of up to `maxItems` items, most cases
  /// small and some at the maximum, so that many cases run quickly and the largest still occur.
  public static func pair(
    maxSections: Int = 200, maxItems: Int = 200, using rng: inout SplitMix64
  ) -> SnapshotPair {
    let scales = [2, 5, 12, 40, maxSections]
    let sectionScale = min(maxSections, scales[Int.random(in: 0..<scales.count, using: &rng)])
    let itemScale = min(maxItems, [2, 5, 12, 40, maxItems][Int.random(in: 0..<5, using: &rng)])
    var nextID = 0
    func fresh() -> Int {
      defer { nextID += 1 }
      return nextID
    }
    var sections: [Int] = []
    var items: [[Int]] = []
    for _ in 0..<Int.random(in: 0...sectionScale, using: &rng) {
      sections.append(fresh())
      items.append((0..<Int.random(in: 0...itemScale, using: &rng)).map { _ in fresh() })
    }
    let source = Snapshot(sections: Array(zip(sections, items)))

    // How hard to edit: 0 leaves the data unchanged.
    let intensity = [0.0, 0.01, 0.05, 0.1, 0.3, 0.6, 1.0][Int.random(in: 0..<7, using: &rng)]
    func chance(_ scale: Double = 1) -> Bool {
      // A uniform draw in 0..<1 from the top 53 bits of one number: `Double.random(in:using:)`'s
      // generic path was a fifth of the property tests' time in a debug build.
      Double(rng.next() >> 11) * 0x1p-53 < intensity * scale
    }

    // Delete sections and items.
    var kept = zip(sections, items).filter { _ in !chance(0.3) }
    for index in kept.indices { kept[index].1.removeAll { _ in chance(0.3) } }
    // Move items to random places, possibly in other sections.
    if !kept.isEmpty {
      let all = kept.flatMap(\.1)
      // Where each item is now (sections keep their places while items move), so that a case
      // of 40,000 items is not a search of every section per move.
      var sectionOf: [Int: Int] = [:]
      for (index, section) in kept.enumerated() {
        for item in section.1 { sectionOf[item] = index }
      }
      for item in all where chance(0.3) {
        guard let from = sectionOf[item] else { continue }
        kept[from].1.removeAll { $0 == item }
        let to = chance(0.5) ? Int.random(in: 0..<kept.count, using: &rng) : from
        kept[to].1.insert(item, at: Int.random(in: 0...kept[to].1.count, using: &rng))
        sectionOf[item] = to
      }
    }
    // Move sections.
    for _ in 0..<kept.count where chance(0.2) {
      let moved = kept.remove(at: Int.random(in: 0..<kept.count, using: &rng))
      kept.insert(moved, at: Int.random(in: 0...kept.count, using: &rng))
    }
    // Insert new sections, some receiving items moved from kept sections.
    for _ in 0...kept.count where chance(0.3) {
      var newItems = (0..<Int.random(in: 0...itemScale, using: &rng)).map { _ in fresh() }
      for index in kept.indices where !kept[index].1.isEmpty && chance(0.3) {
        let item = kept[index].1.remove(at: Int.random(in: 0..<kept[index].1.count, using: &rng))
        newItems.insert(item, at: Int.random(in: 0...newItems.count, using: &rng))
      }
      kept.insert((fresh(), newItems), at: Int.random(in: 0...kept.count, using: &rng))
    }
    // Insert new items.
    for index in kept.indices {
      for _ in 0...kept[index].1.count where chance(0.3) {
        kept[index].1.insert(fresh(), at: Int.random(in: 0...kept[index].1.count, using: &rng))
      }
    }
    var target = Snapshot(sections: kept)
    // Content changes and reload marks on items and sections that survived.
    let survivors = source.itemIdentifiers.filter { target.contains(item: $0) }
    let contentChanged = Set(survivors.filter { _ in chance(0.3) })
    target.reloadItems(survivors.filter { _ in chance(0.05) })
    target.reconfigureItems(survivors.filter { _ in chance(0.05) })
    target.reloadSections(
      target.sectionIdentifiers.filter { source.contains(section: $0) && chance(0.05) })
    return SnapshotPair(source: source, target: target, contentChanged: contentChanged)
  }
}
