/// Finds where an item of the source was, for the diff; one conformer per kind of source.
@usableFromInline
protocol ItemLocator {
  associatedtype ItemID: Hashable

  /// Called once before any lookup, with the range of each source section that the diff will look
  /// up (the part between the common prefix and suffix; empty for deleted sections).
  mutating func prepare(sourceItems: [[ItemID]], windows: [Range<Int>])

  /// The section and index of `item` in the source, or `nil` when it is not there.
  func location(of item: ItemID) -> (section: Int, item: Int)?

  /// Called for each item of the target that the diff found nowhere in the source.
  mutating func recordInsert(_ item: ItemID)
}

/// Locates items through the source snapshot's own table, at no preparation cost.
@usableFromInline
struct SnapshotItemLocator<SectionID: Hashable, ItemID: Hashable>: ItemLocator {
  @usableFromInline let snapshot: Snapshot<SectionID, ItemID>

  @inlinable init(_ snapshot: Snapshot<SectionID, ItemID>) { self.snapshot = snapshot }

  @inlinable mutating func prepare(sourceItems: [[ItemID]], windows: [Range<Int>]) {}

  @inlinable func location(of item: ItemID) -> (section: Int, item: Int)? {
    guard let location = snapshot._itemLocations[item] else { return nil }
    return (location.section, location.item)
  }

  @inlinable mutating func recordInsert(_ item: ItemID) {}
}

/// Locates items of a flat source through a table built over the part that changed, and traps on
/// identifiers that occur twice there.
@usableFromInline
struct FlatItemLocator<ItemID: Hashable>: ItemLocator {
  @usableFromInline var indexes: [ItemID: Int] = [:]
  @usableFromInline var inserted: Set<ItemID> = []

  @inlinable init() {}

  @inlinable mutating func prepare(sourceItems: [[ItemID]], windows: [Range<Int>]) {
    guard let window = windows.first, let items = sourceItems.first else { return }
    indexes.reserveCapacity(window.count)
    for index in window {
      if let first = indexes.updateValue(index, forKey: items[index]) {
        fatalError(
          "Identifier \(items[index]) occurs twice in the source, at \(first) and \(index); "
            + "identifiers must be unique.")
      }
    }
  }

  @inlinable func location(of item: ItemID) -> (section: Int, item: Int)? {
    indexes[item].map { (0, $0) }
  }

  @inlinable mutating func recordInsert(_ item: ItemID) {
    if !inserted.insert(item).inserted {
      fatalError("Identifier \(item) occurs twice in the target; identifiers must be unique.")
    }
  }
}
