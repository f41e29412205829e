import TrellisTerminal

extension KeyEvent {
  /// How the key is written in help and status lines: its symbol or the name on its keycap,
  /// modifiers first (`Ctrl-U`, `Shift-Tab`, `PgDn`, `Space`).
  package var keycapName: String {
    var prefix = ""
    if modifiers.contains(.control) { prefix += "Ctrl-" }
    if modifiers.contains(.alt) { prefix += "Alt-" }
    if modifiers.contains(.meta) { prefix += "Meta-" }
    let name: String
    switch key {
    case .character(" "): name = "Space"
    case .character(let character):
      // Control chords are written with the capital, as keycaps and manuals have them.
      name = modifiers.contains(.control) ? character.uppercased() : String(character)
    case .enter: name = "Enter"
    case .tab: name = modifiers.contains(.shift) ? "Shift-Tab" : "Tab"
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
