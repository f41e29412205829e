/// What a data source does when a person expands or collapses an item of a tree: whether it may,
/// what to do just before, and the children to show when a parent opens (loaded lazily).
///
/// Apple's `NSDiffableDataSourceSectionSnapshotHandlers`, consulted by
/// ``DiffableDataSource/expand(_:in:animatingDifferences:)`` and
/// ``DiffableDataSource/collapse(_:in:animatingDifferences:)``; with no handlers, every item
/// expands and collapses.
public struct SectionSnapshotHandlers<ItemID: Hashable> {
  /// Whether an item may expand; `nil` allows every expansion.
  public var shouldExpandItem: ((ItemID) -> Bool)?
  /// Called before an item expands.
  public var willExpandItem: ((ItemID) -> Void)?
  /// Whether an item may collapse; `nil` allows every collapse.
  public var shouldCollapseItem: ((ItemID) -> Bool)?
  /// Called before an item collapses.
  public var willCollapseItem: ((ItemID) -> Void)?
  /// The children to show under a parent that expands, given its current children as a tree
  /// (without the parent): the place to load them on demand.
  public var snapshotForExpandingParentItem:
    ((_ parent: ItemID, _ children: SectionSnapshot<ItemID>) -> SectionSnapshot<ItemID>)?

  /// Creates handlers; the defaults allow everything and change nothing.
  public init(
    shouldExpandItem: ((ItemID) -> Bool)? = nil, willExpandItem: ((ItemID) -> Void)? = nil,
    shouldCollapseItem: ((ItemID) -> Bool)? = nil, willCollapseItem: ((ItemID) -> Void)? = nil,
    snapshotForExpandingParentItem: (
      (_ parent: ItemID, _ children: SectionSnapshot<ItemID>) -> SectionSnapshot<ItemID>
    )? = nil
  ) {
    self.shouldExpandItem = shouldExpandItem
    self.willExpandItem = willExpandItem
    self.shouldCollapseItem = shouldCollapseItem
    self.willCollapseItem = willCollapseItem
    self.snapshotForExpandingParentItem = snapshotForExpandingParentItem
  }
}
