// Internal consistency checks, compiled only with -DTRELLIS_INTERNAL_CHECKS.

extension Snapshot {
  /// Checks that the lookup tables agree with the ordered storage.
  ///
  /// With `TRELLIS_INTERNAL_CHECKS` defined this is O(*n*) and runs after every mutation, so the
  /// documented complexities do not hold; otherwise it compiles to nothing.
  @inlinable @inline(__always)
  func checkInvariants() {
    #if TRELLIS_INTERNAL_CHECKS
    precondition(_sections.count == _items.count, "Sections and item lists differ in count")
    precondition(_sectionIndexes.count == _sections.count, "Section index table has stale entries")
    precondition(_offsets.count == _sections.count + 1, "Offsets do not match the section count")
    precondition(_offsets[0] == 0, "Offsets do not start at zero")
    var total = 0
    for (index, section) in _sections.enumerated() {
      precondition(
        _sectionIndexes[section] == index,
        "Index of section \(section) in the table differs from its position \(index)")
      precondition(_offsets[index] == total, "Offset of section \(section) is wrong")
      for (itemIndex, item) in _items[index].enumerated() {
        precondition(
          _position(ofItem: item) == total + itemIndex,
          "Position of item \(item) in the table differs from its place [\(index), \(itemIndex)]"
        )
      }
      total += _items[index].count
    }
    precondition(_offsets[_sections.count] == total, "Total item count is wrong")
    precondition(_itemTable.count == total, "Item table has stale entries")
    precondition(_itemTable.occupied <= _itemTable.capacity, "Item table is over half full")
    for item in _reloadedItems.ordered { precondition(contains(item: item)) }
    for item in _reconfiguredItems.ordered { precondition(contains(item: item)) }
    for section in _reloadedSections.ordered { precondition(_sectionIndexes[section] != nil) }
    #endif
  }
}
