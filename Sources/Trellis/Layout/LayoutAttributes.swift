/// Where one element goes: its category, index path, frame and stacking order.
public struct LayoutAttributes: Hashable, Sendable, CustomStringConvertible {
  /// Cell, supplementary or decoration.
  public var category: ElementCategory
  /// The item's index path; for section-level elements, item 0 of the section.
  public var indexPath: IndexPath
  /// The frame in content coordinates.
  public var frame: Rect
  /// Elements with a higher z-index draw on top.
  public var zIndex: Int
  /// Whether the frame is pinned to the viewport the query was given — a header floating at the
  /// top of its section (or pushed up by the section's end) rather than at its place in the
  /// content — so a view knows it covers what scrolls under it.
  public var isPinned: Bool

  /// Creates attributes.
  ///
  /// - Complexity: O(1).
  public init(
    category: ElementCategory, indexPath: IndexPath, frame: Rect, zIndex: Int = 0,
    isPinned: Bool = false
  ) {
    self.category = category
    self.indexPath = indexPath
    self.frame = frame
    self.zIndex = zIndex
    self.isPinned = isPinned
  }

  public var description: String { "\(category) \(indexPath) \(frame)" }
}
