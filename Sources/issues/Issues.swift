import ArgumentParser
import Foundation
import GitHubIssues
import TrellisTerminal

/// `issues`: a person's GitHub work in the terminal — issues, pull requests, notifications.
@main
struct Issues: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "issues",
    abstract: "Your GitHub issues, pull requests and notifications, local-first and offline.",
    discussion: """
      Without a subcommand, opens the full-screen browser of a repository's issues (filter by \
      milestone, label, state or any search; read, close, comment — offline too: changes wait \
      in a queue). `issues dash` opens the dashboard across repositories, `issues inbox` your \
      notifications; `issues list`, `pr list`, `view` and the others print for scripts, with \
      gh's flags. Every screen lists its keys with ?. The repository comes from the \
      argument, then GH_REPO, then the current directory's git remote. Tokens are found as gh \
      finds them: GH_TOKEN or GITHUB_TOKEN (GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN for \
      Enterprise hosts), then `gh auth token`. Public repositories need none.
      """,
    version: Issues.version,
    subcommands: routes.map(\.command),
    defaultSubcommand: Browse.self)

  /// Runs the command the arguments name.
  ///
  /// A usage error exits 1, as gh's do (the argument parser's own code is 64, which a script
  /// written for gh would not expect).
  static func main() async {
    do {
      var command = try parseCommand(Array(CommandLine.arguments.dropFirst()))
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch let failure as BareFailure {
      Terminal.standardError(failure.description + "\n")
      exit(withError: ExitCode.failure)
    } catch {
      if exitCode(for: error) == .validationFailure {
        Terminal.standardError(fullMessage(for: error) + "\n")
        exit(withError: ExitCode.failure)
      }
      exit(withError: error)
    }
  }

  /// The command the arguments name, parsed from the command they route to.
  ///
  /// Parsing from the root builds every subcommand's configuration first, help pages and key
  /// tables included: milliseconds that only help reads. So `issues list …` is parsed as `list`
  /// alone, and a plain browse (`issues`, `issues OWNER/REPO --offline`) as the browser alone —
  /// before its first frame; `--version` is answered at once. What that refuses (help, a mistake)
  /// is parsed again from the root, so that its messages and usage are the ones shown. A lone
  /// `--help` is the root's help, as `issues help` (the parser would show the default
  /// command's, the browser's, which lists no subcommand).
  static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
    if arguments == ["--version"] { throw CleanExit.message(version) }
    if arguments == ["--help"] || arguments == ["-h"] { throw CleanExit.helpRequest(self) }
    if let first = arguments.first, let route = routes.first(where: { $0.name == first }),
      let command = try? route.command.parseAsRoot(Array(arguments.dropFirst()))
    {
      return command
    }
    if !arguments.contains(where: subcommandNames.contains),
      let browse = try? Browse.parseAsRoot(arguments)
    {
      return browse
    }
    return try parseAsRoot(arguments)
  }

  /// The subcommands by the name that routes to them (a test keeps each name its command's).
  static let routes: [(name: String, command: any ParsableCommand.Type)] = [
    ("browse", Browse.self), ("list", List.self), ("view", View.self), ("sync", Sync.self),
    ("create", Create.self), ("close", Close.self), ("reopen", Reopen.self),
    ("comment", CommentCommand.self),
    ("edit", Edit.self), ("dash", Dash.self), ("pr", PullRequestCommand.self),
    ("queue", QueueCommand.self), ("inbox", InboxCommand.self), ("search", SearchHelp.self),
    ("config", ConfigHelp.self), ("keys", KeysHelp.self), ("environment", EnvironmentHelp.self),
    ("offline", OfflineHelp.self), ("mirror", MirrorHelp.self), ("scripts", ScriptsHelp.self),
  ]

  /// The arguments that route to a subcommand (`help` is the parser's own).
  static let subcommandNames: [String] = routes.map(\.name) + ["help"]

  /// What `issues --version` prints.
  static let version = "issues 0.2.0 (Trellis)"
}
