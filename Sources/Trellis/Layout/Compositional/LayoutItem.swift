/// An item of a compositional layout: the size of one cell, as in `NSCollectionLayoutItem`.
///
/// The frame the item gets from its size is shrunk by ``contentInsets`` (except along an estimated
/// dimension, as UIKit does); ``edgeSpacing`` adds space around it inside its group.
public struct LayoutItem: Hashable, Sendable {
  /// The item's size; fractions are of the containing group.
  public var size: LayoutSize
  /// Insets inside the item's frame.
  public var contentInsets: EdgeInsets
  /// Space around the item inside its group.
  public var edgeSpacing: EdgeSpacing?
  /// Supplementaries attached to each item, such as badges.
  public var supplementaryItems: [LayoutSupplementaryItem]

  /// Creates an item.
  ///
  /// - Complexity: O(*s*) in the supplementary items.
  public init(
    size: LayoutSize, contentInsets: EdgeInsets = .zero, edgeSpacing: EdgeSpacing? = nil,
    supplementaryItems: [LayoutSupplementaryItem] = []
  ) {
    self.size = size
    self.contentInsets = contentInsets
    self.edgeSpacing = edgeSpacing
    self.supplementaryItems = supplementaryItems
  }
}

/// An element of a group: an item or a nested group.
public indirect enum LayoutElement: Sendable {
  /// An item, which takes one of the section's items.
  case item(LayoutItem)
  /// A group, which takes as many items as it holds.
  case group(LayoutGroup)

  var size: LayoutSize {
    switch self {
    case .item(let item): item.size
    case .group(let group): group.size
    }
  }

  var edgeSpacing: EdgeSpacing? {
    if case .item(let item) = self { item.edgeSpacing } else { nil }
  }
}

/// A group of items laid out along an axis, as in `NSCollectionLayoutGroup`.
///
///     // Two columns: count-based, 10 points apart.
///     let row = LayoutGroup.horizontal(
///       size: LayoutSize(width: .fractionalWidth(1), height: .absolute(80)),
///       repeatingSubitem: .item(LayoutItem(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))),
///       count: 2)
///
/// A group made from subitems lays them out in order and starts again from the first while the next
/// one fits — "repeat until the next one does not fit" — always placing at least one. A count-based
/// group places exactly `count` (fewer when the section runs out), each as long along the axis as
/// the group's length less the spacing allows. A custom group places an item at each frame its
/// provider returns.
public struct LayoutGroup: Sendable {
  /// The direction a group lays out along: ``LayoutAxis/horizontal`` (leading to trailing) or
  /// ``LayoutAxis/vertical`` (top to bottom).
  public typealias Axis = LayoutAxis

  enum Contents: Sendable {
    case subitems([LayoutElement])
    case repeating(LayoutElement, count: Int)
    case custom(@Sendable (Size) -> [Rect])
  }

  /// The group's size; fractions are of the containing group or section.
  public var size: LayoutSize
  /// The layout axis.
  public var axis: Axis
  var contents: Contents
  /// The space between elements along the axis.
  public var interItemSpacing: LayoutSpacing?
  /// Supplementaries anchored to the group's frame (a badge on a whole card), as
  /// `NSCollectionLayoutGroup`'s; each takes the index path of the group's first item, so give
  /// them kinds of their own.
  public var supplementaryItems: [LayoutSupplementaryItem] = []

  /// A horizontal group that repeats its subitems while they fit.
  ///
  /// - Complexity: O(*s*) in the subitems.
  public static func horizontal(size: LayoutSize, subitems: [LayoutElement]) -> LayoutGroup {
    LayoutGroup(size: size, axis: .horizontal, contents: .subitems(subitems), interItemSpacing: nil)
  }

  /// A vertical group that repeats its subitems while they fit.
  ///
  /// - Complexity: O(*s*) in the subitems.
  public static func vertical(size: LayoutSize, subitems: [LayoutElement]) -> LayoutGroup {
    LayoutGroup(size: size, axis: .vertical, contents: .subitems(subitems), interItemSpacing: nil)
  }

  /// A horizontal group of exactly `count` copies of a subitem, sized to fit.
  ///
  /// - Complexity: O(1).
  public static func horizontal(
    size: LayoutSize, repeatingSubitem subitem: LayoutElement, count: Int
  ) -> LayoutGroup {
    precondition(count > 0, "A count-based group needs a count of at least 1, not \(count)")
    return LayoutGroup(
      size: size, axis: .horizontal, contents: .repeating(subitem, count: count),
      interItemSpacing: nil)
  }

  /// A vertical group of exactly `count` copies of a subitem, sized to fit.
  ///
  /// - Complexity: O(1).
  public static func vertical(size: LayoutSize, repeatingSubitem subitem: LayoutElement, count: Int)
    -> LayoutGroup
  {
    precondition(count > 0, "A count-based group needs a count of at least 1, not \(count)")
    return LayoutGroup(
      size: size, axis: .vertical, contents: .repeating(subitem, count: count),
      interItemSpacing: nil)
  }

  /// A group whose provider returns a frame for each item, relative to the group, given its size.
  ///
  /// - Complexity: O(1).
  public static func custom(size: LayoutSize, itemProvider: @escaping @Sendable (Size) -> [Rect])
    -> LayoutGroup
  {
    LayoutGroup(size: size, axis: .vertical, contents: .custom(itemProvider), interItemSpacing: nil)
  }

  /// This group with a spacing between its elements.
  ///
  /// - Complexity: O(1).
  public func spacing(_ spacing: LayoutSpacing) -> LayoutGroup {
    var copy = self
    copy.interItemSpacing = spacing
    return copy
  }

  /// This group with supplementaries anchored to its frame.
  ///
  /// - Complexity: O(*s*) in the supplementary items.
  public func supplementaryItems(_ items: [LayoutSupplementaryItem]) -> LayoutGroup {
    var copy = self
    copy.supplementaryItems = items
    return copy
  }
}
