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
/// extend the boundary and overlaying the content's edge otherwise; pinned headers stay at the
/// start of the viewport while their section is visible, pushed back by the end of the section's
/// content, and pinned footers at its end, held back by the start of the section's content. Background decorations cover the content area.
/// Estimated dimensions are measured by the context's closure or by a reported preferred size,
/// which moves only what comes after — items' through ``LayoutContext/measure`` and
/// ``LayoutInvalidation/preferredSize(_:_:)``, headers' and footers' through
/// ``LayoutContext/measureSupplementary`` and
/// ``LayoutInvalidation/preferredSupplementarySize(kind:_:_:)``.
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
    ///
    /// - Complexity: O(1).
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
  let sectionProvider: (Int, LayoutEnvironment) -> LayoutSection

  var store = LayoutStore(axis: .vertical)
  var context = LayoutContext(itemCounts: [], containerSize: .zero)
  var measured = MeasuredSizes()
  var sections: [SectionGeometry] = []
  var offsets: [Double] = []
  var headerEnd = 0.0
  public internal(set) var contentSize = Size.zero

  struct SectionGeometry {
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
    /// Boundary items pinned to the viewport's start (headers) and end (footers).
    var pinnedHeaderKinds: [String]
    var pinnedFooterKinds: [String]
  }

  /// A layout whose every section is `section`.
  ///
  /// - Complexity: O(1).
  public init(section: LayoutSection, configuration: Configuration = Configuration()) {
    self.init(configuration: configuration) { _, _ in section }
  }

  /// A layout whose sections come from a provider, given the section index and the environment.
  ///
  /// - Complexity: O(1).
  public init(
    configuration: Configuration = Configuration(),
    sectionProvider: @escaping (Int, LayoutEnvironment) -> LayoutSection
  ) {
    self.configuration = configuration
    self.sectionProvider = sectionProvider
  }

  /// Computes every frame.
  ///
  /// - Complexity: O(*n*) for *n* items, plus a call of the section provider per section and of the
  ///   measure per self-sizing element.
  public mutating func prepare(_ context: LayoutContext) {
    defer { store.checkInvariants() }
    measured.prepare(for: context.containerSize)
    self.context = context
    store = LayoutStore(axis: axis)
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

  /// Recomputes what a change affects; the context is the new one.
  ///
  /// - Complexity: O(*m*), the items of the first section affected and of every section after it
  ///   (all of them for a change of bounds or everything).
  public mutating func invalidate(_ invalidation: LayoutInvalidation, context: LayoutContext) {
    defer { store.checkInvariants() }
    var work = measured.apply(invalidation)
    // The layout's own header or footer moves everything: lay out from the start.
    if case .preferredSupplementarySize(let kind, _, _) = invalidation,
      configuration.boundarySupplementaryItems.contains(where: { $0.kind == kind })
    {
      work = .prepare
    }
    switch work {
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
  mutating func relayOut(sections range: ClosedRange<Int>) {
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

  mutating func relayOut(fromSection section: Int) {
    guard !sections.isEmpty else { return prepare(context) }
    // From the last laid-out section at the latest, so that the layout's footer goes too.
    let first = Swift.max(0, Swift.min(section, sections.count - 1))
    store.truncate(fromSection: first)
    sections.removeSubrange(first...)
    layOut(fromSection: first)
  }

}
