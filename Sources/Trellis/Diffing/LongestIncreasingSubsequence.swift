/// Marks the elements of one longest strictly increasing subsequence of `values`.
///
/// Patience sorting with predecessor links. Values that extend the current longest run are
/// appended without a search, so nearly sorted input — the common case when few items move —
/// costs O(*n*).
///
/// - Returns: An array parallel to `values`, `true` where the element is on the subsequence.
/// - Complexity: O(*n* log *n*) in the worst case, where *n* is the number of values.
@inlinable
func longestIncreasingSubsequence<Value: FixedWidthInteger>(_ values: [Value]) -> [Bool] {
  let count = values.count
  var onSubsequence = [Bool](repeating: false, count: count)
  guard count > 0 else { return onSubsequence }
  // tails[l] is the index of the smallest value that ends an increasing run of length l + 1.
  var tails: [Int] = []
  tails.reserveCapacity(min(count, 1024))
  // Indexes, 32 bits wide when they fit: half the memory for the longest runs.
  var predecessors = [Int32](repeating: -1, count: count)
  precondition(count <= Int(Int32.max), "At most \(Int32.max) values.")
  values.withUnsafeBufferPointer { values in
    predecessors.withUnsafeMutableBufferPointer { predecessors in
      for index in 0..<count {
        let value = values[index]
        if let last = tails.last, values[last] >= value {
          // Find the first tail whose value is >= value and replace it.
          var low = 0
          var high = tails.count - 1
          while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
          }
          predecessors[index] = Int32(truncatingIfNeeded: low > 0 ? tails[low - 1] : -1)
          tails[low] = index
        } else {
          predecessors[index] = Int32(truncatingIfNeeded: tails.last ?? -1)
          tails.append(index)
        }
      }
    }
  }
  var index = tails.last ?? -1
  while index >= 0 {
    onSubsequence[index] = true
    index = Int(predecessors[index])
  }
  return onSubsequence
}
