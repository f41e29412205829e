// Keeping the lookup tables consistent with the ordered storage after a mutation.
//
// The item table maps each item to its position in all sections laid end to end. A mutation
// changes the arrays and the offsets first, then brings the table in line: a sequential renumbering
// pass over its slots when items shift (no identifier is hashed again), inserts for new items, or
// a rebuild when the table must grow or most of it changed.

extension Snapshot {
  /// The index of the section that holds the item at `position` (in ``itemIdentifiers``).
  @inlinable @inline(__always)
  func _section(atPosition position: Int) -> Int {
    Self._section(atPosition: position, offsets: _offsets)
  }

  /// The index of the section that holds the item at `position`, given the sections' offsets.
  @inlinable @inline(__always)
  static func _section(atPosition position: Int, offsets: [Int]) -> Int {
    let last = offsets.count - 2
    if last <= 0 { return 0 }
    return offsets.withUnsafeBufferPointer { offsets in
      // The last section that starts at or before `position` (empty sections start where the
      // next one does, so the last is the one that holds it).
      var low = 0
      var high = last
      while low < high {
        let middle = (low &+ high &+ 1) >> 1
        if offsets[middle] <= position { low = middle } else { high = middle &- 1 }
      }
      return low
    }
  }

  /// The item at `position` in ``itemIdentifiers``.
  @inlinable @inline(__always)
  func _itemIdentifier(atPosition position: Int) -> ItemID {
    Self._itemIdentifier(atPosition: position, items: _items, offsets: _offsets)
  }

  /// The item at `position` in the sections `items` with offsets `offsets`: for the table's
  /// comparisons while the table itself is being changed.
  @inlinable @inline(__always)
  static func _itemIdentifier(atPosition position: Int, items: [[ItemID]], offsets: [Int])
    -> ItemID
  {
    let section = _section(atPosition: position, offsets: offsets)
    return items[section][position &- offsets[section]]
  }

  /// The location of the item at `position` in ``itemIdentifiers``.
  @inlinable
  func _location(atPosition position: Int) -> Location {
    let section = _section(atPosition: position)
    return Location(section: section, item: position - _offsets[section])
  }

  /// The position of `item` in ``itemIdentifiers``, or `nil` when it is absent.
  @inlinable
  func _position(ofItem item: ItemID) -> Int? {
    _itemTable.position(
      of: item, hash: _itemTable.hash(item), identifierAt: { _itemIdentifier(atPosition: $0) })
  }

  /// The location of `item`, or `nil` when it is absent.
  @inlinable
  func _locationIfPresent(ofItem item: ItemID) -> Location? {
    _position(ofItem: item).map { _location(atPosition: $0) }
  }

  /// Recomputes `_offsets` for sections `start...`.
  @inlinable
  mutating func _recomputeOffsets(from start: Int) {
    let start = min(start, _sections.count)
    _offsets.removeSubrange((start + 1)...)
    for section in start..<_sections.count {
      _offsets.append(_offsets[section] + _items[section].count)
    }
  }

  /// Rewrites the section indexes of sections `start...`.
  @inlinable
  mutating func _reindexSectionIdentifiers(from start: Int) {
    guard start < _sections.count else { return }
    for section in start..<_sections.count { _sectionIndexes[_sections[section]] = section }
  }

  /// The index of `section`, trapping with a message that names `role` when it is absent.
  @inlinable
  func _index(ofSection section: SectionID, _ role: StaticString) -> Int {
    guard let index = _sectionIndexes[section] else {
      fatalError("Section identifier \(section) \(role) does not exist in the snapshot.")
    }
    return index
  }

  /// The location of `item`, trapping with a message that names `role` when it is absent.
  @inlinable
  func _location(ofItem item: ItemID, _ role: StaticString) -> Location {
    guard let location = _locationIfPresent(ofItem: item) else {
      fatalError("Item identifier \(item) \(role) does not exist in the snapshot.")
    }
    return location
  }

  /// Traps unless every identifier in `sections` is new to the snapshot and to the list.
  @inlinable
  func _requireNewSections(_ sections: [SectionID]) {
    var seen = Set<SectionID>(minimumCapacity: sections.count)
    for section in sections {
      if let existing = _sectionIndexes[section] {
        fatalError(
          "Section identifier \(section) already exists in the snapshot at index \(existing); "
            + "section identifiers must be unique.")
      }
      if !seen.insert(section).inserted {
        fatalError(
          "Section identifier \(section) appears twice in the sections being added; "
            + "section identifiers must be unique.")
      }
    }
  }

  /// Makes room in the item table for `count` items, growing it geometrically when it must.
  @inlinable
  mutating func _reserveItemCapacity(_ count: Int) {
    if _itemTable.capacity < count {
      _rebuildItemTable(minimumCapacity: max(count, _itemTable.capacity * 2))
    }
  }

  /// Builds the item table anew from the arrays, trapping on any duplicate.
  ///
  /// - Parameters:
  ///   - minimumCapacity: Items the table holds before it has to grow again.
  ///   - added: The positions of the items being added, for the message about a duplicate.
  ///   - addedInSections: Whether each section's items are the ones being added (building a
  ///     snapshot from sections), instead of `added`.
  ///   - recordingHashes: Where to write the low 32 bits of each item's hash, by position.
  @inlinable
  mutating func _rebuildItemTable(
    minimumCapacity: Int, added: Range<Int> = 0..<0, addedInSections: Bool = false,
    recordingHashes: UnsafeMutablePointer<UInt32>? = nil
  ) {
    let total = numberOfItems
    if total > PositionTable.maximumPosition + 1 {
      fatalError("A snapshot holds at most \(PositionTable.maximumPosition + 1) items.")
    }
    let capacity = max(total, minimumCapacity)
    let (table, duplicate): (PositionTable, (new: Int, existing: Int)?)
    if _sections.count == 1 {
      // One section, the common case for long lists: positions are indexes into its array.
      (table, duplicate) = _items[0].withUnsafeBufferPointer { items in
        PositionTable.filled(
          minimumCapacity: capacity, with: 0..<total, recordingHashes: recordingHashes
        ) { items[$0] }
      }
    } else {
      // Each comparison reads an item by position: a section finder answers in a step or two
      // where a binary search over the offsets took seven. (A closure that also remembered the
      // section read last was not inlined into the fill, and cost more than it saved.)
      let (items, offsets) = (_items, _offsets)
      let finder = SectionFinder(offsets: offsets)
      (table, duplicate) = PositionTable.filled(
        minimumCapacity: capacity, with: 0..<total, recordingHashes: recordingHashes
      ) { position in
        let section = finder.section(atPosition: position)
        return items[section][position &- offsets[section]]
      }
    }
    if let duplicate {
      let batch: Range<Int>
      if addedInSections {
        let section = _section(atPosition: duplicate.new)
        batch = _offsets[section]..<_offsets[section + 1]
      } else {
        batch = added
      }
      let message = _duplicateItemMessage(
        _itemIdentifier(atPosition: duplicate.new), existing: duplicate.existing,
        new: duplicate.new, added: batch)
      fatalError(message)
    }
    _itemTable = table
  }

  /// Adds the items at `positions` (already in the arrays, the table renumbered around them) to
  /// the item table, trapping on any duplicate.
  @inlinable
  mutating func _registerItems(atPositions positions: Range<Int>) {
    guard !positions.isEmpty else { return }
    guard _itemTable.hasRoom(for: positions.count) else {
      // Grow when the live items fill more than three quarters of the room (so a rebuild leaves
      // room for many more inserts); otherwise the rebuild only clears tombstones, and deleting
      // and adding in turn keeps the table the same size.
      let capacity = _itemTable.capacity
      let needed = numberOfItems
      _rebuildItemTable(
        minimumCapacity: needed * 4 > capacity * 3 ? max(needed, capacity * 2) : capacity,
        added: positions)
      return
    }
    let (storedItems, storedOffsets) = (_items, _offsets)
    let duplicate = _itemTable.insertAll(positions) {
      Self._itemIdentifier(atPosition: $0, items: storedItems, offsets: storedOffsets)
    }
    if let duplicate {
      // The message is made here, not in a function that does not return: in release builds,
      // a generic identifier passed to one arrived destroyed (an empty name, or garbage).
      let message = _duplicateItemMessage(
        _itemIdentifier(atPosition: duplicate.new), existing: duplicate.existing,
        new: duplicate.new, added: positions)
      fatalError(message)
    }
  }

  /// Removes `items` from the item table and returns their positions, sorted.
  ///
  /// Traps with a message that names `role` when one is absent. Repeated identifiers count once.
  @inlinable
  mutating func _unregisterItems(_ items: some Sequence<ItemID>, _ role: StaticString) -> [Int] {
    var positions: [Int] = []
    positions.reserveCapacity(items.underestimatedCount)
    var removed: Set<ItemID>? = nil
    let (storedItems, storedOffsets) = (_items, _offsets)
    for item in items {
      let hash = _itemTable.hash(item)
      if let position = _itemTable.remove(
        item, hash: hash,
        identifierAt: {
          Self._itemIdentifier(atPosition: $0, items: storedItems, offsets: storedOffsets)
        })
      {
        positions.append(position)
        removed?.insert(item)
        continue
      }
      // Absent, or removed earlier in this call: only the first is a mistake.
      if removed == nil { removed = Set(positions.map(_itemIdentifier(atPosition:))) }
      if removed?.contains(item) != true {
        fatalError("Item identifier \(item) \(role) does not exist in the snapshot.")
      }
    }
    positions.sort()
    return positions
  }

  /// Renumbers the item table after the items at `removed` (sorted positions, already out of the
  /// table) left the arrays: every later position moves down by the number removed before it.
  @inlinable
  mutating func _closeGaps(at removed: [Int]) {
    guard let first = removed.first, let last = removed.last else { return }
    if removed.count == last - first + 1 {
      _itemTable.shiftPositions(from: first, by: -removed.count)
      return
    }
    _itemTable.renumber { position in
      guard position > first else { return position }
      // How many removed positions are below `position`.
      var low = 0
      var high = removed.count
      while low < high {
        let middle = (low + high) >> 1
        if removed[middle] < position { low = middle + 1 } else { high = middle }
      }
      return position - low
    }
  }

  /// The message of the trap for an item added twice or added while already present.
  @inlinable
  func _duplicateItemMessage(_ item: ItemID, existing: Int, new: Int, added: Range<Int>)
    -> String
  {
    let place: String
    if added.contains(existing) && added.contains(new) {
      place = "appears twice in the items being added"
    } else {
      // The one outside the batch is the one that was there before.
      let location = _location(atPosition: added.contains(existing) ? new : existing)
      place =
        "already exists in the snapshot at \(IndexPath(item: location.item, section: location.section))"
    }
    return "Item identifier \(item) \(place); item identifiers must be unique."
  }
}
