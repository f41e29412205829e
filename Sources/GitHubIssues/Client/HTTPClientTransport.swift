import AsyncHTTPClient
import Foundation
import Synchronization
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends requests with AsyncHTTPClient (SwiftNIO): each request leaves this process at most once,
/// whatever the connection does.
///
/// - It never sends a request again on its own: a connection that drops after a write was sent
///   fails that request at once, and the caller decides (``GitHubClient`` re-reads what a write
///   may have changed, and never re-sends a write).
/// - It follows no redirect: a `3xx` is returned as it is, and ``GitHubClient`` decides whether
///   its target is inside the API root, so a redirect can never carry the token to another host.
/// - It waits at most ``connectTimeout`` to connect and `timeout` seconds for each read, and a
///   whole request at most eight times that (two minutes at least); a body is read up to
///   ``maximumBodySize`` bytes, decompressed (gzip, deflate) at most a hundredfold.
/// - It goes through the proxy the environment names (``ProxySettings``: `https_proxy`,
///   `http_proxy`, `all_proxy`, `no_proxy`), with `CONNECT` for `https`; a proxy variable it
///   cannot use fails the request rather than going around it.
///
/// Errors are reported as `URLError`, as ``HTTPTransport`` says: `.timedOut`,
/// `.cannotConnectToHost`, `.cannotFindHost`, `.networkConnectionLost` and so on.
public struct HTTPClientTransport: HTTPTransport {
  /// The default time a request may wait for data before it fails: short enough that a server
  /// that never answers is reported within seconds, long enough for a slow page.
  public static let defaultTimeout: TimeInterval = 15
  /// How long a connection may take to open.
  package static let connectTimeout: TimeInterval = 10
  /// The largest body read, decompressed; a larger one fails the request.
  package static let maximumBodySize = 64 << 20

  private let timeout: TimeInterval
  private let proxies: ProxySettings

  /// Creates a transport whose requests time out after `timeout` seconds without data, through
  /// the proxies of `proxies` (the process's environment by default).
  public init(
    timeout: TimeInterval = HTTPClientTransport.defaultTimeout,
    proxies: ProxySettings = ProxySettings()
  ) {
    let timeout = timeout.isFinite ? min(max(timeout, 0.001), 86_400) : Self.defaultTimeout
    self.timeout = timeout
    self.proxies = proxies
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let client = Self.client(readTimeout: timeout, proxy: try proxies.proxy(for: request.url))
    let wait = min(request.timeout ?? timeout, timeout)
    var outgoing = HTTPClientRequest(url: request.url.absoluteString)
    outgoing.method = HTTPMethod(rawValue: request.method)
    for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
    outgoing.headers.replaceOrAdd(name: "Accept-Encoding", value: "gzip, deflate")
    if let body = request.body {
      outgoing.body = .bytes(ByteBuffer(bytes: body))
    }
    let total = TimeAmount.milliseconds(Int64(max(wait * 8, 120) * 1000))
    do {
      let response = try await client.execute(outgoing, timeout: total)
      let body = try await response.body.collect(upTo: Self.maximumBodySize)
      var headers: [String: String] = [:]
      for (name, value) in response.headers {
        let key = name.lowercased()
        headers[key] = headers[key].map { "\($0), \(value)" } ?? value
      }
      return HTTPResponse(
        status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    } catch {
      throw Self.urlError(for: error)
    }
  }

  /// The transport's failure as a `URLError`, the kind ``HTTPTransport`` promises.
  static func urlError(for error: any Error) -> any Error {
    if error is CancellationError { return error }
    if let error = error as? URLError { return error }
    if let error = error as? HTTPClientError {
      switch error {
      case .readTimeout, .deadlineExceeded, .writeTimeout:
        return URLError(.timedOut)
      case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
        return URLError(.cannotConnectToHost)
      case .remoteConnectionClosed:
        return URLError(.networkConnectionLost)
      case .cancelled:
        return CancellationError()
      case .invalidURL, .emptyHost, .emptyScheme:
        return URLError(.badURL)
      default:
        return URLError(.badServerResponse)
      }
    }
    if error is NIOConnectionError || error is ChannelError {
      if let connection = error as? NIOConnectionError,
        connection.dnsAError != nil || connection.dnsAAAAError != nil,
        connection.connectionErrors.isEmpty
      {
        return URLError(.cannotFindHost)
      }
      if let channel = error as? ChannelError, case .connectTimeout = channel {
        return URLError(.cannotConnectToHost)
      }
      return error is NIOConnectionError
        ? URLError(.cannotConnectToHost) : URLError(.networkConnectionLost)
    }
    if let error = error as? IOError {
      switch error.errnoCode {
      case ECONNREFUSED, EHOSTUNREACH, EADDRNOTAVAIL: return URLError(.cannotConnectToHost)
      case ENETUNREACH, ENETDOWN: return URLError(.notConnectedToInternet)
      case ECONNRESET, EPIPE, ECONNABORTED: return URLError(.networkConnectionLost)
      case ETIMEDOUT: return URLError(.timedOut)
      default: return URLError(.networkConnectionLost)
      }
    }
    if error is NIOTooManyBytesError { return URLError(.dataLengthExceedsMaximum) }
    if error is HTTPParserError { return URLError(.cannotParseResponse) }
    if "\(type(of: error))".contains("SSL") { return URLError(.secureConnectionFailed) }
    return URLError(.unknown)
  }

  /// One client per read timeout and proxy, for the life of the process: a client must be
  /// shut down before it goes away, and a command's process ends with its requests.
  private static func client(readTimeout: TimeInterval, proxy: ProxySettings.Proxy?) -> HTTPClient {
    let milliseconds = Int64((readTimeout * 1000).rounded())
    let key = ClientKey(readTimeout: milliseconds, proxy: proxy)
    return clients.withLock { clients in
      if let client = clients[key] { return client }
      var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(30))
      // A refused connection fails its request at once (offline is said at once); the client
      // decides what to try again.
      pool.retryConnectionEstablishment = false
      let configuration = HTTPClient.Configuration(
        redirectConfiguration: .disallow,
        timeout: .init(
          connect: .milliseconds(Int64(connectTimeout * 1000)), read: .milliseconds(milliseconds)),
        connectionPool: pool,
        proxy: proxy.map(Self.configuration(of:)),
        decompression: .enabled(limit: .ratio(100)))
      let client = HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
      clients[key] = client
      return client
    }
  }

  private struct ClientKey: Hashable {
    var readTimeout: Int64
    var proxy: ProxySettings.Proxy?
  }

  private static let clients = Mutex<[ClientKey: HTTPClient]>([:])

  /// AsyncHTTPClient's configuration of a proxy.
  private static func configuration(of proxy: ProxySettings.Proxy)
    -> HTTPClient.Configuration
    .Proxy
  {
    switch proxy.kind {
    case .http(let user?, let password):
      .server(
        host: proxy.host, port: proxy.port,
        authorization: .basic(username: user, password: password ?? ""))
    case .http(nil, _): .server(host: proxy.host, port: proxy.port)
    case .socks5: .socksServer(host: proxy.host, port: proxy.port)
    }
  }
}
