import Trellis

/// Which items count as in a ``CollectionView``'s working range: the ones a person is about to
/// see, whose data is worth fetching before they show.
///
/// A distance is a number literal, so `view.workingRange = 20` reaches 20 layout points past
/// every edge of the screen.
public enum WorkingRange: Hashable, Sendable, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral
{
  /// Only the items the frame draws.
  case visible
  /// The items within this many layout points of the visible area, on every side. Zero, a
  /// negative distance or NaN mean ``visible``; an infinite one means ``all``.
  case distance(Double)
  /// Every item the data source holds, on screen or not: for lists small enough to prefetch
  /// whole.
  case all

  public init(integerLiteral value: Int) { self = .distance(Double(value)) }

  public init(floatLiteral value: Double) { self = .distance(value) }

  /// The range with a distance read as documented: ``visible``, a positive finite ``distance(_:)``,
  /// or ``all``.
  public var normalized: WorkingRange {
    guard case .distance(let points) = self else { return self }
    if points == .infinity { return .all }
    return points > 0 && points.isFinite ? self : .visible
  }
}
