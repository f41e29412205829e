import Foundation

/// The proxies the environment names, as curl and gh read them: `https_proxy` (or
/// `HTTPS_PROXY`) for `https` URLs, `http_proxy` for `http` ones, `all_proxy` (or `ALL_PROXY`)
/// for either when the other is unset, and `no_proxy` (or `NO_PROXY`) for the hosts reached
/// directly.
///
/// Only the lowercase `http_proxy` is read, as curl does: a CGI environment can set
/// `HTTP_PROXY` from a request's `Proxy:` header. Loopback hosts (`localhost`, `127.0.0.0/8`,
/// `::1`) are always reached directly, as gh does. A `no_proxy` entry matches its host and every
/// subdomain (a leading `.` is optional), optionally with a port; `*` alone reaches every host
/// directly. A proxy URL is `http://[user:password@]host[:port]` (`http://` may be left out;
/// port 1080 by default) or `socks5://host[:port]` (`socks5h://` too: names resolve at the proxy
/// either way).
public struct ProxySettings: Hashable, Sendable {
  /// A proxy to send requests through.
  package struct Proxy: Hashable, Sendable {
    /// How the proxy is spoken to.
    package enum Kind: Hashable, Sendable {
      /// An HTTP proxy: `CONNECT` for `https` targets, with basic authorization when given.
      case http(user: String?, password: String?)
      /// A SOCKS5 proxy.
      case socks5
    }

    /// What kind of proxy.
    package var kind: Kind
    /// Its host.
    package var host: String
    /// Its port.
    package var port: Int
  }

  /// Why a proxy variable cannot be used: the requests would fail or go around it.
  package struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
    /// The variable.
    package var variable: String
    /// What is wrong with it.
    package var reason: String

    package var description: String { "\(variable) cannot be used: \(reason)" }
  }

  /// The proxy for `https` URLs, and the variable that named it.
  var https: (variable: String, value: String)?
  /// The proxy for `http` URLs.
  var http: (variable: String, value: String)?
  /// The hosts (with optional ports) reached directly.
  var bypass: [(host: String, port: Int?)]
  /// Whether `no_proxy` is `*`.
  var bypassesEverything: Bool
  /// Whether loopback hosts are reached directly (always, but in tests of the proxy itself).
  var bypassesLoopback = true

  /// The settings of an environment.
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    func first(_ names: String...) -> (variable: String, value: String)? {
      for name in names {
        if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
          return (name, value)
        }
      }
      return nil
    }
    let all = first("all_proxy", "ALL_PROXY")
    https = first("https_proxy", "HTTPS_PROXY") ?? all
    http = first("http_proxy") ?? all
    let noProxy = first("no_proxy", "NO_PROXY")?.value ?? ""
    bypassesEverything = noProxy == "*"
    bypass = noProxy.split(separator: ",").compactMap { entry in
      var text = entry.trimmingCharacters(in: .whitespaces).lowercased()
      guard !text.isEmpty, text != "*" else { return nil }
      if text.hasPrefix(".") { text.removeFirst() }
      var port: Int?
      // host:port, but not a bare IPv6 address.
      if let colon = text.lastIndex(of: ":"), !text.hasSuffix("]"),
        text.filter({ $0 == ":" }).count == 1, let number = Int(text[text.index(after: colon)...])
      {
        port = number
        text = String(text[..<colon])
      }
      return (text.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
    }
  }

  /// The proxy a request to `url` goes through, or `nil` to connect directly.
  ///
  /// - Throws: ``Invalid`` when the variable that applies names no usable proxy: a request
  ///   sent directly instead would go around a proxy the person set, so it is not sent.
  package func proxy(for url: URL) throws(Invalid) -> Proxy? {
    guard let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    else { return nil }
    let scheme = url.scheme?.lowercased() ?? "https"
    guard let setting = scheme == "http" ? http : https else { return nil }
    let port = url.port ?? (scheme == "http" ? 80 : 443)
    if bypassesEverything { return nil }
    if bypassesLoopback, host == "localhost" || host.hasPrefix("127.") || host == "::1" {
      return nil
    }
    for entry in bypass where entry.port == nil || entry.port == port {
      if host == entry.host || host.hasSuffix("." + entry.host) { return nil }
    }
    return try Self.parse(setting.value, variable: setting.variable)
  }

  /// A proxy URL, read.
  static func parse(_ value: String, variable: String) throws(Invalid) -> Proxy {
    let text = value.contains("://") ? value : "http://" + value
    guard let components = URLComponents(string: text), let host = components.host,
      !host.isEmpty
    else {
      throw Invalid(variable: variable, reason: "“\(value)” is not a proxy URL")
    }
    let scheme = components.scheme?.lowercased() ?? "http"
    switch scheme {
    case "http":
      return Proxy(
        kind: .http(
          user: components.user?.removingPercentEncoding,
          password: components.password?.removingPercentEncoding),
        host: host, port: components.port ?? 1080)
    case "socks5", "socks5h":
      return Proxy(kind: .socks5, host: host, port: components.port ?? 1080)
    default:
      throw Invalid(
        variable: variable,
        reason: "\(scheme):// proxies are not supported (use an http:// or socks5:// proxy)")
    }
  }

  public static func == (lhs: ProxySettings, rhs: ProxySettings) -> Bool {
    lhs.https?.value == rhs.https?.value && lhs.http?.value == rhs.http?.value
      && lhs.bypassesEverything == rhs.bypassesEverything
      && lhs.bypass.map { "\($0.host):\($0.port ?? 0)" }
        == rhs.bypass.map {
          "\($0.host):\($0.port ?? 0)"
        }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(https?.value)
    hasher.combine(http?.value)
    hasher.combine(bypassesEverything)
    for entry in bypass {
      hasher.combine(entry.host)
      hasher.combine(entry.port)
    }
  }
}
