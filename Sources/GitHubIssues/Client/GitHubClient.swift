import Foundation

/// A GitHub REST client for issues, milestones and labels, with `link` pagination, conditional
/// requests, rate limits and retries.
///
///     let client = GitHubClient(host: .github, token: try TokenDiscovery.token(for: .github))
///     for try await page in client.issuePages(of: repo, query: IssueQuery(state: .all)) {
///       print(page.items.count)
///     }
///
/// Every request sends `Accept: application/vnd.github+json`, `X-GitHub-Api-Version: 2022-11-28`,
/// a `User-Agent`, and `Authorization: Bearer` when there is a token.
///
/// Nothing the server sends is trusted:
/// - Requests go only to URLs inside the host's API root (``GitHubHost/contains(_:)``): a `link`
///   or a redirect elsewhere ends with ``GitHubError/Code/untrustedURL`` and nothing is sent there.
///   Redirects inside the root (a renamed repository) are followed, at most five in a row.
/// - Pagination is bounded: a `next` link back to a page already fetched, more pages than the
///   first page's `rel="last"` announced (plus a margin) ends with ``GitHubError/Code/pagination``. Pages are fetched one at a time, as they are
///   consumed, so memory holds one page whatever the server sends.
/// - One element of a page that cannot be decoded is skipped and reported in
///   ``Page/skipped``; it never fails the page.
///
/// 5xx answers and transient network errors (a reset connection, a DNS hiccup) on reads are
/// retried a bounded number of times with exponential backoff; a write is sent once per call
/// whatever happens, and a connection that drops after sending it is reported at once. A server that sends nothing for ``timeout``
/// fails the request; a 403 or 429 without quota becomes ``GitHubError/Code/rateLimited`` with the
/// limit and the time to wait.
///
/// Related GitHub documentation: <https://docs.github.com/rest/using-the-rest-api>
public struct GitHubClient: Sendable {
  /// Where the API is.
  public let host: GitHubHost
  let token: String?
  private let transport: any HTTPTransport
  private let etags: (any ETagStore)?
  /// Where entity tags are kept, if anywhere.
  package var etagStore: (any ETagStore)? { etags }
  private let userAgent: String
  /// How many times a 5xx or a transient network error is retried.
  package var maximumRetries = 3
  /// The first backoff, doubled on each retry.
  package var initialBackoff: Duration = .milliseconds(500)
  /// How long a request may wait for data before it fails; a request that timed out is not
  /// retried, so a server that never answers is reported after about this long.
  public var timeout: Duration = .seconds(HTTPClientTransport.defaultTimeout)
  /// The most pages one listing may take when its first page announces no `rel="last"`.
  package var maximumPages = 20_000
  private let now: @Sendable () -> Date

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - host: github.com or an Enterprise host.
  ///   - token: A token, or `nil` for anonymous access to public repositories.
  ///   - transport: How requests are sent; AsyncHTTPClient by default.
  ///   - etags: Where entity tags are kept for conditional requests; none by default.
  ///   - userAgent: The `User-Agent` to send.
  ///   - now: The clock used to turn `retry-after` into a time.
  public init(
    host: GitHubHost = .github, token: String? = nil,
    transport: any HTTPTransport = HTTPClientTransport(),
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

  /// The same client with another store of entity tags.
  func replacingETagStore(with store: any ETagStore) -> GitHubClient {
    var copy = GitHubClient(
      host: host, token: token, transport: transport, etags: store, userAgent: userAgent, now: now)
    copy.maximumRetries = maximumRetries
    copy.initialBackoff = initialBackoff
    copy.timeout = timeout
    copy.maximumPages = maximumPages
    return copy
  }

  /// Whether the client sends a token.
  package var isAuthenticated: Bool { token != nil }

  // MARK: Endpoints

  /// The repository.
  ///
  /// When it was renamed or transferred, GitHub redirects and the answer's
  /// ``GitHubRepository/fullName`` is the new name.
  public func repository(_ repository: RepositoryName) async throws(GitHubError) -> GitHubRepository
  {
    let url = host.url("/repos/\(repository.owner)/\(repository.name)")
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(GitHubRepository.self, from: response, url: url)
  }

  /// The account the token belongs to (`GET /user`): who `@me` is.
  ///
  /// Without a token GitHub answers 401, which says to set one.
  package func authenticatedUser() async throws(GitHubError) -> GitHubUser {
    let url = host.url("/user")
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(GitHubUser.self, from: response, url: url)
  }

  /// The pages of the repository's issues and pull requests that match a query.
  package func issuePages(
    of repository: RepositoryName, query: IssueQuery
  ) -> PageSequence<GitHubIssue> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/issues", query: query.queryItems),
      of: GitHubIssue.self, conditional: false)
  }

  /// The pages of all milestones, open and closed, by due date; conditional when `conditional` is
  /// true, so an unchanged list answers `304`.
  package func milestonePages(
    of repository: RepositoryName, conditional: Bool = true
  ) -> PageSequence<GitHubMilestone> {
    let query = [
      URLQueryItem(name: "state", value: "all"), URLQueryItem(name: "sort", value: "due_on"),
      URLQueryItem(name: "direction", value: "asc"), URLQueryItem(name: "per_page", value: "100"),
    ]
    return pages(
      from: host.url("/repos/\(repository.owner)/\(repository.name)/milestones", query: query),
      of: GitHubMilestone.self, conditional: conditional)
  }

  /// One issue (or pull request) by number.
  public func issue(_ number: Int, of repository: RepositoryName) async throws(GitHubError)
    -> GitHubIssue
  {
    try await issuePath("/repos/\(repository.owner)/\(repository.name)/issues/\(number)")
  }

  /// Issue `number`, or `nil` when GitHub has none by it (404, or 410 for one deleted).
  package func issueIfPresent(_ number: Int, of repository: RepositoryName)
    async throws(GitHubError) -> GitHubIssue?
  {
    do {
      return try await issue(number, of: repository)
    } catch  where [.notFound, .gone].contains(error.code) {
      return nil
    }
  }

  /// The issue a path of the API answers with.
  func issuePath(_ path: String) async throws(GitHubError) -> GitHubIssue {
    let url = host.url(path)
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(GitHubIssue.self, from: response, url: url)
  }

  /// The pages of an issue's comments, oldest first, 100 a page.
  package func commentPages(
    of repository: RepositoryName, issue number: Int
  ) -> PageSequence<GitHubComment> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/comments",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: GitHubComment.self, conditional: false)
  }

  /// One comment by identifier, from the repository's comments (`404` once deleted).
  public func comment(_ id: Int64, of repository: RepositoryName) async throws(GitHubError)
    -> GitHubComment
  {
    let url = host.url("/repos/\(repository.owner)/\(repository.name)/issues/comments/\(id)")
    let (response, _) = try await fetch(url, conditional: false)
    return try decode(GitHubComment.self, from: response, url: url)
  }

  /// The pages of an issue's timeline (events and comments, oldest first), 100 a page.
  package func timelinePages(
    of repository: RepositoryName, issue number: Int
  ) -> PageSequence<GitHubTimelineEvent> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/timeline",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: GitHubTimelineEvent.self, conditional: false)
  }

  /// The pages of every comment in the repository (on issues and pull requests), least recently
  /// updated first, 100 a page; only those updated at or after `since` when given.
  package func repositoryCommentPages(
    of repository: RepositoryName, since: Date? = nil
  ) -> PageSequence<GitHubComment> {
    var query = [
      URLQueryItem(name: "sort", value: "updated"), URLQueryItem(name: "direction", value: "asc"),
      URLQueryItem(name: "per_page", value: "100"),
    ]
    if let since {
      query.append(URLQueryItem(name: "since", value: GitHubDate.iso8601(since)))
    }
    return pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/issues/comments", query: query),
      of: GitHubComment.self, conditional: false)
  }

  /// The pages of an issue's sub-issues, in their order; conditional, so an unchanged list
  /// answers `304`.
  package func subIssuePages(
    of repository: RepositoryName, parent: Int
  ) -> PageSequence<GitHubIssue> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/issues/\(parent)/sub_issues",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: GitHubIssue.self, conditional: true)
  }

  /// The pages of the repository's labels.
  package func labelPages(
    of repository: RepositoryName, conditional: Bool = true
  ) -> PageSequence<GitHubLabel> {
    pages(
      from: host.url(
        "/repos/\(repository.owner)/\(repository.name)/labels",
        query: [URLQueryItem(name: "per_page", value: "100")]),
      of: GitHubLabel.self, conditional: conditional)
  }

  /// Pages of a list endpoint, following `rel="next"` until there is none, within the bounds the
  /// type's documentation gives.
  ///
  /// A conditional request that answers `304` yields one page with ``Page/isNotModified`` set and
  /// ends the sequence.
  public func pages<Item: Decodable & Sendable>(
    from url: URL, of type: Item.Type, conditional: Bool
  ) -> PageSequence<Item> {
    PageSequence(client: self, first: url, conditional: conditional)
  }

  // MARK: Requests

  /// Sends a GET with retries, and turns failures into ``GitHubError``s; a 304 is returned.
  public func send(_ url: URL, conditional: Bool) async throws(GitHubError) -> HTTPResponse {
    try await fetch(url, conditional: conditional).response
  }

  /// Sends a GET, following redirects inside the API root; returns the response and the URL that
  /// gave it.
  func fetch(_ url: URL, conditional: Bool) async throws(GitHubError) -> (
    response: HTTPResponse, url: URL
  ) {
    try await fetch(url, write: nil, conditional: conditional)
  }

  /// A write: its method and its JSON body.
  ///
  /// It is never sent again after a failure: one that may have reached the server is read back
  /// by the caller instead.
  struct Write {
    var method: String
    var body: Data?
    /// A read sent as a `POST` (a GraphQL query): it changes nothing, so it is retried as a
    /// `GET` would be.
    var isQuery = false
  }

  /// Sends a request, following redirects inside the API root.
  ///
  /// Returns the response and the URL that gave it. A write follows only `307` and `308`, which keep its method and body: a write
  /// answered with another redirect is never turned into a read.
  func fetch(
    _ url: URL, write: Write?, conditional: Bool, headers extra: [String: String] = [:]
  ) async throws(GitHubError) -> (response: HTTPResponse, url: URL) {
    var current = url
    let method = write?.method ?? "GET"
    for _ in 0...5 {
      let response = try await sendOnce(
        current, write: write, conditional: conditional, headers: extra)
      guard [301, 302, 303, 307, 308].contains(response.status) else { return (response, current) }
      if write != nil, ![307, 308].contains(response.status) {
        throw GitHubError(
          .unexpectedStatus, method: method, url: current.absoluteString, status: response.status,
          detail: "a redirect that would turn the \(method) into a GET; not followed",
          sentToken: isAuthenticated)
      }
      guard let location = response.headers["location"],
        let target = URL(string: location, relativeTo: current)?.absoluteURL
      else {
        throw GitHubError(
          .unexpectedStatus, method: method, url: current.absoluteString, status: response.status,
          detail: "a redirect without a usable location", sentToken: isAuthenticated)
      }
      guard host.contains(target) else {
        throw GitHubError(
          .untrustedURL, method: method, url: current.absoluteString, status: response.status,
          detail: "redirect to \(target.absoluteString)", sentToken: isAuthenticated)
      }
      current = target
    }
    throw GitHubError(
      .unexpectedStatus, method: method, url: url.absoluteString,
      detail: "more than five redirects in a row", sentToken: isAuthenticated)
  }

  /// One request (no redirects followed), with retries.
  private func sendOnce(
    _ url: URL, write: Write?, conditional: Bool, headers extra: [String: String]
  ) async throws(GitHubError) -> HTTPResponse {
    let method = write?.method ?? "GET"
    do {
      return try await sendOnce(
        url, method: method, write: write, conditional: conditional, headers: extra)
    } catch {
      var error = error
      error.method = method
      error.host = host
      throw error
    }
  }

  private func sendOnce(
    _ url: URL, method: String, write: Write?, conditional: Bool, headers extra: [String: String]
  ) async throws(GitHubError) -> HTTPResponse {
    guard host.contains(url) || url == host.graphQLURL else {
      throw GitHubError(
        .untrustedURL, url: url.absoluteString, detail: "outside \(host.apiBaseURL.absoluteString)",
        sentToken: false)
    }
    var headers = [
      "Accept": "application/vnd.github+json",
      "X-GitHub-Api-Version": "2022-11-28",
      "User-Agent": userAgent,
    ]
    if let token {
      guard TokenDiscovery.isValid(token) else {
        throw GitHubError(
          .invalidToken, url: url.absoluteString,
          detail: "it holds a line break or another character a header cannot carry")
      }
      headers["Authorization"] = "Bearer \(token)"
    }
    if conditional, let etag = await etags?.etag(for: url.absoluteString) {
      headers["If-None-Match"] = etag
    }
    headers.merge(extra) { _, given in given }
    let clock = ContinuousClock()
    var attempt = 0
    var backoff = initialBackoff
    while true {
      let started = clock.now
      var request = HTTPRequest(method: method, url: url, headers: headers, body: write?.body)
      if write?.body != nil { request.headers["Content-Type"] = "application/json; charset=utf-8" }
      request.timeout = Self.seconds(timeout)
      let failure: GitHubError
      do {
        let response = try await transport.send(request)
        switch response.status {
        case 200..<300:
          // Only lists asked for conditionally keep their tag: nothing else would ever use it.
          if conditional, let etag = response.headers["etag"] {
            await etags?.store(etag, for: url.absoluteString)
          }
          return response
        case 300..<400:
          return response
        case 500..<600:
          failure = GitHubError(
            .serverError, url: url.absoluteString, status: response.status,
            sentToken: isAuthenticated)
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
        if error.code == .timedOut {
          // A silent server is not retried: it already had the whole wait.
          let waited = Self.seconds(started.duration(to: clock.now))
          throw GitHubError(
            .offline, url: url.absoluteString,
            detail: "no answer in \(Int(waited.rounded())) s")
        }
        if let write, !write.isQuery, Self.connectionNotMadeErrors.contains(error.code) {
          // No connection was made: the write never left, and did not land.
          var failure = GitHubError(
            .offline, method: write.method, url: url.absoluteString,
            detail: Self.describe(error) + "; nothing was sent")
          failure.neverLeft = true
          throw failure
        }
        if let write, !write.isQuery, Self.transientErrors.contains(error.code) {
          // Sent, and no answer: reported at once, never sent again from here.
          throw GitHubError(
            .serverError, url: url.absoluteString,
            detail: "the connection dropped after sending; GitHub may have applied it")
        }
        failure = GitHubError(
          Self.transientErrors.contains(error.code) ? .serverError : .offline,
          url: url.absoluteString, detail: Self.describe(error))
        if !Self.transientErrors.contains(error.code) { throw failure }
      } catch {
        throw GitHubError(.offline, url: url.absoluteString, detail: "\(error)")
      }
      // A write leaves this process at most once per attempt: one that failed may have landed,
      // and what it changed is read again by the caller rather than sent twice.
      guard attempt < maximumRetries, write?.isQuery ?? true else { throw failure }
      attempt += 1
      do {
        try await Task.sleep(for: backoff)
      } catch {
        throw GitHubError(.offline, url: url.absoluteString, detail: "cancelled")
      }
      backoff *= 2
    }
  }

  /// Network errors worth another try: the connection dropped, the name did not resolve this
  /// time, the response was cut (which Foundation on Linux reports as `.unknown`).
  static let transientErrors: Set<URLError.Code> = [
    .networkConnectionLost, .dnsLookupFailed, .cannotFindHost, .cannotParseResponse,
    .badServerResponse, .zeroByteResource, .resourceUnavailable, .unknown,
  ]

  /// Network errors that say no connection to the host was made, so that nothing was sent: the
  /// name did not resolve, nothing listened on the port, the machine has no network.
  static let connectionNotMadeErrors: Set<URLError.Code> = [
    .dnsLookupFailed, .cannotFindHost, .cannotConnectToHost, .notConnectedToInternet,
  ]

  /// A transport failure in one plain sentence (never Foundation's `NSURLErrorDomain` text).
  static func describe(_ error: URLError) -> String {
    switch error.code {
    case .networkConnectionLost: "the connection was lost"
    case .cannotConnectToHost: "could not connect"
    case .cannotFindHost, .dnsLookupFailed: "the host name did not resolve"
    case .notConnectedToInternet: "no network"
    case .timedOut: "no answer in time"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
      .clientCertificateRejected:
      "the secure connection (TLS) failed"
    case .cannotParseResponse: "the answer could not be read (cut off mid-transfer?)"
    case .badServerResponse: "the server's answer was not valid HTTP"
    case .zeroByteResource: "the answer was empty"
    case .dataLengthExceedsMaximum: "the answer was larger than a page can be"
    case .badURL, .unsupportedURL: "the address is not valid"
    default: "the connection failed"
    }
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// The error for a 4xx response, with the host's advice.
  private func error(for response: HTTPResponse, url: URL) -> GitHubError {
    var error = statusError(for: response, url: url)
    error.host = host
    if [403, 404].contains(response.status) {
      error.missingAccess = Self.missingAccess(in: response.headers)
    }
    return error
  }

  /// What the token lacks, when GitHub's headers say: a scope the request accepts that the
  /// token does not have, or the permission a fine-grained token needs.
  static func missingAccess(in headers: [String: String]) -> GitHubError.MissingAccess? {
    func list(_ name: String) -> [String]? {
      headers[name].map {
        $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
          .filter { !$0.isEmpty }
      }
    }
    if let accepted = list("x-accepted-oauth-scopes"), !accepted.isEmpty,
      let has = list("x-oauth-scopes"), Set(accepted).isDisjoint(with: has)
    {
      return .scope(accepted: accepted, has: has)
    }
    if let permission = headers["x-accepted-github-permissions"]?
      .trimmingCharacters(in: .whitespaces), !permission.isEmpty
    {
      return .permission(permission)
    }
    return nil
  }

  private func statusError(for response: HTTPResponse, url: URL) -> GitHubError {
    let message = (try? GitHubJSON.decoder.decode(ErrorBody.self, from: response.body))?.summary
    let rateLimit = RateLimit(headers: response.headers)
    let sentToken = isAuthenticated
    switch response.status {
    case 401:
      return GitHubError(
        .unauthorized, url: url.absoluteString, status: 401, detail: message, sentToken: sentToken)
    case 404:
      return GitHubError(
        .notFound, url: url.absoluteString, status: 404, detail: message, sentToken: sentToken)
    case 403, 429:
      let primary = GitHubError.RateLimitKind.primary(
        resource: rateLimit?.resource, limit: rateLimit?.limit)
      // The primary quota is used up when GitHub says none remains; anything else that limits
      // (a retry-after, a 429, a message about secondary limits) is a secondary limit.
      if let rateLimit, rateLimit.remaining == 0 {
        return GitHubError(
          .rateLimited, url: url.absoluteString, status: response.status,
          resetAt: rateLimit.resetAt, detail: message, rateLimit: primary, sentToken: sentToken)
      }
      let isSecondary =
        response.status == 429 || response.headers["retry-after"] != nil
        || (message?.lowercased().contains("secondary rate limit") ?? false)
      if isSecondary {
        let wait = response.headers["retry-after"].flatMap(Double.init) ?? 60
        return GitHubError(
          .rateLimited, url: url.absoluteString, status: response.status,
          resetAt: now().addingTimeInterval(wait), detail: message, rateLimit: .secondary,
          sentToken: sentToken)
      }
      return GitHubError(
        .forbidden, url: url.absoluteString, status: 403, detail: message, sentToken: sentToken)
    case 410:
      return GitHubError(
        .gone, url: url.absoluteString, status: 410, detail: message, sentToken: sentToken)
    case 422:
      return GitHubError(
        .validation, url: url.absoluteString, status: 422, detail: message, sentToken: sentToken)
    default:
      return GitHubError(
        .unexpectedStatus, url: url.absoluteString, status: response.status, detail: message,
        sentToken: sentToken)
    }
  }

  /// GitHub's error body: a message, and for a 422 the fields that failed.
  struct ErrorBody: Decodable {
    var message: String?
    var errors: [FieldError]?

    /// One of `errors`: an object naming the field, or (as review refusals give them) just
    /// words.
    struct FieldError: Decodable {
      var resource: String?
      var field: String?
      var code: String?
      var message: String?

      enum CodingKeys: String, CodingKey { case resource, field, code, message }

      init(from decoder: any Decoder) throws {
        if let words = try? decoder.singleValueContainer().decode(String.self) {
          message = words
          return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        resource = try? container.decodeIfPresent(String.self, forKey: .resource)
        field = try? container.decodeIfPresent(String.self, forKey: .field)
        code = try? container.decodeIfPresent(String.self, forKey: .code)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
      }
    }

    /// "Validation Failed: Label color invalid; …", at most 300 characters: the server's words
    /// are shown, so their length is bounded.
    var summary: String? {
      let details = (errors ?? []).prefix(5).map { error in
        error.message
          ?? [error.resource, error.field, error.code].compactMap { $0 }.joined(separator: " ")
      }.filter { !$0.isEmpty }
      let text = ([message].compactMap { $0 } + [details.joined(separator: "; ")])
        .filter { !$0.isEmpty }.joined(separator: ": ")
      guard !text.isEmpty else { return nil }
      let printable = String(
        String.UnicodeScalarView(
          text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
      return printable.count > 300 ? String(printable.prefix(299)) + "…" : printable
    }
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
