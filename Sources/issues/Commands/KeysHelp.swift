import ArgumentParser
import IssuesBrowser

/// `issues help keys` (or `issues keys`): every screen's keys, from the tables the screens read.
struct KeysHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys",
    abstract: "Every screen's keys: the browser, the reader, the dashboard, the inbox.",
    discussion: """
      The standard keys. The configuration file rebinds them per screen and binds your own \
      commands (issues help config); ? on any screen lists its keys as configured.


      """ + ScreenKeys.helpText)

  func run() {
    // From the root: parsed alone, the command would name itself without "issues".
    print(Issues.helpMessage(for: Self.self), terminator: "")
  }
}
