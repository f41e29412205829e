import Foundation

/// Finds a token the way `gh` does, so people who use `gh` need no setup.
///
/// For github.com: `GH_TOKEN`, then `GITHUB_TOKEN`. For Enterprise: `GH_ENTERPRISE_TOKEN`, then
/// `GITHUB_ENTERPRISE_TOKEN`. Then `gh auth token --hostname HOST` when `gh` is installed. No
/// token is fine for public repositories, at a lower rate limit.
package enum TokenDiscovery {
  /// The token for a host, or `nil`.
  ///
  /// - Parameters:
  ///   - host: The host the token is for.
  ///   - environment: The environment variables to read.
  ///   - askGH: Asks `gh` for its token for a host name; by default runs `gh auth token`.
  /// - Returns: The token, or `nil` when none is configured.
  /// - Throws: ``GitHubError/Code/invalidToken``, naming the variable (or `gh`) whose token holds
  ///   a character a header cannot carry (a line break inside it, a control character), rather
  ///   than sending requests without it.
  package static func token(
    for host: GitHubHost, environment: [String: String] = ProcessInfo.processInfo.environment,
    askGH: (String) -> String? = ghAuthToken
  ) throws(GitHubError) -> String? {
    for name in host.tokenVariables {
      if let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines),
        !value.isEmpty
      {
        return try checked(value, source: name)
      }
    }
    return try askGH(host.name).map { token throws(GitHubError) in
      try checked(token, source: "`gh auth token --hostname \(host.name)`")
    }
  }

  /// Whether a token can be sent in an `Authorization` header: visible ASCII only.
  package static func isValid(_ token: String) -> Bool {
    !token.isEmpty && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
  }

  private static func checked(_ token: String, source: String) throws(GitHubError) -> String {
    guard isValid(token) else {
      let reason =
        token.contains(where: \.isNewline)
        ? "it contains a line break" : "it contains a space, a control or a non-ASCII character"
      throw GitHubError(
        .invalidToken, url: source,
        detail: "the token in \(source) cannot be sent: \(reason); fix or unset it")
    }
    return token
  }

  /// Runs `gh auth token --hostname HOST` if `gh` is on the PATH; `nil` if it is not or fails.
  package static func ghAuthToken(hostname: String) -> String? {
    guard let token = ExternalTool(named: "gh")?.output(["auth", "token", "--hostname", hostname])
    else { return nil }
    return token.isEmpty ? nil : token
  }
}
