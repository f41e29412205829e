/// A rectangle: an origin and a size, with CGRect's semantics for intersection.
///
///     let a = Rect(x: 0, y: 0, width: 10, height: 10)
///     a.intersects(Rect(x: 10, y: 0, width: 5, height: 5))  // false: they only touch
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The corner with the smallest coordinates.
  public var origin: Point
  /// The extent.
  public var size: Size

  /// Creates a rectangle from its origin and size.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from coordinates.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init(x: Double, y: Double, width: Double, height: Double) {
    origin = Point(x: x, y: y)
    size = Size(width: width, height: height)
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  /// The smallest x.
  @inlinable public var minX: Double { origin.x }
  /// The smallest y.
  @inlinable public var minY: Double { origin.y }
  /// The largest x.
  @inlinable public var maxX: Double { origin.x + size.width }
  /// The largest y.
  @inlinable public var maxY: Double { origin.y + size.height }
  /// The width.
  @inlinable public var width: Double { size.width }
  /// The height.
  @inlinable public var height: Double { size.height }
  /// The centre.
  public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

  /// Whether the rectangle has no area.
  @inlinable public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

  /// Whether the two rectangles share area; rectangles that only touch do not intersect, and an
  /// empty rectangle intersects nothing.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func intersects(_ other: Rect) -> Bool {
    !isEmpty && !other.isEmpty && minX < other.maxX && other.minX < maxX && minY < other.maxY
      && other.minY < maxY
  }

  /// The shared area, or `nil` when they do not intersect.
  ///
  /// - Complexity: O(1).
  public func intersection(_ other: Rect) -> Rect? {
    guard intersects(other) else { return nil }
    let x = Swift.max(minX, other.minX)
    let y = Swift.max(minY, other.minY)
    return Rect(
      x: x, y: y, width: Swift.min(maxX, other.maxX) - x, height: Swift.min(maxY, other.maxY) - y)
  }

  /// The smallest rectangle containing both.
  ///
  /// - Complexity: O(1).
  public func union(_ other: Rect) -> Rect {
    let x = Swift.min(minX, other.minX)
    let y = Swift.min(minY, other.minY)
    return Rect(
      x: x, y: y, width: Swift.max(maxX, other.maxX) - x, height: Swift.max(maxY, other.maxY) - y)
  }

  /// Whether a point is inside (the maximum edges excluded).
  ///
  /// - Complexity: O(1).
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// The rectangle moved by an offset.
  ///
  /// - Complexity: O(1).
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
  }

  /// The rectangle shrunk by insets (leading = left, trailing = right).
  ///
  /// - Complexity: O(1).
  public func inset(by insets: EdgeInsets) -> Rect {
    Rect(
      x: minX + insets.leading, y: minY + insets.top,
      width: width - insets.leading - insets.trailing,
      height: height - insets.top - insets.bottom)
  }

  public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}
