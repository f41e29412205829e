/// A width and a height.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal extent.
  public var width: Double
  /// The vertical extent.
  public var height: Double

  /// Creates a size.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// No width and no height.
  public static let zero = Size(width: 0, height: 0)

  public var description: String { "\(width)×\(height)" }
}
