import ArgumentParser
import GitHubIssues
import TrellisTerminal

/// `issues reopen NUMBER`: reopens an issue, as `gh issue reopen` does.
struct Reopen: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reopen",
    abstract: "Reopen a closed issue.",
    discussion: "Shown at once in the cache; taken back if GitHub refuses.")

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Option(name: [.customShort("c"), .long], help: "Leave a comment after reopening it.")
  var comment: String?

  func run() async throws {
    let acting = try Acting(issue: issue, options: options)
    if let reopened = try await acting.perform([.reopen]) {
      print(ControlCharacters.visible("Reopened #\(reopened.number) “\(reopened.title)”."))
    }
    if let comment {
      try await CommentCommand.send(comment, acting: acting)
    }
  }
}
