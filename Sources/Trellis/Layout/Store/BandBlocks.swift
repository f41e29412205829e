/// Summaries of a sequence of intervals along one axis, ``blockSize`` at a time, that find the
/// entries which may overlap a range in O(log *n* + *k*) when the intervals come roughly in
/// order (a layout's elements do): each block keeps the lowest start and highest end of its
/// entries, the highest end of any block up to it, and the lowest start of any block from it on.
///
/// A query binary-searches the first block whose running highest end passes the range's start,
/// then walks blocks until the lowest start of everything left is past the range's end. An entry
/// with an empty or not-a-number interval is counted but never found. The last, unfinished block
/// is kept apart, so that appending an entry is two comparisons until a block fills.
struct BandBlocks {
  static var blockShift: Int { 5 }
  static var blockSize: Int { 1 << blockShift }

  // Finished blocks.
  private var lows = ChunkedArray<Double>()
  private var highs = ChunkedArray<Double>()
  private var runningHighs = ChunkedArray<Double>()
  /// The running high of every 64th finished block (blocks 63, 127, …): the search for the first
  /// block reaching a point reads this short array, then 64 blocks, instead of jumping across
  /// every block (each jump a wait for memory on a large layout).
  private var stretchRunningHighs: [Double] = []
  private var suffixLows = ChunkedArray<Double>()
  // The unfinished block, when the count is not a multiple of the block size.
  private var openLow = Double.infinity
  private var openHigh = -Double.infinity
  /// The number of entries.
  private(set) var count = 0

  private var finishedCount: Int { lows.count }
  var blockCount: Int { (count + Self.blockSize - 1) >> Self.blockShift }

  /// Adds an entry.
  @inline(__always)
  mutating func append(low: Double, high: Double) {
    if low < high {
      if low < openLow { openLow = low }
      if high > openHigh { openHigh = high }
    }
    count += 1
    if count & (Self.blockSize - 1) == 0 { finishOpenBlock() }
  }

  /// How many entries fit in the open block before it is finished.
  var roomInOpenBlock: Int { Self.blockSize - count & (Self.blockSize - 1) }

  /// Adds `entries` entries at once, the same as appending them one by one.
  ///
  /// `low` and `high` summarize them: the lowest start and highest end among those that are not
  /// empty (`low < high`), or an empty interval if all are. They must fit in the open block
  /// (``roomInOpenBlock``).
  @inline(__always)
  mutating func append(entries: Int, low: Double, high: Double) {
    precondition(
      entries >= 0 && entries <= roomInOpenBlock,
      "\(entries) entries appended to a block with room for \(roomInOpenBlock).")
    if low < high {
      if low < openLow { openLow = low }
      if high > openHigh { openHigh = high }
    }
    count += entries
    if entries > 0 && count & (Self.blockSize - 1) == 0 { finishOpenBlock() }
  }

  private mutating func finishOpenBlock() {
    let low = openLow
    lows.append(low)
    highs.append(openHigh)
    runningHighs.append(Swift.max(runningHighs.last ?? -.infinity, openHigh))
    if runningHighs.count & 63 == 0, let last = runningHighs.last {
      stretchRunningHighs.append(last)
    }
    suffixLows.append(low)
    var block = finishedCount - 2
    while block >= 0 && suffixLows[block] > low {
      suffixLows[block] = low
      block -= 1
    }
    openLow = .infinity
    openHigh = -.infinity
  }

  /// Widens the last entry's interval to include another.
  mutating func extendLast(low: Double, high: Double) {
    precondition(count > 0, "No entry to extend.")
    guard low < high else { return }
    if count & (Self.blockSize - 1) != 0 {
      if low < openLow { openLow = low }
      if high > openHigh { openHigh = high }
      return
    }
    // The last entry finished its block: widen that block's summary.
    let block = finishedCount - 1
    if low < lows[block] {
      lows[block] = low
      var index = block
      while index >= 0 && suffixLows[index] > low {
        suffixLows[index] = low
        index -= 1
      }
    }
    if high > highs[block] {
      highs[block] = high
      if high > runningHighs[block] { setRunningHigh(high, at: block) }
    }
  }

  /// Keeps the first `newCount` entries; `interval` gives the kept entries' intervals, for the
  /// last block's summary.
  mutating func truncate(to newCount: Int, interval: (Int) -> (low: Double, high: Double)) {
    precondition(newCount >= 0 && newCount <= count, "Truncating \(count) entries to \(newCount).")
    guard newCount < count else { return }
    let finished = newCount >> Self.blockShift
    let hadFinished = finishedCount
    lows.truncate(to: Swift.min(finished, hadFinished))
    highs.truncate(to: lows.count)
    runningHighs.truncate(to: lows.count)
    stretchRunningHighs.removeSubrange((lows.count >> 6)...)
    suffixLows.truncate(to: lows.count)
    count = newCount
    (openLow, openHigh) = summary(of: (finished << Self.blockShift)..<newCount, interval)
    if finished > 0 && finished < hadFinished { repair(blocks: (finished - 1)..<finished) }
  }

  /// Summarizes again the blocks holding `entries`, whose intervals changed.
  mutating func refresh(entries: Range<Int>, interval: (Int) -> (low: Double, high: Double)) {
    guard !entries.isEmpty else { return }
    let first = entries.lowerBound >> Self.blockShift
    let last = (entries.upperBound - 1) >> Self.blockShift
    for block in first...last {
      let summary = summary(of: self.entries(ofBlock: block), interval)
      if block < finishedCount {
        lows[block] = summary.low
        highs[block] = summary.high
      } else {
        (openLow, openHigh) = summary
      }
    }
    if first < finishedCount { repair(blocks: first..<Swift.min(last + 1, finishedCount)) }
  }

  private func summary(
    of entries: Range<Int>, _ interval: (Int) -> (low: Double, high: Double)
  ) -> (low: Double, high: Double) {
    var low = Double.infinity
    var high = -Double.infinity
    for entry in entries {
      let range = interval(entry)
      guard range.low < range.high else { continue }
      if range.low < low { low = range.low }
      if range.high > high { high = range.high }
    }
    return (low, high)
  }

  /// Recomputes the finished blocks' running highs from `blocks` forwards and suffix lows from
  /// them backwards, each until they stop changing.
  private mutating func repair(blocks: Range<Int>) {
    var running = blocks.lowerBound > 0 ? runningHighs[blocks.lowerBound - 1] : -.infinity
    var block = blocks.lowerBound
    while block < finishedCount {
      if highs[block] > running { running = highs[block] }
      if block >= blocks.upperBound && runningHighs[block] == running { break }
      setRunningHigh(running, at: block)
      block += 1
    }
    var suffix = blocks.upperBound < finishedCount ? suffixLows[blocks.upperBound] : .infinity
    block = blocks.upperBound - 1
    while block >= 0 {
      if lows[block] < suffix { suffix = lows[block] }
      if block < blocks.lowerBound && suffixLows[block] == suffix { break }
      suffixLows[block] = suffix
      block -= 1
    }
  }

  /// The entries a block summarizes.
  func entries(ofBlock block: Int) -> Range<Int> {
    (block << Self.blockShift)..<Swift.min(count, (block + 1) << Self.blockShift)
  }

  private func runningHigh(_ block: Int) -> Double {
    if block < finishedCount { return runningHighs[block] }
    return Swift.max(finishedCount > 0 ? runningHighs[finishedCount - 1] : -.infinity, openHigh)
  }

  private mutating func setRunningHigh(_ value: Double, at block: Int) {
    runningHighs[block] = value
    if block & 63 == 63 { stretchRunningHighs[block >> 6] = value }
  }

  /// The first block that may hold an interval ending after `low`.
  func firstBlock(reaching low: Double) -> Int {
    firstIndex(
      endingAfter: low, count: blockCount, stretchEnds: stretchRunningHighs, stride: 64,
      end: runningHigh)
  }

  /// Whether a block or any after it holds an interval starting before `high`.
  func continues(at block: Int, before high: Double) -> Bool {
    guard block < blockCount else { return false }
    if openLow < high { return true }
    return block < finishedCount && suffixLows[block] < high
  }

  /// Whether a block's own entries may overlap the range.
  func overlaps(block: Int, low: Double, high: Double) -> Bool {
    block < finishedCount
      ? lows[block] < high && highs[block] > low : openLow < high && openHigh > low
  }

  /// Calls `body` with every entry of the blocks that may overlap the range (a superset of the
  /// entries that do).
  func forEachCandidate(low: Double, high: Double, _ body: (Int) -> Void) {
    var block = firstBlock(reaching: low)
    while continues(at: block, before: high) {
      if overlaps(block: block, low: low, high: high) {
        for entry in entries(ofBlock: block) { body(entry) }
      }
      block += 1
    }
  }
}

extension BandBlocks {
  /// Checks every summary against the entries' intervals: each block's lowest start and highest
  /// end, the running highest ends and the suffix lowest starts.
  ///
  /// - Returns: What is wrong, or `nil` when the summaries hold.
  /// - Complexity: O(*n*).
  func violation(_ interval: (Int) -> (low: Double, high: Double)) -> String? {
    var running = -Double.infinity
    var expectedLows: [Double] = []
    for block in 0..<blockCount {
      let expected = summary(of: entries(ofBlock: block), interval)
      let stored = block < finishedCount ? (lows[block], highs[block]) : (openLow, openHigh)
      guard expected.low == stored.0, expected.high == stored.1 else {
        return "block \(block) summarizes \(stored) where its entries span \(expected)"
      }
      if block < finishedCount {
        running = Swift.max(running, expected.high)
        guard runningHighs[block] == running else {
          return "block \(block)'s running high is \(runningHighs[block]), not \(running)"
        }
        expectedLows.append(expected.low)
      }
    }
    guard stretchRunningHighs.count == finishedCount >> 6 else {
      return "\(stretchRunningHighs.count) stretch highs for \(finishedCount) finished blocks"
    }
    for stretch in stretchRunningHighs.indices
    where stretchRunningHighs[stretch] != runningHighs[(stretch << 6) + 63] {
      return "stretch \(stretch)'s running high differs from its last block's"
    }
    var suffix = Double.infinity
    for block in stride(from: finishedCount - 1, through: 0, by: -1) {
      suffix = Swift.min(suffix, expectedLows[block])
      guard suffixLows[block] == suffix else {
        return "block \(block)'s suffix low is \(suffixLows[block]), not \(suffix)"
      }
    }
    return nil
  }
}
