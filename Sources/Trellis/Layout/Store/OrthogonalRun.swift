/// The items of a section that scrolls across the scroll axis on its own (a chip bar), indexed
/// by their position across it — the axis its offset moves them along — so that a viewport over a
/// long row finds what it shows in O(log *n* + *k*), at any offset.
struct OrthogonalRun {
  /// The section, numbered in its store.
  var section: Int
  /// The flat indexes of the section's items.
  var items: Range<Int>
  /// The items' extents across the scroll axis, in order.
  var crossBlocks = BandBlocks()
  /// The supplementaries that move with the items (badges), by extent across the scroll axis.
  var supplementaries = IntervalLayers()
  /// The extent of the items and those supplementaries along the scroll axis.
  var low = Double.infinity
  var high = -Double.infinity

  init(section: Int, firstItem: Int) {
    self.section = section
    items = firstItem..<firstItem
  }

  mutating func include(low: Double, high: Double) {
    guard low < high else { return }
    if low < self.low { self.low = low }
    if high > self.high { self.high = high }
  }
}
