import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with URLSession, without caching (the client does conditional requests itself)
/// and without following redirects: a `3xx` is returned as it is, and ``GitHubClient`` decides
/// whether its target is inside the API root, so a redirect can never carry the token to another
/// host.
public struct URLSessionTransport: HTTPTransport {
  private let session: URLSession
  private let timeout: TimeInterval

  /// The default time a request may wait for data before it fails: short enough that a server
  /// that never answers is reported within seconds, long enough for a slow page.
  public static let defaultTimeout: TimeInterval = 15

  /// Creates a transport whose requests time out after `timeout` seconds without data.
  public init(timeout: TimeInterval = URLSessionTransport.defaultTimeout) {
    self.timeout = timeout
    let configuration = Self.ephemeralConfiguration()
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = max(timeout * 8, 120)
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    session = URLSession(
      configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
  }

  /// An ephemeral configuration, made without leaving a folder behind.
  ///
  /// On Linux, Foundation creates a URL cache folder under
  /// `XDG_CACHE_HOME` (or `~/.cache`) for every configuration, even one that will cache nothing;
  /// the variable points nowhere while the configuration is made, so no folder appears.
  private static func ephemeralConfiguration() -> URLSessionConfiguration {
    #if canImport(FoundationNetworking)
    return configurationLock.withLock {
      let saved = getenv("XDG_CACHE_HOME").map { String(cString: $0) }
      setenv("XDG_CACHE_HOME", "/dev/null/trellis-no-url-cache", 1)
      defer {
        if let saved { setenv("XDG_CACHE_HOME", saved, 1) } else { unsetenv("XDG_CACHE_HOME") }
      }
      return URLSessionConfiguration.ephemeral
    }
    #else
    return URLSessionConfiguration.ephemeral
    #endif
  }

  private static let configurationLock = NSLock()

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    if let timeout = request.timeout { urlRequest.timeoutInterval = min(timeout, self.timeout) }
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    urlRequest.httpBody = request.body
    let (data, response) = try await session.data(for: urlRequest)
    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String {
        headers[name.lowercased()] = value
      }
    }
    return HTTPResponse(status: http.statusCode, headers: headers, body: data)
  }
}

/// Hands every redirect back to the client instead of following it.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
