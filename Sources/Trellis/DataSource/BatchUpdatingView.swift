/// A view that shows sectioned data and applies batch updates to it: the part of
/// `UICollectionView` that a ``DiffableDataSource`` drives.
///
/// The view owns presentation (cells, layout, animation); the data source owns the data. They
/// agree because the view switches to the new data by calling `updateData` at the start of each
/// batch, exactly once, and only then reads counts and cells for the new positions.
@MainActor
public protocol BatchUpdatingView: AnyObject {
  /// Applies one batch update.
  ///
  /// - Parameters:
  ///   - update: Deletes and reloads at positions before the update, inserts at positions after it,
  ///     moves from before to after.
  ///   - animated: Whether the change should be animated.
  ///   - updateData: Switches the data source to the data after the update. Call it exactly once,
  ///     before reading anything from the data source for the new positions.
  func performBatchUpdates(_ update: BatchUpdate, animated: Bool, updateData: () -> Void)

  /// Discards what the view shows and reads everything again from the data source.
  func reloadData()
}
