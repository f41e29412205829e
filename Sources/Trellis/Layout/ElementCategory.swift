/// What an element of a layout is.
public enum ElementCategory: Hashable, Sendable {
  /// A cell, for an item.
  case cell
  /// A supplementary view of a kind, such as a header or a badge.
  case supplementary(kind: String)
  /// A decoration of a kind, such as a section background.
  case decoration(kind: String)
}
