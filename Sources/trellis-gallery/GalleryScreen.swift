import TrellisTerminal

/// One screen of the gallery: it owns its collection views and draws them into its area.
@MainActor
protocol GalleryScreen: AnyObject {
  /// The tab title.
  var title: String { get }
  /// The keys this screen adds, for the status line.
  var hint: String { get }
  /// Places the screen's views in an area of the terminal.
  func place(in area: CellRect)
  /// Handles an event; returns whether it was used.
  func handle(_ event: InputEvent) -> Bool
  /// Called ten times a second: spinners, simulated network.
  func tick()
  /// Draws the screen.
  func render(into screen: inout CellBuffer)
  /// A one-line summary of the last frame's work.
  var statistics: RenderStatistics { get }
}
