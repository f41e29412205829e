// Moves a person makes in the view, reported to the app through the reordering handlers.

extension DiffableDataSource {
  /// Whether the view may let a person move the item at an index path: the reordering handlers
  /// allow it, and its section is a flat list (a tree's rows move with their subtree, which a
  /// single move cannot express).
  ///
  /// - Complexity: O(1) for a flat section; O(*k*) when the section has a section snapshot of *k*
  ///   items.
  public func canMoveItem(at indexPath: IndexPath) -> Bool {
    guard let canReorder = reorderingHandlers.canReorderItem,
      let item = current.itemIdentifier(at: indexPath),
      let section = current.sectionIdentifier(at: indexPath.section)
    else { return false }
    if let tree = sectionSnapshots[section], tree.items.count != tree.rootItems.count {
      return false
    }
    return canReorder(item)
  }

  /// Whether the view may move the item at `source` into `destination`'s section: the item may
  /// move (``canMoveItem(at:)``), and the destination section is a flat list.
  ///
  /// A section whose ``SectionSnapshot`` nests items refuses rows from elsewhere: one index path
  /// cannot say where in the hierarchy the row would go, and placing it would lose the tree.
  ///
  /// - Precondition: Both index paths are in the data: `source` names an item and
  ///   `destination` a section.
  /// - Complexity: That of ``canMoveItem(at:)``, plus O(*k*) when the destination section has a
  ///   section snapshot of *k* items.
  public func canMoveItem(at source: IndexPath, to destination: IndexPath) -> Bool {
    checkMove(from: source, to: destination)
    guard canMoveItem(at: source) else { return false }
    guard destination.section != source.section,
      let section = current.sectionIdentifier(at: destination.section),
      let tree = sectionSnapshots[section]
    else { return true }
    return tree.items.count == tree.rootItems.count
  }

  /// Traps, naming what is wrong, unless `source` names an item and `destination` a section.
  private func checkMove(from source: IndexPath, to destination: IndexPath) {
    guard current.itemIdentifier(at: source) != nil else {
      fatalError(
        "Cannot move the item at \(source): "
          + (current.sectionIdentifier(at: source.section) == nil
            ? "there are \(current.numberOfSections) sections."
            : "its section has \(current.numberOfItems(inSection: current.sectionIdentifiers[source.section])) items.")
      )
    }
    guard current.sectionIdentifier(at: destination.section) != nil else {
      fatalError(
        "Cannot move the item at \(source) to \(destination): "
          + "there are \(current.numberOfSections) sections.")
    }
  }

  /// Records a move the view already shows, with no batch update.
  ///
  /// The item at `source` is now at `destination`, an index path in the data after the move.
  /// The reordering handlers hear about it before and after the snapshot changes.
  ///
  /// - Returns: The transaction, or `nil` when ``canMoveItem(at:to:)`` refuses (the item may
  ///   not move, or the destination section nests a tree) or the move changes nothing.
  /// - Precondition: Both index paths are in the data: `source` names an item, and
  ///   `destination` is a position after the move (its section exists, and its item is at most
  ///   the section's item count, one less when moving within the section). A bad one traps,
  ///   whichever it is.
  /// - Complexity: O(*n*): the data after the move is a new snapshot (its position table is
  ///   rebuilt), and the transaction's differences list the items of the sections involved.
  @discardableResult
  public func moveItem(
    at source: IndexPath, to destination: IndexPath
  ) -> ReorderingTransaction<SectionID, ItemID>? {
    guard canMoveItem(at: source, to: destination), source != destination,
      let item = current.itemIdentifier(at: source),
      let sourceSection = current.sectionIdentifier(at: source.section),
      let destinationSection = current.sectionIdentifier(at: destination.section)
    else { return nil }
    let initial = current
    var final = current
    final.deleteItems([item])
    let remaining = final.itemIdentifiers(inSectionAt: destination.section)
    guard destination.item <= remaining.count else {
      fatalError(
        "Cannot move \(item) to \(destination): the section has \(remaining.count) other items.")
    }
    if destination.item < remaining.count {
      final.insertItems([item], beforeItem: remaining[destination.item])
    } else {
      final.appendItems([item], toSection: destinationSection)
    }
    // Positions in the whole list of items: the offsets of the sections plus the item indexes.
    let flatSource = initial.numberOfItemsBefore(section: source.section) + source.item
    let flatDestination = final.numberOfItemsBefore(section: destination.section) + destination.item
    let transaction = ReorderingTransaction(
      initialSnapshot: initial, finalSnapshot: final,
      difference: Self.moveDifference(item, from: flatSource, to: flatDestination),
      sectionTransactions: sectionTransactions(
        item, from: (sourceSection, source.item), to: (destinationSection, destination.item),
        initial: initial, final: final))
    reorderingHandlers.willReorder?(transaction)
    beginApplying()
    generation &+= 1
    current = final
    for section in Set([sourceSection, destinationSection]) { sectionSnapshots[section] = nil }
    isApplying = false
    reorderingHandlers.didReorder?(transaction)
    return transaction
  }

  private func sectionTransactions(
    _ item: ItemID, from source: (SectionID, Int), to destination: (SectionID, Int),
    initial: Snapshot<SectionID, ItemID>, final: Snapshot<SectionID, ItemID>
  ) -> [SectionTransaction<SectionID, ItemID>] {
    func tree(_ items: [ItemID]) -> SectionSnapshot<ItemID> {
      var tree = SectionSnapshot<ItemID>()
      tree.append(items)
      return tree
    }
    func transaction(_ section: SectionID, _ difference: CollectionDifference<ItemID>)
      -> SectionTransaction<SectionID, ItemID>
    {
      SectionTransaction(
        sectionIdentifier: section,
        initialSnapshot: tree(initial.itemIdentifiers(inSection: section)),
        finalSnapshot: tree(final.itemIdentifiers(inSection: section)), difference: difference)
    }
    if source.0 == destination.0 {
      return [transaction(source.0, Self.moveDifference(item, from: source.1, to: destination.1))]
    }
    return [
      transaction(
        source.0, Self.difference([.remove(offset: source.1, element: item, associatedWith: nil)])),
      transaction(
        destination.0,
        Self.difference([.insert(offset: destination.1, element: item, associatedWith: nil)])),
    ]
  }

  /// One item moved within a collection, as a removal and an insertion associated with each other.
  static func moveDifference(_ item: ItemID, from source: Int, to destination: Int)
    -> CollectionDifference<ItemID>
  {
    guard source != destination else { return difference([]) }
    return difference([
      .remove(offset: source, element: item, associatedWith: destination),
      .insert(offset: destination, element: item, associatedWith: source),
    ])
  }

  private static func difference(
    _ changes: [CollectionDifference<ItemID>.Change]
  ) -> CollectionDifference<ItemID> {
    guard let difference = CollectionDifference(changes) else {
      fatalError("A move made an invalid difference \(changes); this is a bug in Trellis.")
    }
    return difference
  }
}
