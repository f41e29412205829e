import GitHubIssues
import TrellisTerminal

/// What a key asks of the inbox.
public enum InboxCommand: Hashable, Sendable {
  /// Leave (`q`).
  case quit
  /// Leave as interrupted (Ctrl-C).
  case interrupt
  /// Ask every host for its inbox now (`r`).
  case refresh
  /// Move the focus in the list.
  case moveInList(FocusMove)
  /// Read the focused thread's issue or pull request, marking it read (Enter).
  case read
  /// Triage the focused thread (`m`, `d`, `u`).
  case triage(GitHubClient.Triage)
  /// Show the next reason, then all (`f`).
  case cycleReason
  /// Show the next repository, then all (`F`).
  case cycleRepository
  /// Open the thread on GitHub (`o`).
  case openInBrowser
  /// Show every key (`?`).
  case showHelp
  /// Runs one of the person's own commands on the focused item.
  case run(UserCommand)
}

/// The inbox's keys, as one table: the keyboard, the `?` overlay, the status line and
/// `issues help keys` come from it.
public enum InboxKeys {
  typealias Row = KeyBinding<InboxCommand>

  /// The inbox's standard keys.
  package static let standard = KeyBindings<InboxCommand>(
    title: "The inbox (issues inbox)",
    rows: Row.listMoves(InboxCommand.moveInList, items: "threads", hint: "move") + [
      Row(
        [.init(.enter, .read)],
        "read the issue or pull request in its repository's browser (marks it read)",
        hint: "read"),
      Row([.init(.character("m"), .triage(.read))], "mark the thread read", hint: "mark read"),
      Row(
        [.init(.character("d"), .triage(.done))], "mark it done: it leaves the inbox",
        hint: "done"),
      Row(
        [.init(.character("u"), .triage(.unsubscribe))], "unsubscribe from it, and mark it done",
        hint: "unsubscribe"),
      Row(
        [.init(.character("f"), .cycleReason)], "show one reason, the next one, then all",
        hint: "reason"),
      Row(
        [.init(.character("F"), .cycleRepository)],
        "show one repository, the next one, then all", hint: "repository"),
      Row([.init(.character("o"), .openInBrowser)], "open the thread on GitHub", hint: "open"),
      Row(
        [.init(.character("r"), .refresh), .init(.character("R"), .refresh)],
        "ask every host for its inbox now", hint: "refresh"),
      Row([.init(.character("?"), .showHelp)], "show every key", hint: "keys"),
      Row([.init(.character("q"), .quit)], "quit", hint: "quit"),
      Row(
        [.init(KeyEvent(.character("c"), modifiers: .control), .interrupt)],
        "quit, as interrupted (exit status 130)"),
    ])

  /// The `?` overlay's lines for `keys`.
  package static func helpLines(_ keys: KeyBindings<InboxCommand>) -> [HelpLine] {
    HelpOverlay.lines([keys.helpLines, HelpOverlay.keys.helpLines])
  }
}
