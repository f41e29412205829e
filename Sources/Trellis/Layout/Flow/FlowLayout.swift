/// UICollectionViewFlowLayout's layout: items in lines that wrap, scrolling vertically or
/// horizontally, with section insets, headers and footers, and pinned headers.
///
///     // A milestone chip bar: one row of chips sized from their text.
///     var chips = FlowLayout(scrollDirection: .horizontal)
///     chips.itemSize = .perItem { path in Size(width: textWidth(path) + 48, height: 40) }
///     chips.minimumLineSpacing = 8
///     chips.sectionInset = EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
///     chips.prepare(LayoutContext(itemCounts: [titles.count], containerSize: Size(width: 390, height: 40)))
///
/// Lines fill as UIKit fills them: an item goes on the current line if it fits after the minimum
/// inter-item spacing. A full line (any line but a section's last) is justified — the spare space
/// is shared equally between its items, and a line with a single item centres it; the last line
/// keeps the minimum spacing from the leading edge. Items of different sizes are centred across
/// their line. Lines are `minimumLineSpacing` apart. In horizontal scrolling, lines are columns
/// filled top to bottom and advancing to the trailing side.
///
/// Headers and footers span the container across the scroll axis (width for vertical scrolling);
/// section insets apply between them and the items. Spacings and insets may differ by section
/// (``sectionMetrics``), as header and footer sizes do. A pinned header (``pinsSectionHeaders``) stays
/// at the top of the viewport while its section is visible and is pushed up by the section's end —
/// the bottom of its items plus the bottom inset, before the footer; a pinned footer
/// (``pinsSectionFooters``) stays at the bottom of the viewport, held down by the section's start —
/// the top inset, after the header.
public struct FlowLayout: CollectionLayout, StoreBackedLayout {
  /// Which way content scrolls: in vertical scrolling lines are rows, in horizontal ones columns.
  public typealias ScrollDirection = Trellis.ScrollDirection

  /// How big items are.
  public enum ItemSize {
    /// Every item the same size.
    case fixed(Size)
    /// Each item its own size.
    case perItem((IndexPath) -> Size)
    /// An estimate, replaced by the context's measuring closure and by reported sizes.
    case estimated(Size)
  }

  /// The spacings and insets of one section, for layouts whose sections differ (what
  /// `UICollectionViewDelegateFlowLayout` answers per section).
  public struct SectionMetrics: Hashable, Sendable {
    /// The space between lines.
    public var minimumLineSpacing: Double
    /// The minimum space between items in a line.
    public var minimumInteritemSpacing: Double
    /// Insets around the section's items.
    public var inset: EdgeInsets

    /// Creates metrics.
    ///
    /// - Complexity: O(1).
    public init(
      minimumLineSpacing: Double = 10, minimumInteritemSpacing: Double = 10,
      inset: EdgeInsets = .zero
    ) {
      self.minimumLineSpacing = minimumLineSpacing
      self.minimumInteritemSpacing = minimumInteritemSpacing
      self.inset = inset
    }
  }

  /// Which way content scrolls.
  public var scrollDirection: ScrollDirection
  /// How big items are.
  public var itemSize: ItemSize = .fixed(Size(width: 50, height: 50))
  /// The space between lines (rows in vertical scrolling, columns in horizontal), unless
  /// ``sectionMetrics`` says otherwise.
  public var minimumLineSpacing: Double = 10
  /// The minimum space between items in a line, unless ``sectionMetrics`` says otherwise.
  public var minimumInteritemSpacing: Double = 10
  /// Insets around each section's items, unless ``sectionMetrics`` says otherwise.
  public var sectionInset = EdgeInsets.zero
  /// Each section's spacings and insets, when they differ by section; `nil` uses the layout-wide
  /// values above for every section.
  public var sectionMetrics: ((Int) -> SectionMetrics)?
  /// The extent of each section's header along the scroll axis (its height for vertical
  /// scrolling); zero for none.
  public var headerSize: (Int) -> Double = { _ in 0 }
  /// The extent of each section's footer along the scroll axis; zero for none.
  public var footerSize: (Int) -> Double = { _ in 0 }
  /// Whether headers stay at the top of the viewport while their section is visible.
  public var pinsSectionHeaders = false
  /// Whether footers stay at the bottom of the viewport while their section is visible.
  public var pinsSectionFooters = false
  /// Which way lines fill; right-to-left mirrors every frame.
  public var direction = LayoutDirection.leftToRight

  var store: LayoutStore
  private var context = LayoutContext(itemCounts: [], containerSize: .zero)
  private var measured = MeasuredSizes()
  /// Each section's extent along the scroll axis: from its header to its end before the footer.
  private var sectionExtents:
    [(start: Double, contentStart: Double, contentEnd: Double, end: Double)] = []
  public private(set) var contentSize = Size.zero

  /// Creates a flow layout.
  ///
  /// - Complexity: O(1).
  public init(scrollDirection: ScrollDirection = .vertical) {
    self.scrollDirection = scrollDirection
    store = LayoutStore(axis: scrollDirection)
  }

  /// Computes every frame.
  ///
  /// - Complexity: O(*n*) for *n* items, plus a call of the size rule per item.
  public mutating func prepare(_ context: LayoutContext) {
    defer { store.checkInvariants() }
    measured.prepare(for: context.containerSize)
    self.context = context
    store = LayoutStore(axis: scrollDirection)
    sectionExtents = []
    layOut(fromSection: 0)
  }

  /// Recomputes what a change affects; the context is the new one.
  ///
  /// - Complexity: O(*m*), the items of the first section affected and of every section after it
  ///   (all of them for a change of bounds or everything).
  public mutating func invalidate(_ invalidation: LayoutInvalidation, context: LayoutContext) {
    defer { store.checkInvariants() }
    switch measured.apply(invalidation) {
    case .prepare:
      prepare(context)
    case .relayOut(let section):
      self.context = context
      relayOut(fromSection: section)
    case .relayOutSections(let sections):
      self.context = context
      relayOut(fromSection: sections.lowerBound)
    }
  }

  private mutating func relayOut(fromSection section: Int) {
    let section = Swift.max(0, Swift.min(section, sectionExtents.count))
    store.truncate(fromSection: section)
    sectionExtents.removeSubrange(section...)
    layOut(fromSection: section)
  }

  /// The size of an item, measured if estimated.
  private mutating func size(of indexPath: IndexPath) -> Size {
    switch itemSize {
    case .fixed(let size): return size
    case .perItem(let size): return size(indexPath)
    case .estimated(let estimate):
      if let size = measured[indexPath] { return size }
      if let measure = context.measure {
        let size = measure(indexPath, estimate)
        measured[indexPath] = size
        return size
      }
      return estimate
    }
  }

  // Lays out sections `first...` after the ones already in the store. Coordinates are written as
  // (main, cross): main runs along the scroll axis, cross across it (see `LayoutAxis`).
  private mutating func layOut(fromSection first: Int) {
    let axis = scrollDirection
    let crossExtent = axis.cross(context.containerSize)
    var position = sectionExtents.last?.end ?? 0
    /// Appends a header or footer across the container at `position`, if it has a length.
    func appendSpanning(_ kind: String, length: Double, section: Int) {
      guard length > 0 else { return }
      store.appendSupplementary(
        LayoutAttributes(
          category: .supplementary(kind: kind), indexPath: IndexPath(item: 0, section: section),
          frame: axis.rect(main: position, cross: 0, mainLength: length, crossLength: crossExtent),
          zIndex: 10))
      position += length
    }
    for section in first..<context.itemCounts.count {
      store.beginSection()
      let metrics =
        sectionMetrics?(section)
        ?? SectionMetrics(
          minimumLineSpacing: minimumLineSpacing, minimumInteritemSpacing: minimumInteritemSpacing,
          inset: sectionInset)
      let inset = metrics.inset
      let (crossStart, crossEnd) = axis.crossInsets(inset)
      let (mainBefore, mainAfter) = axis.mainInsets(inset)
      let start = position
      appendSpanning(SupplementaryKind.header, length: headerSize(section), section: section)
      let contentStart = position
      position += mainBefore
      position = placeLines(
        ofSection: section, from: position, crossStart: crossStart,
        available: crossExtent - crossStart - crossEnd, metrics: metrics)
      position += mainAfter
      let contentEnd = position
      appendSpanning(SupplementaryKind.footer, length: footerSize(section), section: section)
      sectionExtents.append((start, contentStart, contentEnd, position))
    }
    contentSize = axis.size(main: position, cross: crossExtent)
  }

  /// Places a section's items in lines from `start` along the scroll axis, each line
  /// `available` long across it from `crossStart`; returns where the last line ends.
  private mutating func placeLines(
    ofSection section: Int, from start: Double, crossStart: Double, available: Double,
    metrics: SectionMetrics
  ) -> Double {
    let axis = scrollDirection
    let count = context.itemCounts[section]
    let spacing = metrics.minimumInteritemSpacing
    let lineSpacing = metrics.minimumLineSpacing
    let rule = itemSize
    var position = start
    var lines = 0
    // Items waiting to be stored, four values each: lengths along and across the scroll axis,
    // then, once their line is placed, starts along and across it. Lines are stored in batches
    // of about `batch` items (a chip bar's lines hold one item each), and the buffer is reused.
    let batch = 512
    var capacity = batch * 2
    var pending = UnsafeMutablePointer<Double>.allocate(capacity: capacity * 4)
    defer { pending.deallocate() }
    var placedCount = 0
    var pendingCount = 0
    // The current line (items `placedCount..<pendingCount`): its thickness, and its items' total
    // length across.
    var thickness = 0.0
    var total = 0.0
    var lineCross = 0.0
    func flush() {
      let placed = UnsafePointer(pending)
      store.appendItems(count: placedCount) { index in
        let values = placed + 4 * index
        return (values[2], values[0], values[3], values[1])
      }
    }
    // One pass over the items and a last step past them, which places the last line.
    for item in 0...count {
      var main = 0.0
      var cross = 0.0
      if item < count {
        let path = IndexPath(item: item, section: section)
        let size: Size
        switch rule {
        case .fixed(let fixed): size = fixed
        case .perItem(let sizeOf): size = sizeOf(path)
        case .estimated: size = self.size(of: path)
        }
        main = axis.main(size)
        cross = axis.cross(size)
      }
      let isLast = item == count
      let lineCount = pendingCount - placedCount
      if lineCount > 0 && (isLast || lineCross + spacing + cross > available) {
        // Place the line's items.
        if lines > 0 { position += lineSpacing }
        lines += 1
        var lineStart: Double
        var gap: Double
        if isLast {
          lineStart = crossStart
          gap = spacing
        } else if lineCount == 1 {
          lineStart = crossStart + (available - total) / 2
          gap = 0
        } else {
          lineStart = crossStart
          gap = (available - total) / Double(lineCount - 1)
        }
        var values = pending + 4 * placedCount
        for _ in 0..<lineCount {
          values[2] = position + (thickness - values[0]) / 2
          values[3] = lineStart
          lineStart += values[1] + gap
          values += 4
        }
        position += thickness
        placedCount = pendingCount
        thickness = 0
        total = 0
        if placedCount >= batch || isLast {
          flush()
          placedCount = 0
          pendingCount = 0
        }
      }
      if isLast { break }
      lineCross = pendingCount == placedCount ? cross : lineCross + spacing + cross
      if pendingCount == capacity {
        let grown = UnsafeMutablePointer<Double>.allocate(capacity: capacity * 8)
        grown.moveInitialize(from: pending, count: capacity * 4)
        pending.deallocate()
        pending = grown
        capacity *= 2
      }
      pending[4 * pendingCount] = main
      pending[4 * pendingCount + 1] = cross
      pendingCount += 1
      thickness = Swift.max(thickness, main)
      total += cross
    }
    return position
  }

  // MARK: Queries

  /// The elements whose frames intersect a rectangle, pinned ones placed for `viewport`.
  ///
  /// - Complexity: O(log *n* + *k*) for the *k* items returned, plus O(*L* log *s* + *k*) for
  ///   supplementaries in *L* layers (their nesting depth).
  public func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    storeAttributes(in: rect, viewport: viewport)
  }

  /// The header and footer displaced by pinning for a viewport.
  func pinnedSupplementaries(for viewport: Rect) -> [LayoutAttributes] {
    [pinnedHeader(for: viewport), pinnedFooter(for: viewport)].compactMap { $0 }
  }

  /// The footer displaced by pinning for a viewport, if any.
  private func pinnedFooter(for viewport: Rect) -> LayoutAttributes? {
    guard pinsSectionFooters else { return nil }
    let axis = scrollDirection
    let bottom = axis.mainRange(of: viewport).high
    // The section whose extent contains the viewport's end (one starting there is below it).
    guard var high = sectionExtents.lastIndex(keyedBy: \.start, notAfter: bottom) else {
      return nil
    }
    if high > 0 && sectionExtents[high].start == bottom { high -= 1 }
    let extent = sectionExtents[high]
    guard var footer = store.supplementary(ofKind: SupplementaryKind.footer, section: high)
    else { return nil }
    let (start, length) = (axis.main(footer.frame.origin), axis.main(footer.frame.size))
    guard bottom > extent.contentStart, bottom < start + length else { return nil }
    let pinnedStart = Swift.max(extent.contentStart, bottom - length)
    footer.frame = axis.moving(footer.frame, mainTo: pinnedStart)
    footer.zIndex = 1000
    footer.isPinned = true
    return footer
  }

  /// The header displaced by pinning for a viewport, if any.
  private func pinnedHeader(for viewport: Rect) -> LayoutAttributes? {
    guard pinsSectionHeaders else { return nil }
    let axis = scrollDirection
    let top = axis.mainRange(of: viewport).low
    // The section whose extent contains the viewport's top.
    guard let low = sectionExtents.lastIndex(keyedBy: \.start, notAfter: top) else { return nil }
    let extent = sectionExtents[low]
    guard top > extent.start, top < extent.contentEnd,
      var header = store.supplementary(ofKind: SupplementaryKind.header, section: low)
    else { return nil }
    let length = axis.main(header.frame.size)
    let pinnedStart = Swift.min(top, extent.contentEnd - length)
    header.frame = axis.moving(
      header.frame, mainTo: Swift.max(axis.main(header.frame.origin), pinnedStart))
    header.zIndex = 1000
    header.isPinned = true
    return header
  }

  /// The cell of an item.
  ///
  /// - Complexity: O(1).
  public func attributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
    storeAttributesForItem(at: indexPath)
  }

  /// A supplementary element of a kind for a section, at its unpinned position.
  ///
  /// - Complexity: O(1) on average.
  public func attributesForSupplementary(ofKind kind: String, at indexPath: IndexPath)
    -> LayoutAttributes?
  {
    storeAttributesForSupplementary(ofKind: kind, at: indexPath)
  }

  /// The layout's scroll direction.
  public var scrollAxis: ScrollDirection { scrollDirection }

  /// Every element at its unpinned position, for checks and pictures.
  public var allAttributes: [LayoutAttributes] { storeAllAttributes }
}
