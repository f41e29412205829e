/// One column of one row of the screen: a grapheme cluster, the columns it takes, and its style.
///
/// A wide character (2 columns) occupies its own cell and the next, which is a *continuation*:
/// an empty grapheme of width 0 that is never drawn on its own.
public struct Cell: Hashable, Sendable {
  /// The grapheme cluster shown; empty for the continuation of a wide character.
  public var grapheme: String
  /// The columns the grapheme takes: 1, 2, or 0 for a continuation.
  public var width: UInt8
  /// How the cell is drawn.
  public var style: Style

  /// Creates a cell; the width is computed from the grapheme.
  ///
  /// - Complexity: O(*s*) in the grapheme's scalars (a few).
  public init(_ grapheme: Character, style: Style = .plain) {
    self.grapheme = String(grapheme)
    self.width = UInt8(max(1, DisplayWidth.of(grapheme)))
    self.style = style
  }

  package init(grapheme: String, width: UInt8, style: Style) {
    self.grapheme = grapheme
    self.width = width
    self.style = style
  }

  /// A space in a style.
  ///
  /// - Complexity: O(1).
  public static func blank(_ style: Style = .plain) -> Cell {
    Cell(grapheme: " ", width: 1, style: style)
  }

  /// The second column of a wide character.
  static func continuation(_ style: Style) -> Cell {
    Cell(grapheme: "", width: 0, style: style)
  }

  /// Whether this is the second column of a wide character.
  public var isContinuation: Bool { width == 0 }
}
