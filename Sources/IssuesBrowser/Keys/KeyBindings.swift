import TrellisTerminal

/// The keys of one screen or mode, as a table: the keyboard goes through it, and the `?`
/// overlay, the status-line hints and `issues help keys` are generated from it, so they
/// cannot disagree with what the keys do.
public struct KeyBindings<Command: Hashable & Sendable>: Hashable, Sendable {
  /// Where the keys apply, as the help titles them.
  public var title: String
  /// The rows, in the order the help shows them.
  public var rows: [KeyBinding<Command>]

  /// A table of keys.
  ///
  /// A key bound twice is a programming error and traps, naming the key and the table.
  public init(title: String, rows: [KeyBinding<Command>]) {
    self.title = title
    self.rows = rows
    var seen: Set<KeyEvent> = []
    for action in rows.flatMap(\.actions) {
      precondition(
        seen.insert(Self.normalized(action.key)).inserted,
        "\(action.key.keycapName) is bound twice in “\(title)”")
    }
  }

  /// A key as it is matched: Shift is dropped from characters, where it is in the character
  /// typed (`G`), and kept on other keys (Tab and Shift-Tab differ).
  static func normalized(_ key: KeyEvent) -> KeyEvent {
    guard case .character = key.key else { return key }
    return KeyEvent(key.key, modifiers: key.modifiers.subtracting(.shift))
  }

  /// The command a key sends here, if any.
  public func command(for key: KeyEvent) -> Command? {
    let key = Self.normalized(key)
    for row in rows {
      for action in row.actions where Self.normalized(action.key) == key {
        return action.command
      }
    }
    return nil
  }

  /// The status line's summary of the rows that have a hint: `s state · l label`.
  package var hint: String {
    hints.joined(separator: " · ")
  }

  /// Each hinted row's words for the status line, in the table's order: `s state`.
  package var hints: [String] {
    rows.compactMap { row in
      row.actions.isEmpty ? nil : row.hint.map { "\(row.compactKeyNames) \($0)" }
    }
  }

  /// The status line's words for the row that sends `command` (`s: state`), if it has a hint.
  package func hint(for command: Command) -> String? {
    guard let row = rows.first(where: { $0.actions.contains { $0.command == command } }),
      let hint = row.hint, !row.actions.isEmpty
    else { return nil }
    return "\(row.compactKeyNames): \(hint)"
  }

  /// The table's lines in the `?` overlay: its title, then a line per row.
  package var helpLines: [HelpLine] {
    [HelpLine(keys: title, summary: "", isTitle: true)]
      + rows.filter { !$0.actions.isEmpty }.map { row in
        var keys = row.keyNames
        if let mouse = row.mouse { keys += " · " + mouse }
        return HelpLine(keys: keys, summary: row.summary, isTitle: false)
      }
  }
}

/// A line of the `?` overlay: a table's title, or a row's keys and what they do.
package struct HelpLine: Hashable, Sendable {
  /// The keys (or the table's title).
  package var keys: String
  /// What they do; empty on a title.
  package var summary: String
  /// Whether the line titles a table.
  package var isTitle: Bool
}

extension KeyBindings where Command: NamedCommand {
  /// The table with `key` sending `command` instead of what it sent (`nil`: nothing).
  ///
  /// The key leaves the row it was in (a row left with no key stays, unshown, so that a key
  /// bound to its command later brings it back with its words); it joins the row of `command`,
  /// or a new row at the end for a command the table did not have (one of the person's own),
  /// summarised by its name.
  package func binding(_ key: KeyEvent, to command: Command?) -> KeyBindings {
    let normalizedKey = Self.normalized(key)
    var rows = rows.map { row in
      var row = row
      row.actions.removeAll { Self.normalized($0.key) == normalizedKey }
      return row
    }
    if let command {
      let action = KeyBinding<Command>.Action(key, command)
      if let index = rows.firstIndex(where: { $0.commands.contains(command) }) {
        rows[index].actions.append(action)
      } else {
        rows.append(KeyBinding([action], command.name))
      }
    }
    return KeyBindings(title: title, rows: rows)
  }
}
