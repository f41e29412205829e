/// What a layout is prepared from: the data's shape, the container's size, and a way to measure
/// self-sizing items.
public struct LayoutContext {
  /// The number of items in each section.
  public var itemCounts: [Int]
  /// The size of the visible container.
  public var containerSize: Size
  /// Measures an item whose size is estimated; `nil` keeps the estimates.
  ///
  /// It receives the item's index path and the size the layout proposes (the estimate), and
  /// returns the size the item needs.
  public var measure: ((IndexPath, Size) -> Size)?
  /// Measures a header or footer whose size is estimated (a compositional layout's boundary
  /// supplementary); `nil` keeps the estimates.
  ///
  /// It receives the element's kind, its index path (item 0 of its section; [0, 0] for the
  /// layout's own) and the size the layout proposes, and returns the size it needs.
  public var measureSupplementary: ((_ kind: String, IndexPath, Size) -> Size)?

  /// Creates a context.
  ///
  /// - Complexity: O(1).
  public init(
    itemCounts: [Int], containerSize: Size, measure: ((IndexPath, Size) -> Size)? = nil,
    measureSupplementary: ((_ kind: String, IndexPath, Size) -> Size)? = nil
  ) {
    self.itemCounts = itemCounts
    self.containerSize = containerSize
    self.measure = measure
    self.measureSupplementary = measureSupplementary
  }
}

/// What changed since a layout was prepared, so that it redoes only what depends on it.
public enum LayoutInvalidation: Hashable, Sendable {
  /// Items were appended at the end of a section; the new count is given.
  case itemsAppended(section: Int, newCount: Int)
  /// Items were inserted, deleted or moved within and between these sections; there are as many
  /// sections as before, and every other section holds what it held. A layout may lay out these
  /// sections again and only move what follows them.
  case itemsChanged(sections: ClosedRange<Int>)
  /// An item reported the size it needs.
  case preferredSize(IndexPath, Size)
  /// A header or footer of a kind reported the size it needs (item 0 of its section's index
  /// path; [0, 0] for the layout's own).
  case preferredSupplementarySize(kind: String, IndexPath, Size)
  /// The container changed size.
  case boundsChanged(Size)
  /// Anything may have changed: lay everything out again.
  case everything
}

/// A layout: pure geometry from a data shape to frames, queried by rectangle.
///
/// Prepare once from a ``LayoutContext``, then ask for the elements in a rectangle — what a view
/// shows for its visible area — in O(log *n* + *k*). Results that depend on the viewport, such as
/// pinned headers, take the viewport explicitly and never depend on the rectangle asked about.
public protocol CollectionLayout {
  /// Computes every frame.
  ///
  /// - Complexity: O(*n*) in the items for the layouts of this package.
  mutating func prepare(_ context: LayoutContext)

  /// Recomputes what a change affects; the context is the new one.
  ///
  /// - Complexity: What the change affects: for the layouts of this package, what is appended
  ///   for an append, the sections from the first one changed on otherwise.
  mutating func invalidate(_ invalidation: LayoutInvalidation, context: LayoutContext)

  /// The size of everything laid out.
  var contentSize: Size { get }

  /// The elements whose frames intersect a rectangle, with viewport-dependent positions (pinned
  /// headers) computed for `viewport`.
  ///
  /// - Complexity: O(log *n* + *k*) for the *k* elements returned, for the layouts of this
  ///   package.
  func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes]

  /// The cell of an item.
  ///
  /// - Complexity: O(1) for the layouts of this package.
  func attributesForItem(at indexPath: IndexPath) -> LayoutAttributes?

  /// A supplementary element of a kind for a section (item 0 of the index path), at its unpinned
  /// position.
  func attributesForSupplementary(ofKind kind: String, at indexPath: IndexPath) -> LayoutAttributes?

  /// Whether a section's row scrolls on its own across the scroll axis (a chip bar).
  func scrollsOrthogonally(section: Int) -> Bool

  /// How far a section's row is scrolled across the scroll axis.
  func orthogonalOffset(forSection section: Int) -> Double

  /// Scrolls a section's row across the scroll axis, clamped to its range.
  mutating func setOrthogonalOffset(_ offset: Double, forSection section: Int)

  /// The axis the layout's content scrolls along.
  var scrollAxis: ScrollDirection { get }
}

// MARK: Orthogonal scrolling

extension CollectionLayout {
  /// Whether a section's row scrolls on its own, across the layout's scroll axis; `false` unless
  /// the layout says otherwise.
  ///
  /// - Complexity: O(1).
  public func scrollsOrthogonally(section: Int) -> Bool { false }

  /// How far a section's row is scrolled across the scroll axis; 0 unless the layout says otherwise.
  ///
  /// - Complexity: O(1).
  public func orthogonalOffset(forSection section: Int) -> Double { 0 }

  /// Scrolls a section's row across the scroll axis; no effect unless the layout supports it.
  ///
  /// - Complexity: O(1).
  public mutating func setOrthogonalOffset(_ offset: Double, forSection section: Int) {}

  /// The axis the layout's content scrolls along; vertical unless the layout says otherwise.
  public var scrollAxis: ScrollDirection { .vertical }
}
