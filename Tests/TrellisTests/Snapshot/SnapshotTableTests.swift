import Testing
import TrellisTestSupport

@testable import Trellis

/// The snapshot's item table (``PositionTable``) under identifiers whose hashes collide.
///
/// Every probe sequence is long, removals leave tombstones in the middle of runs, and positions
/// are renumbered by every kind of mutation. Checked against a plain model after each step.
@Suite struct SnapshotTableTests {
  /// An identifier with seven hash values: long probe runs, where equality decides.
  struct Colliding: Hashable, CustomStringConvertible {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value % 7) }
    var description: String { "#\(value)" }
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func collidingIdentifiersSurviveEveryMutation(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var snapshot = Snapshot<Int, Colliding>()
    var model: [(id: Int, items: [Colliding])] = []
    var removed: [Colliding] = []
    var next = 0
    func fresh(_ count: Int) -> [Colliding] {
      defer { next += count }
      return (next..<(next + count)).map(Colliding.init)
    }
    snapshot.appendSections([0, 1, 2])
    model = [(0, []), (1, []), (2, [])]
    for step in 0..<400 {
      let all = model.flatMap(\.items)
      let section = Int.random(in: 0..<model.count, using: &rng)
      switch Int.random(in: 0..<6, using: &rng) {
      case 0, 1:
        // Appends and inserts, some large enough to grow the table.
        let items = fresh(Int.random(in: 1...(step % 50 == 0 ? 200 : 8), using: &rng))
        if let anchor = model[section].items.randomElement(using: &rng), Bool.random(using: &rng) {
          snapshot.insertItems(items, beforeItem: anchor)
          let index = model[section].items.firstIndex(of: anchor)!
          model[section].items.insert(contentsOf: items, at: index)
        } else {
          snapshot.appendItems(items, toSection: model[section].id)
          model[section].items += items
        }
      case 2 where !all.isEmpty:
        let doomed = (0..<Int.random(in: 1...10, using: &rng)).map { _ in
          all[Int.random(in: 0..<all.count, using: &rng)]
        }
        snapshot.deleteItems(doomed)
        let set = Set(doomed)
        for index in model.indices { model[index].items.removeAll { set.contains($0) } }
        removed += set
      case 3 where all.count > 1:
        let moving = all[Int.random(in: 0..<all.count, using: &rng)]
        let anchor = all[Int.random(in: 0..<all.count, using: &rng)]
        guard moving != anchor else { continue }
        snapshot.moveItem(moving, afterItem: anchor)
        for index in model.indices { model[index].items.removeAll { $0 == moving } }
        let to = model.firstIndex { $0.items.contains(anchor) }!
        model[to].items.insert(moving, at: model[to].items.firstIndex(of: anchor)! + 1)
      case 4 where model.count > 1:
        let other = (section + 1 + Int.random(in: 0..<(model.count - 1), using: &rng)) % model.count
        snapshot.moveSection(model[section].id, beforeSection: model[other].id)
        let moving = model.remove(at: section)
        model.insert(
          moving, at: model.firstIndex { $0.id == model[other > section ? other - 1 : other].id }!)
      case 5 where step % 40 == 0:
        // Delete a section and start a new one.
        snapshot.deleteSections([model[section].id])
        removed += model[section].items
        model.remove(at: section)
        let id = 1000 + step
        snapshot.appendSections([id])
        model.append((id, []))
      default:
        continue
      }
      let context = "seed \(seed), step \(step)"
      #expect(snapshot.sectionIdentifiers == model.map(\.id), "\(context)")
      #expect(snapshot.itemIdentifiers == model.flatMap(\.items), "\(context)")
      var flat = 0
      for (s, section) in model.enumerated() {
        for (i, item) in section.items.enumerated() {
          #expect(snapshot.indexPath(for: item) == IndexPath(item: i, section: s), "\(context)")
          #expect(snapshot.indexOfItem(item) == flat, "\(context)")
          flat += 1
        }
      }
      for item in removed.suffix(20) {
        #expect(!snapshot.contains(item: item), "\(item) deleted but found, \(context)")
      }
    }
  }

  @Test func deletingAndAddingInTurnKeepsTheTableTheSameSize() {
    // Each round deletes 100 items and appends 100 new ones: tombstones pile up and rebuilds
    // clear them. The table may grow once, when the live items first fill it; never again.
    var snapshot = Snapshot(sections: [(0, Array(0..<1000))])
    let initialSlots = snapshot._itemTable.slots.count
    var sizes: Set<Int> = []
    var next = 1000
    for round in 0..<200 {
      let doomed = Array(snapshot.itemIdentifiers.prefix(100))
      snapshot.deleteItems(doomed)
      snapshot.appendItems(Array(next..<(next + 100)), toSection: 0)
      next += 100
      sizes.insert(snapshot._itemTable.slots.count)
      #expect(snapshot._itemTable.slots.count <= 2 * initialSlots, "round \(round)")
      #expect(snapshot.numberOfItems == 1000)
    }
    #expect(sizes.count <= 2)
    #expect(snapshot.indexOfItem(next - 1) == 999)
    #expect(!snapshot.contains(item: 0))
  }

  @Test func deletingScatteredSmallSectionsRenumbersEveryLaterItem() {
    // 200 sections of 10 items; deleting 20 scattered ones takes the renumbering path (a tenth
    // of the items), not the rebuild.
    var snapshot = Snapshot(sections: (0..<200).map { ($0, Array(($0 * 10)..<($0 * 10 + 10))) })
    let doomed = Set(stride(from: 3, to: 200, by: 10))
    snapshot.deleteSections(Array(doomed).shuffled())
    let kept = (0..<200).filter { !doomed.contains($0) }
    #expect(snapshot.sectionIdentifiers == kept)
    for (s, section) in kept.enumerated() {
      for offset in 0..<10 {
        let item = section * 10 + offset
        #expect(snapshot.indexPath(for: item) == IndexPath(item: offset, section: s))
        #expect(snapshot.indexOfItem(item) == s * 10 + offset)
      }
    }
    for section in doomed { #expect(!snapshot.contains(item: section * 10)) }
  }

  @Test func twoSeparatelyBuiltSnapshotsWithTheSameIdentifiersAreEqualAndDiffToNothing() {
    let items = Array(0..<10_000)
    let first = Snapshot(sections: [(0, items)])
    let second = Snapshot(sections: [(0, items.map { $0 })])
    #expect(first == second)
    #expect(StagedChangeset(from: first, to: second).isEmpty)
    // An update check or a mark still reaches the kept items.
    let touched = StagedChangeset(from: first, to: second) { $0 == 5 ? .reconfigure : nil }
    #expect(touched.flatMap(\.update.itemReconfigures) == [IndexPath(item: 5, section: 0)])
    var marked = second
    marked.reloadItems([7])
    #expect(
      StagedChangeset(from: first, to: marked).flatMap(\.update.itemReloads) == [
        IndexPath(item: 7, section: 0)
      ])
  }

  @Test func aTableBuiltInBulkFindsEveryIdentifierAndNoOther() {
    let items = (0..<5_000).map { Colliding(value: $0 * 3) }
    var table = PositionTable(minimumCapacity: items.count)
    #expect(table.insertAll(0..<items.count) { items[$0] } == nil)
    #expect(table.count == items.count)
    for (position, item) in items.enumerated() {
      #expect(table.position(of: item, hash: table.hash(item)) { items[$0] } == position)
    }
    let absent = Colliding(value: 1)
    #expect(table.position(of: absent, hash: table.hash(absent)) { items[$0] } == nil)
    let twice = items + [items[10]]
    var second = PositionTable(minimumCapacity: twice.count)
    let duplicate = second.insertAll(0..<twice.count) { twice[$0] }
    #expect(duplicate?.new == items.count && duplicate?.existing == 10)
  }
}

/// Integer identifiers go through the keyed integer mix instead of their `Hashable` conformance:
/// every width the mix takes must find what it holds, wherever the bits that differ are.
@Suite struct IntegerHashTests {
  func check<ID: Hashable>(_ items: [ID], absent: [ID], _ comment: Comment) {
    var table = PositionTable(minimumCapacity: items.count)
    #expect(table.insertAll(0..<items.count) { items[$0] } == nil, comment)
    var misplaced = 0
    for (position, item) in items.enumerated()
    where table.position(of: item, hash: table.hash(item), identifierAt: { items[$0] }) != position
    {
      misplaced += 1
    }
    #expect(misplaced == 0, comment)
    for item in absent {
      #expect(table.position(of: item, hash: table.hash(item)) { items[$0] } == nil, comment)
    }
    let twice = items + [items[items.count / 2]]
    var second = PositionTable(minimumCapacity: twice.count)
    let duplicate = second.insertAll(0..<twice.count) { twice[$0] }
    #expect(duplicate?.new == items.count && duplicate?.existing == items.count / 2, comment)
  }

  @Test func everyIntegerWidthFindsItsItems() {
    // Values that differ only in their high bits, only in their low bits, and negative ones.
    let high = (1...3_000).map { $0 << 40 }
    let low = (0..<3_000).map { $0 - 1_500 }
    check(high + low, absent: [5_000 << 40, 1_000_000, Int.min, Int.max], "Int")
    check(high.map { UInt(bitPattern: $0) }, absent: [UInt.max], "UInt")
    check((high + low).map { Int64($0) }, absent: [Int64.min], "Int64")
    check(high.map { UInt64(bitPattern: Int64($0)) }, absent: [UInt64.max], "UInt64")
    check(low.map { Int32($0) } + [Int32.min, Int32.max], absent: [0x4000_0000], "Int32")
    check((0..<3_000).map { UInt32($0) << 20 }, absent: [1], "UInt32")
  }

  @Test func integersSpreadOverTheLowBits() {
    // Multiples of a large power of two land in distinct buckets about as often as random keys:
    // a mix that ignored the high bits would put all of them in bucket 0.
    let table = PositionTable(minimumCapacity: 4_096)
    let mask = table.slots.count - 1
    let buckets = Set((0..<4_096).map { table.hash($0 << 32) & mask })
    #expect(buckets.count > 3_000)
  }
}

/// Large empty tables are filled region by region (``PositionTable/fillPartitioned``): the same
/// answers as an insert in position order, duplicates included.
@Suite struct PartitionedTableTests {
  /// An identifier whose hash four neighbours share: equal hashes, where equality decides.
  struct Quartet: Hashable, CustomStringConvertible {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value >> 2) }
    var description: String { "#\(value)" }
  }

  @Test(arguments: 0..<4 as Range<UInt64>)
  func aLargeTableFindsEveryIdentifierAndTheFirstDuplicate(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let count = 270_000 + Int.random(in: 0..<100_000, using: &rng)
    let offset = Int.random(in: 0..<10, using: &rng)
    // Distinct values, in random order, after `offset` items the table does not hold.
    let values = Array((0..<(count * 2)).shuffled(using: &rng).prefix(count + offset))
    let items = values.map(Quartet.init)
    let positions = offset..<(offset + count)
    var table = PositionTable(minimumCapacity: count)
    #expect(table.slots.count >= PositionTable.partitionedMinimumSlots, "seed \(seed)")
    #expect(table.insertAll(positions) { items[$0] } == nil, "seed \(seed)")
    #expect(table.count == count && table.occupied == count, "seed \(seed)")
    var misplaced = 0
    for position in positions
    where table.position(
      of: items[position], hash: table.hash(items[position]), identifierAt: { items[$0] })
      != position
    {
      misplaced += 1
    }
    #expect(misplaced == 0, "seed \(seed)")
    for position in 0..<offset {
      let outside = items[position]
      #expect(
        table.position(of: outside, hash: table.hash(outside)) { items[$0] } == nil,
        "seed \(seed)")
    }

    // Copies of earlier items placed later: the first repeat in position order is reported,
    // with the position its identifier first had.
    var twice = items
    for _ in 0..<3 {
      let copied = twice[Int.random(in: positions, using: &rng)]
      twice.insert(copied, at: Int.random(in: (offset + 1)...twice.count, using: &rng))
    }
    var firstSeen: [Quartet: Int] = [:]
    var expected: (new: Int, existing: Int)? = nil
    for position in offset..<twice.count {
      if let seen = firstSeen[twice[position]] {
        expected = (position, seen)
        break
      }
      firstSeen[twice[position]] = position
    }
    var second = PositionTable(minimumCapacity: twice.count - offset)
    let duplicate = second.insertAll(offset..<twice.count) { twice[$0] }
    #expect(duplicate?.new == expected?.new, "seed \(seed)")
    #expect(duplicate?.existing == expected?.existing, "seed \(seed)")
  }

  /// An identifier whose hash `1 << spread` neighbours share: probe runs long enough to cross
  /// regions, and to leave the ring of filters.
  struct Cluster: Hashable {
    var value: Int
    var spread: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value >> spread) }
  }

  /// The fill zeroes slots a region ahead of its inserts; a small table (256 regions of four
  /// slots) whose slots start as garbage shows that every slot a probe reaches was zeroed first.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func aFillIntoGarbageZeroesEverySlotItReaches(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    // Up to 512: two slots per item, where the grouped entries fill the top half of the slots.
    let count = seed == 0 ? 512 : 300 + Int.random(in: 0...212, using: &rng)
    let spread = Int.random(in: 2...6, using: &rng)
    let items = (0..<count).map { Cluster(value: $0, spread: spread) }.shuffled(using: &rng)
    let slotCount = 1_024
    let key = integerHashKey
    var result: (added: Int, duplicate: (new: Int, existing: Int)?) = (0, nil)
    let slots = [UInt32](unsafeUninitializedCapacity: slotCount) { slots, initialized in
      for index in 0..<slotCount {
        (slots.baseAddress! + index).initialize(to: UInt32.random(in: 1...UInt32.max, using: &rng))
      }
      result = PositionTable.fillPartitioned(
        slots, with: 0..<count, key: key, recordingHashes: nil, identifierAt: { items[$0] })
      initialized = slotCount
    }
    #expect(result.added == count && result.duplicate == nil, "seed \(seed)")
    #expect(slots.count(where: { $0 != 0 }) == count, "seed \(seed)")
    let table = PositionTable(slots: slots, count: count, key: key)
    var misplaced = 0
    for (position, item) in items.enumerated()
    where table.position(of: item, hash: table.hash(item), identifierAt: { items[$0] }) != position
    {
      misplaced += 1
    }
    #expect(misplaced == 0, "seed \(seed)")
    let outside = Cluster(value: count + 1_000, spread: spread)
    #expect(table.position(of: outside, hash: table.hash(outside)) { items[$0] } == nil)
  }

  @Test func aLargeSnapshotFindsEveryItemWhereItIs() {
    let sections = (0..<4).map { section in
      (section, Array((section * 150_000)..<((section + 1) * 150_000)).reversed() as [Int])
    }
    let snapshot = Snapshot(sections: sections)
    for (section, items) in sections {
      for (index, item) in items.enumerated() where index % 293 == 0 {
        #expect(snapshot.indexPath(for: item) == IndexPath(item: index, section: section))
      }
    }
    #expect(snapshot.indexPath(for: 600_000) == nil)
  }
}

@Suite struct SnapshotDuplicateMessageTests {
  @Test func aDuplicateInALargeSnapshotIsNamedWithItsIndexPath() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Snapshot(sections: [("a", Array(0..<100_000)), ("b", [100_000, 100_001, 4_321])])
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Item identifier 4321 already exists in the snapshot at [0, 4321]"))
  }

  @Test func anItemAddedTwiceInOneCallIsNamedAsSuch() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var snapshot = Snapshot(sections: [("a", [1, 2])])
      snapshot.appendItems([3, 4, 3], toSection: "a")
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Item identifier 3 appears twice in the items being added"))
  }

  @Test func anItemAlreadyPresentIsNamedWithItsIndexPath() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Snapshot(sections: [("a", [1, 2]), ("b", [5, 2])])
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Item identifier 2 already exists in the snapshot at"))
  }

  @Test func aFlatSourceWithADuplicateInItsChangedPartTrapsOnceTheTableIsBuilt() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      // Every target item needs a lookup, so the scans run out and the table is built.
      let source = (0..<1000).map { Row(id: $0 == 500 ? 7 : $0, text: "") }
      _ = StagedChangeset(source: source, target: source.reversed().filter { $0.id != 7 })
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Identifier 7 occurs twice in the source"))
  }
}
