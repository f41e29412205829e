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
    layers[target].lows.append(low)
    layers[target].highs.append(high)
    layers[target].references.append(reference)
  }

  /// Removes every interval whose reference is `first` or more.
  mutating func removeReferences(from first: Int) {
    for index in layers.indices {
      var kept = layers[index].references.count
      while kept > 0 && layers[index].references[kept - 1] >= first { kept -= 1 }
      layers[index].lows.truncate(to: kept)
      layers[index].highs.truncate(to: kept)
      layers[index].references.truncate(to: kept)
    }
    while let last = layers.last, last.references.isEmpty { layers.removeLast() }
  }

  /// Calls `body` with the reference of every interval overlapping `low..<high`, layer by layer.
  func forEach(overlapping low: Double, _ high: Double, _ body: (Int) -> Void) {
    guard low < high else { return }
    for layer in layers {
      // Starts and ends never decrease: the first overlapping interval is the first that ends
      // after `low`, and every one from there that starts before `high` overlaps too.
      var first = 0
      var upper = layer.highs.count
      while first < upper {
        let middle = (first + upper) / 2
        if layer.highs[middle] <= low { first = middle + 1 } else { upper = middle }
      }
      while first < layer.lows.count && layer.lows[first] < high {
        body(layer.references[first])
        first += 1
      }
    }
  }
}
