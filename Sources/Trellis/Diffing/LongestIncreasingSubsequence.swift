/// Marks the elements of one longest strictly increasing subsequence of the values of `values`
/// that lie in `included`; the others are skipped, and never on it.
///
/// The included values are distinct (the diff's slots are). Values that go up by one from element
/// to element — items that moved together, or did not move — form *runs*, and some longest
/// subsequence takes every run whole or not at all. When runs
/// are few (at most one per ``runPathRatio`` elements: a few items moved in a long list), the
/// longest chain of whole runs is found instead (``markLongestChainOfRuns(_:among:runCount:into:)``),
/// in memory and time proportional to the runs. Otherwise it is patience sorting per element
/// (``markLongestIncreasingSubsequenceByElement(_:among:into:)``).
/// Skipping values outside `included` lets the diff run it over the source slots of
/// a whole target window (inserts and items from other sections among them) without copying the
/// ones that count into an array of their own.
///
/// - Parameters:
///   - values: The values, each a source slot or outside `included`.
///   - included: The values that count.
///   - runPathRatio: The fewest elements per run that choose the run path; tests pass 1 to take
///     it always, or `Int.max` to take it never (the per-element path also takes repeated
///     values).
/// - Returns: One bit per element of `values`, set where the element is on the subsequence; read
///   it with ``isOnSubsequence(_:_:)``.
/// - Complexity: O(*n* + *r* log *r*) with *r* runs among *n* values when runs are few, O(*n* log
///   *n*) in the worst case. Holds 20 bytes per run on the run path; else 4 bytes per included
///   value, and up to 4 more per value of the longest run.
@inlinable
func longestIncreasingSubsequence(
  _ values: UnsafeBufferPointer<Int32>, among included: Range<Int32>, runPathRatio: Int = 16
) -> [UInt64] {
  let count = values.count
  var marks = [UInt64](repeating: 0, count: (count &+ 63) &>> 6)
  guard count > 0 else { return marks }
  let runCount = countIncreasingRuns(values, among: included)
  marks.withUnsafeMutableBufferPointer { marks in
    if runCount <= count / runPathRatio {
      markLongestChainOfRuns(values, among: included, runCount: runCount, into: marks)
    } else {
      markLongestIncreasingSubsequenceByElement(values, among: included, into: marks)
    }
  }
  return marks
}

/// The number of runs among the included values (see ``forEachIncreasingRun(_:among:_:)``).
@inlinable
func countIncreasingRuns(_ values: UnsafeBufferPointer<Int32>, among included: Range<Int32>)
  -> Int
{
  var runs = 0
  forEachIncreasingRun(values, among: included) { _, _ in runs &+= 1 }
  return runs
}

/// Calls `body` with the first element and the length of each run, in order: the maximal
/// stretches of neighbouring elements whose values are included and each one more than the one
/// before.
@inlinable @inline(__always)
func forEachIncreasingRun(
  _ values: UnsafeBufferPointer<Int32>, among included: Range<Int32>,
  _ body: (_ first: Int, _ length: Int) -> Void
) {
  let lowest = included.lowerBound
  let span = UInt32(bitPattern: included.upperBound &- included.lowerBound)
  var first = 0
  var length = 0
  // The value that would continue the current run. Included values are below `Int32.max`, so
  // that value also stands for "no run" (at the start and after an excluded value).
  var following = Int32.max
  for index in 0..<values.count {
    let value = values[index]
    guard UInt32(bitPattern: value &- lowest) < span else {
      if length > 0 { body(first, length) }
      length = 0
      following = Int32.max
      continue
    }
    if value != following {
      if length > 0 { body(first, length) }
      first = index
      length = 0
    }
    length &+= 1
    following = value &+ 1
  }
  if length > 0 { body(first, length) }
}

/// Patience sorting per element, the marks written into `marks` (zeroed, a bit per element).
///
/// Values that extend the current longest run are appended without a search, so nearly sorted
/// input costs O(*n*).
@inlinable
func markLongestIncreasingSubsequenceByElement(
  _ values: UnsafeBufferPointer<Int32>, among included: Range<Int32>,
  into marks: UnsafeMutableBufferPointer<UInt64>
) {
  let count = values.count
  // tailValues[l] is the smallest value that ends an increasing run of length l + 1, and
  // lengths[i] the length (less one) of the longest run that ends at element i. The run is read
  // back from the lengths, from the end: the latest element of each length below the one after
  // it is the one a predecessor link would have named, so no index of tails nor links are kept
  // (4 bytes an element fewer, pages a long run would touch). The buffers are allocated at the
  // largest size a run can reach, so the loop neither checks nor grows them; pages a short run
  // never reaches are never touched.
  var last = -1
  let lengths = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
  let tailValues = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
  defer {
    lengths.deallocate()
    tailValues.deallocate()
  }
  let lowest = included.lowerBound
  let span = UInt32(bitPattern: included.upperBound &- included.lowerBound)
  for index in 0..<count {
    let value = values[index]
    // One unsigned comparison tells whether `value` is in `included`.
    guard UInt32(bitPattern: value &- lowest) < span else { continue }
    if last < 0 || tailValues[last] < value {
      last &+= 1
      lengths[index] = Int32(truncatingIfNeeded: last)
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
    lengths[index] = Int32(truncatingIfNeeded: low)
    tailValues[low] = value
  }
  // The latest element of each length, from the longest down, below the one taken after it.
  var wanted = Int32(truncatingIfNeeded: last)
  var bound = Int32.max
  var index = count &- 1
  while wanted >= 0 {
    let value = values[index]
    // Included values are below `Int32.max`, so the longest length takes its latest element.
    if UInt32(bitPattern: value &- lowest) < span && lengths[index] == wanted && value < bound {
      marks[index &>> 6] |= 1 &<< UInt64(index & 63)
      bound = value
      wanted &-= 1
    }
    index &-= 1
  }
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
