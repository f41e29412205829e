/// Remembers the `etag` of each URL, so that a repeated request can ask "changed since?" and a
/// `304 Not Modified` costs no rate limit and rewrites nothing.
public protocol ETagStore: Sendable {
  /// The stored entity tag of a URL.
  func etag(for url: String) async -> String?
  /// Stores the entity tag of a URL.
  func store(_ etag: String, for url: String) async
}

/// Entity tags kept in memory, for a client without a cache and for tests.
package actor InMemoryETagStore: ETagStore {
  private var etags: [String: String] = [:]

  /// Creates an empty store.
  package init() {}

  package func etag(for url: String) -> String? { etags[url] }
  package func store(_ etag: String, for url: String) { etags[url] = etag }
}
