/// A cell of the screen: a column and a row, from 0 at the top left.
public struct CellPoint: Hashable, Sendable, CustomStringConvertible {
  /// The column.
  public var x: Int
  /// The row.
  public var y: Int

  /// The cell at column `x`, row `y`.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }

  public var description: String { "(\(x), \(y))" }
}
