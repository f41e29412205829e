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
    subcommands: [
      Browse.self, List.self, View.self, Sync.self, Close.self, Reopen.self, CommentCommand.self,
      Edit.self, Dash.self, PullRequestCommand.self, QueueCommand.self, InboxCommand.self,
      SearchHelp.self, ConfigHelp.self, KeysHelp.self, EnvironmentHelp.self,
    ],
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
    } catch {
      if exitCode(for: error) == .validationFailure {
        Terminal.standardError(fullMessage(for: error) + "\n")
        exit(withError: ExitCode.failure)
      }
      exit(withError: error)
    }
  }

  /// The command the arguments name: a plain browse (`issues`, `issues OWNER/REPO --offline`) is
  /// parsed as the browser's alone.
  ///
  /// Parsing from the root builds every subcommand's configuration first, help texts and key
  /// tables included: milliseconds before the first frame that only `--help` reads. Arguments
  /// that name a subcommand, or that the browser alone refuses (help, `--version`, a mistake),
  /// are parsed from the root, so its messages and usage are the ones shown.
  static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
    if !arguments.contains(where: subcommandNames.contains),
      let browse = try? Browse.parseAsRoot(arguments)
    {
      return browse
    }
    return try parseAsRoot(arguments)
  }

  /// The names that route arguments to a subcommand (`help` is the parser's own); a test keeps
  /// them equal to the configuration's.
  static let subcommandNames: [String] = [
    "browse", "list", "view", "sync", "close", "reopen", "comment", "edit", "dash", "pr", "queue",
    "inbox", "search", "config", "keys", "environment", "help",
  ]

  /// What `issues --version` prints.
  static let version = "issues 0.2.0 (Trellis)"
}
