import TrellisTerminal

/// A run of text in one style.
public struct StyledRun: Hashable, Sendable {
  /// The text, shown as it is (controls already made visible).
  public var text: String
  /// How it is drawn.
  public var style: Style

  /// Creates a run.
  public init(_ text: String, _ style: Style = .plain) {
    self.text = text
    self.style = style
  }
}

/// One line of styled text, ready to draw.
public typealias StyledLine = [StyledRun]
