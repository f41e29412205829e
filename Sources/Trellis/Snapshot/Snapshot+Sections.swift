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
  ///   the number of sections and items that follow the insertion point.
  public mutating func insertSections(
    _ identifiers: [SectionID], beforeSection beforeIdentifier: SectionID
  ) {
    _insertSections(identifiers, at: _index(ofSection: beforeIdentifier, "to insert before"))
  }

  /// Inserts sections, with no items, after an existing section.
  ///
  /// - Precondition: `afterIdentifier` is in the snapshot; every identifier inserted is new.
  /// - Complexity: O(*k* + *m*) on average, where *k* is the number of sections inserted and *m*
  ///   the number of sections and items that follow the insertion point.
  public mutating func insertSections(
    _ identifiers: [SectionID], afterSection afterIdentifier: SectionID
  ) {
    _insertSections(identifiers, at: _index(ofSection: afterIdentifier, "to insert after") + 1)
  }

  private mutating func _insertSections(_ identifiers: [SectionID], at index: Int) {
    _requireNewSections(identifiers)
    _sections.insert(contentsOf: identifiers, at: index)
    _items.insert(contentsOf: repeatElement([], count: identifiers.count), at: index)
    _reindexSections(from: index)
    checkInvariants()
  }

  /// Deletes sections and all of their items.
  ///
  /// - Precondition: Every identifier is in the snapshot.
  /// - Complexity: O(*n*) on average, where *n* is the number of sections and items from the
  ///   first deleted section on.
  public mutating func deleteSections(_ identifiers: [SectionID]) {
    guard !identifiers.isEmpty else { return }
    var doomed = Set<Int>(minimumCapacity: identifiers.count)
    for section in identifiers { doomed.insert(_index(ofSection: section, "to delete")) }
    var deletedItems = Set<ItemID>()
    for index in doomed {
      _sectionIndexes[_sections[index]] = nil
      for item in _items[index] {
        _itemLocations[item] = nil
        deletedItems.insert(item)
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
    _forgetMarks(of: deletedItems)
    _reindexSections(from: first)
    checkInvariants()
  }

  /// Moves a section, with its items, to just before another section.
  ///
  /// - Precondition: Both sections are in the snapshot and are different.
  /// - Complexity: O(*m*) on average, where *m* is the number of sections and items between the
  ///   two positions.
  public mutating func moveSection(_ identifier: SectionID, beforeSection toIdentifier: SectionID) {
    _moveSection(identifier, relativeTo: toIdentifier, after: false)
  }

  /// Moves a section, with its items, to just after another section.
  ///
  /// - Precondition: Both sections are in the snapshot and are different.
  /// - Complexity: O(*m*) on average, where *m* is the number of sections and items between the
  ///   two positions.
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
    let items = _items.remove(at: from)
    _sections.remove(at: from)
    guard let anchorIndex = _sectionIndexes[anchor] else { fatalError("unreachable") }
    var to = anchorIndex > from ? anchorIndex - 1 : anchorIndex
    if after { to += 1 }
    _sections.insert(identifier, at: to)
    _items.insert(items, at: to)
    _reindexSections(from: min(from, to))
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
