import TrellisTerminal

/// The browser's colours, in one place.
enum Theme {
  static let bar = Style(foreground: .white, background: .indexed(236))
  static let title = Style(foreground: .black, background: .cyan, attributes: .bold)
  static let chip = Style(foreground: .white, background: .indexed(238))
  static let chipClosed = Style(foreground: .indexed(245), background: .indexed(235))
  static let chipSelected = Style(foreground: .black, background: .cyan, attributes: .bold)
  static let header = Style(foreground: .yellow, background: .indexed(235), attributes: .bold)
  static let headerDetail = Style(foreground: .indexed(245), background: .indexed(235))
  /// The focused row: a blue background, and reverse video where there is no colour.
  static let focus = Style(background: .indexed(24), attributes: .reverseWithoutColor)
  static let dim = Style(foreground: .gray)
  /// Borders and titles of overlays.
  static let accent = Style(foreground: .cyan)
  static let open = Style(foreground: .green)
  static let closed = Style(foreground: .magenta)
  static let problem = Style(foreground: .black, background: .yellow)

  /// A run of a row's text drawn on the row's `base` (the focus, or plain): the base's
  /// background, and its attributes — so that without colour the focused row's text is
  /// reversed with its gaps, not the gaps alone.
  static func row(_ style: Style, on base: Style) -> Style {
    var style = style
    style.background = base.background
    style.attributes.formUnion(base.attributes)
    return style
  }
}
