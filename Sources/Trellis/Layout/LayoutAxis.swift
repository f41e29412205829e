/// An axis of a layout — the one its content scrolls along, or the one a group lays its items out
/// along — and the geometry written in its terms: *main* is along the axis, *cross* across it.
///
/// Layouts compute in (main, cross) coordinates and turn them into frames here, so one piece of
/// code serves both scroll directions:
///
///     let axis = LayoutAxis.horizontal
///     axis.rect(main: 10, cross: 0, mainLength: 80, crossLength: 40)  // (10, 0, 80, 40)
///     axis.mainRange(of: Rect(x: 10, y: 5, width: 80, height: 40))   // 10 ..< 90
public enum LayoutAxis: Hashable, Sendable {
  /// Top to bottom: content grows downwards.
  case vertical
  /// Leading to trailing: content grows to the trailing side.
  case horizontal

  /// The other axis.
  @inlinable
  public var cross: LayoutAxis { self == .vertical ? .horizontal : .vertical }

  /// A rectangle from its start and length along the axis and across it.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func rect(main: Double, cross: Double, mainLength: Double, crossLength: Double) -> Rect {
    self == .vertical
      ? Rect(x: cross, y: main, width: crossLength, height: mainLength)
      : Rect(x: main, y: cross, width: mainLength, height: crossLength)
  }

  /// A size from its lengths along the axis and across it.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func size(main: Double, cross: Double) -> Size {
    self == .vertical ? Size(width: cross, height: main) : Size(width: main, height: cross)
  }

  /// A point from its coordinates along the axis and across it.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func point(main: Double, cross: Double) -> Point {
    self == .vertical ? Point(x: cross, y: main) : Point(x: main, y: cross)
  }

  /// A size's length along the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func main(_ size: Size) -> Double { self == .vertical ? size.height : size.width }

  /// A size's length across the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func cross(_ size: Size) -> Double { self == .vertical ? size.width : size.height }

  /// A point's coordinate along the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func main(_ point: Point) -> Double { self == .vertical ? point.y : point.x }

  /// A point's coordinate across the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func cross(_ point: Point) -> Double { self == .vertical ? point.x : point.y }

  /// Where a rectangle starts and ends along the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func mainRange(of rect: Rect) -> (low: Double, high: Double) {
    self == .vertical ? (rect.minY, rect.maxY) : (rect.minX, rect.maxX)
  }

  /// Where a rectangle starts and ends across the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func crossRange(of rect: Rect) -> (low: Double, high: Double) {
    self == .vertical ? (rect.minX, rect.maxX) : (rect.minY, rect.maxY)
  }

  /// Insets before and after along the axis (top and bottom for vertical).
  ///
  /// - Complexity: O(1).
  @inlinable
  public func mainInsets(_ insets: EdgeInsets) -> (before: Double, after: Double) {
    self == .vertical ? (insets.top, insets.bottom) : (insets.leading, insets.trailing)
  }

  /// Insets before and after across the axis (leading and trailing for vertical).
  ///
  /// - Complexity: O(1).
  @inlinable
  public func crossInsets(_ insets: EdgeInsets) -> (before: Double, after: Double) {
    self == .vertical ? (insets.leading, insets.trailing) : (insets.top, insets.bottom)
  }

  /// A rectangle moved along the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func offset(_ rect: Rect, main: Double) -> Rect {
    self == .vertical ? rect.offsetBy(dx: 0, dy: main) : rect.offsetBy(dx: main, dy: 0)
  }

  /// A rectangle moved across the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func offset(_ rect: Rect, cross: Double) -> Rect {
    self == .vertical ? rect.offsetBy(dx: cross, dy: 0) : rect.offsetBy(dx: 0, dy: cross)
  }

  /// A point moved along the axis.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func offset(_ point: Point, main: Double) -> Point {
    self == .vertical ? Point(x: point.x, y: point.y + main) : Point(x: point.x + main, y: point.y)
  }

  /// A point with its coordinate along the axis set.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func moving(_ point: Point, mainTo value: Double) -> Point {
    self == .vertical ? Point(x: point.x, y: value) : Point(x: value, y: point.y)
  }

  /// A rectangle with its start along the axis set.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func moving(_ rect: Rect, mainTo start: Double) -> Rect {
    var moved = rect
    if self == .vertical { moved.origin.y = start } else { moved.origin.x = start }
    return moved
  }
}

/// Which way a layout's content scrolls: ``LayoutAxis/vertical`` (downwards) or
/// ``LayoutAxis/horizontal`` (to the trailing side).
public typealias ScrollDirection = LayoutAxis
