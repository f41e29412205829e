/// A list section's look, as `UICollectionLayoutListConfiguration`: full-width (or inset) rows
/// with separators between them, and a header and footer per section.
///
///     var list = ListConfiguration(appearance: .insetGrouped)
///     list.headerMode = .supplementary
///     let layout = CompositionalLayout(section: .list(using: list))
///
/// What each appearance means here (the numbers are this library's, in layout units):
/// - ``Appearance/plain``: rows edge to edge, sections touching, headers pinned while their
///   section is in view (a plain table's).
/// - ``Appearance/grouped``: rows edge to edge, ``sectionSpacing`` above and below each section.
/// - ``Appearance/insetGrouped``: as grouped, with rows ``horizontalInset`` in from both sides over
///   a background decoration of kind ``backgroundKind`` that covers them.
/// - ``Appearance/sidebar``: as inset grouped without separators or background.
/// - ``Appearance/sidebarPlain``: as plain without separators, headers not pinned.
///
/// Headers and footers span the rows' width. With ``HeaderMode/firstItemInSection`` the first item
/// is the section's header: the layout adds no header of its own.
public struct ListConfiguration: Hashable, Sendable {
  /// How sections and rows sit in the container.
  public enum Appearance: Hashable, Sendable {
    /// Rows edge to edge, sections touching, headers pinned.
    case plain
    /// Rows edge to edge, sections apart.
    case grouped
    /// Rows inset from both sides over a background, sections apart.
    case insetGrouped
    /// Inset rows without separators.
    case sidebar
    /// Edge-to-edge rows without separators.
    case sidebarPlain
  }

  /// Where a section's header comes from.
  public enum HeaderMode: Hashable, Sendable {
    /// No header.
    case none
    /// A header supplementary of kind ``SupplementaryKind/header``.
    case supplementary
    /// The section's first item is its header; no supplementary.
    case firstItemInSection
  }

  /// Whether sections have a footer.
  public enum FooterMode: Hashable, Sendable {
    /// No footer.
    case none
    /// A footer supplementary of kind ``SupplementaryKind/footer``.
    case supplementary
  }

  /// How sections and rows sit in the container.
  public var appearance: Appearance
  /// Where a section's header comes from.
  public var headerMode = HeaderMode.none
  /// Whether sections have a footer.
  public var footerMode = FooterMode.none
  /// Each row's height: estimated rows are measured as items are.
  public var rowHeight = LayoutDimension.estimated(44)
  /// The header's height, when there is a header supplementary.
  public var headerHeight = 28.0
  /// The footer's height, when there is a footer supplementary.
  public var footerHeight = 28.0
  /// Whether rows have separators; by default all appearances but the sidebars do.
  public var showsSeparators: Bool
  /// Separator insets from the row's edges (leading and trailing; top and bottom are ignored).
  public var separatorInsets = EdgeInsets.zero
  /// A separator's thickness, drawn over the bottom of its row.
  public var separatorThickness = 1.0
  /// The space above and below each section in the grouped appearances.
  public var sectionSpacing = 16.0
  /// How far rows are inset from both sides in the inset appearances.
  public var horizontalInset = 16.0
  /// The decoration kind of the inset grouped background.
  public var backgroundKind = "list-background"

  /// A configuration for an appearance.
  ///
  /// - Complexity: O(1).
  public init(appearance: Appearance) {
    self.appearance = appearance
    showsSeparators = appearance != .sidebar && appearance != .sidebarPlain
  }
}

extension LayoutSection {
  /// A list section laid out as `configuration` says: one row per group, separators between rows,
  /// and the appearance's insets, header, footer and background.
  ///
  /// - Complexity: O(1).
  public static func list(using configuration: ListConfiguration) -> LayoutSection {
    let row = LayoutSize(width: .fractionalWidth(1), height: configuration.rowHeight)
    var section = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    let inset: Double
    let spacing: Double
    switch configuration.appearance {
    case .plain, .sidebarPlain:
      (inset, spacing) = (0, 0)
    case .grouped:
      (inset, spacing) = (0, configuration.sectionSpacing)
    case .insetGrouped, .sidebar:
      (inset, spacing) = (configuration.horizontalInset, configuration.sectionSpacing)
    }
    section.contentInsets = EdgeInsets(
      top: spacing, leading: inset, bottom: spacing, trailing: inset)
    if configuration.headerMode == .supplementary {
      section.boundarySupplementaryItems.append(
        BoundarySupplementaryItem(
          kind: SupplementaryKind.header,
          size: LayoutSize(
            width: .fractionalWidth(1), height: .absolute(configuration.headerHeight)),
          alignment: .top, pinToVisibleBounds: configuration.appearance == .plain))
    }
    if configuration.footerMode == .supplementary {
      section.boundarySupplementaryItems.append(
        BoundarySupplementaryItem(
          kind: SupplementaryKind.footer,
          size: LayoutSize(
            width: .fractionalWidth(1), height: .absolute(configuration.footerHeight)),
          alignment: .bottom))
    }
    if configuration.appearance == .insetGrouped {
      section.decorationItems.append(
        .background(
          kind: configuration.backgroundKind,
          contentInsets: EdgeInsets(top: spacing, leading: inset, bottom: spacing, trailing: inset))
      )
    }
    if configuration.showsSeparators {
      section.itemSeparator = ItemSeparator(
        insets: configuration.separatorInsets, thickness: configuration.separatorThickness)
    }
    return section
  }
}

/// A line between a section's items: a decoration of its own kind over the bottom of each item
/// but the section's last, inset from the item's sides.
public struct ItemSeparator: Hashable, Sendable {
  /// The decoration kind.
  public var kind: String
  /// Insets from the item's leading and trailing edges (top and bottom are ignored).
  public var insets: EdgeInsets
  /// The line's thickness along the scroll axis.
  public var thickness: Double
  /// Stacking order; above the item by default.
  public var zIndex: Int

  /// Creates a separator.
  ///
  /// - Complexity: O(1).
  public init(
    kind: String = "separator", insets: EdgeInsets = .zero, thickness: Double = 1, zIndex: Int = 1
  ) {
    self.kind = kind
    self.insets = insets
    self.thickness = thickness
    self.zIndex = zIndex
  }

  /// The separator's frame for an item's frame, along an axis.
  func frame(under item: Rect, axis: LayoutAxis) -> Rect {
    let (before, after) = axis.crossInsets(insets)
    let (crossLow, crossHigh) = axis.crossRange(of: item)
    let end = axis.mainRange(of: item).high
    return axis.rect(
      main: end - thickness, cross: crossLow + before, mainLength: thickness,
      crossLength: Swift.max(0, crossHigh - crossLow - before - after))
  }
}
