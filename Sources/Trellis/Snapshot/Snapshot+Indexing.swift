// Keeping the lookup tables consistent with the ordered storage after a mutation.

extension Snapshot {
  /// Rewrites the section indexes of sections `start...` and of their items, and the offsets.
  @inlinable
  mutating func _reindexSections(from start: Int) {
    guard start < _sections.count else {
      _recomputeOffsets(from: start)
      return
    }
    for section in start..<_sections.count {
      _sectionIndexes[_sections[section]] = section
      for (index, item) in _items[section].enumerated() {
        _itemLocations[item] = Location(section: section, item: index)
      }
    }
    _recomputeOffsets(from: start)
  }

  /// Rewrites the locations of the items at `start...` in `section`.
  @inlinable
  mutating func _reindexItems(inSection section: Int, from start: Int) {
    let items = _items[section]
    guard start < items.count else { return }
    for index in start..<items.count {
      _itemLocations[items[index]] = Location(section: section, item: index)
    }
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
    guard let location = _itemLocations[item] else {
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

  /// Registers `items`, placed at `start...` of `section`, trapping on any duplicate.
  ///
  /// The items must already be in `_items[section]`.
  /// Makes room in the item table for `count` items, growing it geometrically when it must.
  @inlinable
  mutating func _reserveItemCapacity(_ count: Int) {
    if _itemLocations.capacity < count {
      _itemLocations.reserveCapacity(max(count, _itemLocations.capacity * 2))
    }
  }

  @inlinable
  mutating func _registerItems(_ items: [ItemID], inSection section: Int, at start: Int) {
    let needed = _itemLocations.count + items.count
    if _itemLocations.capacity < needed {
      // Grow geometrically: reserving exactly what each call needs would rehash every time.
      _itemLocations.reserveCapacity(max(needed, _itemLocations.capacity * 2))
    }
    for (offset, item) in items.enumerated() {
      let location = Location(section: section, item: start + offset)
      if let existing = _itemLocations.updateValue(location, forKey: item) {
        let place =
          existing.section == section && existing.item >= start
            && existing.item < start + items.count
          ? "appears twice in the items being added"
          : "already exists in the snapshot at \(IndexPath(item: existing.item, section: existing.section))"
        fatalError("Item identifier \(item) \(place); item identifiers must be unique.")
      }
    }
  }
}
