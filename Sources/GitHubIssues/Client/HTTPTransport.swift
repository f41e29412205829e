import Foundation

/// An HTTP request, as the client builds it.
public struct HTTPRequest: Hashable, Sendable {
  /// The method, such as `GET`.
  public var method: String
  /// The full URL.
  package var url: URL
  /// Header fields.
  public var headers: [String: String]
  /// How many seconds to wait for data before failing with `URLError(.timedOut)`; the
  /// transport's own default when `nil`.
  public var timeout: Double?
  /// The body of a write (JSON), or `nil` for a read.
  public var body: Data?

  /// Creates a request.
  public init(
    method: String = "GET", url: URL, headers: [String: String] = [:], timeout: Double? = nil,
    body: Data? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.timeout = timeout
    self.body = body
  }
}

/// An HTTP response: status, header fields with lower-cased names, and the body.
public struct HTTPResponse: Hashable, Sendable {
  /// The status code.
  public var status: Int
  /// Header fields, names lower-cased.
  public var headers: [String: String]
  /// The body.
  public var body: Data

  /// Creates a response; header names are lower-cased.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    self.body = body
  }
}

/// What the client sends requests through: AsyncHTTPClient in the app, anything in tests.
public protocol HTTPTransport: Sendable {
  /// Sends a request and returns the response, whatever its status.
  ///
  /// - Throws: `URLError` when there is no response (offline, timed out, connection lost).
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
