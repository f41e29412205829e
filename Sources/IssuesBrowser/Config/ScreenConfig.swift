import Foundation
import GitHubIssues
import TrellisTerminal

/// The person's own screens, from the configuration file: keys rebound on each screen,
/// commands of their own bound to keys, a colour theme, and the accessible mode.
///
/// ```yaml
/// accessible: true
/// theme: light                 # dark, light, high-contrast, mono; or a mapping:
/// # theme: {base: dark, focus: white on "#005f87", dim: "245"}
/// keys:
///   browser: {K: up, J: down, s: none}      # browser, reader, dashboard, inbox, search,
///   search: {ctrl-w: erase-all}             # label-picker, milestone-picker
///   dashboard: {n: next-section}
/// commands:
///   - key: b
///     title: check out the branch
///     run: gh pr checkout {number} --repo {repository}
///     in: foreground
///     screens: [browser, dashboard]
/// ```
///
/// A key bound twice on a screen, a command or key that does not exist, or a style that cannot
/// be read is a ``ConfigFileError`` at its line and column; nothing of such a file is used.
package struct ScreenConfig: Hashable, Sendable {
  /// The screens keys are bound on, as the file names them.
  package enum ScreenName: String, Hashable, Sendable, CaseIterable {
    /// The issue list and its chips.
    case browser
    /// An issue read full screen.
    case reader
    /// `issues dash`.
    case dashboard
    /// `issues inbox`.
    case inbox
    /// A new issue: the template chooser and the form (`issues create`): the keys no table
    /// binds type.
    case form
    /// A pull request's diff (`d` on one).
    case diff
    /// The browser's search field (`/`): the keys no table binds type.
    case search
    /// The browser's label picker (`l`): the keys no table binds narrow the labels.
    case labelPicker = "label-picker"
    /// Picking the milestone to move an issue to (`m`), on the chip bar.
    case milestonePicker = "milestone-picker"

    /// The screens a command of the person's goes on when its `screens:` does not say: not
    /// the fields that take typing, where a command's key would stop a character being typed.
    static let commandDefaults: [ScreenName] = [.browser, .reader, .dashboard, .inbox, .diff]
  }

  /// Whether the accessible mode is on; `nil` when the file does not say.
  package var accessible: Bool?
  /// The theme; `nil` when the file does not say.
  package var theme: Theme?
  /// The browser's and the reader's keys.
  package var browserKeys = BrowserKeys.standard
  /// The dashboard's keys.
  package var dashboardKeys = DashboardKeys.standard
  /// The inbox's keys.
  package var inboxKeys = InboxKeys.standard
  /// The new-issue screen's keys.
  package var formKeys = IssueFormKeys.standard
  /// The diff screen's keys.
  package var diffKeys = DiffKeys.standard

  /// Nothing changed: the standard keys and theme.
  package static let standard = ScreenConfig()

  init() {}

  /// The configuration of the file at `url`, or the standard one when there is no file.
  package static func load(from url: URL = ConfigFile.defaultURL()) throws(ConfigFileError)
    -> ScreenConfig
  {
    guard FileManager.default.fileExists(atPath: url.path) else { return .standard }
    return try ScreenConfig(file: ConfigFile(contentsOf: url))
  }

  /// Reads the screens' part of a configuration file.
  package init(file: ConfigFile) throws(ConfigFileError) {
    if let accessible = file.topLevel("accessible") {
      self.accessible = try file.bool(accessible.value, what: "accessible:")
    }
    if let theme = file.topLevel("theme") { self.theme = try Self.theme(theme.value, in: file) }
    var bound = Bound()
    if let keys = file.topLevel("keys") {
      for pair in try file.mapping(
        keys.value, what: "keys:", allowed: ScreenName.allCases.map(\.rawValue))
      {
        let screen = ScreenName(rawValue: pair.key) ?? .browser
        for binding in try file.mapping(pair.value, what: "keys: \(pair.key):", allowed: nil) {
          let key = try Self.key(binding.keyNode, in: file)
          try bound.claim(key, on: screen, at: binding.keyNode, in: file)
          let name = try file.string(binding.value, what: "the command of \(binding.key)")
          try bind(key, named: name, on: screen, at: binding.value, in: file)
        }
      }
    }
    if let commands = file.topLevel("commands") {
      for node in try file.sequence(commands.value, what: "commands:") {
        try addCommand(node, in: file, bound: &bound)
      }
    }
  }

  // MARK: Keys

  /// The keys bound by the file so far, by screen, with where: a second binding is a mistake.
  struct Bound {
    var places: [ScreenName: [KeyEvent: ConfigNode]] = [:]

    mutating func claim(
      _ key: KeyEvent, on screen: ScreenName, at node: ConfigNode, in file: ConfigFile
    ) throws(ConfigFileError) {
      let key = KeyBindings<BrowserCommand>.normalized(key)
      if let earlier = places[screen]?[key] {
        throw file.error(
          at: node,
          "\(key.keycapName) is bound twice on the \(screen.rawValue): here and at line "
            + "\(earlier.line), column \(earlier.column).")
      }
      places[screen, default: [:]][key] = node
    }
  }

  static func key(_ node: ConfigNode, in file: ConfigFile) throws(ConfigFileError) -> KeyEvent {
    let text = try file.string(node, what: "a key")
    guard let key = KeyEvent(configName: text) else {
      throw file.error(
        at: node,
        "“\(text)” is not a key: write a character (j, J, ?), a name (enter, tab, esc, space, "
          + "backspace, up, down, left, right, home, end, pgup, pgdn, f1–f24), or one after "
          + "ctrl-, alt- or shift-.")
    }
    if key.key == .character("c"), key.modifiers == .control {
      throw file.error(at: node, "Ctrl-C always quits: it cannot be bound.")
    }
    return key
  }

  /// Binds `key` on a screen to the command called `name` there (`none`: to nothing).
  mutating func bind(
    _ key: KeyEvent, named name: String, on screen: ScreenName, at node: ConfigNode,
    in file: ConfigFile
  ) throws(ConfigFileError) {
    switch screen {
    case .browser:
      browserKeys.browsing = try Self.bind(
        key, named: name, in: browserKeys.browsing, standard: BrowserKeys.standard.browsing,
        screen: screen, at: node, file: file)
    case .reader:
      browserKeys.reading = try Self.bind(
        key, named: name, in: browserKeys.reading, standard: BrowserKeys.standard.reading,
        screen: screen, at: node, file: file)
    case .dashboard:
      dashboardKeys = try Self.bind(
        key, named: name, in: dashboardKeys, standard: DashboardKeys.standard, screen: screen,
        at: node, file: file)
    case .inbox:
      inboxKeys = try Self.bind(
        key, named: name, in: inboxKeys, standard: InboxKeys.standard, screen: screen, at: node,
        file: file)
    case .form:
      formKeys = try Self.bind(
        key, named: name, in: formKeys, standard: IssueFormKeys.standard, screen: screen,
        at: node, file: file)
    case .diff:
      diffKeys = try Self.bind(
        key, named: name, in: diffKeys, standard: DiffKeys.standard, screen: screen, at: node,
        file: file)
    case .search:
      browserKeys.searching = try Self.bind(
        key, named: name, in: browserKeys.searching, standard: BrowserKeys.standard.searching,
        screen: screen, at: node, file: file)
    case .labelPicker:
      browserKeys.pickingLabel = try Self.bind(
        key, named: name, in: browserKeys.pickingLabel,
        standard: BrowserKeys.standard.pickingLabel, screen: screen, at: node, file: file)
    case .milestonePicker:
      browserKeys.movingToMilestone = try Self.bind(
        key, named: name, in: browserKeys.movingToMilestone,
        standard: BrowserKeys.standard.movingToMilestone, screen: screen, at: node, file: file)
    }
  }

  static func bind<Command: NamedCommand>(
    _ key: KeyEvent, named name: String, in table: KeyBindings<Command>,
    standard: KeyBindings<Command>, screen: ScreenName, at node: ConfigNode, file: ConfigFile
  ) throws(ConfigFileError) -> KeyBindings<Command> {
    if name == "none" { return table.binding(key, to: nil) }
    let commands = standard.namedCommands
    guard let command = commands.first(where: { $0.name == name }) else {
      let names = commands.map(\.name)
      if let close = ConfigFile.nearest(name, in: names) {
        throw file.error(
          at: node, "the \(screen.rawValue) has no command “\(name)”: did you mean “\(close)”?")
      }
      throw file.error(
        at: node,
        "the \(screen.rawValue) has no command “\(name)”: its commands are "
          + names.joined(separator: ", ") + ", and none.")
    }
    return table.binding(key, to: command)
  }

  // MARK: Commands

  mutating func addCommand(_ node: ConfigNode, in file: ConfigFile, bound: inout Bound)
    throws(ConfigFileError)
  {
    let pairs = try file.mapping(
      node, what: "a command", allowed: ["key", "title", "run", "in", "screens"])
    func value(_ name: String) -> ConfigNode? { pairs.first { $0.key == name }?.value }
    guard let keyNode = value("key") else {
      throw file.error(at: node, "this command has no key:.")
    }
    guard let titleNode = value("title") else {
      throw file.error(at: node, "this command has no title: (the help shows it).")
    }
    guard let runNode = value("run") else {
      throw file.error(at: node, "this command has no run: (the shell command it runs).")
    }
    let key = try Self.key(keyNode, in: file)
    // Shown in the help and on the status line: its control characters are shown, not sent.
    let title = ControlCharacters.visible(try file.string(titleNode, what: "title:"))
    guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw file.error(at: titleNode, "title: is empty.")
    }
    let text = try file.string(runNode, what: "run:")
    // No process argument can hold a NUL: refused here, not cut where the shell gets it.
    guard !text.unicodeScalars.contains("\0") else {
      throw file.error(at: runNode, "run: holds a NUL character, which no command can be given.")
    }
    let template: CommandTemplate
    do {
      template = try CommandTemplate(text)
    } catch {
      let column =
        if case .scalar(_, .plain) = runNode.value, !text.contains("\n") {
          runNode.column + error.offset
        } else if case .scalar(_, .quoted) = runNode.value, !text.contains("\n") {
          runNode.column + 1 + error.offset
        } else {
          runNode.column
        }
      throw ConfigFileError(
        file: file.path, line: runNode.line, column: column, message: error.description)
    }
    var mode = UserCommand.Mode.background
    if let modeNode = value("in") {
      let text = try file.string(modeNode, what: "in:")
      guard let chosen = UserCommand.Mode(rawValue: text) else {
        throw file.error(at: modeNode, "in: takes foreground or background, not “\(text)”.")
      }
      mode = chosen
    }
    var screens = ScreenName.commandDefaults
    if let screensNode = value("screens") {
      let items: [ConfigNode] =
        if case .sequence(let items) = screensNode.value { items } else { [screensNode] }
      screens = []
      for item in items {
        let name = try file.string(item, what: "a screen")
        guard let screen = ScreenName(rawValue: name) else {
          throw file.error(
            at: item,
            "“\(name)” is not a screen: they are "
              + ScreenName.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        screens.append(screen)
      }
    }
    let command = UserCommand(title: title, template: template, mode: mode)
    for screen in screens {
      try bound.claim(key, on: screen, at: keyNode, in: file)
      switch screen {
      case .browser: browserKeys.browsing = browserKeys.browsing.binding(key, to: .run(command))
      case .reader: browserKeys.reading = browserKeys.reading.binding(key, to: .run(command))
      case .dashboard: dashboardKeys = dashboardKeys.binding(key, to: .run(command))
      case .inbox: inboxKeys = inboxKeys.binding(key, to: .run(command))
      case .form: formKeys = formKeys.binding(key, to: .run(command))
      case .diff: diffKeys = diffKeys.binding(key, to: .run(command))
      case .search: browserKeys.searching = browserKeys.searching.binding(key, to: .run(command))
      case .labelPicker:
        browserKeys.pickingLabel = browserKeys.pickingLabel.binding(key, to: .run(command))
      case .milestonePicker:
        browserKeys.movingToMilestone = browserKeys.movingToMilestone.binding(
          key, to: .run(command))
      }
    }
  }

  // MARK: Theme

  static func theme(_ node: ConfigNode, in file: ConfigFile) throws(ConfigFileError) -> Theme {
    func named(_ node: ConfigNode) throws(ConfigFileError) -> Theme {
      let name = try file.string(node, what: "a theme")
      guard let theme = Theme.builtIn.first(where: { $0.name == name })?.theme else {
        throw file.error(
          at: node,
          "“\(name)” is not a theme: they are "
            + Theme.builtIn.map(\.name).joined(separator: ", ") + ".")
      }
      return theme
    }
    guard case .mapping = node.value else { return try named(node) }
    let pairs = try file.mapping(
      node, what: "theme:", allowed: ["base"] + Theme.roles.map(\.name))
    var theme =
      try pairs.first { $0.key == "base" }.map { pair throws(ConfigFileError) in
        try named(pair.value)
      } ?? Theme.dark
    for pair in pairs where pair.key != "base" {
      guard let role = Theme.roles.first(where: { $0.name == pair.key }) else { continue }
      let text = try file.string(pair.value, what: "\(pair.key):")
      do {
        theme[keyPath: role.path] = try Style(configText: text)
      } catch {
        throw file.error(at: pair.value, "\(pair.key): \(error.message)")
      }
    }
    return theme
  }
}

extension KeyBindings where Command: NamedCommand {
  /// The table's commands, each once, in the table's order (Ctrl-C's is not one to bind).
  package var namedCommands: [Command] {
    var seen: Set<Command> = []
    var commands: [Command] = []
    for row in rows {
      for action in row.actions
      where action.command.name != "interrupt" && seen.insert(action.command).inserted {
        commands.append(action.command)
      }
    }
    return commands
  }
}
