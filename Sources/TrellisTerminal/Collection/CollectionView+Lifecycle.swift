import Trellis

// What UIKit tells a collection view's delegate and prefetching data source as cells come and go:
// display callbacks and a working range, worked out once per frame from what the frame drew.

extension CollectionView {
  /// The items the last frame drew, with their index paths: what ``onWillDisplay`` and
  /// ``onDidEndDisplaying`` have told the app is on screen.
  ///
  /// Empty unless one of the two callbacks is set.
  ///
  /// - Complexity: O(*v*), the items the last frame drew.
  public var displayedItemIdentifiers: Set<ItemID> { Set(displayedItems.keys) }

  /// The items in the working range at the last frame: what ``onEnterWorkingRange`` has
  /// announced and ``onExitWorkingRange`` has not withdrawn.
  ///
  /// Empty unless one of the two callbacks is set.
  ///
  /// - Complexity: O(1).
  public var workingRangeItemIdentifiers: Set<ItemID> { workingRangeItems }

  /// Tells the app which items started and stopped showing, and which entered and left the
  /// working range, since the last frame.
  ///
  /// Each is worked out as the difference of two sets (the last frame's and this one's), so an
  /// item is announced once per entry and once per exit whatever happened in between: reloads,
  /// moves, a list that shrank or grew, several batch updates.
  ///
  /// - Complexity: O(*v* + *w*), the items on screen and in the working range, plus one layout
  ///   query for the working range when it reaches beyond the screen; for a range of
  ///   ``WorkingRange/all`` items, O(*n*) in a frame after the data changed and O(*v*) otherwise.
  func updateLifecycle() {
    updateDisplayedItems()
    updateWorkingRange()
  }

  private func updateDisplayedItems() {
    guard onWillDisplay != nil || onDidEndDisplaying != nil else {
      displayedItems = [:]
      displayedOrder = []
      return
    }
    var now: [ItemID: IndexPath] = [:]
    var entered: [(ItemID, IndexPath)] = []
    for element in drawn {
      guard case .item(let id) = element.key, now[id] == nil else { continue }
      now[id] = element.indexPath
      if displayedItems[id] == nil { entered.append((id, element.indexPath)) }
    }
    let ended = displayedOrder.filter { now[$0] == nil }
    let previous = displayedItems
    displayedItems = now
    displayedOrder = drawn.compactMap {
      if case .item(let id) = $0.key { id } else { nil }
    }
    // Exits first, in the order the last frame drew them, then entries in drawing order.
    for id in ended { if let indexPath = previous[id] { onDidEndDisplaying?(id, indexPath) } }
    for (id, indexPath) in entered { onWillDisplay?(id, indexPath) }
  }

  private func updateWorkingRange() {
    guard onEnterWorkingRange != nil || onExitWorkingRange != nil else {
      workingRangeItems = []
      workingRangeOrder = []
      allItemsRangeVersion = nil
      return
    }
    var now = Set<ItemID>()
    var order: [ItemID] = []
    var entered: [ItemID] = []
    func add(_ id: ItemID) {
      guard now.insert(id).inserted else { return }
      order.append(id)
      if !workingRangeItems.contains(id) { entered.append(id) }
    }
    let range = workingRange.normalized
    if case .all = range {
      // Every item: worked out again only when the data or the placeholder changed, so that
      // scrolling a long list costs nothing here.
      let version = (data: dataVersion, placeholder: placeholder != nil)
      if let last = allItemsRangeVersion, last == version { return }
      allItemsRangeVersion = version
      if placeholder == nil {
        for id in dataSource.snapshot().itemIdentifiers { add(id) }
      }
    } else {
      allItemsRangeVersion = nil
      if placeholder == nil {
        let reach: Double
        if case .distance(let points) = range { reach = points } else { reach = 0 }
        let visible = viewport
        let area = Rect(
          x: visible.minX - reach, y: visible.minY - reach, width: visible.width + 2 * reach,
          height: visible.height + 2 * reach)
        statistics.layoutQueries += 1
        for attributes in currentLayout.attributes(in: area, viewport: visible)
        where attributes.category == .cell && attributes.frame.intersects(area)
          && attributes.frame.width > 0 && attributes.frame.height > 0
        {
          if let id = dataSource.itemIdentifier(for: attributes.indexPath) { add(id) }
        }
      }
    }
    // In the order the last frame listed them, so that the app hears a stable sequence.
    let exited = workingRangeOrder.filter { !now.contains($0) }
    workingRangeItems = now
    workingRangeOrder = order
    if !exited.isEmpty { onExitWorkingRange?(exited) }
    if !entered.isEmpty { onEnterWorkingRange?(entered) }
  }
}
