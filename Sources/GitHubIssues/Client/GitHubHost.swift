import Foundation

/// Where the API is: github.com, a GitHub Enterprise Server, or any base URL (a test server).
public struct GitHubHost: Hashable, Sendable, CustomStringConvertible {
  /// The host name people know it by (`github.com`, `github.example.com`).
  public var name: String
  /// The API root every path is appended to.
  public var apiBaseURL: URL
  /// Whether this is an Enterprise Server, which changes which token variables apply.
  public var isEnterprise: Bool

  /// github.com, at `https://api.github.com`.
  public static let github = GitHubHost(
    name: "github.com", apiBaseURL: URL(string: "https://api.github.com")!, isEnterprise: false)

  /// A GitHub Enterprise Server at `https://HOST/api/v3`.
  public static func enterprise(_ host: String) -> GitHubHost {
    GitHubHost(name: host, apiBaseURL: URL(string: "https://\(host)/api/v3")!, isEnterprise: true)
  }

  /// A host from its name: github.com (or api.github.com) is GitHub, anything else Enterprise.
  public static func named(_ host: String) -> GitHubHost {
    let host = host.lowercased()
    return host == "github.com" || host == "api.github.com" ? .github : .enterprise(host)
  }

  /// Creates a host with an explicit API root (for tests and proxies).
  public init(name: String, apiBaseURL: URL, isEnterprise: Bool) {
    self.name = name
    self.apiBaseURL = apiBaseURL
    self.isEnterprise = isEnterprise
  }

  /// The URL of an API path such as `/repos/o/r/issues`, with query items.
  public func url(_ path: String, query: [URLQueryItem] = []) -> URL {
    var components = URLComponents(url: apiBaseURL, resolvingAgainstBaseURL: false)!
    components.path = components.path.trimmingSuffix("/") + path
    if !query.isEmpty { components.queryItems = query }
    return components.url!
  }

  public var description: String { name }
}

extension String {
  func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
