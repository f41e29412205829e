import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// The flags every screen takes: the accessible mode and the theme, over what the configuration
/// file says.
struct ScreenFlags: ParsableArguments {
  @Flag(
    help: """
      The accessible mode: the terminal's cursor on the focused row or chip (where a screen \
      reader follows it) and focus changes said on the status line (also: accessible: true in \
      the configuration, or TRELLIS_ACCESSIBLE=1).
      """)
  var accessible = false

  @Option(
    help: ArgumentHelp(
      "The colour theme: dark, light, high-contrast or mono (default: the configuration's).",
      valueName: "name"))
  var theme: String?

  func validate() throws {
    if let theme, !Theme.builtIn.contains(where: { $0.name == theme }) {
      throw ValidationError(
        "--theme takes " + Theme.builtIn.map(\.name).joined(separator: ", ") + ", not “\(theme)”.")
    }
  }

  /// The screens' options: the configuration file's keys, commands, theme and accessible mode,
  /// with these flags and the environment over them.
  ///
  /// - Parameter configPath: The configuration file given on the command line, if any.
  /// - Returns: The options every screen of the run is drawn with.
  /// - Throws: ``CommandFailure`` naming the file, line and column of a mistake in it.
  func options(configPath: String? = nil) throws -> ScreenOptions {
    let environment = ProcessInfo.processInfo.environment
    let url = configPath.map { URL(fileURLWithPath: $0) } ?? ConfigFile.defaultURL()
    let config: ScreenConfig
    do {
      config =
        configPath == nil && !FileManager.default.fileExists(atPath: url.path)
        ? .standard : try ScreenConfig(file: ConfigFile(contentsOf: url))
    } catch {
      throw CommandFailure(error.description)
    }
    let accessibleByEnvironment = ["1", "true", "yes"].contains(
      environment["TRELLIS_ACCESSIBLE"]?.lowercased() ?? "")
    return ScreenOptions(
      colors: ColorSupport.detect(environment: environment),
      accessible: accessible || accessibleByEnvironment || config.accessible == true,
      theme: theme.flatMap { name in Theme.builtIn.first { $0.name == name }?.theme }
        ?? config.theme ?? .dark,
      config: config)
  }
}
