/// One dimension of a compositional element's size, as in `NSCollectionLayoutDimension`.
///
///     LayoutSize(width: .fractionalWidth(0.5), height: .absolute(44))
public enum LayoutDimension: Hashable, Sendable {
  /// A fraction of the containing group's (or section's) width.
  case fractionalWidth(Double)
  /// A fraction of the containing group's (or section's) height.
  case fractionalHeight(Double)
  /// A fixed number of points.
  case absolute(Double)
  /// A first guess, replaced by the measured size.
  case estimated(Double)

  /// The value against a container size.
  func resolve(in container: Size) -> Double {
    switch self {
    case .fractionalWidth(let fraction): fraction * container.width
    case .fractionalHeight(let fraction): fraction * container.height
    case .absolute(let value), .estimated(let value): value
    }
  }

  /// Whether the size is a guess to be measured.
  var isEstimated: Bool {
    if case .estimated = self { true } else { false }
  }
}

/// A width and a height made of ``LayoutDimension``s.
public struct LayoutSize: Hashable, Sendable {
  /// The width.
  public var width: LayoutDimension
  /// The height.
  public var height: LayoutDimension

  /// Creates a size.
  ///
  /// - Complexity: O(1).
  public init(width: LayoutDimension, height: LayoutDimension) {
    self.width = width
    self.height = height
  }

  /// The dimension along an axis (the width along the horizontal one).
  func dimension(along axis: LayoutAxis) -> LayoutDimension {
    axis == .horizontal ? width : height
  }

  func resolve(in container: Size) -> Size {
    Size(width: width.resolve(in: container), height: height.resolve(in: container))
  }
}

/// Space between elements: exactly an amount, or at least an amount and more when there is room.
public enum LayoutSpacing: Hashable, Sendable {
  /// Exactly this much.
  case fixed(Double)
  /// At least this much; space left over in a group is shared between flexible spacings.
  case flexible(Double)

  var minimum: Double {
    switch self {
    case .fixed(let value), .flexible(let value): value
    }
  }

  var isFlexible: Bool {
    if case .flexible = self { true } else { false }
  }
}

/// Extra space around an item inside its group, as in `NSCollectionLayoutEdgeSpacing`.
///
/// Along the group's axis, the leading and trailing spacings add to the space before and after the
/// item (flexible ones share the group's spare space). Across it, a fixed spacing offsets the item
/// from that edge; flexible spacings on both sides centre it, on one side push it to the other.
public struct EdgeSpacing: Hashable, Sendable {
  /// Space on the leading side.
  public var leading: LayoutSpacing?
  /// Space above.
  public var top: LayoutSpacing?
  /// Space on the trailing side.
  public var trailing: LayoutSpacing?
  /// Space below.
  public var bottom: LayoutSpacing?

  /// Creates edge spacing.
  ///
  /// - Complexity: O(1).
  public init(
    leading: LayoutSpacing? = nil, top: LayoutSpacing? = nil, trailing: LayoutSpacing? = nil,
    bottom: LayoutSpacing? = nil
  ) {
    self.leading = leading
    self.top = top
    self.trailing = trailing
    self.bottom = bottom
  }

  /// The spacing before and after along an axis (leading and trailing along the horizontal one).
  func along(_ axis: LayoutAxis) -> (before: LayoutSpacing?, after: LayoutSpacing?) {
    axis == .horizontal ? (leading, trailing) : (top, bottom)
  }
}
