import Trellis

extension CollectionView {
  /// Handles a key or mouse event: moves the focus, scrolls, highlights or selects.
  ///
  /// Returns whether the view used the event, so that the app can handle the rest.
  ///
  /// - Complexity: O(log *n* + *v*) for the layout queries of a focus move or scroll, *v* the
  ///   elements near the screen, plus a pending layout pass (``layoutIfNeeded()``).
  @discardableResult
  public func handle(_ event: InputEvent) -> Bool {
    layoutIfNeeded()
    if openRowActions != nil {
      switch event {
      case .key(let key): return handleRowActions(key)
      case .mouse(let mouse) where frame.contains(x: mouse.x, y: mouse.y):
        return handleRowActions(mouse)
      case .mouse:
        openRowActions = nil
        return false
      case .paste, .focusGained, .focusLost: return false
      }
    }
    switch event {
    case .key(let key): return handle(key)
    case .mouse(let mouse): return handle(mouse)
    case .paste, .focusGained, .focusLost: return false
    }
  }

  private func handle(_ event: KeyEvent) -> Bool {
    if rowActionsProvider != nil, rowActionKeys.contains(event) {
      return showRowActions()
    }
    if event.modifiers == .alt, dataSource.reorderingHandlers.canReorderItem != nil {
      let direction: FocusMove? =
        switch event.key {
        case .up: .up
        case .down: .down
        case .left: .left
        case .right: .right
        default: nil
        }
      if let direction {
        moveFocusedItem(direction)
        return true
      }
    }
    guard event.modifiers.subtracting(.shift).isEmpty else { return false }
    let vim = navigationKeys == .standardAndVim
    switch event.key {
    case .up: moveFocus(.up)
    case .down: moveFocus(.down)
    case .left: moveFocus(.left)
    case .right: moveFocus(.right)
    case .pageUp: moveFocus(.pageUp)
    case .pageDown: moveFocus(.pageDown)
    case .home: moveFocus(.first)
    case .end: moveFocus(.last)
    case .enter, .character(" "):
      guard let focusedItem else { return false }
      activate(focusedItem)
    case .character("k") where vim: moveFocus(.up)
    case .character("j") where vim: moveFocus(.down)
    case .character("h") where vim: moveFocus(.left)
    case .character("l") where vim: moveFocus(.right)
    case .character("g") where vim: moveFocus(.first)
    case .character("G") where vim: moveFocus(.last)
    default: return false
    }
    return true
  }

  private func handle(_ event: MouseEvent) -> Bool {
    guard frame.contains(x: event.x, y: event.y) else {
      if case .release = event.kind, highlightedItem != nil { highlightedItem = nil }
      return false
    }
    let sideways = currentLayout.scrollAxis == .vertical ? 1.0 : 0.0
    switch event.kind {
    case .press(.left):
      highlightedItem = item(atScreenX: event.x, y: event.y)
    case .release(.left):
      let target = item(atScreenX: event.x, y: event.y)
      let pressed = highlightedItem
      highlightedItem = nil
      if let target, target == pressed {
        activate(target)
      } else if target == nil, pressed == nil,
        let (kind, section) = supplementary(atScreenX: event.x, y: event.y)
      {
        onSupplementaryClick?(kind, section)
      }
    case .scrollUp, .scrollDown:
      let delta: Double = event.kind == .scrollUp ? -3 : 3
      if event.modifiers.contains(.shift),
        let section = sectionIndex(atScreenX: event.x, y: event.y),
        currentLayout.scrollsOrthogonally(section: section)
      {
        scrollOrthogonally(section: section, by: delta * 2)
      } else {
        scroll(by: delta)
      }
    case .scrollLeft, .scrollRight:
      let delta: Double = event.kind == .scrollLeft ? -6 : 6
      if let section = sectionIndex(atScreenX: event.x, y: event.y),
        currentLayout.scrollsOrthogonally(section: section)
      {
        scrollOrthogonally(section: section, by: delta)
      } else {
        setContentOffset(
          Point(x: contentOffset.x + delta * sideways, y: contentOffset.y + delta * (1 - sideways)))
      }
    default:
      return false
    }
    return true
  }

  /// Scrolls one orthogonal section's row; a focused item in it that leaves the view gives the
  /// focus to the nearest item still shown.
  ///
  /// - Complexity: O(log *n* + *v*), plus a pending layout pass.
  public func scrollOrthogonally(section: Int, by distance: Double) {
    layoutIfNeeded()
    currentLayout.setOrthogonalOffset(
      currentLayout.orthogonalOffset(forSection: section) + distance, forSection: section)
    guard let focusedItem, let indexPath = dataSource.indexPath(for: focusedItem),
      indexPath.section == section,
      let frame = currentLayout.attributesForItem(at: indexPath)?.frame
    else { return }
    let visible = viewport
    if frame.minX >= visible.minX && frame.maxX <= visible.maxX && frame.minY >= visible.minY
      && frame.maxY <= visible.maxY
    {
      return
    }
    let row = visibleCells().filter {
      $0.indexPath.section == section && $0.frame.minX >= visible.minX
        && $0.frame.maxX <= visible.maxX && $0.frame.minY >= visible.minY
        && $0.frame.maxY <= visible.maxY
    }
    let nearest = row.min {
      abs($0.frame.center.x - frame.center.x) < abs($1.frame.center.x - frame.center.x)
    }
    if let nearest, let id = dataSource.itemIdentifier(for: nearest.indexPath) {
      setFocus(id, reveal: false)
    }
  }

  // MARK: Moving the focus

  /// Moves the focus as a key would, scrolling to keep it in view.
  ///
  /// - Complexity: O(log *n* + *v*), plus a pending layout pass; a page move queries the layout
  ///   once more.
  public func moveFocus(_ move: FocusMove) {
    layoutIfNeeded()
    let snapshot = dataSource.snapshot()
    guard let current = focusedItem, let indexPath = snapshot.indexPath(for: current) else {
      // Nothing focused yet: any move starts at the first item in view, or the first item.
      let start = visibleCells().first.flatMap { dataSource.itemIdentifier(for: $0.indexPath) }
      focus(start ?? firstItem(of: snapshot, last: move == .last))
      return
    }
    switch move {
    case .first:
      contentOffset = clamped(Point(x: contentOffset.x, y: 0))
      focus(firstItem(of: snapshot, last: false))
    case .last:
      focus(firstItem(of: snapshot, last: true))
    case .pageUp, .pageDown:
      page(from: indexPath, down: move == .pageDown, snapshot: snapshot)
    case .up, .down, .left, .right:
      if let next = neighbour(of: indexPath, move, snapshot: snapshot) { focus(next) }
    }
  }

  private func firstItem(of snapshot: Snapshot<SectionID, ItemID>, last: Bool) -> ItemID? {
    let sections = Array(0..<snapshot.numberOfSections)
    for section in last ? sections.reversed() : sections {
      let items = snapshot.itemIdentifiers(inSectionAt: section)
      if let item = last ? items.last : items.first { return item }
    }
    return nil
  }

  /// The item after or before one in data order, across sections.
  private func adjacent(
    to indexPath: IndexPath, forward: Bool, snapshot: Snapshot<SectionID, ItemID>,
    withinSection: Bool
  ) -> ItemID? {
    var section = indexPath.section
    var item = indexPath.item + (forward ? 1 : -1)
    while section >= 0 && section < snapshot.numberOfSections {
      let items = snapshot.itemIdentifiers(inSectionAt: section)
      if item >= 0 && item < items.count { return items[item] }
      if withinSection { return nil }
      section += forward ? 1 : -1
      guard section >= 0 && section < snapshot.numberOfSections else { return nil }
      item = forward ? 0 : snapshot.itemIdentifiers(inSectionAt: section).count - 1
    }
    return nil
  }

  /// The item a direction key moves to: along an orthogonal row, the next item of the section;
  /// otherwise the nearest item that way on screen, or the next in data order.
  private func neighbour(
    of indexPath: IndexPath, _ move: FocusMove, snapshot: Snapshot<SectionID, ItemID>
  ) -> ItemID? {
    // A row that scrolls sideways runs across the scroll axis.
    let alongRow = move.axis == currentLayout.scrollAxis.cross
    let forward = move == .right || move == .down
    if alongRow && currentLayout.scrollsOrthogonally(section: indexPath.section) {
      return adjacent(to: indexPath, forward: forward, snapshot: snapshot, withinSection: true)
    }
    guard let frame = currentLayout.attributesForItem(at: indexPath)?.frame else { return nil }
    let reach = max(viewportSize.width, viewportSize.height) * 2 + frame.width + frame.height
    let far = 1e7
    let region: Rect =
      switch move {
      case .down: Rect(x: -far, y: frame.minY, width: 2 * far, height: frame.height + reach)
      case .up: Rect(x: -far, y: frame.minY - reach, width: 2 * far, height: reach + frame.height)
      case .right: Rect(x: frame.minX, y: -far, width: frame.width + reach, height: 2 * far)
      default: Rect(x: frame.minX - reach, y: -far, width: reach + frame.width, height: 2 * far)
      }
    statistics.layoutQueries += 1
    let candidates = currentLayout.attributes(in: region, viewport: viewport).filter {
      $0.category == .cell && $0.indexPath != indexPath
    }
    var best: (score: Double, attributes: LayoutAttributes)?
    for candidate in candidates {
      guard let score = Self.score(candidate.frame, from: frame, move) else { continue }
      if score < best?.score ?? .infinity { best = (score, candidate) }
    }
    if let best {
      // Entering an orthogonal row: return to where the focus was in it, or its selection.
      if best.attributes.indexPath.section != indexPath.section,
        currentLayout.scrollsOrthogonally(section: best.attributes.indexPath.section),
        let entry = entryItem(inSection: best.attributes.indexPath.section)
      {
        return entry
      }
      return dataSource.itemIdentifier(for: best.attributes.indexPath)
    }
    guard !alongRow else { return nil }
    return adjacent(to: indexPath, forward: forward, snapshot: snapshot, withinSection: false)
  }

  /// How far a candidate is from a frame in a direction, or `nil` when it is not that way.
  ///
  /// Items overlapping the frame across the move come first; then the nearest.
  private static func score(_ candidate: Rect, from frame: Rect, _ move: FocusMove) -> Double? {
    // Along the move: (start, end) of each rect; across it: the same for the other axis.
    let axis = move.axis
    let (start, end) = axis.mainRange(of: candidate)
    let (frameStart, frameEnd) = axis.mainRange(of: frame)
    let forward = move == .down || move == .right
    let epsilon = 0.5
    guard forward ? start >= frameEnd - epsilon : end <= frameStart + epsilon else { return nil }
    let gap = forward ? start - frameEnd : frameStart - end
    let (low, high) = axis.crossRange(of: candidate)
    let (frameLow, frameHigh) = axis.crossRange(of: frame)
    let overlap = min(high, frameHigh) - max(low, frameLow)
    let offAxis = abs(low - frameLow)
    return overlap > 0 ? gap * 1000 + offAxis : 1e12 + gap * 1000 + offAxis
  }

  /// Scrolls a page and moves the focus to the item at the same place on screen; at the end of
  /// the content, to the first or last item.
  private func page(from indexPath: IndexPath, down: Bool, snapshot: Snapshot<SectionID, ItemID>) {
    guard let frame = currentLayout.attributesForItem(at: indexPath)?.frame else { return }
    let axis = currentLayout.scrollAxis
    let length = max(1, axis.main(viewportSize) - 1)
    let before = contentOffset
    contentOffset = clamped(axis.offset(before, main: down ? length : -length))
    let moved = axis.main(contentOffset) - axis.main(before)
    if moved == 0 {
      // Already at the end of the content: the focus goes to the first or last item.
      focus(firstItem(of: snapshot, last: down))
      return
    }
    let target = axis.offset(frame, main: moved)
    let cells = visibleCells().filter { isShown($0.frame) }
    let nearest = cells.min { lhs, rhs in
      Self.pageDistance(lhs.frame, target) < Self.pageDistance(rhs.frame, target)
    }
    if let nearest, let id = dataSource.itemIdentifier(for: nearest.indexPath) {
      focus(id)
    }
  }

  private static func pageDistance(_ a: Rect, _ b: Rect) -> Double {
    abs(a.minY - b.minY) * 4 + abs(a.minX - b.minX)
  }
}

extension FocusMove {
  /// The axis a move goes along: left and right across the screen, every other move down it.
  var axis: LayoutAxis { self == .left || self == .right ? .horizontal : .vertical }
}
