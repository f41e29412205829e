/// A waterfall (masonry) layout: items of varying height in columns, each placed in the shortest
/// column, so that a page of new items extends the layout instead of recomputing it.
///
///     var cards = WaterfallLayout()
///     cards.columnCount = { _ in 2 }
///     cards.itemHeight = .scaled { path in photos[path.item].size }  // original size, scaled
///     cards.prepare(LayoutContext(itemCounts: [photos.count], containerSize: Size(width: 390, height: 844)))
///     // A page arrives: O(page) work, and exactly the frames a full recompute gives.
///     cards.invalidate(.itemsAppended(section: 0, newCount: photos.count), context: newContext)
///
/// Columns are as wide as the container less the section insets and the column spacing allow. Each
/// item goes to the shortest column — the one where it would start highest — ties to the
/// lowest-numbered column (the leading one), or round the columns in turn
/// (``itemRenderDirection``); items in a column are `itemSpacing` apart. A section is its header
/// (inside its ``headerInset``), its top inset, its items, its bottom inset and its footer (inside
/// its ``footerInset``); a header or footer of zero height takes no space, its insets included, and
/// a section without items takes only its header, insets and footer — no negative spacing.
/// Spacing and insets may differ by section (``sectionMetrics``), as may the column count.
/// Headers and footers may size themselves from the section's item count (an empty section's
/// header can be taller, to say so). Right-to-left mirrors the whole layout, so the first column is
/// on the right.
public struct WaterfallLayout: CollectionLayout, StoreBackedLayout {
  /// How tall items are.
  public enum ItemHeight {
    /// A height for an item given the column width.
    case height((IndexPath, _ columnWidth: Double) -> Double)
    /// The item's original size, scaled to the column width keeping its aspect ratio.
    case scaled((IndexPath) -> Size)
  }

  /// Which column each item goes to, as `CHTCollectionViewWaterfallLayout`'s
  /// `itemRenderDirection`; columns count from the leading side (the right in right-to-left).
  public enum ItemRenderDirection: Hashable, Sendable {
    /// The shortest column — where the item would start highest — ties to the leading one.
    case shortestColumnFirst
    /// Column `item % columns`, from the leading side (`leftToRight` in CHT).
    case leadingToTrailing
    /// Column `item % columns`, from the trailing side (`rightToLeft` in CHT).
    case trailingToLeading
  }

  /// The spacing and insets of one section, for layouts whose sections differ (the per-section
  /// methods of CHT's delegate).
  public struct SectionMetrics: Hashable, Sendable {
    /// The space between columns.
    public var columnSpacing: Double
    /// The space between items in a column.
    public var itemSpacing: Double
    /// Insets around the section's items.
    public var inset: EdgeInsets
    /// Insets around the header, when it has a height.
    public var headerInset: EdgeInsets
    /// Insets around the footer, when it has a height.
    public var footerInset: EdgeInsets

    /// Creates metrics.
    ///
    /// - Complexity: O(1).
    public init(
      columnSpacing: Double = 10, itemSpacing: Double = 10, inset: EdgeInsets = .zero,
      headerInset: EdgeInsets = .zero, footerInset: EdgeInsets = .zero
    ) {
      self.columnSpacing = columnSpacing
      self.itemSpacing = itemSpacing
      self.inset = inset
      self.headerInset = headerInset
      self.footerInset = footerInset
    }
  }

  /// The number of columns of each section (at least 1).
  public var columnCount: (Int) -> Int = { _ in 2 }
  /// Which column each item goes to.
  public var itemRenderDirection = ItemRenderDirection.shortestColumnFirst
  /// The space between columns, unless ``sectionMetrics`` says otherwise.
  public var columnSpacing: Double = 10
  /// The space between items in a column, unless ``sectionMetrics`` says otherwise.
  public var itemSpacing: Double = 10
  /// Insets around each section's items, unless ``sectionMetrics`` says otherwise.
  public var sectionInset = EdgeInsets.zero
  /// Insets around each section's header, unless ``sectionMetrics`` says otherwise.
  public var headerInset = EdgeInsets.zero
  /// Insets around each section's footer, unless ``sectionMetrics`` says otherwise.
  public var footerInset = EdgeInsets.zero
  /// Each section's spacing and insets, when they differ by section; `nil` uses the layout-wide
  /// values above for every section.
  public var sectionMetrics: ((Int) -> SectionMetrics)?
  /// Each section's header height, given the section and its item count; zero for none.
  public var headerHeight: (_ section: Int, _ itemCount: Int) -> Double = { _, _ in 0 }
  /// Each section's footer height, given the section and its item count; zero for none.
  public var footerHeight: (_ section: Int, _ itemCount: Int) -> Double = { _, _ in 0 }
  /// How tall items are.
  public var itemHeight = ItemHeight.height { _, width in width }
  /// Which side the first column is on.
  public var direction = LayoutDirection.leftToRight

  var store = LayoutStore(axis: .vertical)
  private var context = LayoutContext(itemCounts: [], containerSize: .zero)
  /// What appending to a section needs: its column bottoms and where it ends.
  private var sections: [SectionState] = []
  public private(set) var contentSize = Size.zero

  private struct SectionState {
    var start: Double
    var itemCount: Int
    var header: Double
    var metrics: SectionMetrics
    /// Where the next item of each column would start (its bottom plus the item spacing, or the
    /// top of the items for an empty column).
    var nextTops: [Double]
    var itemsTop: Double
    var end: Double
  }

  /// Creates a waterfall layout with two columns.
  ///
  /// - Complexity: O(*n* × *c*) for *n* items in *c* columns.
  public init() {}

  /// Computes every frame.
  ///
  /// - Complexity: O(*n* × *c*) for *n* items in *c* columns.
  public mutating func prepare(_ context: LayoutContext) {
    defer { store.checkInvariants() }
    self.context = context
    store = LayoutStore(axis: .vertical)
    sections = []
    layOut(fromSection: 0)
  }

  /// Recomputes what a change affects; the context is the new one.
  ///
  /// - Complexity: O(*k* × *c*) for *k* items appended to the last section; O(*n* × *c*) otherwise.
  public mutating func invalidate(_ invalidation: LayoutInvalidation, context: LayoutContext) {
    defer { store.checkInvariants() }
    switch invalidation {
    case .everything, .boundsChanged, .preferredSize, .preferredSupplementarySize, .itemsChanged:
      prepare(context)
    case .itemsAppended(let section, let newCount):
      let old = self.context
      self.context = context
      if section == sections.count - 1, section == context.itemCounts.count - 1,
        newCount >= sections[section].itemCount,
        headerHeight(section, newCount) == sections[section].header,
        metrics(of: section) == sections[section].metrics,
        old.containerSize == context.containerSize
      {
        append(toLastSectionUpTo: newCount)
      } else {
        let first = Swift.max(0, Swift.min(section, sections.count))
        store.truncate(fromSection: first)
        sections.removeSubrange(first...)
        layOut(fromSection: first)
      }
    }
  }

  /// A section's spacing and insets.
  private func metrics(of section: Int) -> SectionMetrics {
    sectionMetrics?(section)
      ?? SectionMetrics(
        columnSpacing: columnSpacing, itemSpacing: itemSpacing, inset: sectionInset,
        headerInset: headerInset, footerInset: footerInset)
  }

  /// A section's column width: the container less the section's insets and column spacing.
  private func columnWidth(_ columns: Int, _ metrics: SectionMetrics) -> Double {
    let available = context.containerSize.width - metrics.inset.leading - metrics.inset.trailing
    return (available - Double(columns - 1) * metrics.columnSpacing) / Double(columns)
  }

  /// A header or footer across the container, less its insets, from `top`.
  private func spanning(
    _ kind: String, section: Int, top: Double, height: Double, inset: EdgeInsets
  ) -> LayoutAttributes {
    LayoutAttributes(
      category: .supplementary(kind: kind), indexPath: IndexPath(item: 0, section: section),
      frame: Rect(
        x: inset.leading, y: top,
        width: context.containerSize.width - inset.leading - inset.trailing, height: height),
      zIndex: 10)
  }

  private mutating func layOut(fromSection first: Int) {
    var position = sections.last?.end ?? 0
    for section in first..<context.itemCounts.count {
      store.beginSection()
      let count = context.itemCounts[section]
      let header = headerHeight(section, count)
      let metrics = metrics(of: section)
      let start = position
      if header > 0 {
        position += metrics.headerInset.top
        store.appendSupplementary(
          spanning(
            SupplementaryKind.header, section: section, top: position, height: header,
            inset: metrics.headerInset))
        position += header + metrics.headerInset.bottom
      }
      let itemsTop = position + metrics.inset.top
      let columns = Swift.max(1, columnCount(section))
      sections.append(
        SectionState(
          start: start, itemCount: 0, header: header, metrics: metrics,
          nextTops: Array(repeating: itemsTop, count: columns), itemsTop: itemsTop, end: itemsTop))
      placeItems(inLastSectionUpTo: count)
      position = sections[section].end
    }
    contentSize = Size(width: context.containerSize.width, height: position)
  }

  /// Places the last section's items from its current count up to `count`, then its footer.
  private mutating func placeItems(inLastSectionUpTo count: Int) {
    let section = sections.count - 1
    var state = sections[section]
    // The column bottoms move out of the section list while items go in: one owner, no copy.
    sections[section].nextTops = []
    var tops = state.nextTops
    state.nextTops = []
    let columns = tops.count
    let metrics = state.metrics
    let width = columnWidth(columns, metrics)
    let rule = itemHeight
    let order = itemRenderDirection
    let leading = metrics.inset.leading
    let pitch = width + metrics.columnSpacing
    let spacing = metrics.itemSpacing
    // The column bottoms through a buffer: no uniqueness check per item.
    let first = state.itemCount
    tops.withUnsafeMutableBufferPointer { tops in
      store.appendItems(count: Swift.max(0, count - first)) { index in
        let item = first + index
        var shortest = 0
        var top = tops[0]
        switch order {
        case .shortestColumnFirst:
          for column in 1..<columns where tops[column] < top {
            shortest = column
            top = tops[column]
          }
        case .leadingToTrailing:
          shortest = item % columns
          top = tops[shortest]
        case .trailingToLeading:
          shortest = columns - 1 - item % columns
          top = tops[shortest]
        }
        let path = IndexPath(item: item, section: section)
        let height: Double
        switch rule {
        case .height(let rule): height = rule(path, width)
        case .scaled(let size):
          let original = size(path)
          height = original.width > 0 ? original.height * width / original.width : 0
        }
        tops[shortest] = top + height + spacing
        return (top, height, leading + Double(shortest) * pitch, width)
      }
    }
    state.nextTops = tops
    state.itemCount = Swift.max(state.itemCount, count)
    let itemsBottom =
      state.itemCount > 0
      ? (state.nextTops.max() ?? state.itemsTop) - metrics.itemSpacing : state.itemsTop
    var position = itemsBottom + metrics.inset.bottom
    let footer = footerHeight(section, state.itemCount)
    if footer > 0 {
      position += metrics.footerInset.top
      store.appendSupplementary(
        spanning(
          SupplementaryKind.footer, section: section, top: position, height: footer,
          inset: metrics.footerInset))
      position += footer + metrics.footerInset.bottom
    }
    state.end = position
    sections[section] = state
  }

  private mutating func append(toLastSectionUpTo count: Int) {
    store.removeTrailingSupplementaries(ofKind: SupplementaryKind.footer)
    placeItems(inLastSectionUpTo: count)
    contentSize = Size(width: context.containerSize.width, height: sections.last?.end ?? 0)
  }

  // MARK: Queries

  /// The elements whose frames intersect a rectangle, pinned ones placed for `viewport`.
  ///
  /// - Complexity: O(log *n* + *k*) for the *k* items returned, plus O(*L* log *s* + *k*) for
  ///   supplementaries in *L* layers (their nesting depth).
  public func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    storeAttributes(in: rect, viewport: viewport)
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

  /// Every element, for checks and pictures.
  public var allAttributes: [LayoutAttributes] { storeAllAttributes }
}
