extension Array {
  /// The index of the last element whose key is at most `value`, or `nil` for an empty array.
  ///
  /// A binary search over keys that never decrease; layouts use it to find the section that holds
  /// a scroll position.
  func lastIndex(keyedBy key: (Element) -> Double, notAfter value: Double) -> Int? {
    guard !isEmpty else { return nil }
    var low = 0
    var high = count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if key(self[middle]) <= value { low = middle } else { high = middle - 1 }
    }
    return low
  }
}

/// The first index in `0..<count` whose end is above `value`, for ends that never decrease, read
/// through `stretchEnds`: the end of every `stride`-th index's stretch (`stretchEnds[k]` is the
/// end at `k * stride + stride - 1`).
///
/// The short array is searched first, then one stretch, so a million ends cost two or three reads
/// that wait for memory instead of twenty. Interval layers and band blocks both search this way.
@inline(__always)
func firstIndex(
  endingAfter value: Double, count: Int, stretchEnds: [Double], stride: Int,
  end: (Int) -> Double
) -> Int {
  var stretch = 0
  var upper = stretchEnds.count
  while stretch < upper {
    let middle = (stretch + upper) / 2
    if stretchEnds[middle] <= value { stretch = middle + 1 } else { upper = middle }
  }
  var first = stretch * stride
  var last = Swift.min(first + stride, count)
  while first < last {
    let middle = (first + last) / 2
    if end(middle) <= value { first = middle + 1 } else { last = middle }
  }
  return first
}
