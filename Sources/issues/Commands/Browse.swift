import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues [OWNER/REPO]`: the full-screen browser.
struct Browse: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "browse",
    abstract: "Open the full-screen browser (the default).",
    discussion: "Starts from the cache at once and syncs in the background. Keys: "
      + BrowserKeys.standard.browsing.hint + ".")

  @OptionGroup var options: RepositoryOptions

  @Flag(help: "Browse the bundled betamax dataset: no network, no token.")
  var demo = false

  @Flag(help: "Do not sync: browse what the cache holds.")
  var offline = false

  @OptionGroup var screen: ScreenFlags

  func run() async throws {
    guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
      let which = isatty(STDOUT_FILENO) == 1 ? "input" : "output"
      throw CommandFailure(
        "The browser needs a terminal, and standard \(which) is not one. "
          + "To print issues instead, run: issues list OWNER/REPO (--json for scripts).")
    }
    let environment = ProcessInfo.processInfo.environment
    guard ColorSupport.isCapableTerminal(environment: environment) else {
      throw CommandFailure(
        "TERM is \(environment["TERM"].map { "“\($0)”" } ?? "not set"): this terminal cannot show "
          + "the full-screen browser. To print issues instead, run: issues list OWNER/REPO.")
    }
    let cache: IssueCache
    let host: GitHubHost
    let repository: RepositoryName
    if demo {
      host = .github
      repository = BundledDataset.repository
      cache = try IssueCache()
      try cache.apply(BundledDataset.load())
    } else {
      (host, repository) = try options.resolve()
      cache = try Terminal.openCache(at: IssueCache.defaultURL(for: repository, host: host))
    }
    let network: BrowserHost.Network =
      demo
      ? .none(reason: "the demo has no network")
      : offline ? .offline : .github(timeout: options.timeout)
    let status: SyncStatus = demo ? .demo : .cached(lastSynced: try? cache.lastSyncedAt())
    // Ctrl-C: the status a shell expects of an interrupted program (128 + SIGINT).
    let ending = try await Self.browse(
      cache: cache, repository: repository, host: host, network: network, status: status,
      options: screen.options())
    if ending == .interrupted { throw ExitCode(130) }
  }

  /// Takes the terminal and runs the browser in it until the person leaves.
  @MainActor
  static func browse(
    cache: IssueCache, repository: RepositoryName, host: GitHubHost,
    network: BrowserHost.Network, status: SyncStatus, options: ScreenOptions
  ) async throws -> BrowserHost.Ending {
    let session: TerminalSession
    do {
      session = try TerminalSession(options: TerminalOptions(mouse: true))
    } catch {
      throw CommandFailure("Cannot use the terminal: \(error)")
    }
    return await BrowserHost(
      cache: cache, repository: repository, host: host, network: network, session: session,
      syncStatus: status, options: options
    ).run()
  }
}
