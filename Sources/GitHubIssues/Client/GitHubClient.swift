import Foundation

/// A GitHub REST client for issues, milestones and labels, with `link` pagination, conditional
/// requests, rate limits and retries.
///
///     let client = GitHubClient(host: .github, token: TokenDiscovery.token(for: .github))
///     for try await page in client.issuePages(of: repo, query: IssueQuery(state: .all)) {
///       print(page.items.count)
///     }
///
/// Every request sends `Accept: application/vnd.github+json`, `X-GitHub-Api-Version: 2022-11-28`,
/// a `User-Agent`, and `Authorization: Bearer` when there is a token. Pagination follows the
/// `link` header's `rel="next"` exactly as given. 5xx answers and timeouts are retried a bounded
/// number of times with exponential backoff; a 403 or 429 without quota becomes
/// ``GitHubError/Code/rateLimited`` with the time to wait.
///
/// Related GitHub documentation: <https://docs.github.com/rest/using-the-rest-api>
public struct GitHubClient: Sendable {
  /// Where the API is.
  public let host: GitHubHost
  private let token: String?
  private let transport: any HTTPTransport
  private let etags: (any ETagStore)?
  /// Where entity tags are kept, if anywhere.
  public var etagStore: (any ETagStore)? { etags }
  private let userAgent: String
  /// How many times a 5xx or a timeout is retried.
  public var maximumRetries = 2
  /// The first backoff, doubled on each retry.
  public var initialBackoff: Duration = .milliseconds(500)
  private let now: @Sendable () -> Date

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - host: github.com or an Enterprise host.
  ///   - token: A token, or `nil` for anonymous access to public repositories.
  ///   - transport: How requests are sent; URLSession by default.
  ///   - etags: Where entity tags are kept for conditional requests; none by default.
  ///   - userAgent: The `User-Agent` to send.
  ///   - now: The clock used to turn `retry-after` into a time.
  public init(
    host: GitHubHost = .github, token: String? = nil,
    transport: any HTTPTransport = URLSessionTransport(),
    etags: (any ETagStore)? = nil, userAgent: String = "trellis-issues/1.0",
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.host = host
    self.token = token
    self.transport = transport
    self.etags = etags
    self.userAgent = userAgent
    self.now = now
  }

  /// Whether the client sends a token.
  public var isAuthenticated: Bool { token != nil }

  // MARK: Endpoints

  /// The repository.
  public func repository(_ repository: RepositoryName) async throws(GitHubError) -> GitHubRepository
  {
    let url = host.url("/repos/\(repository.owner)/\(repository.name)")
    let response = try await send(url, conditional: false)
    return try decode(GitHubRepository.self, from: response, url: url)
  }

  /// The pages of the repository's issues and pull requests that match a query.
  public func issuePages(
    of repository: RepositoryName, query: IssueQuery
  ) -> AsyncThrowingStream<Page<GitHubIssue>, any Error> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/issues", query: query.queryItems),
      of: GitHubIssue.self, conditional: false)
  }

  /// The pages of all milestones, open and closed, by due date; conditional when `conditional` is
  /// true, so an unchanged list answers `304`.
  public func milestonePages(
    of repository: RepositoryName, conditional: Bool = true
  ) -> AsyncThrowingStream<Page<GitHubMilestone>, any Error> {
    let query = [
      URLQueryItem(name: "state", value: "all"), URLQueryItem(name: "sort", value: "due_on"),
      URLQueryItem(name: "direction", value: "asc"), URLQueryItem(name: "per_page", value: "100"),
    ]
    return pages(
      from: host.url("/repos/\(repository.owner)/\(repository.name)/milestones", query: query),
      of: GitHubMilestone.self, conditional: conditional)
  }

  /// The pages of the repository's labels.
  public func labelPages(
    of repository: RepositoryName, conditional: Bool = true
  ) -> AsyncThrowingStream<Page<GitHubLabel>, any Error> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/labels",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: GitHubLabel.self, conditional: conditional)
  }

  /// Pages of a list endpoint, following `rel="next"` until there is none.
  ///
  /// A conditional request that answers `304` yields one page with ``Page/isNotModified`` set and
  /// ends the sequence. Errors are ``GitHubError``s.
  public func pages<Item: Decodable & Sendable>(
    from url: URL, of type: Item.Type, conditional: Bool
  ) -> AsyncThrowingStream<Page<Item>, any Error> {
    AsyncThrowingStream { continuation in
      let task = Task {
        var next: URL? = url
        do {
          while let current = next {
            try Task.checkCancellation()
            let response = try await send(current, conditional: conditional)
            let rateLimit = RateLimit(headers: response.headers)
            if response.status == 304 {
              continuation.yield(
                Page(
                  url: current, items: [], next: nil, etag: response.headers["etag"],
                  rateLimit: rateLimit,
                  isNotModified: true))
              break
            }
            let items = try decode([Item].self, from: response, url: current)
            next = LinkHeader(response.headers["link"]).next
            continuation.yield(
              Page(
                url: current, items: items, next: next, etag: response.headers["etag"],
                rateLimit: rateLimit,
                isNotModified: false))
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  // MARK: Requests

  /// Sends a GET with retries, and turns failures into ``GitHubError``s; a 304 is returned.
  public func send(_ url: URL, conditional: Bool) async throws(GitHubError) -> HTTPResponse {
    var headers = [
      "Accept": "application/vnd.github+json",
      "X-GitHub-Api-Version": "2022-11-28",
      "User-Agent": userAgent,
    ]
    if let token { headers["Authorization"] = "Bearer \(token)" }
    if conditional, let etag = await etags?.etag(for: url.absoluteString) {
      headers["If-None-Match"] = etag
    }
    let request = HTTPRequest(url: url, headers: headers)
    var attempt = 0
    var backoff = initialBackoff
    while true {
      let failure: GitHubError
      do {
        let response = try await transport.send(request)
        switch response.status {
        case 200..<300:
          if let etag = response.headers["etag"] {
            await etags?.store(etag, for: url.absoluteString)
          }
          return response
        case 304:
          return response
        case 500..<600:
          failure = GitHubError(.serverError, url: url.absoluteString, status: response.status)
        default:
          throw error(for: response, url: url)
        }
      } catch let error as GitHubError {
        throw error
      } catch is CancellationError {
        throw GitHubError(.offline, url: url.absoluteString, detail: "cancelled")
      } catch let error as URLError where error.code == .cancelled {
        throw GitHubError(.offline, url: url.absoluteString, detail: "cancelled")
      } catch let error as URLError {
        let retryable: Set<URLError.Code> = [.timedOut, .networkConnectionLost]
        failure = GitHubError(
          retryable.contains(error.code) ? .serverError : .offline, url: url.absoluteString,
          detail: error.code == .timedOut ? "timed out" : "\(error.localizedDescription)")
        if !retryable.contains(error.code) { throw failure }
      } catch {
        throw GitHubError(.offline, url: url.absoluteString, detail: "\(error)")
      }
      guard attempt < maximumRetries else { throw failure }
      attempt += 1
      do {
        try await Task.sleep(for: backoff)
      } catch {
        throw GitHubError(.offline, url: url.absoluteString, detail: "cancelled")
      }
      backoff *= 2
    }
  }

  /// The error for a 4xx response.
  private func error(for response: HTTPResponse, url: URL) -> GitHubError {
    let message = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.message
    let rateLimit = RateLimit(headers: response.headers)
    switch response.status {
    case 401:
      return GitHubError(.unauthorized, url: url.absoluteString, status: 401, detail: message)
    case 404:
      return GitHubError(.notFound, url: url.absoluteString, status: 404, detail: message)
    case 403, 429:
      if let retryAfter = response.headers["retry-after"].flatMap(Double.init) {
        return GitHubError(
          .rateLimited, url: url.absoluteString, status: response.status,
          resetAt: now().addingTimeInterval(retryAfter), detail: message)
      }
      if let rateLimit, rateLimit.remaining == 0 {
        return GitHubError(
          .rateLimited, url: url.absoluteString, status: response.status,
          resetAt: rateLimit.resetAt, detail: message)
      }
      if response.status == 429 {
        return GitHubError(
          .rateLimited, url: url.absoluteString, status: 429, resetAt: now().addingTimeInterval(60),
          detail: message)
      }
      return GitHubError(.forbidden, url: url.absoluteString, status: 403, detail: message)
    case 422:
      return GitHubError(.validation, url: url.absoluteString, status: 422, detail: message)
    default:
      return GitHubError(
        .unexpectedStatus, url: url.absoluteString, status: response.status, detail: message)
    }
  }

  private struct ErrorBody: Decodable {
    var message: String?
  }

  /// Decodes a body, naming the field and URL on failure.
  func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, url: URL)
    throws(GitHubError) -> T
  {
    do {
      return try GitHubJSON.decoder.decode(T.self, from: response.body)
    } catch let error as DecodingError {
      throw GitHubError(
        .decoding, url: url.absoluteString, status: response.status,
        detail: GitHubJSON.describe(error))
    } catch {
      throw GitHubError(
        .decoding, url: url.absoluteString, status: response.status, detail: "\(error)")
    }
  }
}

/// The JSON conventions of the GitHub API.
public enum GitHubJSON {
  /// A decoder for GitHub's ISO 8601 dates.
  public static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  /// An encoder writing the same dates.
  public static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// "field `[3].user.login`: missing", from a decoding error.
  static func describe(_ error: DecodingError) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
      let joined = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
        .joined()
      return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "field `\(path(context.codingPath + [key]))`: missing"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "field `\(path(context.codingPath))`: \(context.debugDescription)"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "invalid JSON" : "field `\(path(context.codingPath))`: \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}
