/// Intervals along one axis, found by the range they overlap in O(*L* log *n* + *k*) whatever
/// spans what.
///
/// They are kept in layers whose starts and ends both never decrease: *L* is the number of
/// layers, which is the deepest nesting of intervals added in order (a layout's header,
/// background and badges: a handful), never their number or their length. Intervals that
/// overlap without nesting — the badges of one row of a grid, all at the same height — share a
/// layer.
///
/// An interval goes into the first layer whose last interval starts and ends where it does or
/// before; references must be added in increasing order. Empty or not-a-number intervals are not
/// kept (they overlap nothing).
struct IntervalLayers {
  private struct Layer {
    var lows = ChunkedArray<Double>()
    var highs = ChunkedArray<Double>()
    var references = ChunkedArray<Int>()
    /// The end of the last interval of every full stretch of ``stride`` intervals: a search
    /// reads this short array first, then one stretch, instead of jumping across all the ends
    /// (a million ends take twenty reads that each wait for memory; this takes two or three).
    var stretchHighs: [Double] = []

    static var stride: Int { 64 }

    mutating func append(_ reference: Int, low: Double, high: Double) {
      lows.append(low)
      highs.append(high)
      references.append(reference)
      if highs.count % Self.stride == 0 { stretchHighs.append(high) }
    }

    mutating func truncate(to count: Int) {
      lows.truncate(to: count)
      highs.truncate(to: count)
      references.truncate(to: count)
      stretchHighs.removeSubrange((count / Self.stride)...)
    }

    /// The first interval that ends after `low`.
    func firstEnding(after low: Double) -> Int {
      firstIndex(
        endingAfter: low, count: highs.count, stretchEnds: stretchHighs, stride: Self.stride
      ) { highs[$0] }
    }
  }

  private var layers: [Layer] = []

  /// The number of layers, for tests of the bound.
  var layerCount: Int { layers.count }

  mutating func insert(_ reference: Int, low: Double, high: Double) {
    guard low < high else { return }
    var target = layers.count
    for index in layers.indices
    where (layers[index].lows.last ?? -.infinity) <= low
      && (layers[index].highs.last ?? -.infinity) <= high
    {
      target = index
      break
    }
    if target == layers.count { layers.append(Layer()) }
    layers[target].append(reference, low: low, high: high)
  }

  /// Removes every interval whose reference is `first` or more.
  mutating func removeReferences(from first: Int) {
    for index in layers.indices {
      var kept = layers[index].references.count
      while kept > 0 && layers[index].references[kept - 1] >= first { kept -= 1 }
      layers[index].truncate(to: kept)
    }
    while let last = layers.last, last.references.isEmpty { layers.removeLast() }
  }

  /// Calls `body` with the reference of every interval overlapping `low..<high`, layer by layer.
  func forEach(overlapping low: Double, _ high: Double, _ body: (Int) -> Void) {
    guard low < high else { return }
    for layer in layers {
      // Starts and ends never decrease: the first overlapping interval is the first that ends
      // after `low`, and every one from there that starts before `high` overlaps too.
      var first = layer.firstEnding(after: low)
      while first < layer.lows.count && layer.lows[first] < high {
        body(layer.references[first])
        first += 1
      }
    }
  }
}
