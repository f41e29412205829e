import Trellis

/// The least number of changes that take one sectioned collection to another under UIKit's
/// batch-update rules, computed independently of the diff, to check that it is minimal.
///
/// An item can move only when both its old and its new section exist on both sides; an item whose
/// section is deleted or inserted goes or comes with it. An item that stays in its section without
/// moving keeps its order relative to the others that stay, so the items that need not move are a
/// longest increasing subsequence of each section.
public struct MinimalChanges: Equatable, CustomStringConvertible {
  /// Sections that must move.
  public var sectionMoves: Int
  /// Items that must move, within or across sections.
  public var itemMoves: Int
  /// Items that must be deleted explicitly (not with their section).
  public var itemDeletes: Int
  /// Items that must be inserted explicitly (not with their section).
  public var itemInserts: Int

  /// Creates counts directly.
  public init(sectionMoves: Int = 0, itemMoves: Int = 0, itemDeletes: Int = 0, itemInserts: Int = 0)
  {
    self.sectionMoves = sectionMoves
    self.itemMoves = itemMoves
    self.itemDeletes = itemDeletes
    self.itemInserts = itemInserts
  }

  /// Computes the minimal changes from `source` to `target`.
  public init<S: Hashable, I: Hashable>(
    from source: SectionedData<S, I>, to target: SectionedData<S, I>
  ) {
    let oldSectionIndex = Dictionary(
      uniqueKeysWithValues: source.sections.enumerated().map { ($1, $0) })
    let newSectionIndex = Dictionary(
      uniqueKeysWithValues: target.sections.enumerated().map { ($1, $0) })
    sectionMoves = 0
    itemMoves = 0
    itemDeletes = 0
    itemInserts = 0

    let keptOrder = target.sections.compactMap { oldSectionIndex[$0] }
    sectionMoves = keptOrder.count - Self.longestIncreasingRun(keptOrder)

    var oldPlace: [I: (section: S, index: Int)] = [:]
    for (section, items) in zip(source.sections, source.items) {
      for (index, item) in items.enumerated() { oldPlace[item] = (section, index) }
    }
    var newSectionOf: [I: S] = [:]
    for (section, items) in zip(target.sections, target.items) {
      for item in items { newSectionOf[item] = section }
    }
    for (section, items) in zip(source.sections, source.items) where newSectionIndex[section] != nil
    {
      for item in items {
        if let newSection = newSectionOf[item], oldSectionIndex[newSection] != nil { continue }
        itemDeletes += 1
      }
    }
    for (section, items) in zip(target.sections, target.items) where oldSectionIndex[section] != nil
    {
      var sameSection: [Int] = []
      for item in items {
        guard let old = oldPlace[item], newSectionIndex[old.section] != nil else {
          itemInserts += 1
          continue
        }
        if old.section == section { sameSection.append(old.index) } else { itemMoves += 1 }
      }
      itemMoves += sameSection.count - Self.longestIncreasingRun(sameSection)
    }
  }

  /// The length of a longest strictly increasing subsequence (length only, by patience sorting).
  public static func longestIncreasingRun(_ values: [Int]) -> Int {
    var tails: [Int] = []
    for value in values {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if tails[middle] < value { low = middle + 1 } else { high = middle }
      }
      if low == tails.count { tails.append(value) } else { tails[low] = value }
    }
    return tails.count
  }

  public var description: String {
    "sectionMoves: \(sectionMoves), itemMoves: \(itemMoves), itemDeletes: \(itemDeletes), itemInserts: \(itemInserts)"
  }
}

extension StagedChangeset {
  /// The changes this changeset makes, counted the way ``MinimalChanges`` counts them.
  public var counts: MinimalChanges {
    var counts = MinimalChanges()
    for stage in self {
      counts.sectionMoves += stage.update.sectionMoves.count
      counts.itemMoves += stage.update.itemMoves.count
      counts.itemDeletes += stage.update.itemDeletes.count
      counts.itemInserts += stage.update.itemInserts.count
    }
    return counts
  }
}
