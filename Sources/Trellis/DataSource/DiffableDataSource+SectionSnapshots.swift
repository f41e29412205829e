// Showing a section as a tree: section snapshots, expansion and collapse as batch updates.

extension DiffableDataSource {
  /// Shows a tree of items in a section: the section's items become the tree's visible items.
  ///
  /// Only what changed between the rows the section shows and the tree's visible items is
  /// diffed: expanding or collapsing a node is one batch update inserting or deleting its visible
  /// descendants, whatever the size of the rest of the list. Other changes go through the full
  /// diff, with the usual guarantees. A section that is not in the snapshot is appended.
  ///
  /// The data source keeps the tree for ``snapshot(for:)`` until a whole-snapshot apply changes
  /// the section's items.
  ///
  /// The tree is checked whole before anything changes: an item of it, shown or hidden under a
  /// collapsed parent, that another section already holds (among its rows or in its own tree)
  /// stops the program with a message naming the item and both sections — rather than a later
  /// expansion failing.
  ///
  /// - Precondition: No item of the tree is in another section; not called from inside another
  ///   apply.
  /// - Complexity: O(*t*) lookups to check the tree's *t* items (times the sections holding
  ///   trees), O(*n*) comparisons of identifiers to find the changed run, where *n* is the
  ///   number of items in the section, plus O(*k* + the rows after it) for an insertion or a
  ///   removal of *k* rows.
  @inlinable
  public func apply(
    _ sectionSnapshot: SectionSnapshot<ItemID>, to section: SectionID,
    animatingDifferences: Bool = true, completion: (() -> Void)? = nil
  ) {
    if let (item, other) = itemHeldElsewhere(sectionSnapshot, section: section) {
      fatalError(
        "Cannot apply a section snapshot to section \(section): its item \(item) is already in "
          + "section \(other). An item is in one section at a time.")
    }
    let visible = sectionSnapshot.visibleItems
    defer {
      // Room for every hidden item, so that expanding never grows (and rehashes) the lookup
      // table while the view waits.
      current._reserveItemCapacity(
        current.numberOfItems + sectionSnapshot.items.count - visible.count)
    }
    guard let sectionIndex = current.indexOfSection(section) else {
      var target = current
      target.appendSections([section])
      target.appendItems(visible, toSection: section)
      apply(target, animatingDifferences: animatingDifferences)
      sectionSnapshots[section] = sectionSnapshot
      completion?()
      return
    }
    let shown = current.itemIdentifiers(inSectionAt: sectionIndex)
    let (removed, inserted) = Self.changedRun(from: shown, to: visible)
    if removed.isEmpty && inserted.isEmpty {
      sectionSnapshots[section] = sectionSnapshot
    } else if removed.isEmpty || inserted.isEmpty {
      // One run appears or disappears: the batch update is known without a diff.
      var update = BatchUpdate()
      update.itemInserts.reserveCapacity(inserted.count)
      if removed.isEmpty {
        update.itemInserts = inserted.map { IndexPath(item: $0, section: sectionIndex) }
      } else {
        update.itemDeletes = removed.map { IndexPath(item: $0, section: sectionIndex) }
      }
      let newItems = Array(visible[inserted])
      beginApplying()
      defer { isApplying = false }
      generation &+= 1
      performBatch(
        update, kind: removed.isEmpty ? .itemInsertsAndMoves : .deletes,
        animated: animatingDifferences
      ) {
        current._replaceItems(inSection: sectionIndex, range: removed, with: newItems)
      }
      sectionSnapshots[section] = sectionSnapshot
    } else {
      var target = current
      target._replaceItems(inSection: sectionIndex, range: removed, with: Array(visible[inserted]))
      apply(target, animatingDifferences: animatingDifferences)
      sectionSnapshots[section] = sectionSnapshot
    }
    completion?()
  }

  /// Expands an item of a section's tree as a person would: the ``sectionSnapshotHandlers`` may
  /// refuse (`shouldExpandItem`), hear of it first (`willExpandItem`) and supply the children
  /// (`snapshotForExpandingParentItem`); then its rows appear in one batch update.
  ///
  /// - Returns: Whether the item expanded; `false` when it already was or a handler refused.
  /// - Precondition: The section is shown and its tree holds `item`.
  /// - Complexity: That of ``apply(_:to:animatingDifferences:completion:)``.
  @discardableResult
  public func expand(
    _ item: ItemID, in section: SectionID, animatingDifferences: Bool = true
  ) -> Bool {
    var tree = snapshot(for: section)
    guard !tree.isExpanded(item) else { return false }
    if let should = sectionSnapshotHandlers.shouldExpandItem, !should(item) { return false }
    sectionSnapshotHandlers.willExpandItem?(item)
    if let provide = sectionSnapshotHandlers.snapshotForExpandingParentItem {
      tree.replace(childrenOf: item, using: provide(item, tree.snapshot(of: item)))
    }
    tree.expand([item])
    apply(tree, to: section, animatingDifferences: animatingDifferences)
    return true
  }

  /// Collapses an item of a section's tree as a person would: the ``sectionSnapshotHandlers``
  /// may refuse (`shouldCollapseItem`) and hear of it first (`willCollapseItem`); then its
  /// shown descendants go in one batch update.
  ///
  /// - Returns: Whether the item collapsed; `false` when it was not expanded or a handler refused.
  /// - Precondition: The section is shown and its tree holds `item`.
  /// - Complexity: That of ``apply(_:to:animatingDifferences:completion:)``.
  @discardableResult
  public func collapse(
    _ item: ItemID, in section: SectionID, animatingDifferences: Bool = true
  ) -> Bool {
    var tree = snapshot(for: section)
    guard tree.isExpanded(item) else { return false }
    if let should = sectionSnapshotHandlers.shouldCollapseItem, !should(item) { return false }
    sectionSnapshotHandlers.willCollapseItem?(item)
    tree.collapse([item])
    apply(tree, to: section, animatingDifferences: animatingDifferences)
    return true
  }

  /// An item of a tree about to be applied to `section` that another section holds, among its
  /// rows or in its tree, with that section.
  ///
  /// - Complexity: O(*k*) lookups for the tree's *k* items, whatever the other trees hold.
  @usableFromInline
  func itemHeldElsewhere(
    _ tree: SectionSnapshot<ItemID>, section: SectionID
  ) -> (ItemID, SectionID)? {
    for item in tree.items {
      if let holder = current.sectionIdentifier(containingItem: item), holder != section {
        return (item, holder)
      }
      if let other = sectionSnapshots.holder(of: item), other != section { return (item, other) }
    }
    return nil
  }

  /// The tree a section shows: the one last applied to it, or its items as roots.
  ///
  /// - Precondition: The section is shown.
  /// - Complexity: O(1) for a section with a section snapshot applied; otherwise O(*k*) to make one
  ///   of the section's *k* items.
  public func snapshot(for section: SectionID) -> SectionSnapshot<ItemID> {
    if let tree = sectionSnapshots[section] { return tree }
    guard current.contains(section: section) else {
      fatalError("Section identifier \(section) is not shown, so it has no section snapshot.")
    }
    var flat = SectionSnapshot<ItemID>()
    flat.append(current.itemIdentifiers(inSection: section))
    return flat
  }

  /// The run of `old` replaced in `new`: the ranges between their common prefix and suffix.
  @inlinable
  static func changedRun(
    from old: [ItemID], to new: [ItemID]
  ) -> (removed: Range<Int>, inserted: Range<Int>) {
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
      suffix += 1
    }
    return (prefix..<(old.count - suffix), prefix..<(new.count - suffix))
  }

  /// Forgets the trees of sections whose items a whole-snapshot apply changed.
  @inlinable
  func retainSectionSnapshots(matching target: Snapshot<SectionID, ItemID>) {
    guard !sectionSnapshots.isEmpty else { return }
    for (section, tree) in sectionSnapshots {
      guard let index = target.indexOfSection(section),
        target.itemIdentifiers(inSectionAt: index) == tree.visibleItems
      else {
        sectionSnapshots[section] = nil
        continue
      }
    }
  }
}
