import Foundation
import TrellisTerminal

/// A screen of the app, as its host sees it: input in, effects out, drawn from what it holds.
///
/// Everything that reaches outside the screen — the network, the clipboard, the editor, another
/// screen — is an ``Effect`` the screen returns and its host performs, so a screen is tested by
/// driving it directly, without a terminal. The browser, the dashboard and the inbox are
/// screens; a new one (a form, a diff) is a model, a screen and a driver on ``ScreenHost``, not a
/// loop of its own.
@MainActor
package protocol Screen: AnyObject {
  /// What the screen asks its host to do.
  associatedtype Effect

  /// Handles a key, a paste or the mouse, and returns what the host should do.
  func handle(_ event: InputEvent) -> [Effect]
  /// Moves time on (a tenth of a second): expires messages, applies what typing paused on.
  func tick() -> [Effect]
  /// Adapts to a new terminal size.
  func resize(_ size: TerminalSize)
  /// Draws the whole screen into a buffer of the screen's size.
  func render(into screen: inout CellBuffer)
  /// Where the terminal's cursor goes in the accessible mode (the focused row or chip), if
  /// anywhere.
  var cursorPosition: CellPoint? { get }
  /// The focus in words, for the accessible mode to say on the status line when it changes
  /// ("#12 Crash on start, open, 3 comments").
  var focusDescription: String? { get }
  /// Shows a message on the status line for a few seconds.
  func show(message: String)
  /// When the screen next has something to do without input (typing paused long enough for a
  /// search to apply): its host ticks it then, not on the clock's next tick.
  var deadline: Date? { get }
  /// Work that makes the next frame cheaper, done after a frame is on screen (the previews of
  /// the rows next to the focus): changes nothing drawn.
  func prepareNextFrame()
}

extension Screen {
  package var deadline: Date? { nil }
  package func prepareNextFrame() {}
}
