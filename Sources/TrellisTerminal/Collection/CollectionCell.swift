/// A cell or supplementary view of a ``CollectionView``: a value that draws itself into the canvas
/// of its frame.
///
/// A cell is a view model, not a view: the data source's provider makes one from an identifier,
/// and the collection view asks it to draw whenever it (or its state) changed. The canvas is
/// clipped to the cell's frame and cleared before the call, so a cell draws only what it shows.
public protocol CollectionCell {
  /// Draws the cell; `canvas.bounds` is the cell's frame, at the origin.
  func draw(in canvas: inout Canvas, state: CellState)
}

/// The interaction state a cell is drawn with.
public struct CellState: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The keyboard focus is on the item: what the arrow keys move and Enter selects.
  public static let focused = CellState(rawValue: 1 << 0)
  /// The item is selected, in the view's `SelectionModel`.
  public static let selected = CellState(rawValue: 1 << 1)
  /// The mouse button is down on the item (it becomes selected when released there).
  public static let highlighted = CellState(rawValue: 1 << 2)
}
