import GitHubIssues

/// One of the person's commands about to run on an item: the command, and the values of its
/// placeholders.
public struct CommandRun: Hashable, Sendable {
  /// The command.
  public var command: UserCommand
  /// The placeholders' values, from the focused item.
  public var values: [CommandTemplate.Placeholder: String]

  /// A run of `command` on an issue or pull request of `repository` on `host`; `branch` is a
  /// pull request's head branch, when known.
  public init(
    _ command: UserCommand, host: GitHubHost, repository: RepositoryName, number: Int,
    title: String, url: String, isPullRequest: Bool, branch: String?
  ) {
    self.command = command
    values = [
      .host: host.name, .repository: repository.description, .owner: repository.owner,
      .name: repository.name, .number: String(number), .url: url, .title: title,
      .branch: branch ?? "", .kind: isPullRequest ? "pull-request" : "issue",
    ]
  }

  /// The environment the command runs with: the variables of every placeholder (a NUL, which
  /// no environment can hold, shown as ␀).
  public var environment: [String: String] {
    var environment: [String: String] = [:]
    for (placeholder, value) in values {
      environment[placeholder.variable] = String(
        String.UnicodeScalarView(value.unicodeScalars.map { $0 == "\0" ? "\u{2400}" : $0 }))
    }
    return environment
  }
}
