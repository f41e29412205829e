// Finding sections and items by identifier and by position.

extension Snapshot {
  /// The number of items in a section.
  ///
  /// - Precondition: The section is in the snapshot.
  /// - Complexity: O(1) on average.
  @inlinable
  public func numberOfItems(inSection identifier: SectionID) -> Int {
    _items[_index(ofSection: identifier, "to count items in")].count
  }

  /// The items of a section, in order.
  ///
  /// - Precondition: The section is in the snapshot.
  /// - Complexity: O(1) on average.
  @inlinable
  public func itemIdentifiers(inSection identifier: SectionID) -> [ItemID] {
    _items[_index(ofSection: identifier, "to list items of")]
  }

  /// The section that holds an item, or `nil` when the item is not in the snapshot.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func sectionIdentifier(containingItem identifier: ItemID) -> SectionID? {
    _locationIfPresent(ofItem: identifier).map { _sections[$0.section] }
  }

  /// The position of an item in ``itemIdentifiers`` (all sections, in order), or `nil` when the
  /// item is not in the snapshot.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func indexOfItem(_ identifier: ItemID) -> Int? {
    _position(ofItem: identifier)
  }

  /// The position of a section in ``sectionIdentifiers``, or `nil` when it is not in the snapshot.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func indexOfSection(_ identifier: SectionID) -> Int? {
    _sectionIndexes[identifier]
  }

  /// The index path of an item, or `nil` when the item is not in the snapshot.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func indexPath(for identifier: ItemID) -> IndexPath? {
    _locationIfPresent(ofItem: identifier).map { IndexPath(item: $0.item, section: $0.section) }
  }

  /// The item at an index path, or `nil` when the path is out of range.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func itemIdentifier(at indexPath: IndexPath) -> ItemID? {
    guard _items.indices.contains(indexPath.section),
      _items[indexPath.section].indices.contains(indexPath.item)
    else { return nil }
    return _items[indexPath.section][indexPath.item]
  }

  /// The section at an index, or `nil` when the index is out of range.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func sectionIdentifier(at index: Int) -> SectionID? {
    _sections.indices.contains(index) ? _sections[index] : nil
  }

  /// The items of the section at an index, in order.
  ///
  /// - Precondition: `index` is in `0 ..< numberOfSections`.
  /// - Complexity: O(1).
  @inlinable
  public func itemIdentifiers(inSectionAt index: Int) -> [ItemID] {
    guard _items.indices.contains(index) else {
      fatalError("Section index \(index) out of range 0 ..< \(_items.count).")
    }
    return _items[index]
  }

  /// Whether the snapshot holds an item.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func contains(item identifier: ItemID) -> Bool { _position(ofItem: identifier) != nil }

  /// Whether the snapshot holds a section.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func contains(section identifier: SectionID) -> Bool {
    _sectionIndexes[identifier] != nil
  }
}

extension Snapshot {
  /// How many items the sections before the one at `section` hold.
  func numberOfItemsBefore(section: Int) -> Int { _offsets[section] }
}
