import Foundation
import TrellisTerminal

/// How every screen is drawn: the colours the terminal shows, and whether the accessible mode
/// is on.
public struct ScreenOptions: Hashable, Sendable {
  /// The colours the terminal shows (`NO_COLOR` means none).
  public var colors: ColorSupport
  /// The accessible mode: the terminal's cursor sits on the focused row or chip, where a
  /// screen reader or a magnifier follows it, and focus changes are said on the status line.
  public var accessible: Bool

  /// Options drawing in `colors`, accessible or not.
  public init(colors: ColorSupport, accessible: Bool = false) {
    self.colors = colors
    self.accessible = accessible
  }

  /// The colours the environment says (`NO_COLOR`, `COLORTERM`, `TERM`), not accessible.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ScreenOptions {
    ScreenOptions(colors: ColorSupport.detect(environment: environment))
  }
}
