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
    // Replace the first tail whose value is >= value (the last one is). Most often it is the
    // last: an item moved far ahead ended the longest run, and the items after it take its place
    // one by one. Otherwise the tails' values grow about evenly with their index (they are
    // positions), so the search starts where the value would be if they did and gallops out
    // from there: a few reads near each other where a binary search over a million tails waits
    // for memory twenty times. Uneven tails cost at most twice a binary search.
    var low = last
    if last > 0 && !(tailValues[last &- 1] < value) {
      low = lowerBound(of: value, in: tailValues, count: last)
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

/// The first of the first `count` values of `sorted` (increasing, the last one at least `value`)
/// that is at least `value`: interpolated, then galloped to and searched.
@inlinable
func lowerBound(of value: Int32, in sorted: UnsafeMutableBufferPointer<Int32>, count: Int) -> Int {
  let first = Int(sorted[0])
  if first >= Int(value) { return 0 }
  let span = Int(sorted[count &- 1]) &- first
  var guess = span > 0 ? (Int(value) &- first) &* (count &- 1) / span : 0
  guess = Swift.max(0, Swift.min(guess, count &- 1))
  // Bracket the answer in `low...high`, with sorted[high] >= value and sorted[low - 1] < value.
  var low: Int
  var high: Int
  var step = 1
  if sorted[guess] < value {
    low = guess &+ 1
    while low &+ step &- 1 < count &- 1 && sorted[low &+ step &- 1] < value {
      low &+= step
      step &<<= 1
    }
    high = Swift.min(low &+ step &- 1, count &- 1)
  } else {
    high = guess
    while high &- step >= 0 && sorted[high &- step] >= value {
      high &-= step
      step &<<= 1
    }
    low = Swift.max(high &- step &+ 1, 0)
  }
  while low < high {
    let middle = (low &+ high) &>> 1
    if sorted[middle] < value { low = middle &+ 1 } else { high = middle }
  }
  return low
}

/// Whether the element at `index` is on the subsequence that
/// ``longestIncreasingSubsequence(_:among:)`` marked in `marks`.
@inlinable @inline(__always)
func isOnSubsequence(_ marks: [UInt64], _ index: Int) -> Bool {
  marks[index &>> 6] & (1 &<< UInt64(index & 63)) != 0
}
