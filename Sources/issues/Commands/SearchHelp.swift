import ArgumentParser
import GitHubIssues

/// `issues help search` (or `issues search`): the search language, from the one table the
/// parser reads.
struct SearchHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search",
    abstract: "The search language of list -S, pr list -S, the browser's / and the dashboard.",
    discussion: SearchQualifier.helpText)

  func run() {
    // From the root: parsed alone, the command would name itself without "issues".
    print(Issues.helpMessage(for: Self.self), terminator: "")
  }
}
