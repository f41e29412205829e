import Trellis

/// An element of a collection view's frame, by identity rather than position, so that it can be
/// found again after the data changed.
enum ElementKey<SectionID: Hashable, ItemID: Hashable>: Hashable {
  case item(ItemID)
  case supplementary(kind: String, section: SectionID, item: Int)
  case decoration(kind: String, section: SectionID, item: Int)
}

/// An element as drawn in the last frame.
struct DrawnElement<SectionID: Hashable, ItemID: Hashable> {
  var key: ElementKey<SectionID, ItemID>
  var section: SectionID
  var indexPath: IndexPath
  var category: ElementCategory
  /// The frame on screen, relative to the view, possibly cut by its edges.
  var rect: CellRect
  var state: CellState
  /// Whether the backing buffer holds exactly this element's visible part: nothing drawn after
  /// it overlaps it.
  var isIntact = false
  /// Whether all of `rect` is inside the view.
  var isWhole = false
}

extension CollectionView {
  typealias ElementKey = TrellisTerminal.ElementKey<SectionID, ItemID>
  typealias DrawnElement = TrellisTerminal.DrawnElement<SectionID, ItemID>

  /// Draws the view into a screen buffer at its ``frame``.
  ///
  /// Lays out what changed, asks the layout for the visible elements, draws those whose content,
  /// state or size changed and copies the others from the previous frame.
  ///
  /// - Complexity: O(log *n* + *v*) for the layout query, plus drawing the elements that changed
  ///   and copying the rest (O(*w* × *h*) cells at most), plus a pending layout pass.
  public func render(into screen: inout CellBuffer) {
    statistics = RenderStatistics()
    layoutIfNeeded()
    redraw()
    screen.copy(backing.bounds, of: backing, toX: frame.x, y: frame.y)
    drawRowActions(into: &screen)
    updateLifecycle()
  }

  /// The item drawn at a screen position, topmost first.
  ///
  /// - Complexity: O(*v*), the elements the last frame drew.
  public func item(atScreenX x: Int, y: Int) -> ItemID? {
    let point = (x: x - frame.x, y: y - frame.y)
    for element in drawn.reversed() where element.rect.contains(x: point.x, y: point.y) {
      if case .item(let id) = element.key { return id }
      return nil
    }
    return nil
  }

  /// Where an item was drawn in the last frame, in screen cells (cut by the view's edges);
  /// `nil` when it was not drawn.
  ///
  /// - Complexity: O(*v*), the elements the last frame drew.
  public func screenFrame(ofItem id: ItemID) -> CellRect? {
    for element in drawn.reversed() {
      guard case .item(let drawnID) = element.key, drawnID == id else { continue }
      let rect = element.rect
      return CellRect(
        x: rect.x + frame.x, y: rect.y + frame.y, width: rect.width, height: rect.height)
    }
    return nil
  }

  /// The first cell of the focused item as last drawn; `nil` without a visible focus.
  ///
  /// Where the terminal's cursor goes for a screen reader or a magnifier to follow the focus.
  ///
  /// - Complexity: O(*v*), the elements the last frame drew.
  public var focusedCell: CellPoint? {
    guard let focused = focusedItem, let rect = screenFrame(ofItem: focused), rect.width > 0
    else { return nil }
    return CellPoint(x: rect.x, y: rect.y)
  }

  /// The supplementary element (a header, a footer) drawn at a screen position, topmost first:
  /// its kind and section.
  ///
  /// - Complexity: O(*v*), the elements the last frame drew.
  public func supplementary(atScreenX x: Int, y: Int) -> (kind: String, section: SectionID)? {
    let point = (x: x - frame.x, y: y - frame.y)
    for element in drawn.reversed() where element.rect.contains(x: point.x, y: point.y) {
      if case .supplementary(let kind, let section, _) = element.key { return (kind, section) }
      return nil
    }
    return nil
  }

  /// The section drawn at a screen position.
  func sectionIndex(atScreenX x: Int, y: Int) -> Int? {
    let point = (x: x - frame.x, y: y - frame.y)
    return drawn.last { $0.rect.contains(x: point.x, y: point.y) }?.indexPath.section
  }

  func redraw() {
    if placeholder == nil, !needsFullRedraw, backing.width == frame.width,
      backing.height == frame.height
    {
      let elements = visibleElements()
      if redrawInPlace(elements) { return }
      redraw(elements)
    } else {
      redraw(nil)
    }
  }

  /// Redraws, in the backing buffer as it is, the elements that changed, when every element is
  /// where the last frame drew it (a focus move, a row's update, another view's change): no new
  /// buffer, no copy of the unchanged rows.
  ///
  /// Elements are opaque (each fills its rect), so redrawing one and then every later element
  /// that overlaps it (a pinned header over a row) leaves the buffer as a full draw would.
  ///
  /// - Returns: Whether the frame was drawn this way; `false` when the elements moved.
  private func redrawInPlace(_ elements: [DrawnElement]) -> Bool {
    guard elements.count == drawn.count,
      zip(elements, drawn).allSatisfy({ $0.key == $1.key && $0.rect == $1.rect })
    else { return false }
    var redrawn: [CellRect] = []
    for (index, element) in elements.enumerated() {
      drawn[index].indexPath = element.indexPath
      let changed = element.state != drawn[index].state || isDirty(element)
      guard changed || redrawn.contains(where: { !$0.intersection(element.rect).isEmpty })
      else {
        statistics.reused += 1
        continue
      }
      draw(element)
      drawn[index].state = element.state
      redrawn.append(element.rect)
    }
    clearDirtiness()
    return true
  }

  private func clearDirtiness() {
    dirtyItems.removeAll(keepingCapacity: true)
    dirtySections.removeAll(keepingCapacity: true)
    dirtySupplementarySections.removeAll(keepingCapacity: true)
    needsFullRedraw = false
  }

  /// Draws a new backing buffer: elements that did not change are copied from the last one.
  private func redraw(_ visible: [DrawnElement]?) {
    let previous = backing
    defer { spareBacking = previous }
    if let placeholder {
      backing = nextBacking(writtenWholeBy: [])
      backing.draw { canvas in placeholder.draw(in: &canvas, frame: animationFrame) }
      drawn = []
      drawnIndex = [:]
      needsFullRedraw = true
      return
    }
    let elements = visible ?? visibleElements()
    backing = nextBacking(writtenWholeBy: elements)
    for element in elements {
      // Reusable: what shows of it is intact, and either it did not move or it shows whole.
      if !needsFullRedraw, let old = drawnIndex[element.key].map({ drawn[$0] }), old.isIntact,
        old.rect == element.rect
          || (old.isWhole && old.rect.width == element.rect.width
            && old.rect.height == element.rect.height),
        old.state == element.state, !isDirty(element)
      {
        backing.copy(old.rect, of: previous, toX: element.rect.x, y: element.rect.y)
        statistics.reused += 1
      } else {
        draw(element)
      }
    }
    drawn = markIntact(elements)
    drawnIndex = Dictionary(drawn.enumerated().map { ($1.key, $0) }) { first, _ in first }
    clearDirtiness()
  }

  /// A blank buffer to draw the next frame in: the spare one when it fits, where only the rows
  /// no element writes whole need blanking — a cell, copied or drawn, writes every cell of its
  /// rect, so a row a cell spans from edge to edge ends the same whatever it held.
  private func nextBacking(writtenWholeBy elements: [DrawnElement]) -> CellBuffer {
    guard var spare = spareBacking, spare.width == frame.width, spare.height == frame.height
    else { return CellBuffer(width: frame.width, height: frame.height) }
    spareBacking = nil
    let bounds = CellRect(x: 0, y: 0, width: frame.width, height: frame.height)
    var written = [Bool](repeating: false, count: frame.height)
    for element in elements {
      guard case .cell = element.category else { continue }
      let rect = element.rect.intersection(bounds)
      guard !rect.isEmpty, rect.x == 0, rect.width == frame.width else { continue }
      for row in rect.y..<(rect.y + rect.height) { written[row] = true }
    }
    for row in 0..<frame.height where !written[row] {
      spare.fill(row: row, from: 0, to: frame.width, with: .blank())
    }
    return spare
  }

  private func isDirty(_ element: DrawnElement) -> Bool {
    if dirtySections.contains(element.section) { return true }
    if case .item(let id) = element.key { return dirtyItems.contains(id) }
    return dirtySupplementarySections.contains(element.section)
  }

  /// The elements on screen, in drawing order (by z-index, then as the layout listed them).
  private func visibleElements() -> [DrawnElement] {
    let visible = viewport
    let area = Rect(
      x: visible.minX - overscan, y: visible.minY - overscan,
      width: visible.width + 2 * overscan, height: visible.height + 2 * overscan)
    statistics.layoutQueries += 1
    let attributes = currentLayout.attributes(in: area, viewport: visible)
    let bounds = CellRect(x: 0, y: 0, width: frame.width, height: frame.height)
    var elements: [Ordered] = []
    elements.reserveCapacity(attributes.count)
    for (order, attributes) in attributes.enumerated() {
      let rect = screenRect(attributes.frame)
      guard !rect.intersection(bounds).isEmpty,
        let section = dataSource.sectionIdentifier(for: attributes.indexPath.section)
      else { continue }
      let key: ElementKey
      var state: CellState = []
      switch attributes.category {
      case .cell:
        guard let id = dataSource.itemIdentifier(for: attributes.indexPath) else { continue }
        key = .item(id)
        state = self.state(of: id)
      case .supplementary(let kind):
        key = .supplementary(kind: kind, section: section, item: attributes.indexPath.item)
      case .decoration(let kind):
        key = .decoration(kind: kind, section: section, item: attributes.indexPath.item)
      }
      elements.append(
        Ordered(
          element: DrawnElement(
            key: key, section: section, indexPath: attributes.indexPath,
            category: attributes.category, rect: rect, state: state),
          zIndex: attributes.zIndex, order: order))
    }
    // Most frames draw everything at one z-index, already in order: no sort.
    var lastZIndex = Int.min
    for ordered in elements {
      guard ordered.zIndex >= lastZIndex else {
        elements.sort { ($0.zIndex, $0.order) < ($1.zIndex, $1.order) }
        break
      }
      lastZIndex = ordered.zIndex
    }
    var result: [DrawnElement] = []
    result.reserveCapacity(elements.count)
    for ordered in elements { result.append(ordered.element) }
    return result
  }

  /// An element with what orders its drawing: a struct, where a tuple would make the generic
  /// view instantiate tuple metadata on every frame.
  private struct Ordered {
    var element: DrawnElement
    var zIndex: Int
    var order: Int
  }

  /// A layout frame on screen, relative to the view: edges rounded to whole cells.
  func screenRect(_ frame: Rect) -> CellRect {
    let minX = Self.round(frame.minX - contentOffset.x)
    let minY = Self.round(frame.minY - contentOffset.y)
    let maxX = Self.round(frame.maxX - contentOffset.x)
    let maxY = Self.round(frame.maxY - contentOffset.y)
    return CellRect(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
  }

  private static func round(_ value: Double) -> Int {
    guard value.isFinite else { return value > 0 ? Int.max / 4 : Int.min / 4 }
    return Int((value).rounded(.toNearestOrAwayFromZero))
  }

  private func draw(_ element: DrawnElement) {
    let model: (any CollectionCell)?
    switch element.category {
    case .cell: model = dataSource.cell(at: element.indexPath)
    case .supplementary(let kind):
      model = dataSource.supplementary(ofKind: kind, at: element.indexPath)
    case .decoration(let kind):
      model = decorationProvider?(kind, element.indexPath, element.section)
    }
    guard let model else { return }
    statistics.drawn += 1
    backing.draw(in: element.rect) { canvas in
      canvas.fill()
      model.draw(in: &canvas, state: element.state)
    }
  }

  /// Marks the elements whose drawing survives whole in the backing buffer: each screen cell
  /// belongs to the last element drawn over it, and an element is intact when it owns its rect.
  private func markIntact(_ elements: [DrawnElement]) -> [DrawnElement] {
    var result = elements
    let width = frame.width
    let bounds = CellRect(x: 0, y: 0, width: width, height: frame.height)
    var owner = [Int32](repeating: -1, count: width * frame.height)
    for (index, element) in elements.enumerated() {
      let rect = element.rect.intersection(bounds)
      guard !rect.isEmpty else { continue }
      for row in rect.y..<rect.maxY {
        for column in rect.x..<rect.maxX { owner[row * width + column] = Int32(index) }
      }
    }
    for (index, element) in elements.enumerated() {
      let rect = element.rect.intersection(bounds)
      guard !rect.isEmpty else { continue }
      result[index].isWhole = rect == element.rect
      var owned = true
      rows: for row in rect.y..<rect.maxY {
        for column in rect.x..<rect.maxX where owner[row * width + column] != Int32(index) {
          owned = false
          break rows
        }
      }
      result[index].isIntact = owned
    }
    return result
  }
}
