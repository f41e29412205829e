import TrellisTerminal

/// The app's colours, by role: what every screen draws with, one theme at a time.
///
/// A few are built in (``builtIn``); the configuration's `theme:` picks one and may change any
/// role. Every role that tells a state apart (the focus, the selected chip, the title) keeps an
/// attribute that shows without colour (`NO_COLOR`, a monochrome terminal), so nothing needed is
/// conveyed by colour alone.
package struct Theme: Hashable, Sendable {
  /// The title and status bars.
  package var bar: Style
  /// The app's name in the title bar, and the search prompt.
  package var title: Style
  /// A milestone chip or a section tab.
  package var chip: Style
  /// A closed milestone's chip.
  package var chipClosed: Style
  /// The selected chip.
  package var chipSelected: Style
  /// A section header in a list.
  package var header: Style
  /// A section header's detail (its count).
  package var headerDetail: Style
  /// The focused row.
  package var focus: Style
  /// What matters less: ages, counts, borders.
  package var dim: Style
  /// Overlays' borders, names and branches, the filter line.
  package var accent: Style
  /// Open issues, passing checks, approvals, added lines.
  package var open: Style
  /// Closed issues.
  package var closed: Style
  /// A sync that failed, on the title bar.
  package var problem: Style
  /// What waits: queued actions, pending checks, review required.
  package var warning: Style
  /// What failed: conflicts, failing checks, changes requested, removed lines.
  package var failure: Style
  /// An unread thread's dot.
  package var unread: Style
  /// The title bar's status while a sync runs.
  package var syncing: Style

  /// The roles as the configuration names them, with their key paths.
  package static let roles: [(name: String, path: WritableKeyPath<Theme, Style> & Sendable)] = [
    ("bar", \.bar), ("title", \.title), ("chip", \.chip), ("chip-closed", \.chipClosed),
    ("chip-selected", \.chipSelected), ("header", \.header), ("header-detail", \.headerDetail),
    ("focus", \.focus), ("dim", \.dim), ("accent", \.accent), ("open", \.open),
    ("closed", \.closed), ("problem", \.problem), ("warning", \.warning),
    ("failure", \.failure), ("unread", \.unread), ("syncing", \.syncing),
  ]

  /// Light text on a dark terminal: the standard theme.
  package static let dark = Theme(
    bar: Style(foreground: .white, background: .indexed(236)),
    title: Style(foreground: .black, background: .cyan, attributes: [.bold, .reverseWithoutColor]),
    chip: Style(foreground: .white, background: .indexed(238)),
    chipClosed: Style(foreground: .indexed(245), background: .indexed(235)),
    chipSelected: Style(
      foreground: .black, background: .cyan, attributes: [.bold, .reverseWithoutColor]),
    header: Style(foreground: .yellow, background: .indexed(235), attributes: .bold),
    headerDetail: Style(foreground: .indexed(245), background: .indexed(235)),
    focus: Style(background: .indexed(24), attributes: .reverseWithoutColor),
    dim: Style(foreground: .gray), accent: Style(foreground: .cyan),
    open: Style(foreground: .green), closed: Style(foreground: .magenta),
    problem: Style(foreground: .black, background: .yellow),
    warning: Style(foreground: .yellow), failure: Style(foreground: .red),
    unread: Style(foreground: .blue), syncing: Style(foreground: .cyan, background: .indexed(236)))

  /// Dark text on a light terminal.
  package static let light = Theme(
    bar: Style(foreground: .black, background: .indexed(252)),
    title: Style(foreground: .white, background: .blue, attributes: [.bold, .reverseWithoutColor]),
    chip: Style(foreground: .black, background: .indexed(253)),
    chipClosed: Style(foreground: .indexed(242), background: .indexed(255)),
    chipSelected: Style(
      foreground: .white, background: .blue, attributes: [.bold, .reverseWithoutColor]),
    header: Style(foreground: .indexed(94), background: .indexed(254), attributes: .bold),
    headerDetail: Style(foreground: .indexed(242), background: .indexed(254)),
    focus: Style(background: .indexed(153), attributes: .reverseWithoutColor),
    dim: Style(foreground: .indexed(242)), accent: Style(foreground: .indexed(25)),
    open: Style(foreground: .indexed(28)), closed: Style(foreground: .indexed(90)),
    problem: Style(foreground: .black, background: .indexed(221)),
    warning: Style(foreground: .indexed(130)), failure: Style(foreground: .indexed(160)),
    unread: Style(foreground: .indexed(25)),
    syncing: Style(foreground: .indexed(25), background: .indexed(252)))

  /// The terminal's own colours, bright, with every state also in an attribute.
  package static let highContrast = Theme(
    bar: Style(attributes: .reverse), title: Style(attributes: [.bold, .reverse]),
    chip: Style(attributes: .bold), chipClosed: Style(attributes: .italic),
    chipSelected: Style(attributes: [.bold, .reverse]),
    header: Style(attributes: [.bold, .underline]), headerDetail: Style(attributes: .underline),
    focus: Style(attributes: .reverse), dim: Style(), accent: Style(foreground: .ansi(14)),
    open: Style(foreground: .ansi(10), attributes: .bold),
    closed: Style(foreground: .ansi(13), attributes: .bold),
    problem: Style(attributes: [.bold, .reverse]), warning: Style(foreground: .ansi(11)),
    failure: Style(foreground: .ansi(9), attributes: .bold), unread: Style(attributes: .bold),
    syncing: Style(attributes: [.reverse, .italic]))

  /// No colour at all: attributes only.
  package static let mono = Theme(
    bar: Style(attributes: .reverse), title: Style(attributes: [.bold, .reverse]),
    chip: Style(), chipClosed: Style(attributes: .dim),
    chipSelected: Style(attributes: [.bold, .reverse]), header: Style(attributes: .bold),
    headerDetail: Style(attributes: .dim), focus: Style(attributes: .reverse),
    dim: Style(attributes: .dim), accent: Style(), open: Style(), closed: Style(attributes: .dim),
    problem: Style(attributes: [.bold, .reverse]), warning: Style(attributes: .bold),
    failure: Style(attributes: [.bold, .underline]), unread: Style(attributes: .bold),
    syncing: Style(attributes: [.reverse, .italic]))

  /// The built-in themes, by the name the configuration and `--theme` give.
  package static let builtIn: [(name: String, theme: Theme)] = [
    ("dark", dark), ("light", light), ("high-contrast", highContrast), ("mono", mono),
  ]

  /// The theme every screen draws with.
  ///
  /// Set once, before the first frame (from `--theme` or the configuration), and only read
  /// after: cells draw from it wherever they are drawn.
  nonisolated(unsafe) package static var current = Theme.dark

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

// The current theme's roles, as the drawing code reads them.
extension Theme {
  static var bar: Style { current.bar }
  static var title: Style { current.title }
  static var chip: Style { current.chip }
  static var chipClosed: Style { current.chipClosed }
  static var chipSelected: Style { current.chipSelected }
  static var header: Style { current.header }
  static var headerDetail: Style { current.headerDetail }
  static var focus: Style { current.focus }
  static var dim: Style { current.dim }
  static var accent: Style { current.accent }
  static var open: Style { current.open }
  static var closed: Style { current.closed }
  static var problem: Style { current.problem }
  static var warning: Style { current.warning }
  static var failure: Style { current.failure }
  static var unread: Style { current.unread }
  static var syncing: Style { current.syncing }
}
