import Foundation

/// The `rateLimit` object a query asks for: what it cost, and what is left of the hour.
package struct GraphQLRateLimit: Decodable, Hashable, Sendable {
  /// Points this query cost.
  package var cost: Int
  /// Points left until ``resetAt``.
  package var remaining: Int
  /// Points an hour.
  package var limit: Int?
  /// When the points come back.
  package var resetAt: Date?

  /// Creates one.
  package init(cost: Int, remaining: Int, limit: Int? = nil, resetAt: Date? = nil) {
    self.cost = cost
    self.remaining = remaining
    self.limit = limit
    self.resetAt = resetAt
  }
}
