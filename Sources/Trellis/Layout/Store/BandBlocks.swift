/// Summaries of a sequence of intervals along one axis, ``blockSize`` at a time, that find the
/// entries which may overlap a range in O(log *n* + *k*) when the intervals come roughly in
/// order (a layout's elements do): each block keeps the lowest start and highest end of its
/// entries, the highest end of any block up to it, and the lowest start of any block from it on.
///
/// A query binary-searches the first block whose running highest end passes the range's start,
/// then walks blocks until the lowest start of everything left is past the range's end. An entry
/// with an empty or not-a-number interval is counted but never found.
struct BandBlocks {
  static var blockShift: Int { 5 }
  static var blockSize: Int { 1 << blockShift }

  private var lows = ChunkedArray<Double>()
  private var highs = ChunkedArray<Double>()
  private var runningHighs = ChunkedArray<Double>()
  private var suffixLows = ChunkedArray<Double>()
  /// The number of entries.
  private(set) var count = 0

  var blockCount: Int { lows.count }

  /// Adds an entry.
  mutating func append(low: Double, high: Double) {
    if count & (Self.blockSize - 1) == 0 {
      lows.append(.infinity)
      highs.append(-.infinity)
      runningHighs.append(runningHighs.last ?? -.infinity)
      suffixLows.append(.infinity)
    }
    count += 1
    include(low: low, high: high)
  }

  /// Widens the last entry's interval to include another.
  mutating func extendLast(low: Double, high: Double) {
    precondition(count > 0, "No entry to extend.")
    include(low: low, high: high)
  }

  private mutating func include(low: Double, high: Double) {
    guard low < high else { return }
    let block = blockCount - 1
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
      if high > runningHighs[block] { runningHighs[block] = high }
    }
  }

  /// Keeps the first `newCount` entries; `interval` gives the kept entries' intervals, for the
  /// last block's summary.
  mutating func truncate(to newCount: Int, interval: (Int) -> (low: Double, high: Double)) {
    precondition(newCount >= 0 && newCount <= count, "Truncating \(count) entries to \(newCount).")
    guard newCount < count else { return }
    let kept = (newCount + Self.blockSize - 1) >> Self.blockShift
    lows.truncate(to: kept)
    highs.truncate(to: kept)
    runningHighs.truncate(to: kept)
    suffixLows.truncate(to: kept)
    count = newCount
    guard kept > 0 else { return }
    summarize(block: kept - 1, interval: interval)
    repair(blocks: (kept - 1)..<kept)
  }

  /// Summarizes again the blocks holding `entries`, whose intervals changed.
  mutating func refresh(entries: Range<Int>, interval: (Int) -> (low: Double, high: Double)) {
    guard !entries.isEmpty else { return }
    let first = entries.lowerBound >> Self.blockShift
    let last = (entries.upperBound - 1) >> Self.blockShift
    for block in first...last { summarize(block: block, interval: interval) }
    repair(blocks: first..<(last + 1))
  }

  private mutating func summarize(block: Int, interval: (Int) -> (low: Double, high: Double)) {
    var low = Double.infinity
    var high = -Double.infinity
    for entry in entries(ofBlock: block) {
      let range = interval(entry)
      guard range.low < range.high else { continue }
      if range.low < low { low = range.low }
      if range.high > high { high = range.high }
    }
    lows[block] = low
    highs[block] = high
  }

  /// Recomputes running highs from `blocks` forwards and suffix lows from them backwards, each
  /// until they stop changing.
  private mutating func repair(blocks: Range<Int>) {
    var running = blocks.lowerBound > 0 ? runningHighs[blocks.lowerBound - 1] : -.infinity
    var block = blocks.lowerBound
    while block < blockCount {
      if highs[block] > running { running = highs[block] }
      if block >= blocks.upperBound && runningHighs[block] == running { break }
      runningHighs[block] = running
      block += 1
    }
    var suffix = blocks.upperBound < blockCount ? suffixLows[blocks.upperBound] : .infinity
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

  /// The first block that may hold an interval ending after `low`.
  func firstBlock(reaching low: Double) -> Int {
    var first = 0
    var upper = blockCount
    while first < upper {
      let middle = (first + upper) / 2
      if runningHighs[middle] <= low { first = middle + 1 } else { upper = middle }
    }
    return first
  }

  /// Whether a block or any after it holds an interval starting before `high`.
  func continues(at block: Int, before high: Double) -> Bool {
    block < blockCount && suffixLows[block] < high
  }

  /// Whether a block's own entries may overlap the range.
  func overlaps(block: Int, low: Double, high: Double) -> Bool {
    lows[block] < high && highs[block] > low
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
