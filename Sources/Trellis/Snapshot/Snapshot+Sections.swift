// Adding, removing, moving and reloading sections.

extension Snapshot {
  /// Adds sections, with no items, after the last section.
  ///
  /// - Precondition: Every identifier is new to the snapshot.
  /// - Complexity: O(*k*) on average, where *k* is the number of sections added.
  @inlinable
  public mutating func appendSections(_ identifiers: [SectionID]) {
    _requireNewSections(identifiers)
    let start = _sections.count
    _sections.append(contentsOf: identifiers)
    _items.append(contentsOf: repeatElement([], count: identifiers.count))
    for (offset, section) in identifiers.enumerated() { _sectionIndexes[section] = start + offset }
    _recomputeOffsets(from: start)
    checkInvariants()
  }

  /// Inserts sections, with no items, before an existing section.
  ///
  /// - Precondition: `beforeIdentifier` is in the snapshot; every identifier inserted is new.
  /// - Complexity: O(*k* + *m*) on average, where *k* is the number of sections inserted and *m*
  ///   the number of sections that follow the insertion point (items keep their positions).
  public mutating func insertSections(
    _ identifiers: [SectionID], beforeSection beforeIdentifier: SectionID
  ) {
    _insertSections(identifiers, at: _index(ofSection: beforeIdentifier, "to insert before"))
  }

  /// Inserts sections, with no items, after an existing section.
  ///
  /// - Precondition: `afterIdentifier` is in the snapshot; every identifier inserted is new.
  /// - Complexity: O(*k* + *m*) on average, where *k* is the number of sections inserted and *m*
  ///   the number of sections that follow the insertion point (items keep their positions).
  public mutating func insertSections(
    _ identifiers: [SectionID], afterSection afterIdentifier: SectionID
  ) {
    _insertSections(identifiers, at: _index(ofSection: afterIdentifier, "to insert after") + 1)
  }

  private mutating func _insertSections(_ identifiers: [SectionID], at index: Int) {
    _requireNewSections(identifiers)
    _sections.insert(contentsOf: identifiers, at: index)
    _items.insert(contentsOf: repeatElement([], count: identifiers.count), at: index)
    // The new sections are empty: every item keeps its position.
    _reindexSectionIdentifiers(from: index)
    _recomputeOffsets(from: index)
    checkInvariants()
  }

  /// Deletes sections and all of their items.
  ///
  /// - Precondition: Every identifier is in the snapshot.
  /// - Complexity: O(*d* + *s* + *n*) on average, where *d* is the number of items deleted, *s*
  ///   the number of sections and *n* the number of items: one sequential pass over the item table,
  ///   or a rebuild of it when more than a quarter of the items go.
  public mutating func deleteSections(_ identifiers: [SectionID]) {
    guard !identifiers.isEmpty else { return }
    var doomed = Set<Int>(minimumCapacity: identifiers.count)
    for section in identifiers { doomed.insert(_index(ofSection: section, "to delete")) }
    let hasMarks = !_reloadedItems.isEmpty || !_reconfiguredItems.isEmpty
    var deletedItems = Set<ItemID>()
    var removedRanges: [Range<Int>] = []
    var removedCount = 0
    for index in doomed.sorted() {
      _sectionIndexes[_sections[index]] = nil
      if hasMarks { deletedItems.formUnion(_items[index]) }
      if !_items[index].isEmpty {
        removedRanges.append(_offsets[index]..<_offsets[index + 1])
        removedCount += _items[index].count
      }
    }
    // Out of the table: one removal per item when few go, a rebuild below when most do.
    let rebuild = removedCount > numberOfItems / 4
    if !rebuild {
      let (storedItems, storedOffsets) = (_items, _offsets)
      for range in removedRanges {
        let section = _section(atPosition: range.lowerBound)
        for item in _items[section] {
          _ = _itemTable.remove(
            item, hash: _itemTable.hash(item),
            identifierAt: {
              Self._itemIdentifier(atPosition: $0, items: storedItems, offsets: storedOffsets)
            })
        }
      }
    }
    let first = doomed.min() ?? 0
    var kept = first
    for index in first..<_sections.count where !doomed.contains(index) {
      _sections.swapAt(kept, index)
      _items.swapAt(kept, index)
      kept += 1
    }
    _sections.removeSubrange(kept...)
    _items.removeSubrange(kept...)
    _reloadedSections.removeAll { _sectionIndexes[$0] == nil }
    if hasMarks { _forgetMarks(of: deletedItems) }
    _reindexSectionIdentifiers(from: first)
    _recomputeOffsets(from: first)
    if rebuild {
      _rebuildItemTable(minimumCapacity: numberOfItems)
    } else if !removedRanges.isEmpty {
      // Down by the number of removed items before each position: the removed count before
      // each range, found by a binary search over the ranges' starts.
      var removedBefore = [0]
      for range in removedRanges {
        removedBefore.append(removedBefore[removedBefore.count - 1] + range.count)
      }
      _itemTable.renumber { position in
        var low = 0
        var high = removedRanges.count
        while low < high {
          let middle = (low + high) >> 1
          if removedRanges[middle].lowerBound < position { low = middle + 1 } else { high = middle }
        }
        return position - removedBefore[low]
      }
    }
    checkInvariants()
  }

  /// Moves a section, with its items, to just before another section.
  ///
  /// - Precondition: Both sections are in the snapshot and are different.
  /// - Complexity: O(*s* + *n*), where *s* is the number of sections and *n* the number of items:
  ///   one sequential pass over the item table, no hashing.
  public mutating func moveSection(_ identifier: SectionID, beforeSection toIdentifier: SectionID) {
    _moveSection(identifier, relativeTo: toIdentifier, after: false)
  }

  /// Moves a section, with its items, to just after another section.
  ///
  /// - Precondition: Both sections are in the snapshot and are different.
  /// - Complexity: O(*s* + *n*), where *s* is the number of sections and *n* the number of items:
  ///   one sequential pass over the item table, no hashing.
  public mutating func moveSection(_ identifier: SectionID, afterSection toIdentifier: SectionID) {
    _moveSection(identifier, relativeTo: toIdentifier, after: true)
  }

  private mutating func _moveSection(
    _ identifier: SectionID, relativeTo anchor: SectionID, after: Bool
  ) {
    if identifier == anchor {
      fatalError("Section identifier \(identifier) cannot be moved relative to itself.")
    }
    let from = _index(ofSection: identifier, "to move")
    _ = _index(ofSection: anchor, after ? "to move after" : "to move before")
    let oldOffsets = _offsets
    let items = _items.remove(at: from)
    _sections.remove(at: from)
    guard let anchorIndex = _sectionIndexes[anchor] else { fatalError("unreachable") }
    var to = anchorIndex > from ? anchorIndex - 1 : anchorIndex
    if after { to += 1 }
    _sections.insert(identifier, at: to)
    _items.insert(items, at: to)
    _reindexSectionIdentifiers(from: min(from, to))
    _recomputeOffsets(from: min(from, to))
    // Items keep their order within each section; whole sections change places.
    if !items.isEmpty && from != to {
      let moved = oldOffsets[from]..<oldOffsets[from + 1]
      let newStart = _offsets[to]
      if from < to {
        // The sections in between slide up by the moved section's length.
        let between = moved.upperBound..<oldOffsets[to + 1]
        _itemTable.renumber { position in
          if moved.contains(position) { return position - moved.lowerBound + newStart }
          if between.contains(position) { return position - moved.count }
          return position
        }
      } else {
        let between = oldOffsets[to]..<moved.lowerBound
        _itemTable.renumber { position in
          if moved.contains(position) { return position - moved.lowerBound + newStart }
          if between.contains(position) { return position + moved.count }
          return position
        }
      }
    }
    checkInvariants()
  }

  /// Marks sections to be reloaded: every cell and supplementary in them is recreated.
  ///
  /// - Precondition: Every identifier is in the snapshot.
  /// - Complexity: O(*k*) on average, where *k* is the number of identifiers.
  public mutating func reloadSections(_ identifiers: [SectionID]) {
    for section in identifiers {
      _ = _index(ofSection: section, "to reload")
      _reloadedSections.insert(section)
    }
  }

  /// The sections marked with ``reloadSections(_:)``, in the order they were first marked.
  @inlinable
  public var reloadedSectionIdentifiers: [SectionID] { _reloadedSections.ordered }
}
