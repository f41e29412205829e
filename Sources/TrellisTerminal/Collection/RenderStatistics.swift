/// What a ``CollectionView``'s last frame cost: how many elements it asked to draw and how many it
/// reused from the previous frame.
///
/// Tests use it to check that a change redraws only what it touched.
public struct RenderStatistics: Hashable, Sendable {
  /// Elements (cells, supplementaries, decorations) whose provider was called and which drew.
  public var drawn = 0
  /// Elements copied from the previous frame, unchanged, possibly at a new position.
  public var reused = 0
  /// Layout queries made for the frame.
  public var layoutQueries = 0

  /// Creates empty statistics.
  public init() {}
}
