import Trellis

/// A collection view for the terminal: any Trellis layout, fed by a `DiffableDataSource`, drawn
/// into cells of a ``CellBuffer`` — one terminal cell is one layout point.
///
///     let view = CollectionView<Section, Issue.ID>(layout: list) { indexPath, id in
///       IssueRow(issue: store[id])
///     }
///     view.dataSource.apply(snapshot)
///     view.render(into: &screen)
///
/// It asks the layout only for what is on screen, and redraws only what changed: an element
/// whose content, state and size are unchanged is copied from the previous frame, even when it
/// moved. Keys and the mouse move the focus, scroll, and select (``handle(_:)``); the focused item
/// is always kept in view, sideways too in orthogonally scrolling sections (a chip bar).
@MainActor
public final class CollectionView<SectionID: Hashable, ItemID: Hashable>: BatchUpdatingView {
  /// The data source type: its cells are ``CollectionCell`` view models.
  public typealias DataSource = DiffableDataSource<SectionID, ItemID, any CollectionCell>

  /// Makes a decoration's view model from its kind, index path and section identifier.
  public typealias DecorationProvider =
    (_ kind: String, _ indexPath: IndexPath, _ sectionIdentifier: SectionID) -> (
      any CollectionCell
    )?

  /// The data source; apply snapshots to it and the view updates.
  public let dataSource: DataSource

  /// The layout; replacing it lays everything out again.
  ///
  /// - Complexity: O(1) to read; setting it makes the next frame prepare the whole layout, O(*n*).
  public var layout: any CollectionLayout {
    get { currentLayout }
    set {
      currentLayout = newValue
      pendingInvalidation = .everything
      needsFullRedraw = true
      revealsFocus = true
    }
  }

  /// The layout, mutated in place by layout passes and sideways scrolling.
  var currentLayout: any CollectionLayout

  /// Where the view sits on the screen; changing its size re-lays out and keeps the focus in view.
  ///
  /// - Complexity: O(1) to read; a new size reallocates the view's buffer, O(*w* × *h*), and makes
  ///   the next frame prepare the layout for the new bounds.
  public var frame: CellRect {
    didSet {
      guard frame.width != oldValue.width || frame.height != oldValue.height else { return }
      backing = CellBuffer(width: frame.width, height: frame.height)
      needsFullRedraw = true
      pendingInvalidation = pendingInvalidation.merged(with: .bounds)
      revealsFocus = true
    }
  }

  /// Which items are selected, and how many may be; changing it redraws the items whose
  /// selection changed.
  public var selection: SelectionModel<ItemID>

  /// The item with the keyboard focus.
  public private(set) var focusedItem: ItemID?

  /// The content's position under the view's top-left corner, in layout points.
  public internal(set) var contentOffset = Point.zero

  /// Drawn in place of the content when set (loading, empty, failure).
  ///
  /// - Complexity: O(1).
  public var placeholder: CollectionPlaceholder? {
    didSet { if placeholder != oldValue { needsFullRedraw = true } }
  }

  /// Which keys move the focus: arrows and the usual editing keys, and optionally vim's.
  public var navigationKeys = NavigationKeys.standardAndVim

  /// Called when the user activates an item: Enter or space on the focused item, or a click.
  public var onSelect: ((ItemID) -> Void)?

  /// Called when a person clicks a supplementary element (a section header, say), with its kind
  /// and section: to collapse the section, sort by a column.
  public var onSupplementaryClick: ((_ kind: String, _ section: SectionID) -> Void)?

  /// Called when the focus moves to another item (or none).
  public var onFocusChange: ((ItemID?) -> Void)?

  /// Makes the view models of decorations; without one, decorations are not drawn.
  public var decorationProvider: DecorationProvider?

  /// Measures self-sizing items for layouts that use estimated sizes.
  public var measure: ((IndexPath, Size) -> Size)?

  /// Extra layout points around the visible area asked of the layout, so that neighbours of the
  /// visible elements are known (focus moves) without a second query.
  public var overscan: Double = 2

  /// What the last frame cost.
  public internal(set) var statistics = RenderStatistics()

  // MARK: Lifecycle

  /// Called when an item starts to show, once per entry: the first frame that draws it after
  /// one that did not (scrolled in, inserted, the placeholder gone), with its index path.
  ///
  /// An item that stays on screen across a reload or a move is not displayed again.
  public var onWillDisplay: ((_ item: ItemID, _ indexPath: IndexPath) -> Void)?

  /// Called when an item stops showing, once per exit: scrolled out, deleted, covered by the
  /// placeholder; with the index path the last frame drew it at.
  public var onDidEndDisplaying: ((_ item: ItemID, _ indexPath: IndexPath) -> Void)?

  /// Which items count as in the working range: the items a person is about to see, whose data
  /// is worth fetching now.
  ///
  /// The ones on screen, those within a distance of it (in layout points on every side), or all.
  public var workingRange: WorkingRange = .visible

  /// Called with the items that entered the working range since the last frame, in layout
  /// order, once per entry: start fetching what they show (the prefetch of UIKit's
  /// `UICollectionViewDataSourcePrefetching`, IGListKit's working range).
  public var onEnterWorkingRange: (([ItemID]) -> Void)?

  /// Called with the items that left the working range since the last frame (scrolled away or
  /// deleted), once per exit: cancel what ``onEnterWorkingRange`` started for them.
  public var onExitWorkingRange: (([ItemID]) -> Void)?

  /// The actions a person can take on a row, offered when ``rowActionKeys`` is pressed on the
  /// focused item, as a swipe offers them on iOS; without a provider the keys do nothing.
  public var rowActionsProvider: ((ItemID) -> [RowAction])?

  /// The keys that open the focused row's actions.
  public var rowActionKeys: [KeyEvent] = [
    KeyEvent(.character(".")), KeyEvent(.function(10), modifiers: .shift),
  ]

  /// The items drawn by the last frame with the index path they were drawn at, when display
  /// callbacks are set.
  var displayedItems: [ItemID: IndexPath] = [:]
  /// The same items in the order the last frame drew them.
  var displayedOrder: [ItemID] = []
  /// The items in the working range at the last frame, when its callbacks are set.
  var workingRangeItems: Set<ItemID> = []
  /// The same items in the order the layout listed them.
  var workingRangeOrder: [ItemID] = []
  /// Counts the changes of the data (batch updates, reloads), so that a working range of every
  /// item is worked out again only when the data changed.
  var dataVersion = 0
  /// The data version and placeholder state an ``WorkingRange/all`` range was last worked out
  /// for; `nil` when the last one was another range.
  var allItemsRangeVersion: (data: Int, placeholder: Bool)?
  /// The row whose actions are open.
  var openRowActions: OpenRowActions<ItemID>?

  /// The frame of the loading spinner.
  var animationFrame = 0
  /// The item the mouse button went down on.
  var highlightedItem: ItemID?
  /// The last focused item in each orthogonally scrolling section, to return to it.
  private var rememberedFocus: [SectionID: ItemID] = [:]

  // Rendering state.
  var backing: CellBuffer
  /// The buffer before `backing`, kept to draw the next one in (a screen's worth of cells is
  /// not allocated, faulted in and freed on every frame).
  var spareBacking: CellBuffer?
  var drawn: [DrawnElement] = []
  var drawnIndex: [ElementKey: Int] = [:]
  var dirtyItems: Set<ItemID> = []
  var dirtySections: Set<SectionID> = []
  var dirtySupplementarySections: Set<SectionID> = []
  var needsFullRedraw = true
  var pendingInvalidation = PendingInvalidation.everything
  var revealsFocus = false
  /// Where to keep the content after the batch updates applied since the last layout pass.
  var scrollAnchor: ScrollAnchor?

  /// Creates a view with a layout, a frame on the screen, and the provider of its cells.
  ///
  /// - Complexity: O(*w* × *h*) for the view's buffer.
  public init(
    layout: some CollectionLayout, frame: CellRect = CellRect(x: 0, y: 0, width: 80, height: 24),
    selection: SelectionModel<ItemID> = .single(),
    cellProvider: @escaping DataSource.CellProvider
  ) {
    currentLayout = layout
    self.frame = frame
    self.selection = selection
    backing = CellBuffer(width: frame.width, height: frame.height)
    dataSource = DataSource(cellProvider: cellProvider)
    dataSource.view = self
  }

  /// The size of the view, in layout points.
  ///
  /// - Complexity: O(1).
  public var viewportSize: Size { Size(width: Double(frame.width), height: Double(frame.height)) }

  /// The visible part of the content, in layout points.
  ///
  /// - Complexity: O(1).
  public var viewport: Rect { Rect(origin: contentOffset, size: viewportSize) }

  // MARK: Batch updates

  /// Applies one batch update from the data source: redraws what it touched, keeps the focus and
  /// the scroll position on the same items, and leaves the layout to the next pass.
  ///
  /// - Complexity: O(*u* + *s*) for the update's *u* changes and the *s* sections, O(1) lookups for
  ///   the focus and the selection; the layout work is left to the next layout pass.
  public func performBatchUpdates(
    _ update: BatchUpdate, animated: Bool, updateData: () -> Void
  ) {
    dataVersion &+= 1
    let before = dataSource.snapshot()
    let focusPath = focusedItem.flatMap { before.indexPath(for: $0) }
    if scrollAnchor == nil { scrollAnchor = anchorForUpdate() }
    for indexPath in update.itemReloads + update.itemReconfigures {
      if let id = before.itemIdentifier(at: indexPath) { dirtyItems.insert(id) }
    }
    for section in update.sectionReloads {
      if let id = before.sectionIdentifier(at: section) { dirtySections.insert(id) }
    }
    let oldCounts = itemCounts()
    updateData()
    let after = dataSource.snapshot()
    for indexPath in update.itemInserts + update.itemMoves.map(\.target) {
      if let id = after.itemIdentifier(at: indexPath) { dirtyItems.insert(id) }
    }
    for section in update.sectionInserts + update.sectionMoves.map(\.target) {
      if let id = after.sectionIdentifier(at: section) { dirtySections.insert(id) }
    }
    pendingInvalidation = pendingInvalidation.merged(
      with: PendingInvalidation(update, oldCounts: oldCounts, newCounts: itemCounts()))
    if measure != nil, !(update.itemReloads.isEmpty && update.itemReconfigures.isEmpty) {
      // Measured items may have changed size.
      pendingInvalidation = .everything
    }
    reconcile(with: after, focusPath: focusPath)
  }

  /// Discards what the view shows and lays out and draws everything again on the next frame.
  ///
  /// - Complexity: O(*s*) for the sections, plus O(*m*) for the *m* selected items; the next frame
  ///   prepares the whole layout, O(*n*).
  public func reloadData() {
    dataVersion &+= 1
    needsFullRedraw = true
    pendingInvalidation = .everything
    reconcile(with: dataSource.snapshot(), focusPath: nil)
  }

  /// Drops selected and focused items that are gone; the focus moves to what took its place.
  private func reconcile(with snapshot: Snapshot<SectionID, ItemID>, focusPath: IndexPath?) {
    selection.reconcile(with: snapshot)
    if let highlightedItem, !snapshot.contains(item: highlightedItem) {
      self.highlightedItem = nil
    }
    rememberedFocus = rememberedFocus.filter { snapshot.contains(item: $0.value) }
    if let open = openRowActions, !snapshot.contains(item: open.item) { openRowActions = nil }
    guard let focused = focusedItem, !snapshot.contains(item: focused) else { return }
    var replacement: ItemID?
    if let focusPath, focusPath.section < snapshot.numberOfSections {
      let items = snapshot.itemIdentifiers(inSectionAt: focusPath.section)
      if !items.isEmpty { replacement = items[min(focusPath.item, items.count - 1)] }
    }
    setFocus(replacement ?? firstItem(in: snapshot), reveal: true)
  }

  func itemCounts() -> [Int] {
    (0..<dataSource.numberOfSections).map { dataSource.numberOfItems(inSection: $0) }
  }

  private func firstItem(in snapshot: Snapshot<SectionID, ItemID>) -> ItemID? {
    for section in 0..<snapshot.numberOfSections {
      if let first = snapshot.itemIdentifiers(inSectionAt: section).first { return first }
    }
    return nil
  }

  // MARK: Layout

  /// Prepares the layout for what changed since the last time, and keeps the focus in view.
  ///
  /// - Complexity: O(1) when nothing changed; otherwise the layout's preparation for what changed
  ///   (O(*n*) for everything, less for an append or a bounds change, see each layout), plus O(log
  ///   *n*) to keep the focus in view.
  public func layoutIfNeeded() {
    guard pendingInvalidation != .none || revealsFocus else { return }
    let pending = pendingInvalidation
    pendingInvalidation = .none
    let context = LayoutContext(
      itemCounts: pending == .none ? [] : itemCounts(), containerSize: viewportSize,
      measure: measure)
    switch pending {
    case .none: break
    case .everything: currentLayout.invalidate(.everything, context: context)
    case .bounds: currentLayout.invalidate(.boundsChanged(viewportSize), context: context)
    case .sections(let run):
      currentLayout.invalidate(.itemsChanged(sections: run), context: context)
    case .appended(let sections):
      for (section, count) in sections.sorted(by: { $0.key < $1.key }) {
        currentLayout.invalidate(
          .itemsAppended(section: section, newCount: count), context: context)
      }
    }
    if let anchor = scrollAnchor {
      scrollAnchor = nil
      restore(anchor)
    }
    if pending != .none { contentOffset = clamped(contentOffset) }
    if revealsFocus {
      revealsFocus = false
      if let focusedItem { reveal(focusedItem, at: .nearest) }
    }
  }

  /// An item and how far from the top (or leading edge) of the view it was before a batch update:
  /// after the update, the content scrolls so that it is there again, so rows inserted or removed
  /// above what a person reads do not move it.
  struct ScrollAnchor {
    var item: ItemID
    var distance: Double
  }

  /// The focused item when it is on screen, else the first item on screen.
  private func anchorForUpdate() -> ScrollAnchor? {
    guard viewportSize.height > 0, viewportSize.width > 0 else { return nil }
    layoutIfNeeded()
    let axis = currentLayout.scrollAxis
    let start = axis.main(contentOffset)
    let length = axis.main(viewportSize)
    func distance(_ frame: Rect) -> Double { axis.main(frame.origin) - start }
    if let focusedItem, let path = dataSource.indexPath(for: focusedItem),
      let frame = currentLayout.attributesForItem(at: path)?.frame,
      distance(frame) >= 0, distance(frame) < length
    {
      return ScrollAnchor(item: focusedItem, distance: distance(frame))
    }
    guard start > 0 else { return nil }  // At the top, new rows above should show.
    let visible = currentLayout.attributes(in: viewport, viewport: viewport)
      .filter { $0.category == .cell && distance($0.frame) >= 0 }
      .min { distance($0.frame) < distance($1.frame) }
    guard let first = visible, let item = dataSource.itemIdentifier(for: first.indexPath) else {
      return nil
    }
    return ScrollAnchor(item: item, distance: distance(first.frame))
  }

  private func restore(_ anchor: ScrollAnchor) {
    guard let path = dataSource.indexPath(for: anchor.item),
      let frame = currentLayout.attributesForItem(at: path)?.frame
    else { return }
    let axis = currentLayout.scrollAxis
    contentOffset = clamped(
      axis.moving(contentOffset, mainTo: axis.main(frame.origin) - anchor.distance))
  }

  /// The largest offset that still fills the view.
  private var maximumOffset: Point {
    let content = currentLayout.contentSize
    return Point(
      x: max(0, content.width - viewportSize.width), y: max(0, content.height - viewportSize.height)
    )
  }

  func clamped(_ offset: Point) -> Point {
    let maximum = maximumOffset
    return Point(x: min(max(0, offset.x), maximum.x), y: min(max(0, offset.y), maximum.y))
  }

  // MARK: Scrolling

  /// Where scrolling to an item puts it.
  public enum ScrollPosition: Hashable, Sendable {
    /// As little scrolling as shows the item whole.
    case nearest
    /// The item at the top (or leading edge) of the view.
    case start
    /// The item in the middle of the view.
    case center
  }

  /// Scrolls the content to an offset, clamped to the content; the focus follows if it would
  /// leave the view.
  ///
  /// - Complexity: O(log *n* + *v*) to keep the focus in view, plus a pending layout pass.
  public func setContentOffset(_ offset: Point) {
    layoutIfNeeded()
    contentOffset = clamped(offset)
    keepFocusInView()
  }

  /// Scrolls by a distance along the layout's scroll axis; the focus follows if it would leave.
  ///
  /// - Complexity: O(log *n* + *v*), plus a pending layout pass.
  public func scroll(by distance: Double) {
    layoutIfNeeded()
    setContentOffset(currentLayout.scrollAxis.offset(contentOffset, main: distance))
  }

  /// Scrolls so that an item shows, sideways too in an orthogonally scrolling section.
  ///
  /// - Complexity: O(log *n*) on average, plus a pending layout pass.
  public func scrollToItem(_ id: ItemID, at position: ScrollPosition = .nearest) {
    layoutIfNeeded()
    reveal(id, at: position)
  }

  /// The item's frame on screen after scrolling it into view along both axes.
  func reveal(_ id: ItemID, at position: ScrollPosition) {
    guard let indexPath = dataSource.indexPath(for: id),
      var frame = currentLayout.attributesForItem(at: indexPath)?.frame
    else { return }
    let axis = currentLayout.scrollAxis
    if currentLayout.scrollsOrthogonally(section: indexPath.section) {
      // Across the scroll axis, the view's extent is the whole row.
      let across = axis.crossRange(of: frame)
      let (low, high, extent) = (
        across.low - axis.cross(contentOffset), across.high - axis.cross(contentOffset),
        axis.cross(viewportSize)
      )
      let current = currentLayout.orthogonalOffset(forSection: indexPath.section)
      var target = current
      if low < 0 {
        target = current + low
      } else if high > extent {
        target = current + min(low, high - extent)
      }
      if target != current {
        currentLayout.setOrthogonalOffset(target, forSection: indexPath.section)
        frame = currentLayout.attributesForItem(at: indexPath)?.frame ?? frame
      }
    }
    let (start, end) = axis.mainRange(of: frame)
    let length = axis.main(viewportSize)
    let visibleStart = axis.main(contentOffset)
    var target = visibleStart
    switch position {
    case .start: target = start
    case .center: target = (start + end - length) / 2
    case .nearest:
      if start < visibleStart || end - start > length {
        target = start
      } else if end > visibleStart + length {
        target = end - length
      }
    }
    contentOffset = clamped(axis.moving(contentOffset, mainTo: target))
    // A pinned header may cover the item: scroll back by as much as it covers.
    for _ in 0..<2 {
      guard let cover = coveringSupplementary(over: frame) else { break }
      let overlap = axis.mainRange(of: cover).high - axis.main(frame.origin)
      guard overlap > 0 else { break }
      let next = clamped(axis.offset(contentOffset, main: -overlap))
      if next == contentOffset { break }
      contentOffset = next
    }
  }

  /// A pinned header drawn over the leading part of a frame, in the current viewport.
  private func coveringSupplementary(over frame: Rect) -> Rect? {
    statistics.layoutQueries += 1
    let axis = currentLayout.scrollAxis
    return currentLayout.attributes(in: viewport, viewport: viewport).first { attributes in
      attributes.isPinned && attributes.frame.intersects(frame)
        && axis.main(attributes.frame.origin) <= axis.main(frame.origin)
    }?.frame
  }

  /// Moves the focus to the visible item nearest to where it was, if it left the view.
  func keepFocusInView() {
    guard let focusedItem, let indexPath = dataSource.indexPath(for: focusedItem),
      let frame = currentLayout.attributesForItem(at: indexPath)?.frame
    else { return }
    if isShown(frame) { return }
    let cells = visibleCells()
    let candidates = cells.filter(isShown)
    let nearest = (candidates.isEmpty ? cells : candidates).min { lhs, rhs in
      distance(lhs.frame, frame) < distance(rhs.frame, frame)
    }
    if let nearest, let id = dataSource.itemIdentifier(for: nearest.indexPath) {
      setFocus(id, reveal: false)
    }
  }

  /// Whether a frame shows whole along the scroll axis (or fills the view), not under a pinned
  /// header.
  func isShown(_ frame: Rect) -> Bool {
    let visible = viewport
    guard frame.intersects(visible) else { return false }
    let axis = currentLayout.scrollAxis
    let (start, end) = axis.mainRange(of: frame)
    let (visibleStart, visibleEnd) = axis.mainRange(of: visible)
    let whole = start >= visibleStart && end <= visibleEnd
    guard whole || end - start > visibleEnd - visibleStart else { return false }
    return coveringSupplementary(over: frame) == nil
  }

  private func isShown(_ attributes: LayoutAttributes) -> Bool { isShown(attributes.frame) }

  private func distance(_ a: Rect, _ b: Rect) -> Double {
    abs(a.center.y - b.center.y) * 4 + abs(a.center.x - b.center.x)
  }

  /// The cells intersecting the viewport.
  func visibleCells() -> [LayoutAttributes] {
    statistics.layoutQueries += 1
    return currentLayout.attributes(in: viewport, viewport: viewport).filter {
      $0.category == .cell
    }
  }

  // MARK: Focus and selection

  /// Moves the keyboard focus to an item (or nowhere) and scrolls it into view.
  ///
  /// - Complexity: O(log *n*) on average, plus a pending layout pass.
  public func focus(_ id: ItemID?) {
    layoutIfNeeded()
    setFocus(id, reveal: true)
    layoutIfNeeded()
  }

  func setFocus(_ id: ItemID?, reveal: Bool) {
    if let id, let indexPath = dataSource.indexPath(for: id),
      currentLayout.scrollsOrthogonally(section: indexPath.section),
      let section = dataSource.sectionIdentifier(for: indexPath.section)
    {
      rememberedFocus[section] = id
    }
    if reveal { revealsFocus = true }
    guard id != focusedItem else { return }
    focusedItem = id
    openRowActions = nil
    onFocusChange?(id)
  }

  /// Selects an item as the user would: it takes the focus, the selection model records it (a
  /// toggle when several may be selected), and ``onSelect`` is called.
  ///
  /// - Complexity: That of ``focus(_:)``, plus O(1) on average to record the selection.
  public func activate(_ id: ItemID) {
    focus(id)
    switch selection.mode {
    case .none: break
    case .single: selection.select(id)
    case .multiple: selection.toggle(id)
    }
    onSelect?(id)
  }

  /// The remembered focus of an orthogonal section, or its selected item, to enter it at.
  func entryItem(inSection section: Int) -> ItemID? {
    guard let id = dataSource.sectionIdentifier(for: section) else { return nil }
    if let remembered = rememberedFocus[id] { return remembered }
    let items = dataSource.snapshot().itemIdentifiers(inSection: id)
    return items.first { selection.isSelected($0) }
  }

  /// The state an item is drawn with.
  func state(of id: ItemID) -> CellState {
    var state: CellState = []
    if id == focusedItem { state.insert(.focused) }
    if selection.isSelected(id) { state.insert(.selected) }
    if id == highlightedItem { state.insert(.highlighted) }
    return state
  }

  /// Advances the loading spinner by one frame.
  ///
  /// - Complexity: O(1).
  public func tick() {
    animationFrame &+= 1
    if case .loading = placeholder { needsFullRedraw = true }
  }

  /// Redraws every element on the next frame (after a change the view cannot see, such as a
  /// header whose text depends on data outside the snapshot).
  ///
  /// - Complexity: O(1); the next frame draws every visible element.
  public func setNeedsDisplay() { needsFullRedraw = true }

  /// Redraws one item on the next frame.
  ///
  /// - Complexity: O(1) on average.
  public func setNeedsDisplay(item id: ItemID) { dirtyItems.insert(id) }

  /// Redraws a section's headers, footers and decorations on the next frame (after a change
  /// outside the snapshot that only they show, such as a count): its items are reused as usual.
  ///
  /// - Complexity: O(1) on average.
  public func setNeedsDisplay(supplementariesOf section: SectionID) {
    dirtySupplementarySections.insert(section)
  }
}
