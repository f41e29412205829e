import TrellisTerminal

/// What a key asks of the dashboard.
package enum DashboardCommand: Hashable, Sendable {
  /// Leave (`q`).
  case quit
  /// Leave as interrupted (Ctrl-C).
  case interrupt
  /// Sync every repository (`r`).
  case refresh
  /// The next section (Tab, →, `l`).
  case nextSection
  /// The previous section (Shift-Tab, ←, `h`).
  case previousSection
  /// A section by its place, from 0 (`1`…`9`).
  case section(Int)
  /// The previous milestone chip of a section over one repository (`[`).
  case previousMilestone
  /// The next one (`]`).
  case nextMilestone
  /// Group the section by repository, or not (`v`).
  case toggleGrouping
  /// Move the focus in the list.
  case moveInList(FocusMove)
  /// Read the focused item (Enter).
  case read
  /// Open it on GitHub (`o`).
  case openInBrowser
  /// Copy `OWNER/REPO#N` (`y`).
  case copyNumber
  /// Copy its URL (`Y`).
  case copyURL
  /// Show every key (`?`).
  case showHelp
  /// Runs one of the person's own commands on the focused item.
  case run(UserCommand)
}

/// The dashboard's keys, as one table: the keyboard, the `?` overlay, the status line and
/// `issues help keys` come from it.
package enum DashboardKeys {
  typealias Row = KeyBinding<DashboardCommand>

  /// The dashboard's standard keys.
  package static let standard = KeyBindings<DashboardCommand>(
    title: "The dashboard (issues dash)",
    rows: [
      Row(
        [
          .init(.tab, .nextSection), .init(KeyEvent(.tab, modifiers: .shift), .previousSection),
          .init(.right, .nextSection), .init(.left, .previousSection),
          .init(.character("l"), .nextSection), .init(.character("h"), .previousSection),
        ], "next and previous section", mouse: "click a tab", hint: "section"),
      Row(
        (1...9).map { .init(.character(Character(String($0))), .section($0 - 1)) },
        "a section by its place"),
      Row(
        [.init(.character("["), .previousMilestone), .init(.character("]"), .nextMilestone)],
        "previous and next milestone, in a section over one repository", mouse: "click a chip",
        hint: "milestone"),
    ]
      + Row.listMoves(DashboardCommand.moveInList, items: "items", hint: "move") + [
        Row(
          [.init(.enter, .read)], "read the item in its repository's browser, then come back",
          hint: "read"),
        Row([.init(.character("o"), .openInBrowser)], "open it on GitHub", hint: "open"),
        Row([.init(.character("y"), .copyNumber)], "copy OWNER/REPO#N", hint: "copy"),
        Row([.init(.character("Y"), .copyURL)], "copy its URL"),
        Row(
          [.init(.character("v"), .toggleGrouping)], "group the section by repository, or not",
          hint: "group"),
        Row([.init(.character("r"), .refresh)], "sync every repository now", hint: "sync"),
        Row([.init(.character("?"), .showHelp)], "show every key", hint: "keys"),
        Row([.init(.character("q"), .quit)], "quit", hint: "quit"),
        Row(
          [.init(KeyEvent(.character("c"), modifiers: .control), .interrupt)],
          "quit, as interrupted (exit status 130)"),
      ])

  /// The `?` overlay's lines for `keys`.
  package static func helpLines(_ keys: KeyBindings<DashboardCommand>) -> [HelpLine] {
    HelpOverlay.lines([keys.helpLines, HelpOverlay.keys.helpLines])
  }
}
