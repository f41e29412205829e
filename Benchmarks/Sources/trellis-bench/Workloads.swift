import Trellis

/// An element of the flat workloads: an identifier and a content version.
struct Element: Identifiable, Equatable, Sendable {
  var id: Int
  var version: Int
}

/// SplitMix64, so every run measures the same workload.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// `flat:N`: 0..<N, then 10% deleted, 10% updated in content, 10% moved to random places and 10%
/// new identifiers inserted at random places.
func flatWorkload(count: Int, rng: inout SplitMix64) -> (source: [Element], target: [Element]) {
  let source = (0..<count).map { Element(id: $0, version: 0) }
  var target = editedList(source.map(\.id), firstNewID: count, rng: &rng).map {
    Element(id: $0, version: 0)
  }
  for index in sample(count: target.count / 10, from: target.count, rng: &rng)
  where target[index].id < count {
    target[index].version = 1
  }
  return (source, target)
}

/// Deletes 10%, moves 10% and inserts 10% new identifiers, each at random positions.
func editedList(_ ids: [Int], firstNewID: Int, rng: inout SplitMix64) -> [Int] {
  let n = ids.count
  let deleted = Set(sample(count: n / 10, from: n, rng: &rng))
  var remaining: [Int] = []
  remaining.reserveCapacity(n)
  for index in 0..<n where !deleted.contains(index) { remaining.append(ids[index]) }
  // Move 10% (of the original count): take them out, then put each back at a random place.
  let movedPositions = Set(sample(count: n / 10, from: remaining.count, rng: &rng))
  var moved: [Int] = []
  var stayed: [Int] = []
  for (index, id) in remaining.enumerated() {
    if movedPositions.contains(index) { moved.append(id) } else { stayed.append(id) }
  }
  let inserted = (0..<(n / 10)).map { firstNewID + $0 }
  return scatter(moved + inserted, into: stayed, rng: &rng)
}

/// Places `extra` at uniformly random positions among `base`, in O(n).
func scatter(_ extra: [Int], into base: [Int], rng: inout SplitMix64) -> [Int] {
  var extra = extra
  extra.shuffle(using: &rng)
  let total = base.count + extra.count
  let extraSlots = Set(sample(count: extra.count, from: total, rng: &rng))
  var result: [Int] = []
  result.reserveCapacity(total)
  var b = 0
  var e = 0
  for slot in 0..<total {
    if extraSlots.contains(slot) {
      result.append(extra[e])
      e += 1
    } else {
      result.append(base[b])
      b += 1
    }
  }
  return result
}

/// `count` distinct indexes drawn from `0 ..< range`.
func sample(count: Int, from range: Int, rng: inout SplitMix64) -> [Int] {
  var chosen = Set<Int>(minimumCapacity: count)
  while chosen.count < min(count, range) { chosen.insert(Int.random(in: 0..<range, using: &rng)) }
  return Array(chosen)
}

/// `sectioned:100x1000`: the flat mix in every section, 5 section moves, and 1% of the items moved
/// to another section.
func sectionedWorkload(
  sections: Int, items: Int, rng: inout SplitMix64
) -> (source: Snapshot<Int, Int>, target: Snapshot<Int, Int>, changed: Set<Int>) {
  var sourceSections: [(Int, [Int])] = []
  for section in 0..<sections {
    sourceSections.append((section, (0..<items).map { section * items + $0 }))
  }
  var nextID = sections * items
  var targetSections: [(Int, [Int])] = sourceSections.map { section, ids in
    defer { nextID += items / 10 }
    return (section, editedList(ids, firstNewID: nextID, rng: &rng))
  }
  // Items moving across sections.
  for _ in 0..<(sections * items / 100) {
    let from = Int.random(in: 0..<sections, using: &rng)
    let to = Int.random(in: 0..<sections, using: &rng)
    guard from != to, !targetSections[from].1.isEmpty else { continue }
    let id = targetSections[from].1.remove(
      at: Int.random(in: 0..<targetSections[from].1.count, using: &rng))
    targetSections[to].1.insert(id, at: Int.random(in: 0...targetSections[to].1.count, using: &rng))
  }
  for _ in 0..<5 {
    let moved = targetSections.remove(at: Int.random(in: 0..<sections, using: &rng))
    targetSections.insert(moved, at: Int.random(in: 0...targetSections.count, using: &rng))
  }
  let source = Snapshot(sections: sourceSections)
  let target = Snapshot(sections: targetSections)
  let kept = target.itemIdentifiers.filter { $0 < sections * items }
  let changed = Set(sample(count: kept.count / 10, from: kept.count, rng: &rng).map { kept[$0] })
  return (source, target, changed)
}

/// The fewest item moves from `source` to `target`, computed without the library: items that
/// change section, plus, per section, those off a longest increasing run.
func minimalItemMoves(_ source: [[Int]], _ target: [[Int]], sectionIDs: ([Int], [Int])) -> Int {
  var where_: [Int: (section: Int, index: Int)] = [:]
  for (s, items) in source.enumerated() {
    for (i, id) in items.enumerated() { where_[id] = (sectionIDs.0[s], i) }
  }
  var moves = 0
  for (t, items) in target.enumerated() {
    var run: [Int] = []
    for id in items {
      guard let old = where_[id] else { continue }
      if old.section == sectionIDs.1[t] { run.append(old.index) } else { moves += 1 }
    }
    var tails: [Int] = []
    for value in run {
      var low = 0
      var high = tails.count
      while low < high {
        let mid = (low + high) / 2
        if tails[mid] < value { low = mid + 1 } else { high = mid }
      }
      if low == tails.count { tails.append(value) } else { tails[low] = value }
    }
    moves += run.count - tails.count
  }
  return moves
}
