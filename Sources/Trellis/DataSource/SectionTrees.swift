/// The section snapshots a data source shows, by section, with which section's tree holds each
/// item, so that checking a new tree against the others costs a lookup per item rather than a
/// look into every other tree.
@usableFromInline
struct SectionTrees<SectionID: Hashable, ItemID: Hashable>: Sequence {
  /// The trees, by section.
  @usableFromInline var trees: [SectionID: SectionSnapshot<ItemID>] = [:]
  /// The section whose tree holds each item, shown or hidden.
  @usableFromInline var holders: [ItemID: SectionID] = [:]

  @inlinable init() {}

  /// A section's tree; setting one (or `nil`) keeps the holders in step.
  ///
  /// - Complexity: O(*k* + *m*) to set, for the old tree's *k* items and the new one's *m*.
  @inlinable
  subscript(section: SectionID) -> SectionSnapshot<ItemID>? {
    get { trees[section] }
    set {
      if let old = trees[section] {
        for item in old.items where holders[item] == section { holders[item] = nil }
      }
      trees[section] = newValue
      if let newValue {
        for item in newValue.items { holders[item] = section }
      }
    }
  }

  /// Whether no section has a tree.
  @inlinable var isEmpty: Bool { trees.isEmpty }

  /// The section whose tree holds `item`, if any.
  @inlinable
  func holder(of item: ItemID) -> SectionID? { holders[item] }

  @inlinable
  func makeIterator() -> Dictionary<SectionID, SectionSnapshot<ItemID>>.Iterator {
    trees.makeIterator()
  }
}
