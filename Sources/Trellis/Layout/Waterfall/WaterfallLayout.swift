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
/// lowest-numbered column (the leading one); items in a column are `itemSpacing` apart. A section is its header, its top inset, its items, its bottom
/// inset and its footer; a section without items takes only its header, insets and footer — no
/// negative spacing. Headers and footers may size themselves from the section's item count (an
/// empty section's header can be taller, to say so). Right-to-left mirrors the whole layout, so the
/// first column is on the right.
public struct WaterfallLayout: CollectionLayout {
  /// How tall items are.
  public enum ItemHeight {
    /// A height for an item given the column width.
    case height((IndexPath, _ columnWidth: Double) -> Double)
    /// The item's original size, scaled to the column width keeping its aspect ratio.
    case scaled((IndexPath) -> Size)
  }

  /// The number of columns of each section (at least 1).
  public var columnCount: (Int) -> Int = { _ in 2 }
  /// The space between columns.
  public var columnSpacing: Double = 10
  /// The space between items in a column.
  public var itemSpacing: Double = 10
  /// Insets around each section's items.
  public var sectionInset = EdgeInsets.zero
  /// Each section's header height, given the section and its item count; zero for none.
  public var headerHeight: (_ section: Int, _ itemCount: Int) -> Double = { _, _ in 0 }
  /// Each section's footer height, given the section and its item count; zero for none.
  public var footerHeight: (_ section: Int, _ itemCount: Int) -> Double = { _, _ in 0 }
  /// How tall items are.
  public var itemHeight = ItemHeight.height { _, width in width }
  /// Which side the first column is on.
  public var direction = LayoutDirection.leftToRight

  private var store = LayoutStore(axis: .vertical)
  private var context = LayoutContext(itemCounts: [], containerSize: .zero)
  /// What appending to a section needs: its column bottoms and where it ends.
  private var sections: [SectionState] = []
  public private(set) var contentSize = Size.zero

  private struct SectionState {
    var start: Double
    var itemCount: Int
    var header: Double
    /// Where the next item of each column would start (its bottom plus the item spacing, or the
    /// top of the items for an empty column).
    var nextTops: [Double]
    var itemsTop: Double
    var end: Double
  }

  /// Creates a waterfall layout with two columns.
  public init() {}

  public mutating func prepare(_ context: LayoutContext) {
    self.context = context
    store = LayoutStore(axis: .vertical)
    sections = []
    layOut(fromSection: 0)
  }

  public mutating func invalidate(_ invalidation: LayoutInvalidation, context: LayoutContext) {
    switch invalidation {
    case .everything, .boundsChanged, .preferredSize, .itemsChanged:
      prepare(context)
    case .itemsAppended(let section, let newCount):
      let old = self.context
      self.context = context
      if section == sections.count - 1, section == context.itemCounts.count - 1,
        newCount >= sections[section].itemCount,
        headerHeight(section, newCount) == sections[section].header,
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

  private var available: Double {
    context.containerSize.width - sectionInset.leading - sectionInset.trailing
  }

  private func columnWidth(_ columns: Int) -> Double {
    (available - Double(columns - 1) * columnSpacing) / Double(columns)
  }

  private mutating func layOut(fromSection first: Int) {
    var position = sections.last?.end ?? 0
    for section in first..<context.itemCounts.count {
      store.beginSection()
      let count = context.itemCounts[section]
      let header = headerHeight(section, count)
      let start = position
      if header > 0 {
        store.appendSupplementary(
          LayoutAttributes(
            category: .supplementary(kind: SupplementaryKind.header),
            indexPath: IndexPath(item: 0, section: section),
            frame: Rect(x: 0, y: position, width: context.containerSize.width, height: header),
            zIndex: 10))
      }
      let itemsTop = position + header + sectionInset.top
      let columns = Swift.max(1, columnCount(section))
      sections.append(
        SectionState(
          start: start, itemCount: 0, header: header,
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
    let width = columnWidth(columns)
    let rule = itemHeight
    let leading = sectionInset.leading
    let pitch = width + columnSpacing
    let spacing = itemSpacing
    for item in state.itemCount..<count {
      var shortest = 0
      var top = tops[0]
      for column in 1..<columns where tops[column] < top {
        shortest = column
        top = tops[column]
      }
      let path = IndexPath(item: item, section: section)
      let height: Double
      switch rule {
      case .height(let rule): height = rule(path, width)
      case .scaled(let size):
        let original = size(path)
        height = original.width > 0 ? original.height * width / original.width : 0
      }
      store.appendItem(
        Rect(x: leading + Double(shortest) * pitch, y: top, width: width, height: height))
      tops[shortest] = top + height + spacing
    }
    state.nextTops = tops
    state.itemCount = Swift.max(state.itemCount, count)
    let itemsBottom =
      state.itemCount > 0 ? (state.nextTops.max() ?? state.itemsTop) - itemSpacing : state.itemsTop
    var position = itemsBottom + sectionInset.bottom
    let footer = footerHeight(section, state.itemCount)
    if footer > 0 {
      store.appendSupplementary(
        LayoutAttributes(
          category: .supplementary(kind: SupplementaryKind.footer),
          indexPath: IndexPath(item: 0, section: section),
          frame: Rect(x: 0, y: position, width: context.containerSize.width, height: footer),
          zIndex: 10))
      position += footer
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

  private func mirror(_ attributes: LayoutAttributes) -> LayoutAttributes {
    attributes.placed(for: direction, inWidth: contentSize.width)
  }

  public func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    let query = direction == .rightToLeft ? rect.mirrored(inWidth: contentSize.width) : rect
    var result: [LayoutAttributes] = []
    store.forEach(in: query) { result.append(mirror($0)) }
    return result
  }

  public func attributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
    store.item(at: indexPath).map {
      mirror(LayoutAttributes(category: .cell, indexPath: indexPath, frame: $0))
    }
  }

  public func attributesForSupplementary(ofKind kind: String, at indexPath: IndexPath)
    -> LayoutAttributes?
  {
    store.supplementary(ofKind: kind, section: indexPath.section).map(mirror)
  }

  /// Every element, for checks and pictures.
  public var allAttributes: [LayoutAttributes] { store.allAttributes.map(mirror) }
}
