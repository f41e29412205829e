import Foundation

// The notifications REST API: the inbox listed conditionally (`If-Modified-Since`, so an idle
// inbox answers `304`, which costs no rate limit), and a thread's triage.

extension GitHubClient {
  /// One answer of the inbox: its threads, or "not modified".
  public struct NotificationListing: Sendable {
    /// The unread threads, newest first, when the inbox changed; `nil` for a `304`.
    public var threads: [GitHubNotification]?
    /// Whether every page GitHub announced was read (`false`: the listing stopped early).
    public var isComplete: Bool
    /// What to send as `If-Modified-Since` next time (GitHub's `Last-Modified`).
    public var lastModified: String?
    /// How long GitHub asks to wait before polling again (`X-Poll-Interval`), in seconds.
    public var pollInterval: Int
    /// Threads that could not be read and were left out.
    public var skipped: Int

    /// A listing: `threads` `nil` for a `304`.
    public init(
      threads: [GitHubNotification]?, isComplete: Bool, lastModified: String?,
      pollInterval: Int, skipped: Int = 0
    ) {
      self.threads = threads
      self.isComplete = isComplete
      self.lastModified = lastModified
      self.pollInterval = pollInterval
      self.skipped = skipped
    }
  }

  /// The unread threads of the inbox, all pages, asked with `If-Modified-Since` when
  /// `lastModified` is given (an unchanged inbox answers `304`).
  ///
  /// Bounded by the pages the first one announces (at most 50 of 50 threads).
  package func notifications(ifModifiedSince lastModified: String?) async throws(GitHubError)
    -> NotificationListing
  {
    var url = host.url(
      "/notifications", query: [URLQueryItem(name: "per_page", value: "50")])
    var headers: [String: String] = [:]
    if let lastModified, Self.isHeaderValue(lastModified) {
      headers["If-Modified-Since"] = lastModified
    }
    var listing = NotificationListing(
      threads: nil, isComplete: false, lastModified: lastModified, pollInterval: 60, skipped: 0)
    var threads: [GitHubNotification] = []
    var announced: Int?
    var page = 0
    while true {
      page += 1
      let (response, _) = try await fetch(
        url, write: nil, conditional: false, headers: page == 1 ? headers : [:])
      if page == 1 {
        listing.pollInterval = min(
          3_600, max(1, response.headers["x-poll-interval"].flatMap { Int($0) } ?? 60))
        if response.status == 304 {
          listing.isComplete = true
          return listing
        }
        listing.lastModified = response.headers["last-modified"] ?? listing.lastModified
      }
      guard (200..<300).contains(response.status) else {
        throw GitHubError(
          .unexpectedStatus, url: url.absoluteString, status: response.status,
          sentToken: isAuthenticated)
      }
      let elements = try decode([LossyElement<GitHubNotification>].self, from: response, url: url)
      threads += elements.compactMap(\.item)
      listing.skipped += elements.count { $0.item == nil }
      let links = LinkHeader(response.headers["link"])
      if page == 1 {
        announced = links.relations["last"].flatMap { Self.pageNumber(of: $0) } ?? 1
      }
      guard let next = links.next else {
        listing.isComplete = page == (announced ?? page)
        break
      }
      guard page < min(announced ?? 50, 50) else { break }
      url = next
    }
    listing.threads = threads
    return listing
  }

  /// What a thread's triage does on GitHub.
  public enum Triage: String, Hashable, Sendable, Codable, CaseIterable {
    /// Mark it read (`PATCH /notifications/threads/{id}`).
    case read
    /// Mark it done: it leaves the inbox (`DELETE /notifications/threads/{id}`).
    case done
    /// Stop hearing about it: it leaves the inbox and does not come back. GitHub's
    /// `DELETE …/subscription` alone would leave the thread in the inbox and let the next
    /// activity bring it back, so it is ignored (`PUT …/subscription {"ignored": true}`, which
    /// blocks every notification of the thread, mentions included) and marked done
    /// (`DELETE /notifications/threads/{id}`). Both requests are idempotent: sending one again
    /// after a lost answer duplicates nothing.
    case unsubscribe
  }

  /// Triages a thread on GitHub.
  public func triage(_ triage: Triage, thread id: String) async throws(GitHubError) {
    guard !id.isEmpty, id.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      throw GitHubError(.validation, url: "thread \(id)", detail: "not a thread id")
    }
    let steps: [(String, String, Data?)] =
      switch triage {
      case .read: [("PATCH", "/notifications/threads/\(id)", nil)]
      case .done: [("DELETE", "/notifications/threads/\(id)", nil)]
      case .unsubscribe:
        [
          ("PUT", "/notifications/threads/\(id)/subscription", Data(#"{"ignored":true}"#.utf8)),
          ("DELETE", "/notifications/threads/\(id)", nil),
        ]
      }
    for (method, path, body) in steps {
      let url = host.url(path)
      let (response, _) = try await fetch(
        url, write: Write(method: method, body: body), conditional: false)
      guard (200..<300).contains(response.status) else {
        throw GitHubError(
          .unexpectedStatus, url: url.absoluteString, status: response.status,
          sentToken: isAuthenticated)
      }
    }
  }

  /// Whether the person ignores a thread on GitHub (`GET …/subscription`).
  ///
  /// What an unsubscribe that lost its answer is checked by; `false` when there is no
  /// subscription.
  package func threadIsIgnored(_ id: String) async throws(GitHubError) -> Bool {
    guard !id.isEmpty, id.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
    let url = host.url("/notifications/threads/\(id)/subscription")
    struct Subscription: Decodable { var ignored: Bool? }
    do {
      let (response, _) = try await fetch(url, conditional: false)
      return try decode(Subscription.self, from: response, url: url).ignored ?? false
    } catch {
      if [.notFound, .gone].contains(error.code) { return false }
      throw error
    }
  }

  /// Whether a thread is unread on GitHub now (`nil` once it is gone: done, or deleted).
  package func threadIsUnread(_ id: String) async throws(GitHubError) -> Bool? {
    guard !id.isEmpty, id.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    let url = host.url("/notifications/threads/\(id)")
    do {
      let (response, _) = try await fetch(url, conditional: false)
      return try decode(GitHubNotification.self, from: response, url: url).unread
    } catch {
      if [.notFound, .gone].contains(error.code) { return nil }
      throw error
    }
  }

  static func pageNumber(of url: URL) -> Int? {
    URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name == "page" }?.value.flatMap { Int($0) }
  }

  /// Whether text from the server may go back in a header: printable ASCII only.
  static func isHeaderValue(_ text: String) -> Bool {
    text.utf8.count <= 200 && text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
  }
}
