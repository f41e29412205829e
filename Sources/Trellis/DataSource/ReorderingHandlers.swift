/// What a data source does when a person moves items in its view: whether an item may move, and
/// what to do before and after the data changes, so that the app's model follows.
///
/// Apple's `NSDiffableDataSourceSnapshot.ReorderingHandlers`: without ``canReorderItem``, nothing
/// moves.
public struct ReorderingHandlers<SectionID: Hashable, ItemID: Hashable> {
  /// Whether the person may move an item; `nil` forbids every move.
  public var canReorderItem: ((ItemID) -> Bool)?
  /// Called with the move before the data source's snapshot changes.
  public var willReorder: ((ReorderingTransaction<SectionID, ItemID>) -> Void)?
  /// Called with the move after the data source's snapshot changed: update the model from it.
  public var didReorder: ((ReorderingTransaction<SectionID, ItemID>) -> Void)?

  /// Creates handlers; the defaults forbid moving.
  public init(
    canReorderItem: ((ItemID) -> Bool)? = nil,
    willReorder: ((ReorderingTransaction<SectionID, ItemID>) -> Void)? = nil,
    didReorder: ((ReorderingTransaction<SectionID, ItemID>) -> Void)? = nil
  ) {
    self.canReorderItem = canReorderItem
    self.willReorder = willReorder
    self.didReorder = didReorder
  }
}

/// A move a person made: the snapshots before and after, and the difference between them.
public struct ReorderingTransaction<SectionID: Hashable, ItemID: Hashable> {
  /// The data before the move.
  public var initialSnapshot: Snapshot<SectionID, ItemID>
  /// The data after the move: the data source's snapshot once ``ReorderingHandlers/didReorder``
  /// is called.
  public var finalSnapshot: Snapshot<SectionID, ItemID>
  /// The change of the whole list of items, as a removal and an insertion associated with each
  /// other.
  public var difference: CollectionDifference<ItemID>
  /// The change of each section the move touched: the one it left and the one it entered.
  public var sectionTransactions: [SectionTransaction<SectionID, ItemID>]
}

/// How a move changed one section.
public struct SectionTransaction<SectionID: Hashable, ItemID: Hashable> {
  /// The section.
  public var sectionIdentifier: SectionID
  /// The section's items before the move.
  public var initialSnapshot: SectionSnapshot<ItemID>
  /// The section's items after the move.
  public var finalSnapshot: SectionSnapshot<ItemID>
  /// The change of the section's items.
  public var difference: CollectionDifference<ItemID>
}
