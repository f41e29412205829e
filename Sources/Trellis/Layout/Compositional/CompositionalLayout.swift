/// A layout composed of items, groups and sections, with the semantics of
/// `UICollectionViewCompositionalLayout`.
///
///     let item = LayoutItem(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))
///     let row = LayoutGroup.horizontal(
///       size: LayoutSize(width: .fractionalWidth(1), height: .absolute(100)), subitems: [.item(item)])
///     var section = LayoutSection(group: row)
///     section.contentInsets = EdgeInsets(all: 10)
///     var layout = CompositionalLayout(section: section)
///     layout.prepare(LayoutContext(itemCounts: [20], containerSize: Size(width: 390, height: 844)))
///
/// A section repeats its group until its items run out (the last group may be partly filled).
/// Groups stack along the scroll direction (``Configuration/scrollDirection``: downwards, or to the
/// trailing side) `interGroupSpacing` apart inside the section's content insets; with an
/// orthogonal scrolling behaviour they sit in one row (or column) that scrolls across on its own, its offset
/// kept as explicit state (``setOrthogonalOffset(_:forSection:)``) with paging targets from
/// ``targetOrthogonalOffset(forSection:proposed:velocity:)``. Fractional dimensions are fractions
/// of the containing group, or for a section's group of the container less the section's insets
/// across the scroll axis. Boundary supplementaries go before (top and leading alignments) or after
/// (bottom and trailing alignments) the content along the scroll axis, taking space when they
/// extend the boundary and overlaying the content's edge otherwise; pinned ones stay at the start
/// of the viewport while their section is visible, pushed back by the end of the section's content. Background decorations cover the content area.
/// Estimated dimensions are measured by the context's closure or by a reported preferred size,
/// which moves only what comes after.
///
/// Choices where UIKit's documentation is silent: a group always places at least one element even
/// if it does not fit; edge spacing works as ``EdgeSpacing`` describes; content insets are ignored
/// along estimated dimensions; layout-wide boundary supplementaries use index path [0, 0], so give
/// them kinds of their own.
public struct CompositionalLayout: CollectionLayout {
  /// Layout-wide settings, as `UICollectionViewCompositionalLayoutConfiguration`.
  public struct Configuration: Sendable {
    /// Which way sections follow each other and groups stack.
    public var scrollDirection: ScrollDirection
    /// The space between sections.
    public var interSectionSpacing: Double
    /// Headers and footers of the whole layout.
    public var boundarySupplementaryItems: [BoundarySupplementaryItem]

    /// Creates a configuration.
    public init(
      scrollDirection: ScrollDirection = .vertical, interSectionSpacing: Double = 0,
      boundarySupplementaryItems: [BoundarySupplementaryItem] = []
    ) {
      self.scrollDirection = scrollDirection
      self.interSectionSpacing = interSectionSpacing
      self.boundarySupplementaryItems = boundarySupplementaryItems
    }
  }

  /// Layout-wide settings.
  public var configuration: Configuration
  /// Which side is leading; right-to-left mirrors every frame across the content width.
  public var direction = LayoutDirection.leftToRight
  private let sectionProvider: (Int, LayoutEnvironment) -> LayoutSection

  private var store = LayoutStore(axis: .vertical)
  private var context = LayoutContext(itemCounts: [], containerSize: .zero)
  private var measured = MeasuredSizes()
  private var sections: [SectionGeometry] = []
  private var offsets: [Double] = []
  private var headerEnd = 0.0
  public private(set) var contentSize = Size.zero

  private struct SectionGeometry {
    var start: Double
    var contentStart: Double
    var contentEnd: Double
    var end: Double
    var behavior: OrthogonalScrollingBehavior
    var groupLeadingEdges: [Double]
    var groupWidths: [Double]
    var scrollWidth: Double
    var viewWidth: Double
    var leadingInset: Double
    var pinnedKinds: [String]
  }

  /// A layout whose every section is `section`.
  public init(section: LayoutSection, configuration: Configuration = Configuration()) {
    self.init(configuration: configuration) { _, _ in section }
  }

  /// A layout whose sections come from a provider, given the section index and the environment.
  public init(
    configuration: Configuration = Configuration(),
    sectionProvider: @escaping (Int, LayoutEnvironment) -> LayoutSection
  ) {
    self.configuration = configuration
    self.sectionProvider = sectionProvider
  }

  public mutating func prepare(_ context: LayoutContext) {
    measured.prepare(for: context.containerSize)
    self.context = context
    store = LayoutStore(axis: vertical ? .vertical : .horizontal)
    sections = []
    var position = 0.0
    for boundary in configuration.boundarySupplementaryItems where boundary.alignment.isBefore {
      position = appendBoundary(
        boundary, before: position, after: position, crossStart: 0, crossLength: crossExtent,
        indexPath: IndexPath(item: 0, section: 0))
    }
    headerEnd = position
    layOut(fromSection: 0)
  }

  public mutating func invalidate(_ invalidation: LayoutInvalidation, context: LayoutContext) {
    switch measured.apply(invalidation) {
    case .prepare:
      prepare(context)
    case .relayOut(let section):
      self.context = context
      relayOut(fromSection: section)
    case .relayOutSections(let range):
      self.context = context
      relayOut(sections: range)
    }
  }

  /// Lays out sections `range` again, keeping the ones after them (which hold what they held)
  /// when the run ends where it did — an item moved between two sections of a list; otherwise
  /// lays out from the run's start.
  private mutating func relayOut(sections range: ClosedRange<Int>) {
    let count = context.itemCounts.count
    // A range that reaches the last section is the same as laying out from its start (the
    // layout's footer goes too).
    guard range.lowerBound >= 0, range.upperBound < count - 1, sections.count == count,
      store.sectionCount == count
    else {
      return relayOut(fromSection: range.lowerBound)
    }
    let following = sections[(range.upperBound + 1)...]
    let oldFollowingStart = sections[range.upperBound + 1].start
    sections.removeSubrange(range.lowerBound...)
    var regions = LayoutStore(axis: store.axis)
    swap(&regions, &store)
    var position = sections.last.map { $0.end } ?? headerEnd
    for section in range {
      if section > 0 { position += configuration.interSectionSpacing }
      position = layOut(section: section, at: position)
    }
    swap(&regions, &store)
    // The sections after the run start where they did: they stand as they are, to the bit. (Had
    // they moved, moving them would not round as laying them out does: lay them out instead.)
    guard position + configuration.interSectionSpacing == oldFollowingStart else {
      sections.append(contentsOf: following)
      return relayOut(fromSection: range.lowerBound)
    }
    store.replaceSections(range, with: regions)
    sections.append(contentsOf: following)
    for section in range where sections[section].behavior != .none {
      offsets[section] = Swift.min(offsets[section], maximumOrthogonalOffset(section))
    }
  }

  private mutating func relayOut(fromSection section: Int) {
    guard !sections.isEmpty else { return prepare(context) }
    // From the last laid-out section at the latest, so that the layout's footer goes too.
    let first = Swift.max(0, Swift.min(section, sections.count - 1))
    store.truncate(fromSection: first)
    sections.removeSubrange(first...)
    layOut(fromSection: first)
  }

  // MARK: Laying out

  private var vertical: Bool { configuration.scrollDirection == .vertical }

  /// The container's extent across the scroll axis.
  private var crossExtent: Double {
    vertical ? context.containerSize.width : context.containerSize.height
  }

  /// A rectangle from coordinates along (main) and across (cross) the scroll axis.
  private func rect(main: Double, cross: Double, mainLength: Double, crossLength: Double) -> Rect {
    vertical
      ? Rect(x: cross, y: main, width: crossLength, height: mainLength)
      : Rect(x: main, y: cross, width: mainLength, height: crossLength)
  }

  private mutating func layOut(fromSection first: Int) {
    var position = sections.last.map { $0.end } ?? headerEnd
    for section in first..<context.itemCounts.count {
      if section > 0 { position += configuration.interSectionSpacing }
      position = layOut(section: section, at: position)
    }
    for boundary in configuration.boundarySupplementaryItems where !boundary.alignment.isBefore {
      position = appendBoundary(
        boundary, before: position, after: position, crossStart: 0, crossLength: crossExtent,
        indexPath: IndexPath(item: 0, section: 0))
    }
    // Offsets kept across a new layout, within how far each row now scrolls.
    offsets = (0..<sections.count).map { section in
      section < offsets.count ? Swift.min(offsets[section], maximumOrthogonalOffset(section)) : 0
    }
    contentSize =
      vertical
      ? Size(width: context.containerSize.width, height: position)
      : Size(width: position, height: context.containerSize.height)
  }

  /// Places a boundary supplementary at `before` (before-alignments, or after-alignments that
  /// extend the boundary) or ending at `after` (after-alignments that overlay the content), across
  /// a band from `crossStart`; returns the position after it along the scroll axis.
  private mutating func appendBoundary(
    _ boundary: BoundarySupplementaryItem, before: Double, after: Double, crossStart: Double,
    crossLength: Double, indexPath: IndexPath
  ) -> Double {
    let container = context.containerSize
    let size = boundary.size.resolve(
      in: vertical
        ? Size(width: crossLength, height: container.height)
        : Size(width: container.width, height: crossLength))
    let mainLength = vertical ? size.height : size.width
    let length = vertical ? size.width : size.height
    let cross: Double =
      switch boundary.alignment {
      case .topLeading, .bottomLeading: crossStart
      case .topTrailing, .bottomTrailing: crossStart + crossLength - length
      case .top, .bottom, .leading, .trailing: crossStart + (crossLength - length) / 2
      }
    let main = boundary.alignment.isBefore || boundary.extendsBoundary ? before : after - mainLength
    let frame = rect(main: main, cross: cross, mainLength: mainLength, crossLength: length)
      .offsetBy(dx: boundary.offset.x, dy: boundary.offset.y)
    store.appendSupplementary(
      LayoutAttributes(
        category: .supplementary(kind: boundary.kind), indexPath: indexPath, frame: frame,
        zIndex: boundary.zIndex))
    return boundary.extendsBoundary ? before + mainLength : before
  }

  /// Lays out one section from `start` along the scroll axis and returns where it ends.
  private mutating func layOut(section: Int, at start: Double) -> Double {
    let container = context.containerSize
    let definition = sectionProvider(
      section, LayoutEnvironment(containerSize: container, effectiveContentSize: container))
    let insets = definition.contentInsets
    let mainBefore = vertical ? insets.top : insets.leading
    let mainAfter = vertical ? insets.bottom : insets.trailing
    let crossBefore = vertical ? insets.leading : insets.top
    let crossAfter = vertical ? insets.trailing : insets.bottom
    // Insets wider than the container leave it empty, never negative.
    let effectiveCross = Swift.max(0, crossExtent - crossBefore - crossAfter)
    let groupContainer =
      vertical
      ? Size(width: effectiveCross, height: container.height)
      : Size(width: container.width, height: effectiveCross)
    let follows = definition.supplementariesFollowContentInsets
    let supplementaryStart = follows ? crossBefore : 0
    let supplementaryLength = follows ? effectiveCross : crossExtent
    let orthogonal = definition.orthogonalScrollingBehavior != .none
    store.beginSection(scrollsOrthogonally: orthogonal)
    var position = start
    let sectionPath = IndexPath(item: 0, section: section)

    for boundary in definition.boundarySupplementaryItems where boundary.alignment.isBefore {
      position = appendBoundary(
        boundary, before: position, after: position, crossStart: supplementaryStart,
        crossLength: supplementaryLength, indexPath: sectionPath)
    }
    let contentStart = position
    position += mainBefore

    // Groups go into the store as they are laid out; the background, which needs the content's
    // extent, follows them.
    var leadingEdges: [Double] = []
    var lengths: [Double] = []
    var next = 0
    var placedGroups = 0
    let count = context.itemCounts[section]
    var cross = crossBefore
    var rowThickness = 0.0
    let groupSize = definition.group.size.resolve(in: groupContainer)
    func along(_ size: Size) -> Double { vertical ? size.height : size.width }
    func across(_ size: Size) -> Double { vertical ? size.width : size.height }
    // A group without estimated sizes lays out the same way every time it is full: lay it out
    // once and repeat the result, leaving only a last, partly filled group to lay out.
    var template: (elements: [LayoutAttributes], size: Size, holds: Int)?
    // The template's frames when it holds cells only (the common case): repeating it then
    // copies frames, not attributes.
    var templateCells: [Rect]?
    if !Self.hasEstimates(.group(definition.group)) {
      var held = 0
      let (elements, actual) = layOut(
        group: definition.group, size: groupSize, section: section, next: &held, count: Int.max / 2)
      template = (elements, actual, held)
      if elements.allSatisfy({ $0.category == .cell }) { templateCells = elements.map(\.frame) }
    }
    // Full groups of cells stacking along the scroll axis (the common case), in a tight loop:
    // the same steps as the general one below, without its per-group bookkeeping.
    if !orthogonal, let template, let templateCells, template.holds > 0 {
      let step = along(template.size)
      let spacing = definition.interGroupSpacing
      while count - next >= template.holds {
        if placedGroups > 0 { position += spacing }
        let origin =
          vertical ? Point(x: crossBefore, y: position) : Point(x: position, y: crossBefore)
        for frame in templateCells {
          store.appendItem(frame.offsetBy(dx: origin.x, dy: origin.y))
        }
        position += step
        next += template.holds
        placedGroups += 1
      }
    }
    while next < count {
      let before = next
      let elements: [LayoutAttributes]
      let actual: Size
      // Template elements number items from 0; laid-out ones carry their real numbers.
      var renumbering = 0
      var repeatsTemplate = false
      if let template, template.holds > 0, count - next >= template.holds {
        repeatsTemplate = true
        renumbering = before
        elements = template.elements
        actual = template.size
        next += template.holds
      } else {
        (elements, actual) = layOut(
          group: definition.group, size: groupSize, section: section, next: &next, count: count)
      }
      guard next > before else { break }  // A group that holds nothing would loop forever.
      let origin: Point
      if orthogonal {
        if placedGroups > 0 { cross += definition.interGroupSpacing }
        origin = vertical ? Point(x: cross, y: position) : Point(x: position, y: cross)
        leadingEdges.append(cross - crossBefore)
        lengths.append(across(actual))
        cross += across(actual)
        rowThickness = Swift.max(rowThickness, along(actual))
      } else {
        if placedGroups > 0 { position += definition.interGroupSpacing }
        origin = vertical ? Point(x: crossBefore, y: position) : Point(x: position, y: crossBefore)
        position += along(actual)
      }
      placedGroups += 1
      if repeatsTemplate, let templateCells {
        for frame in templateCells {
          store.appendItem(frame.offsetBy(dx: origin.x, dy: origin.y))
        }
        continue
      }
      for element in elements {
        let frame = element.frame.offsetBy(dx: origin.x, dy: origin.y)
        if element.category == .cell {
          store.appendItem(frame)
        } else {
          var moved = element
          moved.frame = frame
          moved.indexPath.item += renumbering
          store.appendSupplementary(moved, movesWithItems: orthogonal)
        }
      }
    }
    if orthogonal { position += rowThickness }
    position += mainAfter
    let contentEnd = position

    for decoration in definition.decorationItems {
      let frame = rect(
        main: contentStart, cross: 0, mainLength: contentEnd - contentStart,
        crossLength: crossExtent
      )
      .inset(by: decoration.contentInsets)
      store.appendSupplementary(
        LayoutAttributes(
          category: .decoration(kind: decoration.kind), indexPath: sectionPath, frame: frame,
          zIndex: decoration.zIndex))
    }
    for boundary in definition.boundarySupplementaryItems where !boundary.alignment.isBefore {
      position = appendBoundary(
        boundary, before: position, after: contentEnd, crossStart: supplementaryStart,
        crossLength: supplementaryLength, indexPath: sectionPath)
    }
    sections.append(
      SectionGeometry(
        start: start, contentStart: contentStart, contentEnd: contentEnd, end: position,
        behavior: definition.orthogonalScrollingBehavior, groupLeadingEdges: leadingEdges,
        groupWidths: lengths,
        scrollWidth: orthogonal ? cross + crossAfter : crossExtent, viewWidth: crossExtent,
        leadingInset: crossBefore,
        pinnedKinds: definition.boundarySupplementaryItems.filter {
          $0.pinToVisibleBounds && $0.alignment.isBefore
        }
        .map(\.kind)))
    return position
  }

  /// Whether an element has an estimated dimension anywhere (its layout then depends on
  /// measurements, item by item).
  static func hasEstimates(_ element: LayoutElement) -> Bool {
    if element.size.width.isEstimated || element.size.height.isEstimated { return true }
    guard case .group(let group) = element else { return false }
    switch group.contents {
    case .subitems(let subitems): return subitems.contains(where: hasEstimates)
    case .repeating(let subitem, _): return hasEstimates(subitem)
    case .custom: return false
    }
  }

  private func main(_ size: Size, _ axis: LayoutGroup.Axis) -> Double {
    axis == .horizontal ? size.width : size.height
  }

  private func cross(_ size: Size, _ axis: LayoutGroup.Axis) -> Double {
    axis == .horizontal ? size.height : size.width
  }

  private func makeSize(main: Double, cross: Double, _ axis: LayoutGroup.Axis) -> Size {
    axis == .horizontal ? Size(width: main, height: cross) : Size(width: cross, height: main)
  }

  private func moved(
    _ elements: [LayoutAttributes], main: Double, cross: Double, _ axis: LayoutGroup.Axis
  ) -> [LayoutAttributes] {
    let dx = axis == .horizontal ? main : cross
    let dy = axis == .horizontal ? cross : main
    return elements.map { element in
      var copy = element
      copy.frame = element.frame.offsetBy(dx: dx, dy: dy)
      return copy
    }
  }

  /// Lays out a group of a resolved size, taking items from `next`; frames relative to the group.
  private mutating func layOut(
    group: LayoutGroup, size: Size, section: Int, next: inout Int, count: Int
  ) -> ([LayoutAttributes], Size) {
    let axis = group.axis
    let mainEstimated =
      axis == .horizontal ? group.size.width.isEstimated : group.size.height.isEstimated
    let crossEstimated =
      axis == .horizontal ? group.size.height.isEstimated : group.size.width.isEstimated
    let spacing = group.interItemSpacing ?? .fixed(0)
    struct Entry {
      var elements: [LayoutAttributes]
      var size: Size
      var lead: LayoutSpacing?
      var trail: LayoutSpacing?
      var before: LayoutSpacing?
      var after: LayoutSpacing?
    }
    var entries: [Entry] = []

    switch group.contents {
    case .custom(let provider):
      var elements: [LayoutAttributes] = []
      var extent = size
      for frame in provider(size) where next < count {
        elements.append(
          LayoutAttributes(
            category: .cell, indexPath: IndexPath(item: next, section: section), frame: frame))
        next += 1
        if group.size.height.isEstimated { extent.height = Swift.max(extent.height, frame.maxY) }
        if group.size.width.isEstimated { extent.width = Swift.max(extent.width, frame.maxX) }
      }
      return (elements, extent)

    case .repeating(let element, let copies):
      let length = (main(size, axis) - spacing.minimum * Double(copies - 1)) / Double(copies)
      var elements: [LayoutAttributes] = []
      var crossExtent = 0.0
      var end = 0.0
      for copy in 0..<copies where next < count {
        let own = element.size.resolve(in: size)
        let elementSize = makeSize(main: length, cross: cross(own, axis), axis)
        let (laid, actual) = layOut(
          element: element, size: elementSize, section: section, next: &next, count: count)
        let position = Double(copy) * (length + spacing.minimum)
        elements += moved(laid, main: position, cross: 0, axis)
        crossExtent = Swift.max(crossExtent, cross(actual, axis))
        end = position + main(actual, axis)
      }
      return (
        elements,
        makeSize(
          main: mainEstimated ? end : main(size, axis),
          cross: crossEstimated ? crossExtent : cross(size, axis), axis)
      )

    case .subitems(let subitems):
      guard !subitems.isEmpty else { return ([], size) }
      var cursor = 0.0
      var index = 0
      while next < count {
        let element = subitems[index % subitems.count]
        let proposed = element.size.resolve(in: size)
        let edge = element.edgeSpacing
        let lead = axis == .horizontal ? edge?.leading : edge?.top
        let trail = axis == .horizontal ? edge?.trailing : edge?.bottom
        let gap = entries.isEmpty ? 0 : spacing.minimum
        let needed = gap + (lead?.minimum ?? 0) + main(proposed, axis) + (trail?.minimum ?? 0)
        // An entry that takes no length (a zero-sized container, say) fills a group alone:
        // otherwise a group would take every item there is, or loop without end.
        if !entries.isEmpty && (cursor + needed > main(size, axis) + 1e-9 || needed <= 0) {
          break
        }
        let held = next
        let (laid, actual) = layOut(
          element: element, size: proposed, section: section, next: &next, count: count)
        guard next > held || !laid.isEmpty else { break }
        entries.append(
          Entry(
            elements: laid, size: actual, lead: lead, trail: trail,
            before: axis == .horizontal ? edge?.top : edge?.leading,
            after: axis == .horizontal ? edge?.bottom : edge?.trailing))
        cursor += gap + (lead?.minimum ?? 0) + main(actual, axis) + (trail?.minimum ?? 0)
        index += 1
      }
    }

    // Share the spare length between flexible spacings.
    var slots = spacing.isFlexible ? Swift.max(0, entries.count - 1) : 0
    var used = 0.0
    for (position, entry) in entries.enumerated() {
      if entry.lead?.isFlexible == true { slots += 1 }
      if entry.trail?.isFlexible == true { slots += 1 }
      used +=
        (position > 0 ? spacing.minimum : 0) + (entry.lead?.minimum ?? 0) + main(entry.size, axis)
        + (entry.trail?.minimum ?? 0)
    }
    let spare = mainEstimated ? 0 : Swift.max(0, main(size, axis) - used)
    let share = slots > 0 ? spare / Double(slots) : 0
    let groupCross =
      crossEstimated
      ? entries.reduce(0) {
        Swift.max($0, ($1.before?.minimum ?? 0) + cross($1.size, axis) + ($1.after?.minimum ?? 0))
      }
      : cross(size, axis)
    var elements: [LayoutAttributes] = []
    var position = 0.0
    for (number, entry) in entries.enumerated() {
      if number > 0 { position += spacing.minimum + (spacing.isFlexible ? share : 0) }
      position += (entry.lead?.minimum ?? 0) + (entry.lead?.isFlexible == true ? share : 0)
      let free =
        groupCross - cross(entry.size, axis) - (entry.before?.minimum ?? 0)
        - (entry.after?.minimum ?? 0)
      let offset: Double
      switch (entry.before?.isFlexible == true, entry.after?.isFlexible == true) {
      case (true, true): offset = (entry.before?.minimum ?? 0) + free / 2
      case (true, false): offset = (entry.before?.minimum ?? 0) + free
      default: offset = entry.before?.minimum ?? 0
      }
      elements += moved(entry.elements, main: position, cross: offset, axis)
      position +=
        main(entry.size, axis) + (entry.trail?.minimum ?? 0)
        + (entry.trail?.isFlexible == true ? share : 0)
    }
    return (
      elements, makeSize(main: mainEstimated ? position : main(size, axis), cross: groupCross, axis)
    )
  }

  /// Lays out an item or a nested group of a resolved size.
  private mutating func layOut(
    element: LayoutElement, size: Size, section: Int, next: inout Int, count: Int
  ) -> ([LayoutAttributes], Size) {
    switch element {
    case .group(let group):
      return layOut(group: group, size: size, section: section, next: &next, count: count)
    case .item(let item):
      let path = IndexPath(item: next, section: section)
      next += 1
      var actual = size
      let widthEstimated = item.size.width.isEstimated
      let heightEstimated = item.size.height.isEstimated
      if widthEstimated || heightEstimated {
        let reported = measured[path] ?? context.measure?(path, size)
        if let reported {
          measured[path] = reported
          if widthEstimated { actual.width = reported.width }
          if heightEstimated { actual.height = reported.height }
        }
      }
      let insets = item.contentInsets
      let left = widthEstimated ? 0 : insets.leading
      let right = widthEstimated ? 0 : insets.trailing
      let top = heightEstimated ? 0 : insets.top
      let bottom = heightEstimated ? 0 : insets.bottom
      let frame = Rect(
        x: left, y: top, width: Swift.max(0, actual.width - left - right),
        height: Swift.max(0, actual.height - top - bottom))
      var result = [LayoutAttributes(category: .cell, indexPath: path, frame: frame)]
      for supplementary in item.supplementaryItems {
        let own = supplementary.size.resolve(in: frame.size)
        result.append(
          LayoutAttributes(
            category: .supplementary(kind: supplementary.kind), indexPath: path,
            frame: supplementary.anchor.frame(of: own, in: frame), zIndex: supplementary.zIndex))
      }
      return (result, actual)
    }
  }

  // MARK: Orthogonal scrolling

  /// Whether a section has an orthogonal scrolling behaviour.
  public func scrollsOrthogonally(section: Int) -> Bool {
    section < sections.count && sections[section].behavior != .none
  }

  /// The configuration's scroll direction.
  public var scrollAxis: ScrollDirection { configuration.scrollDirection }

  /// How far a section's row is scrolled sideways.
  public func orthogonalOffset(forSection section: Int) -> Double {
    section < offsets.count ? offsets[section] : 0
  }

  /// Scrolls a section's row sideways, clamped to its scrollable range; no effect on sections
  /// without orthogonal scrolling.
  public mutating func setOrthogonalOffset(_ offset: Double, forSection section: Int) {
    guard section < sections.count, sections[section].behavior != .none else { return }
    offsets[section] = Swift.min(Swift.max(0, offset), maximumOrthogonalOffset(section))
  }

  /// The length of a section's scrolling row across the layout's scroll axis (its width in a
  /// vertical layout), insets included.
  public func orthogonalContentLength(forSection section: Int) -> Double {
    section < sections.count ? sections[section].scrollWidth : 0
  }

  private func maximumOrthogonalOffset(_ section: Int) -> Double {
    Swift.max(0, sections[section].scrollWidth - sections[section].viewWidth)
  }

  /// Where a sideways scroll comes to rest for the section's behaviour, given where it would stop
  /// and which way it was moving (positive: towards the trailing side).
  public func targetOrthogonalOffset(forSection section: Int, proposed: Double, velocity: Double)
    -> Double
  {
    guard section < sections.count else { return 0 }
    let geometry = sections[section]
    let maximum = maximumOrthogonalOffset(section)
    func clamp(_ value: Double) -> Double { Swift.min(Swift.max(0, value), maximum) }
    func nearest(_ candidates: [Double]) -> Double {
      let current = orthogonalOffset(forSection: section)
      let directed =
        velocity > 0
        ? candidates.filter { $0 > current + 1e-9 }
        : velocity < 0 ? candidates.filter { $0 < current - 1e-9 } : candidates
      let pool = directed.isEmpty ? candidates : directed
      return pool.min { abs($0 - proposed) < abs($1 - proposed) } ?? proposed
    }
    switch geometry.behavior {
    case .none:
      return 0
    case .continuous:
      return clamp(proposed)
    case .continuousGroupLeadingBoundary:
      return clamp(
        geometry.groupLeadingEdges.min { abs($0 - proposed) < abs($1 - proposed) } ?? proposed)
    case .paging:
      let page = geometry.viewWidth
      // Whole pages needed to reach the end (no libm: the core links nothing).
      let ratio = page > 0 ? maximum / page : 0
      let pages = Int(ratio) + (Double(Int(ratio)) < ratio ? 1 : 0)
      return clamp(nearest((0...Swift.max(0, pages)).map { Double($0) * page }))
    case .groupPaging:
      return clamp(nearest(geometry.groupLeadingEdges))
    case .groupPagingCentered:
      // Offsets that put a group's centre at the centre of the view (its edges are measured from
      // the content's leading inset, which the view also starts after).
      let centres = zip(geometry.groupLeadingEdges, geometry.groupWidths).map { edge, width in
        edge + geometry.leadingInset + width / 2 - geometry.viewWidth / 2
      }
      return clamp(nearest(centres))
    }
  }

  // MARK: Queries

  private var shifts: [Double]? {
    offsets.contains { $0 != 0 } ? offsets : nil
  }

  private func mirror(_ attributes: LayoutAttributes) -> LayoutAttributes {
    attributes.placed(for: direction, inWidth: contentSize.width)
  }

  public func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    let mirrored = direction == .rightToLeft
    let rect = mirrored ? rect.mirrored(inWidth: contentSize.width) : rect
    let viewport = mirrored ? viewport.mirrored(inWidth: contentSize.width) : viewport
    var result: [LayoutAttributes] = []
    let pinned = pinnedHeaders(for: viewport)
    store.forEach(in: rect, shifts: shifts) { attributes in
      if pinned.contains(where: {
        $0.category == attributes.category && $0.indexPath == attributes.indexPath
      }) {
        return
      }
      result.append(attributes)
    }
    result += pinned.filter { $0.frame.intersects(rect) }
    return mirrored ? result.map(mirror) : result
  }

  /// The headers displaced by pinning for a viewport.
  private func pinnedHeaders(for viewport: Rect) -> [LayoutAttributes] {
    let top = vertical ? viewport.minY : viewport.minX
    guard let low = sections.lastIndex(keyedBy: \.start, notAfter: top) else { return [] }
    let geometry = sections[low]
    guard top > geometry.start, top < geometry.contentEnd else { return [] }
    return geometry.pinnedKinds.compactMap { kind in
      guard var header = store.supplementary(ofKind: kind, section: low) else { return nil }
      if vertical {
        header.frame.origin.y = Swift.max(
          header.frame.minY, Swift.min(top, geometry.contentEnd - header.frame.height))
      } else {
        header.frame.origin.x = Swift.max(
          header.frame.minX, Swift.min(top, geometry.contentEnd - header.frame.width))
      }
      header.zIndex = Swift.max(header.zIndex, 1000)
      return header
    }
  }

  public func attributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
    store.item(at: indexPath).map {
      mirror(
        LayoutAttributes(
          category: .cell, indexPath: indexPath, frame: shifted($0, section: indexPath.section)))
    }
  }

  public func attributesForSupplementary(ofKind kind: String, at indexPath: IndexPath)
    -> LayoutAttributes?
  {
    guard var attributes = store.supplementary(ofKind: kind, at: indexPath) else { return nil }
    if store.supplementaryMovesWithItems(ofKind: kind, at: indexPath) {
      attributes.frame = shifted(attributes.frame, section: indexPath.section)
    }
    return mirror(attributes)
  }

  /// A frame moved by its section's orthogonal offset, across the scroll axis.
  private func shifted(_ frame: Rect, section: Int) -> Rect {
    let offset = orthogonalOffset(forSection: section)
    return vertical ? frame.offsetBy(dx: -offset, dy: 0) : frame.offsetBy(dx: 0, dy: -offset)
  }

  /// Every element at its current sideways offset (unpinned), for checks and pictures.
  public var allAttributes: [LayoutAttributes] { store.allAttributes(shifts: shifts).map(mirror) }
}
