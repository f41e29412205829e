import TrellisTerminal

/// One row of a key table: the keys, the command each one sends, what the row does in words, and
/// how the status line abbreviates it.
public struct KeyBinding: Hashable, Sendable {
  /// A key and the command it sends.
  public struct Action: Hashable, Sendable {
    /// The key, with the modifiers it needs (Shift is implied by the character it types).
    public var key: KeyEvent
    /// What the key asks for.
    public var command: BrowserCommand

    /// Binds a key to a command.
    public init(_ key: KeyEvent, _ command: BrowserCommand) {
      self.key = key
      self.command = command
    }

    /// Binds a key pressed without modifiers to a command.
    public init(_ key: Key, _ command: BrowserCommand) {
      self.init(KeyEvent(key), command)
    }
  }

  /// The row's keys, in the order the help shows them.
  public var actions: [Action]
  /// What the keys do, as the help overlay and the README say it.
  public var summary: String
  /// What the mouse does to the same effect, if anything ("click").
  public var mouse: String?
  /// The status line's word for the row ("state"), when the row is worth a place there.
  public var hint: String?

  /// A row of the key table.
  public init(
    _ actions: [Action], _ summary: String, mouse: String? = nil, hint: String? = nil
  ) {
    self.actions = actions
    self.summary = summary
    self.mouse = mouse
    self.hint = hint
  }

  /// The keys as the help shows them: `← →`, `Ctrl-U`.
  public var keyNames: String {
    actions.map { Self.name(of: $0.key) }.joined(separator: " ")
  }

  /// The keys as the status line shows them: the leading arrows side by side (`←→`), or the
  /// first key alone.
  var compactKeyNames: String {
    let names = actions.map { Self.name(of: $0.key) }
    let arrows = names.prefix { ["←", "→", "↑", "↓"].contains($0) }
    return arrows.isEmpty ? names.first ?? "" : arrows.joined()
  }

  /// How a key is written: its symbol or its name on the keycap, modifiers first.
  public static func name(of key: KeyEvent) -> String {
    var prefix = ""
    if key.modifiers.contains(.control) { prefix += "Ctrl-" }
    if key.modifiers.contains(.alt) { prefix += "Alt-" }
    if key.modifiers.contains(.meta) { prefix += "Meta-" }
    let name: String
    switch key.key {
    case .character(" "): name = "Space"
    case .character(let character):
      // Control chords are written with the capital, as keycaps and manuals have them.
      name = key.modifiers.contains(.control) ? character.uppercased() : String(character)
    case .enter: name = "Enter"
    case .tab: name = key.modifiers.contains(.shift) ? "Shift-Tab" : "Tab"
    case .backspace: name = "Backspace"
    case .escape: name = "Esc"
    case .up: name = "↑"
    case .down: name = "↓"
    case .left: name = "←"
    case .right: name = "→"
    case .home: name = "Home"
    case .end: name = "End"
    case .pageUp: name = "PgUp"
    case .pageDown: name = "PgDn"
    case .insert: name = "Insert"
    case .delete: name = "Delete"
    case .function(let number): name = "F\(number)"
    }
    return prefix + name
  }
}
