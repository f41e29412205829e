/// Marks one longest strictly increasing subsequence found among whole runs.
///
/// The marks go into `marks` (zeroed, a bit per element of `values`); the included values are
/// distinct.
///
/// A run (see ``forEachIncreasingRun(_:among:_:)``) is taken whole or not at all: if a subsequence
/// takes part of a run, the run's other values are nowhere else, so the elements just before and
/// after the part are below and above the whole run, and taking all of it keeps the subsequence
/// increasing and makes it no shorter. (With repeated values this fails: 0 1 2 | 2…8 | 7…17 has
/// a longest subsequence through part of the middle run.) So the longest subsequence is the
/// heaviest chain of runs, each starting above where the one before it ends, weighted by length.
/// Runs are taken in order; a Fenwick tree over the ranks of the runs' last values answers "the
/// heaviest chain ending below this run's first value" in O(log *r*).
///
/// - Complexity: O(*n* + *r* log *r*) for *n* values in *r* runs; 20 bytes per run.
@inlinable
func markLongestChainOfRuns(
  _ values: UnsafeBufferPointer<Int32>, among included: Range<Int32>, runCount: Int,
  into marks: UnsafeMutableBufferPointer<UInt64>
) {
  guard runCount > 0 else { return }
  // Each run's first element and its length; its values are `values[first]` and up.
  let firsts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: runCount)
  let lengths = UnsafeMutableBufferPointer<Int32>.allocate(capacity: runCount)
  // The runs' last values, sorted: a value's rank is how many runs end below it.
  var sortedLasts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: runCount)
  // The heaviest chain ending in each run, as weight << 32 | (run + 1), and the run before it
  // on that chain (-1 for none); the Fenwick tree keeps prefix maxima of the same packing.
  let previous = UnsafeMutableBufferPointer<Int32>.allocate(capacity: runCount)
  let tree = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: runCount &+ 1)
  defer {
    firsts.deallocate()
    lengths.deallocate()
    sortedLasts.deallocate()
    previous.deallocate()
    tree.deallocate()
  }
  var run = -1
  forEachIncreasingRun(values, among: included) { first, length in
    run &+= 1
    precondition(run < runCount, "More than the \(runCount) runs announced.")
    firsts[run] = Int32(truncatingIfNeeded: first)
    lengths[run] = Int32(truncatingIfNeeded: length)
  }
  precondition(run &+ 1 == runCount, "\(runCount) runs announced, \(run &+ 1) found.")
  for run in 0..<runCount {
    sortedLasts[run] = values[Int(firsts[run])] &+ lengths[run] &- 1
  }
  sortedLasts.sort()
  tree.initialize(repeating: 0)
  /// How many runs end below `value`.
  func rank(below value: Int32) -> Int {
    var low = 0
    var high = runCount
    while low < high {
      let middle = (low &+ high) &>> 1
      if sortedLasts[middle] < value { low = middle &+ 1 } else { high = middle }
    }
    return low
  }
  var heaviest: UInt64 = 0
  for run in 0..<runCount {
    let first = values[Int(firsts[run])]
    // The heaviest chain among runs ending below `first`: tree positions 1...rank.
    var best: UInt64 = 0
    var position = rank(below: first)
    while position > 0 {
      best = Swift.max(best, tree[position])
      position &= position &- 1
    }
    previous[run] = Int32(truncatingIfNeeded: Int(best & 0xFFFF_FFFF) &- 1)
    let chain = ((best &>> 32) &+ UInt64(lengths[run])) &<< 32 | UInt64(run &+ 1)
    heaviest = Swift.max(heaviest, chain)
    // Record it at the rank of this run's last value (plus one: the tree counts from 1).
    position = rank(below: first &+ lengths[run] &- 1) &+ 1
    while position <= runCount {
      tree[position] = Swift.max(tree[position], chain)
      position &+= position & -position
    }
  }
  var taken = Int(heaviest & 0xFFFF_FFFF) &- 1
  while taken >= 0 {
    let start = Int(firsts[taken])
    setBits(in: start..<(start &+ Int(lengths[taken])), of: marks)
    taken = Int(previous[taken])
  }
}

/// Sets the bits of `range` in a bit set of 64-bit words.
@inlinable
func setBits(in range: Range<Int>, of words: UnsafeMutableBufferPointer<UInt64>) {
  guard !range.isEmpty else { return }
  let firstWord = range.lowerBound &>> 6
  let lastWord = (range.upperBound &- 1) &>> 6
  let low: UInt64 = ~0 &<< UInt64(range.lowerBound & 63)
  let high: UInt64 = ~0 &>> UInt64(63 &- ((range.upperBound &- 1) & 63))
  if firstWord == lastWord {
    words[firstWord] |= low & high
    return
  }
  words[firstWord] |= low
  for word in (firstWord &+ 1)..<lastWord { words[word] = ~0 }
  words[lastWord] |= high
}
