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
/// identifiers that occur twice where that would corrupt the changeset.
@usableFromInline
struct FlatItemLocator<ItemID: Hashable>: ItemLocator {
  @usableFromInline var indexes: [ItemID: Int] = [:]
  @usableFromInline var inserted: Set<ItemID> = []
  /// The source items outside the window (the common prefix and suffix), hashed only once a
  /// target item is not found in the window: an inserted identifier must not be one of them.
  @usableFromInline var outsideWindow: Set<ItemID>?
  @usableFromInline var source: [ItemID] = []
  @usableFromInline var window: Range<Int> = 0..<0

  @inlinable init() {}

  @inlinable mutating func prepare(sourceItems: [[ItemID]], windows: [Range<Int>]) {
    guard let window = windows.first, let items = sourceItems.first else { return }
    self.source = items
    self.window = window
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
    if outsideWindow == nil {
      outsideWindow = Set(source[..<window.lowerBound]).union(source[window.upperBound...])
    }
    if !inserted.insert(item).inserted || outsideWindow?.contains(item) == true {
      fatalError("Identifier \(item) occurs twice in the target; identifiers must be unique.")
    }
  }
}
