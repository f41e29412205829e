import Trellis

// Moving rows from the keyboard: Alt with an arrow moves the focused item one place, through the
// data source's `moveItem(at:to:)`, so the reordering handlers hear the move with its transaction.

extension CollectionView {
  /// Moves the focused item one place earlier (`.up`, `.left`) or later (`.down`, `.right`) in
  /// data order, into the next section at a section's end, as Alt with an arrow key does.
  ///
  /// The move goes through the data source's `DiffableDataSource.moveItem(at:to:)`: it happens
  /// only when `DiffableDataSource.canMoveItem(at:to:)` allows it (the reordering handlers'
  /// `canReorderItem`, and no section nesting a tree), and `willReorder` and `didReorder`
  /// receive its transaction. The item keeps the focus and stays in view.
  ///
  /// - Returns: The transaction, or `nil` when nothing moved (no focus, the ends of the data, a
  ///   refusal).
  /// - Complexity: O(*n*) in the items of the data source, for the snapshot the move builds.
  @discardableResult
  public func moveFocusedItem(_ direction: FocusMove) -> ReorderingTransaction<SectionID, ItemID>? {
    layoutIfNeeded()
    let snapshot = dataSource.snapshot()
    guard let id = focusedItem, let source = snapshot.indexPath(for: id) else { return nil }
    let forward: Bool
    switch direction {
    case .up, .left: forward = false
    case .down, .right: forward = true
    default: return nil
    }
    let count = snapshot.numberOfItems(inSection: snapshot.sectionIdentifiers[source.section])
    var destination: IndexPath
    if forward ? source.item + 1 < count : source.item > 0 {
      destination = IndexPath(item: source.item + (forward ? 1 : -1), section: source.section)
    } else {
      // Across the section's end: the first place of the next section, or the last of the one
      // before (whose count, after the move, still excludes the item).
      let section = source.section + (forward ? 1 : -1)
      guard section >= 0, section < snapshot.numberOfSections else { return nil }
      let items = snapshot.numberOfItems(inSection: snapshot.sectionIdentifiers[section])
      destination = IndexPath(item: forward ? 0 : items, section: section)
    }
    guard dataSource.canMoveItem(at: source, to: destination) else { return nil }
    let oldCounts = itemCounts()
    guard let transaction = dataSource.moveItem(at: source, to: destination) else { return nil }
    var update = BatchUpdate()
    update.itemMoves = [Move(source: source, target: destination)]
    pendingInvalidation = pendingInvalidation.merged(
      with: PendingInvalidation(update, oldCounts: oldCounts, newCounts: itemCounts()))
    dirtyItems.insert(id)
    if let sourceSection = snapshot.sectionIdentifier(at: source.section) {
      dirtySupplementarySections.insert(sourceSection)
    }
    if let destinationSection = snapshot.sectionIdentifier(at: destination.section) {
      dirtySupplementarySections.insert(destinationSection)
    }
    revealsFocus = true
    layoutIfNeeded()
    return transaction
  }
}
