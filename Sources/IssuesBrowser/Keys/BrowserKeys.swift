import TrellisTerminal

/// The browser's keys: a table per mode, and the keys that work in every mode — the standard
/// ones, or the person's (``ScreenConfig``).
public struct BrowserKeys: Hashable, Sendable {
  /// A table of the browser's keys.
  public typealias Table = KeyBindings<BrowserCommand>
  typealias Row = KeyBinding<BrowserCommand>

  /// Keys that work everywhere.
  static let standardGlobal = Table(
    title: "Anywhere",
    rows: [
      Row(
        [.init(KeyEvent(.character("c"), modifiers: .control), .interrupt)],
        "quit, as interrupted (exit status 130)")
    ])

  /// The chips and the list.
  static let standardBrowsing = Table(
    title: "Browsing",
    rows: [
      Row(
        [.init(.left, .moveAlongChips(.left)), .init(.right, .moveAlongChips(.right))],
        "move along the milestone chips", hint: "milestone"),
      Row(
        [.init(.enter, .activate)], "select the chip; on an issue, read it full screen",
        mouse: "click a chip", hint: "select"),
      Row(
        [
          .init(.up, .moveInList(.up)), .init(.down, .moveInList(.down)),
          .init(.character("k"), .moveInList(.up)), .init(.character("j"), .moveInList(.down)),
        ], "move in the list", mouse: "wheel, click a row", hint: "issues"),
      Row(
        [
          .init(.pageUp, .moveInList(.pageUp)), .init(.pageDown, .moveInList(.pageDown)),
          .init(.home, .moveInList(.first)), .init(.end, .moveInList(.last)),
          .init(.character("g"), .moveInList(.first)), .init(.character("G"), .moveInList(.last)),
        ], "page up and down, first and last issue"),
      Row(
        [.init(.character(" "), .toggleSubIssues)],
        "open or close sub-issues (▸ 2/5: two done); on a ↗ row, go to its own row"),
      Row(
        [.init(.character("z"), .toggleSection)],
        "collapse or expand the focused issue's section (kept across restarts)",
        mouse: "click a header"),
      Row([.init(.character("Z"), .expandAllSections)], "expand every section"),
      Row(
        [.init(.character("s"), .cycleState)], "state: open → closed → open + closed",
        hint: "state"),
      Row(
        [.init(.character("l"), .pickLabel)], "filter by label (type to narrow, Enter picks)",
        hint: "label"),
      Row(
        [.init(.character("/"), .search)],
        "search as you type, every qualifier of `issues help search` (Enter keeps, Esc clears)",
        hint: "search"),
      Row(
        [.init(.character("c"), .cycleSort)],
        "sort: recently updated → newest → most commented", hint: "sort"),
      Row(
        [.init(.character("p"), .togglePullRequests)], "show or hide pull requests",
        hint: "PRs"),
      Row([.init(.escape, .clearFilters)], "clear the search and the label"),
      Row(
        [.init(.character("o"), .openInBrowser)], "open the issue in the web browser",
        hint: "open"),
      Row(
        [.init(.character("y"), .copyNumber)],
        "copy the issue's number, as gh-dash does (the clipboard tool, or OSC 52)",
        hint: "copy #"),
      Row([.init(.character("Y"), .copyURL)], "copy the issue's URL"),
      Row(
        [.init(.character("x"), .close(.completed))],
        "close the issue (shown at once; taken back if GitHub refuses)"),
      Row([.init(.character("N"), .close(.notPlanned))], "close it as not planned"),
      Row([.init(.character("X"), .reopen)], "reopen it"),
      Row(
        [.init(.character("m"), .moveToMilestone)],
        "move it to another milestone: pick the chip (←/→, Enter)", hint: "move"),
      Row(
        [.init(.character("C"), .comment)],
        "comment in $VISUAL/$EDITOR (sent through the queue; kept as a draft if refused)"),
      Row(
        [.init(.character("n"), .newIssue)],
        "file a new issue from the repository's templates and forms (shown at once, queued)",
        hint: "new"),
      Row(
        [.init(.character("e"), .rewriteNewIssue)],
        "rewrite the title and body of a new issue not filed yet (new)"),
      Row(
        [.init(.character("d"), .showDiff)],
        "read the pull request's diff, comment on its lines and review it"),
      Row(
        [.init(.character("F"), .forceQueued)],
        "send its queued actions in conflict (!) anyway"),
      Row(
        [.init(.character("U"), .cancelQueued)],
        "cancel its queued actions not sent yet (⇡, !): shown without them"),
      Row([.init(.character("r"), .refresh)], "sync with GitHub now", hint: "refresh"),
      Row([.init(.character("?"), .showHelp)], "show every key", hint: "keys"),
      Row([.init(.character("q"), .quit)], "quit (Ctrl-C too)", hint: "quit"),
    ])

  /// An issue read full screen.
  static let standardReading = Table(
    title: "Reading an issue",
    rows: [
      Row(
        [
          .init(.up, .scrollReader(lines: -1)), .init(.down, .scrollReader(lines: 1)),
          .init(.character("k"), .scrollReader(lines: -1)),
          .init(.character("j"), .scrollReader(lines: 1)),
        ], "scroll a line", mouse: "wheel", hint: "scroll"),
      Row(
        [
          .init(.pageUp, .pageReader(screens: -1)), .init(.pageDown, .pageReader(screens: 1)),
          .init(.character(" "), .pageReader(screens: 1)),
        ], "scroll a screen", hint: "page"),
      Row(
        [
          .init(.home, .readerTop), .init(.end, .readerBottom), .init(.character("g"), .readerTop),
          .init(.character("G"), .readerBottom),
        ], "top, end"),
      Row(
        [.init(.character("o"), .openInBrowser)], "open the issue in the web browser",
        hint: "open"),
      Row([.init(.character("y"), .copyNumber)], "copy its number", hint: "copy #"),
      Row([.init(.character("Y"), .copyURL)], "copy its URL"),
      Row(
        [.init(.character("c"), .comment), .init(.character("C"), .comment)],
        "comment in $VISUAL/$EDITOR", hint: "comment"),
      Row([.init(.character("x"), .close(.completed))], "close it"),
      Row([.init(.character("N"), .close(.notPlanned))], "close it as not planned"),
      Row([.init(.character("X"), .reopen)], "reopen it"),
      Row(
        [.init(.character("F"), .forceQueued)], "send its queued actions in conflict anyway"),
      Row([.init(.character("U"), .cancelQueued)], "cancel its queued actions not sent yet"),
      Row(
        [.init(.character("e"), .rewriteNewIssue)],
        "rewrite its title and body, while it is not filed yet"),
      Row(
        [.init(.character("d"), .showDiff)],
        "read the pull request's diff, comment on its lines and review it"),
      Row(
        [
          .init(.escape, .back), .init(.enter, .back), .init(.backspace, .back),
          .init(.character("q"), .back),
        ], "back to the list", hint: "back"),
    ])

  /// The search field; other keys type.
  static let standardSearching = Table(
    title: "Searching",
    rows: [
      Row([.init(.enter, .commitSearch)], "keep the search", hint: "done"),
      Row([.init(.escape, .cancelTyping)], "clear the search", hint: "clear"),
      Row([.init(.backspace, .erase)], "erase a character"),
      Row(
        [.init(KeyEvent(.character("u"), modifiers: .control), .eraseAll)], "erase everything"),
      Row(
        [
          .init(.up, .moveInList(.up)), .init(.down, .moveInList(.down)),
          .init(.pageUp, .moveInList(.pageUp)), .init(.pageDown, .moveInList(.pageDown)),
        ], "move in the list while typing", hint: "list"),
    ])

  /// The label picker; other keys narrow the labels.
  static let standardPickingLabel = Table(
    title: "Picking a label",
    rows: [
      Row(
        [.init(.up, .moveInList(.up)), .init(.down, .moveInList(.down))], "move in the labels",
        hint: "move"),
      Row(
        [.init(.pageUp, .moveInList(.pageUp)), .init(.pageDown, .moveInList(.pageDown))],
        "page through the labels"),
      Row([.init(.enter, .pick)], "filter by the focused label", hint: "pick"),
      Row([.init(.backspace, .erase)], "erase a character of what was typed"),
      Row(
        [.init(.escape, .cancelTyping)], "clear what was typed, or close the picker",
        hint: "clear/close"),
    ])

  /// Picking the milestone to move an issue to, on the chip bar.
  static let standardMovingToMilestone = Table(
    title: "Moving an issue to a milestone",
    rows: [
      Row(
        [
          .init(.left, .moveAlongChips(.left)), .init(.right, .moveAlongChips(.right)),
          .init(.character("h"), .moveAlongChips(.left)),
          .init(.character("l"), .moveAlongChips(.right)),
        ], "pick the milestone chip", hint: "milestone"),
      Row(
        [.init(.enter, .moveToFocusedChip)],
        "move the issue there (\"No milestone\" takes it out of its milestone)", hint: "move"),
      Row([.init(.escape, .back)], "leave it where it is", hint: "cancel"),
    ])

  /// The keys of every mode.
  package var global, browsing, reading, movingToMilestone, searching, pickingLabel: Table

  /// The standard keys.
  package static let standard = BrowserKeys(
    global: standardGlobal, browsing: standardBrowsing, reading: standardReading,
    movingToMilestone: standardMovingToMilestone, searching: standardSearching,
    pickingLabel: standardPickingLabel)

  /// The keys of a mode; `nil` in the help, whose keys are the overlay's.
  public func of(_ mode: BrowserMode) -> Table? {
    switch mode {
    case .browsing: browsing
    case .reading: reading
    case .searching: searching
    case .pickingLabel: pickingLabel
    case .help: nil
    case .movingToMilestone: movingToMilestone
    }
  }

  /// The status line's hints in a mode.
  package func hints(in mode: BrowserMode) -> [String] {
    of(mode)?.hints ?? HelpOverlay.keys.hints
  }

  /// The `?` overlay's lines: the browser's tables, the overlay's keys, then the global ones.
  package var helpLines: [HelpLine] {
    HelpOverlay.lines(
      [browsing, reading, movingToMilestone, searching, pickingLabel].map(\.helpLines)
        + [HelpOverlay.keys.helpLines, global.helpLines])
  }
}
