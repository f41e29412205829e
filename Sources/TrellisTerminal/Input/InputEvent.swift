/// Modifier keys held with a key or a mouse event.
public struct Modifiers: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Shift.
  public static let shift = Modifiers(rawValue: 1 << 0)
  /// Alt (Option); also what a terminal reports for Escape followed by a key.
  public static let alt = Modifiers(rawValue: 1 << 1)
  /// Control.
  public static let control = Modifiers(rawValue: 1 << 2)
  /// Meta (Super, Command), where the terminal reports it.
  public static let meta = Modifiers(rawValue: 1 << 3)

  /// Modifiers from an xterm modifier parameter (`1 +` the bits shift 1, alt 2, control 4, meta 8).
  init(xtermParameter value: Int) {
    let bits = max(0, value - 1)
    var modifiers: Modifiers = []
    if bits & 1 != 0 { modifiers.insert(.shift) }
    if bits & 2 != 0 { modifiers.insert(.alt) }
    if bits & 4 != 0 { modifiers.insert(.control) }
    if bits & 8 != 0 { modifiers.insert(.meta) }
    self = modifiers
  }
}

/// A key on the keyboard.
public enum Key: Hashable, Sendable {
  /// A character: a letter, a digit, a symbol, a syllable typed through an input method.
  case character(Character)
  /// Return or Enter.
  case enter
  /// Tab (Shift-Tab is `.tab` with `.shift`).
  case tab
  /// Backspace.
  case backspace
  /// Escape, told apart from the start of a sequence by a short timeout.
  case escape
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// Insert.
  case insert
  /// Delete (forward delete).
  case delete
  /// A function key, F1 to F12 (and beyond, where a terminal sends them).
  case function(Int)
}

/// A key press with its modifiers.
public struct KeyEvent: Hashable, Sendable, CustomStringConvertible {
  /// The key.
  public var key: Key
  /// Modifiers held.
  public var modifiers: Modifiers

  /// Creates a key event.
  public init(_ key: Key, modifiers: Modifiers = []) {
    self.key = key
    self.modifiers = modifiers
  }

  public var description: String {
    var parts: [String] = []
    if modifiers.contains(.control) { parts.append("ctrl") }
    if modifiers.contains(.alt) { parts.append("alt") }
    if modifiers.contains(.shift) { parts.append("shift") }
    if modifiers.contains(.meta) { parts.append("meta") }
    switch key {
    case .character(let character): parts.append(String(character))
    case .function(let number): parts.append("F\(number)")
    default: parts.append("\(key)")
    }
    return parts.joined(separator: "+")
  }
}

/// A mouse button.
public enum MouseButton: Hashable, Sendable {
  /// The primary button.
  case left
  /// The wheel button.
  case middle
  /// The secondary button.
  case right
}

/// A mouse report: what happened, where (zero-based cell), with which modifiers.
public struct MouseEvent: Hashable, Sendable {
  /// What the mouse did.
  public enum Kind: Hashable, Sendable {
    /// A button went down.
    case press(MouseButton)
    /// A button went up.
    case release(MouseButton)
    /// The mouse moved with a button down.
    case drag(MouseButton)
    /// The mouse moved with no button down (when the terminal reports it).
    case move
    /// The wheel turned up (away from the user).
    case scrollUp
    /// The wheel turned down.
    case scrollDown
    /// The wheel or trackpad moved left.
    case scrollLeft
    /// The wheel or trackpad moved right.
    case scrollRight
  }

  /// What the mouse did.
  public var kind: Kind
  /// The column, from 0.
  public var x: Int
  /// The row, from 0.
  public var y: Int
  /// Modifiers held.
  public var modifiers: Modifiers

  /// Creates a mouse event.
  public init(_ kind: Kind, x: Int, y: Int, modifiers: Modifiers = []) {
    self.kind = kind
    self.x = x
    self.y = y
    self.modifiers = modifiers
  }
}

/// Something the user did, decoded from the bytes a terminal sends.
public enum InputEvent: Hashable, Sendable {
  /// A key press.
  case key(KeyEvent)
  /// Text pasted while bracketed paste is on, as one event.
  case paste(String)
  /// A mouse report (with mouse reporting on).
  case mouse(MouseEvent)
  /// The terminal window gained focus (with focus reporting on).
  case focusGained
  /// The terminal window lost focus.
  case focusLost
}
