import TrellisTerminal

/// The keys of one mode of the browser, as a table: the keyboard goes through it, and the help
/// overlay, the status-line hints and the README's key table are generated from it, so they
/// cannot disagree with what the keys do.
public struct KeyBindings: Hashable, Sendable {
  /// Where the keys apply, as the help and the README title them.
  public var title: String
  /// The rows, in the order the help shows them.
  public var rows: [KeyBinding]

  /// A table of keys.
  public init(title: String, rows: [KeyBinding]) {
    self.title = title
    self.rows = rows
    var seen: Set<KeyEvent> = []
    for action in rows.flatMap(\.actions) {
      precondition(
        seen.insert(action.key).inserted,
        "\(KeyBinding.name(of: action.key)) is bound twice in “\(title)”")
    }
  }

  /// The command a key sends here, if any.
  ///
  /// Shift is ignored: it is in the character typed.
  public func command(for key: KeyEvent) -> BrowserCommand? {
    let key = KeyEvent(key.key, modifiers: key.modifiers.subtracting(.shift))
    for row in rows {
      for action in row.actions {
        let bound = action.key
        if bound.key == key.key && bound.modifiers.subtracting(.shift) == key.modifiers {
          return action.command
        }
      }
    }
    return nil
  }

  /// The status line's summary of the rows that have a hint: `s state · l label`.
  public var hint: String {
    rows.compactMap { row in row.hint.map { "\(row.compactKeyNames) \($0)" } }
      .joined(separator: " · ")
  }

  /// The status line's words for the row that sends `command` (`s: state`), if it has a hint.
  public func hint(for command: BrowserCommand) -> String? {
    guard let row = rows.first(where: { $0.actions.contains { $0.command == command } }),
      let hint = row.hint
    else { return nil }
    return "\(row.compactKeyNames): \(hint)"
  }

  /// The table as Markdown, for the README.
  public var markdown: String {
    var lines = ["| \(title) | |", "| --- | --- |"]
    for row in rows {
      var keys = row.actions.map { "`\(KeyBinding.name(of: $0.key))`" }.joined(separator: " ")
      if let mouse = row.mouse { keys += " · \(mouse)" }
      lines.append("| \(Self.escaped(keys)) | \(Self.escaped(row.summary)) |")
    }
    return lines.joined(separator: "\n")
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|")
  }
}

extension KeyBindings {
  /// Keys that work everywhere.
  public static let global = KeyBindings(
    title: "Anywhere",
    rows: [
      KeyBinding(
        [.init(KeyEvent(.character("c"), modifiers: .control), .interrupt)],
        "quit, as interrupted (exit status 130)")
    ])

  /// The chips and the list.
  public static let browsing = KeyBindings(
    title: "Browsing",
    rows: [
      KeyBinding(
        [.init(.left, .moveAlongChips(.left)), .init(.right, .moveAlongChips(.right))],
        "move along the milestone chips", hint: "milestone"),
      KeyBinding(
        [.init(.enter, .activate)], "select the chip; on an issue, read it full screen",
        mouse: "click a chip", hint: "select"),
      KeyBinding(
        [
          .init(.up, .moveInList(.up)), .init(.down, .moveInList(.down)),
          .init(.character("k"), .moveInList(.up)), .init(.character("j"), .moveInList(.down)),
        ], "move in the list", mouse: "wheel, click a row", hint: "issues"),
      KeyBinding(
        [
          .init(.pageUp, .moveInList(.pageUp)), .init(.pageDown, .moveInList(.pageDown)),
          .init(.home, .moveInList(.first)), .init(.end, .moveInList(.last)),
          .init(.character("g"), .moveInList(.first)), .init(.character("G"), .moveInList(.last)),
        ], "page up and down, first and last issue"),
      KeyBinding(
        [.init(.character(" "), .toggleSubIssues)],
        "open or close sub-issues (▸ 2/5: two done); on a ↗ row, go to its own row"),
      KeyBinding(
        [.init(.character("z"), .toggleSection)],
        "collapse or expand the focused issue's section (kept across restarts)",
        mouse: "click a header"),
      KeyBinding([.init(.character("Z"), .expandAllSections)], "expand every section"),
      KeyBinding(
        [.init(.character("s"), .cycleState)], "state: open → closed → open + closed",
        hint: "state"),
      KeyBinding(
        [.init(.character("l"), .pickLabel)], "filter by label (type to narrow, Enter picks)",
        hint: "label"),
      KeyBinding(
        [.init(.character("/"), .search)],
        "search as you type, every qualifier of `issues help search` (Enter keeps, Esc clears)",
        hint: "search"),
      KeyBinding(
        [.init(.character("c"), .cycleSort)],
        "sort: recently updated → newest → most commented", hint: "sort"),
      KeyBinding(
        [.init(.character("p"), .togglePullRequests)], "show or hide pull requests",
        hint: "PRs"),
      KeyBinding([.init(.escape, .clearFilters)], "clear the search and the label"),
      KeyBinding(
        [.init(.character("o"), .openInBrowser)], "open the issue in the web browser",
        hint: "open"),
      KeyBinding(
        [.init(.character("y"), .copyNumber)],
        "copy the issue's number, as gh-dash does (the clipboard tool, or OSC 52)",
        hint: "copy #"),
      KeyBinding([.init(.character("Y"), .copyURL)], "copy the issue's URL"),
      KeyBinding(
        [.init(.character("x"), .close(.completed))],
        "close the issue (shown at once; taken back if GitHub refuses)"),
      KeyBinding([.init(.character("N"), .close(.notPlanned))], "close it as not planned"),
      KeyBinding([.init(.character("X"), .reopen)], "reopen it"),
      KeyBinding(
        [.init(.character("m"), .moveToMilestone)],
        "move it to another milestone: pick the chip (←/→, Enter)", hint: "move"),
      KeyBinding(
        [.init(.character("C"), .comment)],
        "comment in $VISUAL/$EDITOR (sent through the queue; kept as a draft if refused)"),
      KeyBinding(
        [.init(.character("F"), .forceQueued)],
        "send its queued actions in conflict (!) anyway"),
      KeyBinding(
        [.init(.character("U"), .cancelQueued)],
        "cancel its queued actions not sent yet (⇡, !): shown without them"),
      KeyBinding([.init(.character("r"), .refresh)], "sync with GitHub now", hint: "refresh"),
      KeyBinding([.init(.character("?"), .showHelp)], "show every key", hint: "keys"),
      KeyBinding([.init(.character("q"), .quit)], "quit (Ctrl-C too)", hint: "quit"),
    ])

  /// An issue read full screen.
  public static let reading = KeyBindings(
    title: "Reading an issue",
    rows: [
      KeyBinding(
        [
          .init(.up, .scrollReader(lines: -1)), .init(.down, .scrollReader(lines: 1)),
          .init(.character("k"), .scrollReader(lines: -1)),
          .init(.character("j"), .scrollReader(lines: 1)),
        ], "scroll a line", mouse: "wheel", hint: "scroll"),
      KeyBinding(
        [
          .init(.pageUp, .pageReader(screens: -1)), .init(.pageDown, .pageReader(screens: 1)),
          .init(.character(" "), .pageReader(screens: 1)),
        ], "scroll a screen", hint: "page"),
      KeyBinding(
        [
          .init(.home, .readerTop), .init(.end, .readerBottom), .init(.character("g"), .readerTop),
          .init(.character("G"), .readerBottom),
        ], "top, end"),
      KeyBinding(
        [.init(.character("o"), .openInBrowser)], "open the issue in the web browser",
        hint: "open"),
      KeyBinding([.init(.character("y"), .copyNumber)], "copy its number", hint: "copy #"),
      KeyBinding([.init(.character("Y"), .copyURL)], "copy its URL"),
      KeyBinding(
        [.init(.character("c"), .comment), .init(.character("C"), .comment)],
        "comment in $VISUAL/$EDITOR", hint: "comment"),
      KeyBinding([.init(.character("x"), .close(.completed))], "close it"),
      KeyBinding([.init(.character("N"), .close(.notPlanned))], "close it as not planned"),
      KeyBinding([.init(.character("X"), .reopen)], "reopen it"),
      KeyBinding(
        [.init(.character("F"), .forceQueued)], "send its queued actions in conflict anyway"),
      KeyBinding([.init(.character("U"), .cancelQueued)], "cancel its queued actions not sent yet"),
      KeyBinding(
        [
          .init(.escape, .back), .init(.enter, .back), .init(.backspace, .back),
          .init(.character("q"), .back),
        ], "back to the list", hint: "back"),
    ])

  /// The search field; other keys type.
  public static let searching = KeyBindings(
    title: "Searching",
    rows: [
      KeyBinding([.init(.enter, .commitSearch)], "keep the search", hint: "done"),
      KeyBinding([.init(.escape, .cancelTyping)], "clear the search", hint: "clear"),
      KeyBinding([.init(.backspace, .erase)], "erase a character"),
      KeyBinding(
        [.init(KeyEvent(.character("u"), modifiers: .control), .eraseAll)], "erase everything"),
      KeyBinding(
        [
          .init(.up, .moveInList(.up)), .init(.down, .moveInList(.down)),
          .init(.pageUp, .moveInList(.pageUp)), .init(.pageDown, .moveInList(.pageDown)),
        ], "move in the list while typing", hint: "list"),
    ])

  /// The label picker; other keys narrow the labels.
  public static let pickingLabel = KeyBindings(
    title: "Picking a label",
    rows: [
      KeyBinding(
        [.init(.up, .moveInList(.up)), .init(.down, .moveInList(.down))], "move in the labels",
        hint: "move"),
      KeyBinding(
        [.init(.pageUp, .moveInList(.pageUp)), .init(.pageDown, .moveInList(.pageDown))],
        "page through the labels"),
      KeyBinding([.init(.enter, .pick)], "filter by the focused label", hint: "pick"),
      KeyBinding([.init(.backspace, .erase)], "erase a character of what was typed"),
      KeyBinding(
        [.init(.escape, .cancelTyping)], "clear what was typed, or close the picker",
        hint: "clear/close"),
    ])

  /// The help overlay; any other key closes it.
  public static let help = KeyBindings(
    title: "The list of keys",
    rows: [
      KeyBinding(
        [
          .init(.up, .scrollReader(lines: -1)), .init(.down, .scrollReader(lines: 1)),
          .init(.character("k"), .scrollReader(lines: -1)),
          .init(.character("j"), .scrollReader(lines: 1)),
          .init(.pageUp, .pageReader(screens: -1)), .init(.pageDown, .pageReader(screens: 1)),
        ], "scroll the list of keys", hint: "scroll"),
      KeyBinding([.init(.escape, .back)], "close it (so does any other key)", hint: "close"),
    ])

  /// Picking the milestone to move an issue to, on the chip bar.
  public static let movingToMilestone = KeyBindings(
    title: "Moving an issue to a milestone",
    rows: [
      KeyBinding(
        [
          .init(.left, .moveAlongChips(.left)), .init(.right, .moveAlongChips(.right)),
          .init(.character("h"), .moveAlongChips(.left)),
          .init(.character("l"), .moveAlongChips(.right)),
        ], "pick the milestone chip", hint: "milestone"),
      KeyBinding(
        [.init(.enter, .moveToFocusedChip)],
        "move the issue there (\"No milestone\" takes it out of its milestone)", hint: "move"),
      KeyBinding([.init(.escape, .back)], "leave it where it is", hint: "cancel"),
    ])

  /// Every table, in the order the help and the README list them.
  public static let all: [KeyBindings] = [
    browsing, reading, movingToMilestone, searching, pickingLabel, help, global,
  ]

  /// The keys of a mode.
  public static func of(_ mode: BrowserMode) -> KeyBindings {
    switch mode {
    case .browsing: browsing
    case .reading: reading
    case .searching: searching
    case .pickingLabel: pickingLabel
    case .help: help
    case .movingToMilestone: movingToMilestone
    }
  }

  /// Every table as Markdown, for the README's key section.
  public static var markdown: String {
    all.map(\.markdown).joined(separator: "\n\n")
  }
}
