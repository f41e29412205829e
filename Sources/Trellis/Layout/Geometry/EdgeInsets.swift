/// Insets on each side, named by direction so they read right in right-to-left layouts.
public struct EdgeInsets: Hashable, Sendable {
  /// Inset from the top.
  public var top: Double
  /// Inset from the leading side (left in left-to-right layouts).
  public var leading: Double
  /// Inset from the bottom.
  public var bottom: Double
  /// Inset from the trailing side.
  public var trailing: Double

  /// Creates insets.
  ///
  /// - Complexity: O(1).
  public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// The same inset on every side.
  ///
  /// - Complexity: O(1).
  public init(all value: Double) {
    self.init(top: value, leading: value, bottom: value, trailing: value)
  }

  /// No insets.
  public static let zero = EdgeInsets()
}
