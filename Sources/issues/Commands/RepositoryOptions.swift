import ArgumentParser
import Foundation
import GitHubIssues
import TrellisTerminal

/// Which repository, on which host.
struct RepositoryOptions: ParsableArguments {
  @Argument(help: "The repository, as OWNER/REPO (default: GH_REPO, or the git remote).")
  var repository: String?

  @Option(
    name: [.customShort("R"), .customLong("repo")],
    help: "The repository, as [HOST/]OWNER/REPO: gh's flag, the same as the argument.")
  var repo: String?

  @Option(
    name: .customLong("hostname"),
    help: "The GitHub host: github.com or an Enterprise host (default: GH_HOST, or github.com).")
  var hostname: String?

  @Option(
    name: .customLong("api-url"),
    help: "The API root instead of the host's (a proxy, or a local test server).")
  var apiURL: String?

  @Option(
    help: ArgumentHelp(
      "Seconds to wait for GitHub to answer before giving up (default: 15).",
      valueName: "seconds"))
  var timeout: Double?

  /// Checks what was typed before anything runs (the terminal is not touched yet), so a mistake
  /// shows with the usage; the environment and the git remote are checked when resolved.
  func validate() throws {
    if let timeout, !(timeout > 0 && timeout <= 3600) {
      throw ValidationError("--timeout must be a number of seconds between 0 and 3600.")
    }
    if let repository, let repo, repository != repo {
      throw ValidationError(
        "Two repositories given (“\(ControlCharacters.visible(repository))” and "
          + "“\(ControlCharacters.visible(repo))”): give one.")
    }
    do {
      if let repository = repository ?? repo { _ = try Self.parseRepository(repository) }
      if let hostname { _ = try Self.host(named: hostname) }
      if let apiURL { _ = try Self.apiRoot(apiURL) }
    } catch let failure as CommandFailure {
      throw ValidationError(failure.description)
    }
  }

  /// The host and repository, from the options, the environment or the git remote.
  func resolve() throws -> (GitHubHost, RepositoryName) {
    let environment = ProcessInfo.processInfo.environment
    var remoteHost: String?
    let repository: RepositoryName
    if let text = self.repository ?? repo
      ?? environment["GH_REPO"].flatMap({ $0.isEmpty ? nil : $0 })
    {
      (remoteHost, repository) = try Self.parseRepository(text)
    } else if let remote = GitRemote.current() {
      remoteHost = remote.host
      repository = remote.repository
    } else {
      throw CommandFailure(
        "No repository given: pass OWNER/REPO, set GH_REPO, or run inside a clone of one.")
    }
    let hostName =
      hostname ?? environment["GH_HOST"].flatMap { $0.isEmpty ? nil : $0 }
      ?? remoteHost ?? "github.com"
    var host = try Self.host(named: hostName)
    if let apiURL {
      host = GitHubHost(
        name: host.name, apiBaseURL: try Self.apiRoot(apiURL), isEnterprise: host.isEnterprise)
    }
    return (host, repository)
  }

  /// `OWNER/REPO`, or `HOST/OWNER/REPO` as gh takes it (in `GH_REPO` too).
  static func parseRepository(_ text: String) throws -> (host: String?, RepositoryName) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 3 {
      // A host has a dot or a port (or is localhost), so that a mistyped path is an error
      // rather than a request to a host named after it.
      let host = String(parts[0])
      guard host.contains(".") || host.contains(":") || host == "localhost",
        GitHubHost.named(host) != nil,
        let name = RepositoryName(parts[1...].joined(separator: "/"))
      else {
        throw CommandFailure(
          "“\(ControlCharacters.visible(text))” is not a repository: write it as OWNER/REPO, or "
            + "HOST/OWNER/REPO with a host name such as github.example.com.")
      }
      return (host, name)
    }
    guard let name = RepositoryName(text) else {
      throw CommandFailure(
        "“\(ControlCharacters.visible(text))” is not a repository: write it as OWNER/REPO.")
    }
    return (nil, name)
  }

  static func host(named name: String) throws -> GitHubHost {
    guard let host = GitHubHost.named(name) else {
      throw CommandFailure("“\(ControlCharacters.visible(name))” is not a host name.")
    }
    return host
  }

  static func apiRoot(_ text: String) throws -> URL {
    guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
      throw CommandFailure("“\(ControlCharacters.visible(text))” is not an http(s) URL.")
    }
    return url
  }
}
