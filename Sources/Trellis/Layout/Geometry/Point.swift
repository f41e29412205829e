/// A point in layout coordinates: x grows to the trailing side in left-to-right layouts, y downwards.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate.
  public var y: Double

  /// Creates a point.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = Point(x: 0, y: 0)

  public var description: String { "(\(x), \(y))" }
}
