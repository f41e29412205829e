import Foundation

/// The `rateLimit` object a query asks for: what it cost, and what is left of the hour.
public struct GraphQLRateLimit: Decodable, Hashable, Sendable {
  /// Points this query cost.
  public var cost: Int
  /// Points left until ``resetAt``.
  public var remaining: Int
  /// Points an hour.
  public var limit: Int?
  /// When the points come back.
  public var resetAt: Date?

  /// Creates one.
  public init(cost: Int, remaining: Int, limit: Int? = nil, resetAt: Date? = nil) {
    self.cost = cost
    self.remaining = remaining
    self.limit = limit
    self.resetAt = resetAt
  }
}
