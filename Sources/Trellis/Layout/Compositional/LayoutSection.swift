/// How a section's groups scroll across the layout's scroll direction, as in
/// `UICollectionLayoutSectionOrthogonalScrollingBehavior`.
public enum OrthogonalScrollingBehavior: Hashable, Sendable {
  /// Groups stack along the layout's scroll direction; nothing scrolls sideways.
  case none
  /// Groups sit in one row that scrolls freely.
  case continuous
  /// Scrolls freely and comes to rest with a group's leading edge at the leading boundary.
  case continuousGroupLeadingBoundary
  /// Scrolls by the width of the section.
  case paging
  /// Scrolls one group at a time, the group's leading edge at the leading boundary.
  case groupPaging
  /// Scrolls one group at a time, centring it.
  case groupPagingCentered
}

/// A header, footer or other view at a section's (or the layout's) boundary, as in
/// `NSCollectionLayoutBoundarySupplementaryItem`.
public struct BoundarySupplementaryItem: Hashable, Sendable {
  /// Where it goes.
  public enum Alignment: Hashable, Sendable {
    /// Before the content in a vertical layout (above it), centred across.
    case top
    /// Above the content, at the leading side.
    case topLeading
    /// Above the content, at the trailing side.
    case topTrailing
    /// Below the content, centred across.
    case bottom
    /// Below the content, at the leading side.
    case bottomLeading
    /// Below the content, at the trailing side.
    case bottomTrailing
    /// Before the content in a horizontally scrolling layout, centred across.
    case leading
    /// After the content in a horizontally scrolling layout, centred across.
    case trailing

    /// Whether it goes before the content along the scroll axis (above, or on the leading side).
    var isBefore: Bool {
      switch self {
      case .top, .topLeading, .topTrailing, .leading: true
      case .bottom, .bottomLeading, .bottomTrailing, .trailing: false
      }
    }
  }

  /// The kind, as the data source knows it.
  public var kind: String
  /// Its size; fractions are of the section's width (less its insets when supplementaries follow
  /// them).
  public var size: LayoutSize
  /// Where it goes.
  public var alignment: Alignment
  /// A shift from the aligned position.
  public var offset: Point
  /// Whether it takes space (pushing the content), or overlays the content's edge.
  public var extendsBoundary: Bool
  /// Whether it stays in view while its section is visible: a header (top or leading alignments)
  /// at the viewport's start, stopped by the end of the section's content; a footer (bottom or
  /// trailing alignments) at the viewport's end, stopped by the start of the section's content.
  public var pinToVisibleBounds: Bool
  /// Stacking order.
  public var zIndex: Int

  /// A full-width header of a fixed height above the section, optionally pinned: it stays on
  /// top while its section is in view.
  ///
  /// - Complexity: O(1).
  public static func header(height: Double, pinned: Bool = false) -> BoundarySupplementaryItem {
    BoundarySupplementaryItem(
      kind: SupplementaryKind.header,
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(height)), alignment: .top,
      pinToVisibleBounds: pinned)
  }

  /// Creates a boundary supplementary item.
  ///
  /// - Complexity: O(1).
  public init(
    kind: String, size: LayoutSize, alignment: Alignment, offset: Point = .zero,
    extendsBoundary: Bool = true,
    pinToVisibleBounds: Bool = false, zIndex: Int = 10
  ) {
    self.kind = kind
    self.size = size
    self.alignment = alignment
    self.offset = offset
    self.extendsBoundary = extendsBoundary
    self.pinToVisibleBounds = pinToVisibleBounds
    self.zIndex = zIndex
  }
}

/// A section background, as `NSCollectionLayoutDecorationItem.background(elementKind:)`: it covers
/// the section's content area — its groups and content insets, across the full width, without the
/// boundary supplementaries — shrunk by its own insets.
public struct DecorationItem: Hashable, Sendable {
  /// The kind, as the view knows it.
  public var kind: String
  /// Insets from the section's content area.
  public var contentInsets: EdgeInsets
  /// Stacking order; behind the items by default.
  public var zIndex: Int

  /// A background decoration.
  ///
  /// - Complexity: O(1).
  public static func background(kind: String, contentInsets: EdgeInsets = .zero, zIndex: Int = -1)
    -> DecorationItem
  {
    DecorationItem(kind: kind, contentInsets: contentInsets, zIndex: zIndex)
  }
}

/// A section of a compositional layout: a group repeated for the section's items, with insets,
/// spacing, orthogonal scrolling, boundary supplementaries and decorations.
public struct LayoutSection: Sendable {
  /// The group repeated to hold the section's items.
  public var group: LayoutGroup
  /// Insets around the groups.
  public var contentInsets: EdgeInsets = .zero
  /// The space between groups.
  public var interGroupSpacing: Double = 0
  /// How groups scroll sideways.
  public var orthogonalScrollingBehavior = OrthogonalScrollingBehavior.none
  /// Headers and footers.
  public var boundarySupplementaryItems: [BoundarySupplementaryItem] = []
  /// Backgrounds.
  public var decorationItems: [DecorationItem] = []
  /// A line under each item but the last (a list's separators), or none.
  public var itemSeparator: ItemSeparator?
  /// Whether boundary supplementaries are inset like the content (true) or span the full width.
  public var supplementariesFollowContentInsets = true

  /// Creates a section from its group.
  ///
  /// - Complexity: O(1).
  public init(group: LayoutGroup) {
    self.group = group
  }

  /// A list: full-width rows of estimated height, one per group, `spacing` apart.
  ///
  /// - Complexity: O(1).
  public static func list(estimatedRowHeight: Double = 44, spacing: Double = 0) -> LayoutSection {
    let row = LayoutSize(width: .fractionalWidth(1), height: .estimated(estimatedRowHeight))
    var section = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    section.interGroupSpacing = spacing
    return section
  }

  /// A list of full-width rows of a fixed height, `spacing` apart — a table's rows.
  ///
  /// - Complexity: O(1).
  public static func rows(height: Double, spacing: Double = 0) -> LayoutSection {
    let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(height))
    var section = LayoutSection(
      group: .horizontal(size: row, subitems: [.item(LayoutItem(size: row))]))
    section.interGroupSpacing = spacing
    return section
  }

  /// A row of chips that scrolls sideways on its own (a filter bar): each chip as wide as it
  /// measures (`estimatedWidth` until then), `spacing` apart.
  ///
  /// - Complexity: O(1).
  public static func chips(
    height: Double, estimatedWidth: Double = 80, spacing: Double = 8,
    scrolling behavior: OrthogonalScrollingBehavior = .continuous
  ) -> LayoutSection {
    let chip = LayoutSize(width: .estimated(estimatedWidth), height: .absolute(height))
    var section = LayoutSection(
      group: .horizontal(size: chip, subitems: [.item(LayoutItem(size: chip))]))
    section.interGroupSpacing = spacing
    section.orthogonalScrollingBehavior = behavior
    return section
  }
}

/// What a section provider knows about where its section goes.
public struct LayoutEnvironment: Hashable, Sendable {
  /// The size of the container.
  public var containerSize: Size
  /// The container's size less the layout's content insets (none in this layout: the same size).
  public var effectiveContentSize: Size
}
