import Foundation

/// The configuration file, read once, with the reading rules of ``YAMLReading``: mappings take
/// only the keys they know (a near miss is suggested), and every mistake is a ``ConfigFileError``
/// at its line and column.
///
/// One file, `$XDG_CONFIG_HOME/trellis-issues/dashboard.yml`, holds the dashboard's sections and
/// the person's keys, commands, theme and accessible mode; each reader takes its own keys of it.
public struct ConfigFile: YAMLReading, Sendable {
  /// The file's path, as errors name it.
  public let path: String
  /// The document; `nil` for an empty file.
  package let root: ConfigNode?

  /// The top-level keys the file may hold, each read by its own part of the app.
  package static let topLevelKeys = [
    "repositories", "hosts", "sections", "keys", "commands", "theme", "accessible",
  ]

  /// Where the file is: `$XDG_CONFIG_HOME/trellis-issues/dashboard.yml`, with `~/.config` when
  /// `XDG_CONFIG_HOME` is unset.
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let base: URL
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty, xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg)
    } else {
      let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
      base = URL(fileURLWithPath: home).appendingPathComponent(".config")
    }
    return base.appendingPathComponent("trellis-issues").appendingPathComponent("dashboard.yml")
  }

  /// Reads the file at `url`.
  ///
  /// - Throws: ``ConfigFileError`` when it cannot be read or is not YAML.
  public init(contentsOf url: URL) throws(ConfigFileError) {
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw ConfigFileError(
        file: url.path, line: 1, column: 1,
        message: "cannot read the file (\((error as NSError).localizedDescription)).")
    }
    try self.init(yaml: text, file: url.path)
  }

  /// Reads a file's text; `file` names it in errors.
  public init(yaml: String, file: String) throws(ConfigFileError) {
    path = file
    root = try Self.compose(yaml: yaml, file: file)
    if let root {
      _ = try mapping(root, what: "the file", allowed: Self.topLevelKeys)
    }
  }

  /// The value of a top-level key, if the file gives it.
  package func topLevel(_ key: String) -> ConfigPair? {
    guard let root, case .mapping(let pairs) = root.value else { return nil }
    return pairs.first { $0.key == key }
  }
}
