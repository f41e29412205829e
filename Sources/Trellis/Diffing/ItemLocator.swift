/// Finds where an item of the source was, for the diff; one conformer per kind of source.
@usableFromInline
protocol ItemLocator {
  associatedtype ItemID: Hashable

  /// Called once before any lookup, with the range of each source section that the diff will look
  /// up (the part between the common prefix and suffix; empty for deleted sections).
  mutating func prepare(sourceItems: [[ItemID]], windows: [Range<Int>])

  /// The section and index of `item` in the source, or `nil` when it is not there; `hash` is
  /// the item's ``PositionTable/hash(_:key:)`` with ``integerHashKey``, computed once by the diff.
  mutating func location(of item: ItemID, hash: Int) -> (section: Int, item: Int)?

  /// Called for each item of the target that the diff found nowhere in the source.
  mutating func recordInsert(_ item: ItemID)

  /// Whether lookups wait for memory, so that the diff should hash a run of target items at
  /// once and hand them to ``warm(_:hashes:)`` before looking them up one by one.
  var warmsLookups: Bool { get }

  /// Starts reading, all at once, the memory that looking up `items` (with those hashes) will
  /// read.
  mutating func warm(_ items: UnsafeBufferPointer<ItemID>, hashes: UnsafeBufferPointer<Int>)
}

/// Locates items through the source snapshot's own table; the only preparation is a
/// ``SectionFinder`` over its sections, so that reading the item at a table position (every
/// comparison of a probe) costs no binary search over the sections.
@usableFromInline
struct SnapshotItemLocator<SectionID: Hashable, ItemID: Hashable>: ItemLocator {
  @usableFromInline let snapshot: Snapshot<SectionID, ItemID>
  @usableFromInline let finder: SectionFinder
  /// What warming found, kept so that its reads happen.
  @usableFromInline var warmed = 0

  @inlinable init(_ snapshot: Snapshot<SectionID, ItemID>) {
    self.snapshot = snapshot
    finder = SectionFinder(offsets: snapshot._offsets)
  }

  @inlinable var warmsLookups: Bool { snapshot._itemTable.outgrowsCaches }

  /// The item at `position` in the source.
  @inlinable @inline(__always)
  func identifier(atPosition position: Int) -> ItemID {
    let section = finder.section(atPosition: position)
    return snapshot._items[section][position &- snapshot._offsets[section]]
  }

  @inlinable
  mutating func warm(_ items: UnsafeBufferPointer<ItemID>, hashes: UnsafeBufferPointer<Int>) {
    warmed &+= snapshot._itemTable.warm(items, hashes: hashes) { identifier(atPosition: $0) }
  }

  @inlinable mutating func prepare(sourceItems: [[ItemID]], windows: [Range<Int>]) {}

  @inlinable mutating func location(of item: ItemID, hash: Int) -> (section: Int, item: Int)? {
    guard
      let position = snapshot._itemTable.position(
        of: item, hash: hash, identifierAt: { identifier(atPosition: $0) })
    else { return nil }
    let section = finder.section(atPosition: position)
    return (section, position &- snapshot._offsets[section])
  }

  @inlinable mutating func recordInsert(_ item: ItemID) {}
}

/// Locates items of a flat source, scanning while few lookups are needed and then hashing.
///
/// Lookups first scan the part that changed, then go through a table built over that part. Traps
/// on identifiers that occur twice where that would corrupt the changeset.
///
/// Most edits leave long runs in place, which the diff follows without asking the locator, so a
/// single move in a million items needs two lookups: scanning for them costs microseconds where a
/// table would cost tens of milliseconds. Once scans have read twice the part that changed, the
/// table is built, and with it the source's duplicates in that part are found.
@usableFromInline
struct FlatItemLocator<ItemID: Hashable>: ItemLocator {
  @usableFromInline var table: PositionTable?
  @usableFromInline var inserted: Set<ItemID> = []
  /// The source items outside the window (the common prefix and suffix), hashed only once a
  /// target item is not found in the window: an inserted identifier must not be one of them.
  @usableFromInline var outsideWindow: Set<ItemID>?
  @usableFromInline var source: [ItemID] = []
  @usableFromInline var window: Range<Int> = 0..<0
  /// Source items the scans may still read before the table is built.
  @usableFromInline var scanBudget = 0
  /// What warming found, kept so that its reads happen.
  @usableFromInline var warmed = 0

  @inlinable init() {}

  @inlinable mutating func prepare(sourceItems: [[ItemID]], windows: [Range<Int>]) {
    guard let window = windows.first, let items = sourceItems.first else { return }
    self.source = items
    self.window = window
    scanBudget = 2 * window.count
  }

  @inlinable mutating func location(of item: ItemID, hash: Int) -> (section: Int, item: Int)? {
    if table == nil && scanBudget >= window.count {
      var found: Int? = nil
      source.withUnsafeBufferPointer { source in
        for index in window where source[index] == item {
          found = index
          break
        }
      }
      scanBudget -= found.map { $0 - window.lowerBound + 1 } ?? window.count
      return found.map { (0, $0) }
    }
    if table == nil { buildTable() }
    guard let table else { return nil }
    return table.position(of: item, hash: hash, identifierAt: { source[$0] }).map { (0, $0) }
  }

  @inlinable var warmsLookups: Bool { table?.outgrowsCaches ?? false }

  @inlinable
  mutating func warm(_ items: UnsafeBufferPointer<ItemID>, hashes: UnsafeBufferPointer<Int>) {
    guard let table else { return }
    source.withUnsafeBufferPointer { source in
      warmed &+= table.warm(items, hashes: hashes) { source[$0] }
    }
  }

  @inlinable mutating func buildTable() {
    let (table, duplicate) = source.withUnsafeBufferPointer { source in
      PositionTable.filled(minimumCapacity: window.count, with: window) { source[$0] }
    }
    if let duplicate {
      fatalError(
        "Identifier \(source[duplicate.new]) occurs twice in the source, at \(duplicate.existing) "
          + "and \(duplicate.new); identifiers must be unique.")
    }
    self.table = table
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
