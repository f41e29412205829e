/// A cell that shows one line of text, truncated to its width, with styles for its states.
///
/// Enough for simple lists and chips; richer cells conform to ``CollectionCell`` themselves.
public struct TextCell: CollectionCell, Hashable, Sendable {
  /// The text, drawn on the cell's first row.
  public var text: String
  /// The style of the whole frame when the cell is neither focused nor selected.
  public var style: Style
  /// The style when the cell is selected.
  public var selectedStyle: Style
  /// The style when the cell is focused (combined with selection by reversing it).
  public var focusedStyle: Style
  /// Columns left blank before the text.
  public var padding: Int

  /// Creates a text cell.
  public init(
    _ text: String, style: Style = .plain,
    selectedStyle: Style = Style(foreground: .black, background: .cyan),
    focusedStyle: Style = Style(attributes: .reverse), padding: Int = 0
  ) {
    self.text = text
    self.style = style
    self.selectedStyle = selectedStyle
    self.focusedStyle = focusedStyle
    self.padding = padding
  }

  public func draw(in canvas: inout Canvas, state: CellState) {
    var style = style
    if state.contains(.selected) { style = selectedStyle }
    if state.contains(.focused) {
      style =
        state.contains(.selected) ? selectedStyle.with(.bold).with(.underline) : focusedStyle
    }
    if state.contains(.highlighted) { style = style.with(.dim) }
    canvas.fill(style: style)
    let room = canvas.bounds.width - 2 * padding
    guard room > 0 else { return }
    canvas.text(DisplayWidth.truncate(text, toColumns: room), x: padding, y: 0, style: style)
  }
}
