// Adding, removing, moving, reloading and reconfiguring items.

extension Snapshot {
  /// Adds items at the end of a section — **or, when you pass no section, of the last section.**
  ///
  ///     snapshot.appendSections([.reading, .finished])
  ///     snapshot.appendItems(reading)                       // ⚠️ lands in .finished
  ///     snapshot.appendItems(reading, toSection: .reading)  // what was meant
  ///
  /// Leaving out `toSection` keeps the meaning of UIKit's `appendItems(_:toSection:)`, where
  /// `nil` means the last section. Code that fills several sections that way puts every item in
  /// the last one. Name the section, or build the snapshot with ``init(sections:)``, which cannot
  /// make that mistake.
  ///
  /// - Parameters:
  ///   - identifiers: The items to add, in order.
  ///   - sectionIdentifier: The section to add them to; `nil` means the last section.
  /// - Precondition: The section exists (with `nil`, the snapshot has at least one section), and
  ///   every item identifier is new to the snapshot.
  /// - Complexity: O(*k* + *s*) on average, where *k* is the number of items added and *s* the
  ///   number of sections after the one they are added to; plus one sequential pass over the
  ///   item table (no hashing, ~1 ns per item) when items of later sections follow them.
  @inlinable
  public mutating func appendItems(
    _ identifiers: [ItemID], toSection sectionIdentifier: SectionID? = nil
  ) {
    let section: Int
    if let sectionIdentifier {
      section = _index(ofSection: sectionIdentifier, "to append items to")
    } else if _sections.isEmpty {
      fatalError(
        "Cannot append items to the last section: the snapshot has no sections. Append a section first."
      )
    } else {
      section = _sections.count - 1
    }
    _insertItems(identifiers, at: Location(section: section, item: _items[section].count))
  }

  /// Inserts items just before an existing item, in that item's section.
  ///
  /// - Precondition: `beforeIdentifier` is in the snapshot; every identifier inserted is new.
  /// - Complexity: O(*k* + *m* + *s*) on average, where *k* is the number of items inserted, *m*
  ///   the number of items after them in their section and *s* the number of later sections; plus
  ///   one sequential pass over the item table (no hashing, ~1 ns per item) when items follow.
  public mutating func insertItems(_ identifiers: [ItemID], beforeItem beforeIdentifier: ItemID) {
    _insertItems(identifiers, at: _location(ofItem: beforeIdentifier, "to insert before"))
  }

  /// Inserts items just after an existing item, in that item's section.
  ///
  /// - Precondition: `afterIdentifier` is in the snapshot; every identifier inserted is new.
  /// - Complexity: O(*k* + *m* + *s*) on average, where *k* is the number of items inserted, *m*
  ///   the number of items after them in their section and *s* the number of later sections; plus
  ///   one sequential pass over the item table (no hashing, ~1 ns per item) when items follow.
  public mutating func insertItems(_ identifiers: [ItemID], afterItem afterIdentifier: ItemID) {
    var location = _location(ofItem: afterIdentifier, "to insert after")
    location.item += 1
    _insertItems(identifiers, at: location)
  }

  @inlinable
  mutating func _insertItems(_ identifiers: [ItemID], at location: Location) {
    guard !identifiers.isEmpty else { return }
    let position = _offsets[location.section] + location.item
    if numberOfItems + identifiers.count > PositionTable.maximumPosition + 1 {
      fatalError("A snapshot holds at most \(PositionTable.maximumPosition + 1) items.")
    }
    if position < numberOfItems { _itemTable.shiftPositions(from: position, by: identifiers.count) }
    if location.item == _items[location.section].count {
      _items[location.section].append(contentsOf: identifiers)
    } else {
      _items[location.section].insert(contentsOf: identifiers, at: location.item)
    }
    _recomputeOffsets(from: location.section)
    _registerItems(atPositions: position..<(position + identifiers.count))
    checkInvariants()
  }

  /// Deletes items from whichever sections hold them.
  ///
  /// - Precondition: Every identifier is in the snapshot.
  /// - Complexity: O(*k* + *m* + *s*) on average, where *k* is the number of items deleted, *m*
  ///   the number of items in the sections they were in and *s* the number of sections; plus one
  ///   pass over the item table, O(*n* log *k*) for *n* items when the deleted ones are scattered
  ///   and O(*n*) when they are one run.
  public mutating func deleteItems(_ identifiers: [ItemID]) {
    guard !identifiers.isEmpty else { return }
    let removed = _unregisterItems(identifiers, "to delete")
    // Compact each section that lost items, walking the sorted positions section by section.
    var next = 0
    while next < removed.count {
      let section = _section(atPosition: removed[next])
      let start = _offsets[section]
      let end = _offsets[section + 1]
      var kept = removed[next] - start
      var scan = kept
      _items[section].withUnsafeMutableBufferPointer { items in
        while scan < items.count {
          if next < removed.count && removed[next] < end && removed[next] - start == scan {
            next += 1
          } else {
            items.swapAt(kept, scan)
            kept += 1
          }
          scan += 1
        }
      }
      _items[section].removeSubrange(kept...)
    }
    _recomputeOffsets(from: _section(atPosition: removed[0]))
    _closeGaps(at: removed)
    if !_reloadedItems.isEmpty || !_reconfiguredItems.isEmpty {
      _forgetMarks(of: Set(identifiers))
    }
    checkInvariants()
  }

  /// Deletes every item **and every section**, as UIKit's `deleteAllItems()` does.
  ///
  /// - Complexity: O(1), plus releasing the storage.
  public mutating func deleteAllItems() {
    self = Snapshot()
  }

  /// Moves an item to just before another item, which may be in another section.
  ///
  /// - Precondition: Both items are in the snapshot and are different.
  /// - Complexity: O(*m* + *s*) on average, where *m* is the number of items in the sections
  ///   involved and *s* the number of sections; plus one sequential pass over the item table.
  public mutating func moveItem(_ identifier: ItemID, beforeItem toIdentifier: ItemID) {
    _moveItem(identifier, relativeTo: toIdentifier, after: false)
  }

  /// Moves an item to just after another item, which may be in another section.
  ///
  /// - Precondition: Both items are in the snapshot and are different.
  /// - Complexity: O(*m* + *s*) on average, where *m* is the number of items in the sections
  ///   involved and *s* the number of sections; plus one sequential pass over the item table.
  public mutating func moveItem(_ identifier: ItemID, afterItem toIdentifier: ItemID) {
    _moveItem(identifier, relativeTo: toIdentifier, after: true)
  }

  private mutating func _moveItem(_ identifier: ItemID, relativeTo anchor: ItemID, after: Bool) {
    if identifier == anchor {
      fatalError("Item identifier \(identifier) cannot be moved relative to itself.")
    }
    let from = _location(ofItem: identifier, "to move")
    var to = _location(ofItem: anchor, after ? "to move after" : "to move before")
    let oldPosition = _offsets[from.section] + from.item
    let (storedItems, storedOffsets) = (_items, _offsets)
    _ = _itemTable.remove(
      identifier, hash: _itemTable.hash(identifier),
      identifierAt: {
        Self._itemIdentifier(atPosition: $0, items: storedItems, offsets: storedOffsets)
      })
    _items[from.section].remove(at: from.item)
    if to.section == from.section && to.item > from.item { to.item -= 1 }
    if after { to.item += 1 }
    _items[to.section].insert(identifier, at: to.item)
    _recomputeOffsets(from: min(from.section, to.section))
    let newPosition = _offsets[to.section] + to.item
    // The items between the two places slide by one toward the old place.
    if oldPosition < newPosition {
      _itemTable.renumber { $0 > oldPosition && $0 <= newPosition ? $0 - 1 : $0 }
    } else if newPosition < oldPosition {
      _itemTable.renumber { $0 >= newPosition && $0 < oldPosition ? $0 + 1 : $0 }
    }
    _registerItems(atPositions: newPosition..<(newPosition + 1))
    checkInvariants()
  }

  /// Marks items to be reloaded: their cells are replaced by new ones.
  ///
  /// Prefer ``reconfigureItems(_:)`` when the cell's type does not change: it updates the
  /// existing cell in place, which is cheaper and keeps its state.
  ///
  /// - Precondition: Every identifier is in the snapshot.
  /// - Complexity: O(*k*) on average, where *k* is the number of identifiers.
  public mutating func reloadItems(_ identifiers: [ItemID]) {
    for item in identifiers {
      _ = _location(ofItem: item, "to reload")
      _reloadedItems.insert(item)
    }
  }

  /// Marks items to be reconfigured: their existing cells are updated in place.
  ///
  /// - Precondition: Every identifier is in the snapshot.
  /// - Complexity: O(*k*) on average, where *k* is the number of identifiers.
  public mutating func reconfigureItems(_ identifiers: [ItemID]) {
    for item in identifiers {
      _ = _location(ofItem: item, "to reconfigure")
      _reconfiguredItems.insert(item)
    }
  }

  /// The items marked with ``reloadItems(_:)``, in the order they were first marked.
  public var reloadedItemIdentifiers: [ItemID] { _reloadedItems.ordered }

  /// The items marked with ``reconfigureItems(_:)``, in the order they were first marked.
  public var reconfiguredItemIdentifiers: [ItemID] { _reconfiguredItems.ordered }

  /// Clears reload and reconfigure marks of items no longer in the snapshot.
  @usableFromInline
  mutating func _forgetMarks(of deleted: Set<ItemID>) {
    _reloadedItems.removeAll { deleted.contains($0) }
    _reconfiguredItems.removeAll { deleted.contains($0) }
  }
}

extension Snapshot {
  /// Replaces a range of a section's items with others, keeping the lookup tables in step: what a
  /// data source needs to apply a known insertion or removal without diffing.
  ///
  /// - Precondition: No item of `items` is elsewhere in the snapshot.
  /// - Complexity: O(*r* + *k* + the items after the range in the section).
  @inlinable
  mutating func _replaceItems(inSection section: Int, range: Range<Int>, with items: [ItemID]) {
    let removed = _items[section][range]
    let start = _offsets[section] + range.lowerBound
    if !removed.isEmpty { _ = _unregisterItems(removed, "to replace") }
    if !_reloadedItems.isEmpty || !_reconfiguredItems.isEmpty {
      _forgetMarks(of: Set(removed))
    }
    if items.count != range.count {
      _itemTable.shiftPositions(from: start + range.count, by: items.count - range.count)
    }
    _items[section].replaceSubrange(range, with: items)
    _recomputeOffsets(from: section)
    _registerItems(atPositions: start..<(start + items.count))
    checkInvariants()
  }
}
