/// A rectangle of terminal cells: a column, a row, a width and a height, all in cells.
public struct CellRect: Hashable, Sendable, CustomStringConvertible {
  /// The leftmost column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int

  /// Creates a rectangle; a negative width or height is treated as zero.
  ///
  /// - Complexity: O(1).
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The column just past the right edge.
  public var maxX: Int { x + width }
  /// The row just past the bottom edge.
  public var maxY: Int { y + height }
  /// Whether the rectangle holds no cell.
  public var isEmpty: Bool { width == 0 || height == 0 }

  /// The cells in both rectangles (empty if they do not overlap).
  ///
  /// - Complexity: O(1).
  public func intersection(_ other: CellRect) -> CellRect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(maxX, other.maxX)
    let bottom = min(maxY, other.maxY)
    return right > left && bottom > top
      ? CellRect(x: left, y: top, width: right - left, height: bottom - top)
      : CellRect(x: left, y: top, width: 0, height: 0)
  }

  /// Whether a cell is inside.
  ///
  /// - Complexity: O(1).
  public func contains(x column: Int, y row: Int) -> Bool {
    column >= x && column < maxX && row >= y && row < maxY
  }

  /// The rectangle shrunk by the given number of cells on each side.
  ///
  /// - Complexity: O(1).
  public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> CellRect {
    CellRect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
  }

  public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
