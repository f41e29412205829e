/// What a ``TerminalSession`` turns on while it runs; everything is turned off again on restore.
public struct TerminalOptions: Hashable, Sendable {
  /// Draw on the alternate screen, leaving the shell's screen untouched.
  public var alternateScreen = true
  /// Hide the cursor.
  public var hideCursor = true
  /// Receive pastes as one ``InputEvent/paste(_:)`` event.
  public var bracketedPaste = true
  /// Receive mouse presses, releases, drags and wheel (SGR encoding).
  public var mouse = false
  /// Receive focus in and out.
  public var focusReporting = false
  /// How long to wait after an Escape for the rest of a sequence, in milliseconds.
  public var escapeTimeoutMilliseconds: Int32 = 25

  /// Creates options: alternate screen, hidden cursor and bracketed paste, no mouse or focus.
  public init(
    alternateScreen: Bool = true, hideCursor: Bool = true, bracketedPaste: Bool = true,
    mouse: Bool = false, focusReporting: Bool = false
  ) {
    self.alternateScreen = alternateScreen
    self.hideCursor = hideCursor
    self.bracketedPaste = bracketedPaste
    self.mouse = mouse
    self.focusReporting = focusReporting
  }

  /// The bytes that turn the options on.
  var enterSequence: [UInt8] {
    var bytes: [UInt8] = []
    if alternateScreen { bytes += ControlSequence.enterAlternateScreen }
    if hideCursor { bytes += ControlSequence.hideCursor }
    if bracketedPaste { bytes += ControlSequence.enableBracketedPaste }
    if mouse { bytes += ControlSequence.enableMouse }
    if focusReporting { bytes += ControlSequence.enableFocusReporting }
    return bytes
  }

  /// The bytes that turn them off, in reverse order, and reset the style.
  var leaveSequence: [UInt8] {
    var bytes: [UInt8] = ControlSequence.resetStyle
    if focusReporting { bytes += ControlSequence.disableFocusReporting }
    if mouse { bytes += ControlSequence.disableMouse }
    if bracketedPaste { bytes += ControlSequence.disableBracketedPaste }
    if hideCursor { bytes += ControlSequence.showCursor }
    if alternateScreen { bytes += ControlSequence.leaveAlternateScreen }
    return bytes
  }
}
