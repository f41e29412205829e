import TrellisTerminal

/// One row of a screen's key table: the keys, the command each one sends, what the row does in
/// words, and how the status line abbreviates it.
///
/// Generic over the screen's command type, so that every screen — the browser, the dashboard,
/// the inbox — gets its keyboard, its `?` overlay, its status hints and its `issues help keys` page from
/// one kind of table.
public struct KeyBinding<Command: Hashable & Sendable>: Hashable, Sendable {
  /// A key and the command it sends.
  public struct Action: Hashable, Sendable {
    /// The key, with the modifiers it needs (Shift is implied by the character it types).
    public var key: KeyEvent
    /// What the key asks for.
    public var command: Command

    /// Binds a key to a command.
    public init(_ key: KeyEvent, _ command: Command) {
      self.key = key
      self.command = command
    }

    /// Binds a key pressed without modifiers to a command.
    public init(_ key: Key, _ command: Command) {
      self.init(KeyEvent(key), command)
    }
  }

  /// The row's keys, in the order the help shows them.
  package var actions: [Action]
  /// What the keys do, as the help overlay and `issues help keys` say it.
  package var summary: String
  /// What the mouse does to the same effect, if anything ("click").
  public var mouse: String?
  /// The status line's word for the row ("state"), when the row is worth a place there.
  package var hint: String?
  /// The commands the row is about, as it was made: a key rebound to one of them joins this
  /// row, even after the person took all its keys away.
  package let commands: [Command]

  /// A row of a key table.
  public init(
    _ actions: [Action], _ summary: String, mouse: String? = nil, hint: String? = nil
  ) {
    self.actions = actions
    self.summary = summary
    self.mouse = mouse
    self.hint = hint
    commands = actions.map(\.command)
  }

  /// The two rows of a list's moves, as every screen binds them: ↑ ↓ k j, then PgUp PgDn Home
  /// End g G; `what` names the list's items ("threads"), `hint` the first row's status word.
  package static func listMoves(
    _ command: (FocusMove) -> Command, items what: String, mouse: String? = "wheel, click a row",
    hint: String
  ) -> [KeyBinding] {
    [
      KeyBinding(
        [
          .init(.up, command(.up)), .init(.down, command(.down)),
          .init(.character("k"), command(.up)), .init(.character("j"), command(.down)),
        ], "move in the \(what)", mouse: mouse, hint: hint),
      KeyBinding(
        [
          .init(.pageUp, command(.pageUp)), .init(.pageDown, command(.pageDown)),
          .init(.home, command(.first)), .init(.end, command(.last)),
          .init(.character("g"), command(.first)), .init(.character("G"), command(.last)),
        ],
        "page up and down, first and last \(what.hasSuffix("s") ? String(what.dropLast()) : what)"),
    ]
  }

  /// The keys as the help shows them: `← →`, `Ctrl-U`.
  package var keyNames: String {
    actions.map(\.key.keycapName).joined(separator: " ")
  }

  /// The keys as the status line shows them: the leading arrows side by side (`←→`), or the
  /// first key alone.
  var compactKeyNames: String {
    let names = actions.map(\.key.keycapName)
    let arrows = names.prefix { ["←", "→", "↑", "↓"].contains($0) }
    return arrows.isEmpty ? names.first ?? "" : arrows.joined()
  }
}
