/// Marks the elements of one longest strictly increasing subsequence of the values of `values`
/// that lie in `included`; the others are skipped, and never on it.
///
/// Patience sorting with predecessor links. Values that extend the current longest run are
/// appended without a search, so nearly sorted input — the common case when few items move —
/// costs O(*n*). Skipping values outside `included` lets the diff run it over the source slots of
/// a whole target window (inserts and items from other sections among them) without copying the
/// ones that count into an array of their own.
///
/// - Returns: One bit per element of `values`, set where the element is on the subsequence; read
///   it with ``isOnSubsequence(_:_:)``.
/// - Complexity: O(*n* log *n*) in the worst case, where *n* is the number of values. Holds 4
///   bytes per included value, and up to 8 more per value of the longest run.
@inlinable
func longestIncreasingSubsequence(
  _ values: UnsafeBufferPointer<Int32>, among included: Range<Int32>
) -> [UInt64] {
  let count = values.count
  var marks = [UInt64](repeating: 0, count: (count &+ 63) &>> 6)
  guard count > 0 else { return marks }
  // tails[l] is the index of the smallest value that ends an increasing run of length l + 1, and
  // tailValues[l] that value: the search reads the values it compares in one array, instead of
  // following each index to a value elsewhere (two dependent reads per step on long runs). The
  // buffers are allocated at the largest size a run can reach, so the loop neither checks nor
  // grows them; pages a short run never reaches are never touched.
  var last = -1
  let predecessors = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
  let tails = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
  let tailValues = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
  defer {
    predecessors.deallocate()
    tails.deallocate()
    tailValues.deallocate()
  }
  let lowest = included.lowerBound
  let span = UInt32(bitPattern: included.upperBound &- included.lowerBound)
  for index in 0..<count {
    let value = values[index]
    // One unsigned comparison tells whether `value` is in `included`.
    guard UInt32(bitPattern: value &- lowest) < span else { continue }
    if last < 0 || tailValues[last] < value {
      predecessors[index] = last < 0 ? -1 : tails[last]
      last &+= 1
      tails[last] = Int32(truncatingIfNeeded: index)
      tailValues[last] = value
      continue
    }
    // Find the first tail whose value is >= value and replace it.
    var low = 0
    var high = last
    while low < high {
      let middle = (low &+ high) &>> 1
      if tailValues[middle] < value { low = middle &+ 1 } else { high = middle }
    }
    predecessors[index] = low > 0 ? tails[low &- 1] : -1
    tails[low] = Int32(truncatingIfNeeded: index)
    tailValues[low] = value
  }
  marks.withUnsafeMutableBufferPointer { marks in
    var index = last < 0 ? -1 : Int(tails[last])
    while index >= 0 {
      marks[index &>> 6] |= 1 &<< UInt64(index & 63)
      index = Int(predecessors[index])
    }
  }
  return marks
}

/// Whether the element at `index` is on the subsequence that
/// ``longestIncreasingSubsequence(_:among:)`` marked in `marks`.
@inlinable @inline(__always)
func isOnSubsequence(_ marks: [UInt64], _ index: Int) -> Bool {
  marks[index &>> 6] & (1 &<< UInt64(index & 63)) != 0
}
