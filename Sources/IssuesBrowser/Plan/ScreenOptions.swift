import Foundation
import TrellisTerminal

/// How every screen is drawn and driven: the colours the terminal shows, the theme, the keys,
/// and whether the accessible mode is on.
package struct ScreenOptions: Hashable, Sendable {
  /// The colours the terminal shows (`NO_COLOR` means none).
  package var colors: ColorSupport
  /// The accessible mode: the terminal's cursor sits on the focused row or chip, where a
  /// screen reader or a magnifier follows it, and focus changes are said on the status line.
  package var accessible: Bool
  /// The colours of every role.
  package var theme: Theme
  /// The person's keys and commands (the standard ones without a configuration).
  package var config: ScreenConfig

  /// Options drawing in `colors` with `theme`, the keys of `config`, accessible or not.
  package init(
    colors: ColorSupport, accessible: Bool = false, theme: Theme = .dark,
    config: ScreenConfig = .standard
  ) {
    self.colors = colors
    self.accessible = accessible
    self.theme = theme
    self.config = config
  }

  /// The colours the environment says (`NO_COLOR`, `COLORTERM`, `TERM`), the standard theme
  /// and keys, not accessible.
  package static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ScreenOptions {
    ScreenOptions(colors: ColorSupport.detect(environment: environment))
  }
}
