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
  ///   number of sections after the one they are added to.
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
    let start = _items[section].count
    _items[section].append(contentsOf: identifiers)
    _registerItems(identifiers, inSection: section, at: start)
    _recomputeOffsets(from: section)
    checkInvariants()
  }

  /// Inserts items just before an existing item, in that item's section.
  ///
  /// - Precondition: `beforeIdentifier` is in the snapshot; every identifier inserted is new.
  /// - Complexity: O(*k* + *m* + *s*) on average, where *k* is the number of items inserted, *m*
  ///   the number of items after them in their section and *s* the number of later sections.
  public mutating func insertItems(_ identifiers: [ItemID], beforeItem beforeIdentifier: ItemID) {
    _insertItems(identifiers, at: _location(ofItem: beforeIdentifier, "to insert before"))
  }

  /// Inserts items just after an existing item, in that item's section.
  ///
  /// - Precondition: `afterIdentifier` is in the snapshot; every identifier inserted is new.
  /// - Complexity: O(*k* + *m* + *s*) on average, where *k* is the number of items inserted, *m*
  ///   the number of items after them in their section and *s* the number of later sections.
  public mutating func insertItems(_ identifiers: [ItemID], afterItem afterIdentifier: ItemID) {
    var location = _location(ofItem: afterIdentifier, "to insert after")
    location.item += 1
    _insertItems(identifiers, at: location)
  }

  private mutating func _insertItems(_ identifiers: [ItemID], at location: Location) {
    _items[location.section].insert(contentsOf: identifiers, at: location.item)
    _registerItems(identifiers, inSection: location.section, at: location.item)
    _reindexItems(inSection: location.section, from: location.item + identifiers.count)
    _recomputeOffsets(from: location.section)
    checkInvariants()
  }

  /// Deletes items from whichever sections hold them.
  ///
  /// - Precondition: Every identifier is in the snapshot.
  /// - Complexity: O(*k* + *m* + *s*) on average, where *k* is the number of items deleted, *m*
  ///   the number of items in the sections they were in and *s* the number of sections.
  public mutating func deleteItems(_ identifiers: [ItemID]) {
    guard !identifiers.isEmpty else { return }
    var doomedBySection: [Int: [Int]] = [:]
    var deleted = Set<ItemID>(minimumCapacity: identifiers.count)
    for item in identifiers {
      guard deleted.insert(item).inserted else { continue }
      let location = _location(ofItem: item, "to delete")
      doomedBySection[location.section, default: []].append(location.item)
    }
    for item in deleted { _itemLocations[item] = nil }
    for (section, doomed) in doomedBySection {
      let doomed = Set(doomed)
      let first = doomed.min() ?? 0
      var kept = first
      for index in first..<_items[section].count where !doomed.contains(index) {
        _items[section].swapAt(kept, index)
        kept += 1
      }
      _items[section].removeSubrange(kept...)
      _reindexItems(inSection: section, from: first)
    }
    _recomputeOffsets(from: doomedBySection.keys.min() ?? 0)
    _forgetMarks(of: deleted)
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
  ///   involved and *s* the number of sections.
  public mutating func moveItem(_ identifier: ItemID, beforeItem toIdentifier: ItemID) {
    _moveItem(identifier, relativeTo: toIdentifier, after: false)
  }

  /// Moves an item to just after another item, which may be in another section.
  ///
  /// - Precondition: Both items are in the snapshot and are different.
  /// - Complexity: O(*m* + *s*) on average, where *m* is the number of items in the sections
  ///   involved and *s* the number of sections.
  public mutating func moveItem(_ identifier: ItemID, afterItem toIdentifier: ItemID) {
    _moveItem(identifier, relativeTo: toIdentifier, after: true)
  }

  private mutating func _moveItem(_ identifier: ItemID, relativeTo anchor: ItemID, after: Bool) {
    if identifier == anchor {
      fatalError("Item identifier \(identifier) cannot be moved relative to itself.")
    }
    let from = _location(ofItem: identifier, "to move")
    _ = _location(ofItem: anchor, after ? "to move after" : "to move before")
    _items[from.section].remove(at: from.item)
    _reindexItems(inSection: from.section, from: from.item)
    var to = _location(ofItem: anchor, "to move relative to")
    if after { to.item += 1 }
    _items[to.section].insert(identifier, at: to.item)
    _reindexItems(inSection: to.section, from: to.item)
    _recomputeOffsets(from: min(from.section, to.section))
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
    for item in removed { _itemLocations[item] = nil }
    if !_reloadedItems.isEmpty || !_reconfiguredItems.isEmpty {
      _forgetMarks(of: Set(removed))
    }
    _items[section].replaceSubrange(range, with: items)
    _registerItems(items, inSection: section, at: range.lowerBound)
    if items.count != range.count {
      _reindexItems(inSection: section, from: range.lowerBound + items.count)
      _recomputeOffsets(from: section)
    }
    checkInvariants()
  }
}
