import Foundation

/// One page of a list endpoint.
public struct Page<Item: Sendable>: Sendable {
  /// The URL the page came from.
  public var url: URL
  /// What the page holds; empty when ``isNotModified``.
  public var items: [Item]
  /// The next page, from the `link` header.
  public var next: URL?
  /// The page's entity tag.
  public var etag: String?
  /// The rate-limit state after this request.
  public var rateLimit: RateLimit?
  /// Whether the server answered `304 Not Modified` to a conditional request.
  public var isNotModified: Bool
}
