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
