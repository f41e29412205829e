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

  /// Creates attributes.
  public init(category: ElementCategory, indexPath: IndexPath, frame: Rect, zIndex: Int = 0) {
    self.category = category
    self.indexPath = indexPath
    self.frame = frame
    self.zIndex = zIndex
  }

  public var description: String { "\(category) \(indexPath) \(frame)" }
}
