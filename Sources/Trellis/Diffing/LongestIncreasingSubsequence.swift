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
  // tails[l] is the index of the smallest value that ends an increasing run of length l + 1, and
  // tailValues[l] that value: the search reads the values it compares in one array, instead of
  // following each index to a value elsewhere (two dependent reads per step on long runs).
  // Indexes are 32 bits wide: half the memory for the longest runs.
  var tails: [Int32] = []
  var tailValues: [Value] = []
  tails.reserveCapacity(min(count, 1024))
  tailValues.reserveCapacity(min(count, 1024))
  var predecessors = [Int32](repeating: -1, count: count)
  precondition(count <= Int(Int32.max), "At most \(Int32.max) values.")
  values.withUnsafeBufferPointer { values in
    predecessors.withUnsafeMutableBufferPointer { predecessors in
      for index in 0..<count {
        let value = values[index]
        if let last = tailValues.last, last >= value {
          // Find the first tail whose value is >= value and replace it.
          var low = 0
          var high = tailValues.count - 1
          tailValues.withUnsafeBufferPointer { tailValues in
            while low < high {
              let middle = (low + high) / 2
              if tailValues[middle] < value { low = middle + 1 } else { high = middle }
            }
          }
          predecessors[index] = low > 0 ? tails[low - 1] : -1
          tails[low] = Int32(truncatingIfNeeded: index)
          tailValues[low] = value
        } else {
          predecessors[index] = tails.last ?? -1
          tails.append(Int32(truncatingIfNeeded: index))
          tailValues.append(value)
        }
      }
    }
  }
  var index = Int(tails.last ?? -1)
  while index >= 0 {
    onSubsequence[index] = true
    index = Int(predecessors[index])
  }
  return onSubsequence
}
