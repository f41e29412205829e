import Foundation

/// Where the API is: github.com, a GitHub Enterprise Server, or any base URL (a test server).
public struct GitHubHost: Hashable, Sendable, CustomStringConvertible {
  /// The host name people know it by (`github.com`, `github.example.com`).
  public var name: String
  /// The API root every path is appended to.
  package var apiBaseURL: URL
  /// Whether this is an Enterprise Server, which changes which token variables apply.
  package var isEnterprise: Bool

  /// The environment variables a token for this host is read from, in order (as `gh` reads them).
  package var tokenVariables: [String] {
    isEnterprise
      ? ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"] : ["GH_TOKEN", "GITHUB_TOKEN"]
  }

  /// How to give a program a token for this host, said to a person: the variables, or logging in
  /// with `gh` on this host.
  package var tokenAdvice: String {
    let login = isEnterprise ? "gh auth login --hostname \(name)" : "gh auth login"
    return "set \(tokenVariables.joined(separator: " or ")), or run `\(login)`"
  }

  /// github.com, at `https://api.github.com`.
  public static let github = GitHubHost(
    name: "github.com", apiBaseURL: https(host: "api.github.com", path: ""), isEnterprise: false)

  /// A GitHub Enterprise Server at `https://HOST/api/v3`.
  ///
  /// - Precondition: `host` is a host name (letters, digits, dots, hyphens, an optional port);
  ///   check names from outside with ``named(_:)``, which returns `nil` for anything else.
  public static func enterprise(_ host: String) -> GitHubHost {
    GitHubHost(name: host, apiBaseURL: https(host: host, path: "/api/v3"), isEnterprise: true)
  }

  /// A host from its name: github.com (or api.github.com) is GitHub, anything else Enterprise;
  /// `nil` when the text is not a host name.
  public static func named(_ host: String) -> GitHubHost? {
    let host = host.lowercased()
    guard !host.isEmpty,
      host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:".contains($0)) })
    else { return nil }
    return host == "github.com" || host == "api.github.com" ? .github : .enterprise(host)
  }

  private static func https(host: String, path: String) -> URL {
    var components = URLComponents()
    components.scheme = "https"
    let parts = host.split(separator: ":", maxSplits: 1)
    components.host = parts.first.map(String.init) ?? host
    if parts.count == 2, let port = Int(parts[1]) { components.port = port }
    components.path = path
    guard let url = components.url else { preconditionFailure("\(host) is not a host name") }
    return url
  }

  /// The folder name under which what came from this host is kept (its caches, its drafts):
  /// its ``name`` when the API root is the host's own, and otherwise the API root's host, port
  /// and path (`127.0.0.1:8080`), so that data from a test server or a proxy never mixes with
  /// the real host's.
  package var storageName: String {
    let own: URL? =
      isEnterprise
      ? Self.enterprise(name).apiBaseURL : name == "github.com" ? Self.github.apiBaseURL : nil
    func trimmed(_ url: URL) -> String { url.absoluteString.trimmingSuffix("/").lowercased() }
    if let own, trimmed(own) == trimmed(apiBaseURL) { return name }
    var text = apiBaseURL.host ?? name
    if let port = apiBaseURL.port { text += ":\(port)" }
    let path = apiBaseURL.path.split(separator: "/").joined(separator: "_")
    if !path.isEmpty { text += "_" + path }
    let safe = text.map {
      $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:".contains($0)) ? $0 : "_"
    }
    return String(safe)
  }

  /// Creates a host with an explicit API root (for tests and proxies).
  public init(name: String, apiBaseURL: URL, isEnterprise: Bool) {
    self.name = name
    self.apiBaseURL = apiBaseURL
    self.isEnterprise = isEnterprise
  }

  /// The URL of an API path such as `/repos/o/r/issues`, with query items.
  package func url(_ path: String, query: [URLQueryItem] = []) -> URL {
    var components =
      URLComponents(url: apiBaseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
    components.path = components.path.trimmingSuffix("/") + path
    if !query.isEmpty { components.queryItems = query }
    return components.url ?? apiBaseURL.appendingPathComponent(path)
  }

  /// Whether a URL is inside the API root: the same scheme, host and port, and a path under the
  /// root's path.
  ///
  /// Only such URLs are ever sent a request, so that a `link` header or a redirect from the server
  /// can never carry the token elsewhere.
  public func contains(_ url: URL) -> Bool {
    guard let root = URLComponents(url: apiBaseURL, resolvingAgainstBaseURL: false),
      let candidate = URLComponents(url: url, resolvingAgainstBaseURL: true),
      let scheme = candidate.scheme?.lowercased(), scheme == root.scheme?.lowercased(),
      let host = candidate.host?.lowercased(), host == root.host?.lowercased(),
      candidate.user == nil, candidate.password == nil,
      Self.port(candidate) == Self.port(root)
    else { return false }
    let prefix = root.percentEncodedPath.trimmingSuffix("/")
    let path = candidate.percentEncodedPath
    guard path == prefix || path.hasPrefix(prefix + "/") else { return false }
    // No `..` segment may climb out of the root.
    return !path.split(separator: "/").contains { $0 == ".." || $0 == "%2e%2e" || $0 == "%2E%2E" }
  }

  private static func port(_ components: URLComponents) -> Int? {
    components.port
      ?? (components.scheme?.lowercased() == "https"
        ? 443 : components.scheme?.lowercased() == "http" ? 80 : nil)
  }

  /// Where the host answers GraphQL queries: `https://api.github.com/graphql` on github.com,
  /// `https://HOST/api/graphql` on an Enterprise host (beside its REST root, not under it).
  ///
  /// It is the one URL outside the REST root that the client sends to.
  package var graphQLURL: URL {
    var components =
      URLComponents(url: apiBaseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
    var path = components.path.trimmingSuffix("/")
    if path.hasSuffix("/v3") { path = String(path.dropLast(3)) }
    components.path = path + "/graphql"
    components.query = nil
    return components.url ?? apiBaseURL.appendingPathComponent("graphql")
  }

  public var description: String { name }
}

extension String {
  func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
