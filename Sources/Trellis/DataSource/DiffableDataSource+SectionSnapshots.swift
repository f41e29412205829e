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
  /// - Precondition: No visible item of the tree is in another section; not called from inside
  ///   another apply.
  /// - Complexity: O(*n*) comparisons of identifiers to find the changed run, where *n* is the
  ///   number of items in the section, plus O(*k* + the rows after it) for an insertion or a
  ///   removal of *k* rows.
  @inlinable
  public func apply(
    _ sectionSnapshot: SectionSnapshot<ItemID>, to section: SectionID,
    animatingDifferences: Bool = true, completion: (() -> Void)? = nil
  ) {
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

  /// The tree a section shows: the one last applied to it, or its items as roots.
  ///
  /// - Precondition: The section is shown.
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
