import TrellisTerminal

extension KeyEvent {
  /// A key as the configuration writes it: a character (`j`, `J`, `?`), a name (`enter`, `tab`,
  /// `esc`, `space`, `backspace`, `up`, `pgdn`, `home`, `f5`…), or either after modifiers
  /// (`ctrl-x`, `alt-j`, `shift-tab`); names in any case, and as the help writes them (`PgDn`,
  /// `Ctrl-U`, `←`).
  public init?(configName text: String) {
    var modifiers: Modifiers = []
    var rest = Substring(text)
    while let dash = rest.firstIndex(of: "-"), dash != rest.startIndex,
      rest.index(after: dash) != rest.endIndex
    {
      switch rest[..<dash].lowercased() {
      case "ctrl", "control", "c": modifiers.insert(.control)
      case "alt", "option", "a", "m": modifiers.insert(.alt)
      case "meta": modifiers.insert(.meta)
      case "shift", "s": modifiers.insert(.shift)
      default: return nil
      }
      rest = rest[rest.index(after: dash)...]
    }
    let key: Key
    if rest.count == 1, let character = rest.first {
      switch character {
      case "←": key = .left
      case "→": key = .right
      case "↑": key = .up
      case "↓": key = .down
      case _ where modifiers.contains(.control):
        // A control chord is the lower-case letter with Control, however it is written.
        key = .character(Character(character.lowercased()))
      case _ where modifiers.contains(.shift):
        // Shift is in the character typed: `shift-j` is `J`.
        key = .character(Character(character.uppercased()))
        modifiers.remove(.shift)
      default: key = .character(character)
      }
    } else {
      switch rest.lowercased() {
      case "enter", "return": key = .enter
      case "tab": key = .tab
      case "esc", "escape": key = .escape
      case "space": key = .character(" ")
      case "backspace": key = .backspace
      case "up": key = .up
      case "down": key = .down
      case "left": key = .left
      case "right": key = .right
      case "home": key = .home
      case "end": key = .end
      case "pgup", "pageup", "page-up": key = .pageUp
      case "pgdn", "pagedown", "page-down": key = .pageDown
      case "insert": key = .insert
      case "delete", "del": key = .delete
      case let name where name.hasPrefix("f"):
        guard let number = Int(name.dropFirst()), (1...24).contains(number) else { return nil }
        key = .function(number)
      default: return nil
      }
    }
    self.init(key, modifiers: modifiers)
  }
}
