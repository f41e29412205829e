/// Something a ``TerminalSession`` reports: input, a new size, or a return from suspension.
public enum TerminalEvent: Hashable, Sendable {
  /// The user typed, pasted, clicked or changed focus.
  case input(InputEvent)
  /// The window changed size.
  case resize(TerminalSize)
  /// The process was stopped (Ctrl-Z) and continued: the screen must be redrawn in full.
  case resumed
}
