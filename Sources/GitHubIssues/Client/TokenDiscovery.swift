import Foundation

/// Finds a token the way `gh` does, so people who use `gh` need no setup.
///
/// For github.com: `GH_TOKEN`, then `GITHUB_TOKEN`. For Enterprise: `GH_ENTERPRISE_TOKEN`, then
/// `GITHUB_ENTERPRISE_TOKEN`. Then `gh auth token --hostname HOST` when `gh` is installed. No
/// token is fine for public repositories, at a lower rate limit.
public enum TokenDiscovery {
  /// The token for a host, or `nil`.
  ///
  /// - Parameters:
  ///   - host: The host the token is for.
  ///   - environment: The environment variables to read.
  ///   - askGH: Asks `gh` for its token for a host name; by default runs `gh auth token`.
  /// - Returns: The token, or `nil` when none is configured.
  public static func token(
    for host: GitHubHost, environment: [String: String] = ProcessInfo.processInfo.environment,
    askGH: (String) -> String? = ghAuthToken
  ) -> String? {
    let names =
      host.isEnterprise
      ? ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"] : ["GH_TOKEN", "GITHUB_TOKEN"]
    for name in names {
      if let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines),
        !value.isEmpty
      {
        return value
      }
    }
    return askGH(host.name)
  }

  /// Runs `gh auth token --hostname HOST` if `gh` is on the PATH; `nil` if it is not or fails.
  public static func ghAuthToken(hostname: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let gh = path.split(separator: ":").map({ "\($0)/gh" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gh)
    process.arguments = ["auth", "token", "--hostname", hostname]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    do {
      try process.run()
    } catch {
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let token = String(decoding: data, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    return token.isEmpty ? nil : token
  }
}
