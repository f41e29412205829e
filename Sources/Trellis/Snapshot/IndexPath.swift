/// The position of an item in a sectioned collection: a section index and an item index within it.
///
/// Trellis uses the same vocabulary as UIKit, so code that imports Foundation as well
/// writes `Trellis.IndexPath` where both are visible.
///
///     let path = IndexPath(item: 2, section: 0)
///     path.description  // "[0, 2]"
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The index of the section.
  public var section: Int
  /// The index of the item within its section.
  public var item: Int

  /// Creates an index path to `item` in `section`.
  @inlinable
  public init(item: Int, section: Int) {
    self.section = section
    self.item = item
  }

  /// Orders index paths by section, then by item: the order of a flattened collection.
  @inlinable
  public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
    lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
  }

  public var description: String { "[\(section), \(item)]" }
}
