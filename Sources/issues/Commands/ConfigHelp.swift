import ArgumentParser
import IssuesBrowser

/// `issues help config` (or `issues config`): every key of the configuration file, generated
/// from what reads it.
struct ConfigHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "config",
    abstract: "The configuration file: the dashboard, keys, your own commands, themes.",
    discussion: ScreenConfig.helpText)

  func run() {
    // From the root: parsed alone, the command would name itself without "issues".
    print(Issues.helpMessage(for: Self.self), terminator: "")
  }
}
