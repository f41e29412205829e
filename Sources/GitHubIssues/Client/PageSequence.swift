import Foundation

/// The pages of a list endpoint, fetched one at a time as they are consumed.
///
/// It follows `rel="next"` only inside the client's API root, never to a URL it already fetched,
/// and never past the number of pages the first page's `rel="last"` announced plus a margin
/// (``GitHubClient/maximumPages`` when none was announced). Each of those ends the sequence with a ``GitHubError``, so a consumer that reaches
/// the end normally has seen every page the server listed.
public struct PageSequence<Item: Decodable & Sendable>: AsyncSequence, Sendable {
  public typealias Element = Page<Item>
  public typealias Failure = GitHubError

  let client: GitHubClient
  let first: URL
  let conditional: Bool

  public func makeAsyncIterator() -> Iterator {
    Iterator(client: client, next: first, conditional: conditional)
  }

  /// Fetches the next page when asked for it.
  public struct Iterator: AsyncIteratorProtocol {
    let client: GitHubClient
    var next: URL?
    let conditional: Bool
    var visited: Set<String> = []
    var fetched = 0
    var limit: Int?
    /// A refused `next` link: thrown after the page that carried it, which is itself good.
    var refusal: GitHubError?

    init(client: GitHubClient, next: URL, conditional: Bool) {
      self.client = client
      self.next = next
      self.conditional = conditional
    }

    public mutating func next() async throws(GitHubError) -> Page<Item>? {
      if let refusal {
        self.refusal = nil
        throw refusal
      }
      guard let current = next else { return nil }
      next = nil
      if Task.isCancelled {
        throw GitHubError(.offline, url: current.absoluteString, detail: "cancelled")
      }
      let (response, url) = try await client.fetch(current, conditional: conditional)
      visited.insert(Self.key(current))
      visited.insert(Self.key(url))
      fetched += 1
      let rateLimit = RateLimit(headers: response.headers)
      if response.status == 304 {
        return Page(
          url: url, items: [], next: nil, etag: response.headers["etag"], rateLimit: rateLimit,
          isNotModified: true)
      }
      let elements = try client.decode([LossyElement<Item>].self, from: response, url: url)
      var items: [Item] = []
      var skipped: [SkippedItem] = []
      items.reserveCapacity(elements.count)
      for element in elements {
        switch element {
        case .decoded(let item): items.append(item)
        case .failed(let failure): skipped.append(failure)
        }
      }
      let links = LinkHeader(response.headers["link"])
      let lastPage = links.relations["last"].flatMap(Self.pageNumber)
      if fetched == 1 {
        // A margin over what was announced: items updated during the listing shift pages.
        limit = lastPage.map { $0 + Swift.max(2, $0 / 20) } ?? client.maximumPages
      }
      if let following = links.next {
        let failure = { (code: GitHubError.Code, detail: String) in
          GitHubError(code, url: url.absoluteString, detail: detail)
        }
        if !client.host.contains(following) {
          refusal = failure(.untrustedURL, "its next page is \(following.absoluteString)")
        } else if visited.contains(Self.key(following)) {
          refusal = failure(
            .pagination, "its next page \(following.absoluteString) was already fetched: a loop")
        } else if let limit, fetched >= limit {
          refusal = failure(.pagination, "more than the \(limit) pages the first page allowed")
        } else {
          next = following
        }
      }
      return Page(
        url: url, items: items, skipped: skipped, next: links.next, lastPageNumber: lastPage,
        etag: response.headers["etag"], rateLimit: rateLimit, isNotModified: false)
    }

    /// A URL as pagination compares them: query items in order, `page=1` when there is none.
    static func key(_ url: URL) -> String {
      guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
        return url.absoluteString
      }
      var items = components.queryItems ?? []
      if !items.contains(where: { $0.name == "page" }) {
        items.append(URLQueryItem(name: "page", value: "1"))
      }
      components.queryItems = items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
      return components.string ?? url.absoluteString
    }

    /// The `page` parameter of a URL.
    static func pageNumber(_ url: URL) -> Int? {
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
        .first { $0.name == "page" }?.value.flatMap(Int.init)
    }
  }
}
