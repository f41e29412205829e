import Foundation

/// The rate-limit state GitHub reports in `x-ratelimit-*` headers.
public struct RateLimit: Hashable, Sendable {
  /// Requests allowed per window.
  public var limit: Int
  /// Requests left in this window.
  public var remaining: Int
  /// When the window resets.
  package var resetAt: Date
  /// Which limit (`core`, `search`…), when reported.
  package var resource: String?

  /// Reads the headers of a response, or `nil` when they are absent.
  public init?(headers: [String: String]) {
    guard let limit = headers["x-ratelimit-limit"].flatMap({ Int($0) }),
      let remaining = headers["x-ratelimit-remaining"].flatMap({ Int($0) }),
      var reset = headers["x-ratelimit-reset"].flatMap({ Double($0) })
    else { return nil }
    // Some recordings give milliseconds.
    if reset > 100_000_000_000 { reset /= 1000 }
    self.limit = limit
    self.remaining = remaining
    self.resetAt = Date(timeIntervalSince1970: reset)
    self.resource = headers["x-ratelimit-resource"]
  }
}
