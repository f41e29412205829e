/// Where a supplementary item sits on its item, as in `NSCollectionLayoutAnchor`.
///
///     // A badge on the top-trailing corner, half outside.
///     LayoutAnchor(edges: [.top, .trailing], offset: .fractional(x: 0.5, y: -0.5))
public struct LayoutAnchor: Hashable, Sendable {
  /// The item's edges the supplementary aligns to; an axis with neither edge centres it.
  public struct Edges: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    /// Creates a value from its raw bits.
    ///
    /// - Complexity: O(1).
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The top edge.
    public static let top = Edges(rawValue: 1)
    /// The leading edge.
    public static let leading = Edges(rawValue: 2)
    /// The bottom edge.
    public static let bottom = Edges(rawValue: 4)
    /// The trailing edge.
    public static let trailing = Edges(rawValue: 8)
  }

  /// How far the supplementary moves from its aligned position.
  public enum Offset: Hashable, Sendable {
    /// By points.
    case absolute(x: Double, y: Double)
    /// By fractions of the supplementary's own size.
    case fractional(x: Double, y: Double)
  }

  /// The edges to align to.
  public var edges: Edges
  /// The offset from the aligned position.
  public var offset: Offset

  /// Creates an anchor.
  ///
  /// - Complexity: O(1).
  public init(edges: Edges, offset: Offset = .absolute(x: 0, y: 0)) {
    self.edges = edges
    self.offset = offset
  }

  /// The frame of a supplementary of a size anchored to a frame.
  func frame(of size: Size, in container: Rect) -> Rect {
    var x =
      edges.contains(.leading)
      ? container.minX
      : edges.contains(.trailing)
        ? container.maxX - size.width : container.minX + (container.width - size.width) / 2
    var y =
      edges.contains(.top)
      ? container.minY
      : edges.contains(.bottom)
        ? container.maxY - size.height : container.minY + (container.height - size.height) / 2
    switch offset {
    case .absolute(let dx, let dy):
      x += dx
      y += dy
    case .fractional(let fx, let fy):
      x += fx * size.width
      y += fy * size.height
    }
    return Rect(x: x, y: y, width: size.width, height: size.height)
  }
}

/// A supplementary view attached to each item (a badge) or to each group of a layout.
public struct LayoutSupplementaryItem: Hashable, Sendable {
  /// The kind, as the data source knows it.
  public var kind: String
  /// Its size, fractions relative to the item or group.
  public var size: LayoutSize
  /// Where it sits on the item or group.
  public var anchor: LayoutAnchor
  /// Stacking order; above the item by default.
  public var zIndex: Int

  /// Creates a supplementary item.
  ///
  /// - Complexity: O(1).
  public init(kind: String, size: LayoutSize, anchor: LayoutAnchor, zIndex: Int = 1) {
    self.kind = kind
    self.size = size
    self.anchor = anchor
    self.zIndex = zIndex
  }
}
