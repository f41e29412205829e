/// The source positions a diff has matched, one bit each, and how many are matched before any
/// position, in O(1).
///
/// The diff reads these in the target's order, which is random in the source's: a bit per position
/// (125 KB for a million) stays in the processor's cache where a 32-bit index per position (4 MB)
/// does not, so the two random reads per moved item become cache hits.
@usableFromInline
struct MatchedSlots {
  @usableFromInline var words: [UInt64]
  /// `rankBefore[w]` is the number of matched positions in the words before `w`; valid after
  /// ``finish()``.
  @usableFromInline var rankBefore: [Int32] = []

  @inlinable
  init(count: Int) {
    words = [UInt64](repeating: 0, count: (count + 63) >> 6)
  }

  @inlinable @inline(__always)
  func contains(_ slot: Int) -> Bool {
    words[slot &>> 6] & (1 &<< UInt64(slot & 63)) != 0
  }

  @inlinable @inline(__always)
  mutating func insert(_ slot: Int) {
    words[slot &>> 6] |= 1 &<< UInt64(slot & 63)
  }

  /// Counts the matched positions before each word; call once every position is matched.
  @inlinable
  mutating func finish() {
    rankBefore = [Int32](repeating: 0, count: words.count + 1)
    var total: Int32 = 0
    for (index, word) in words.enumerated() {
      rankBefore[index] = total
      total &+= Int32(truncatingIfNeeded: word.nonzeroBitCount)
    }
    rankBefore[words.count] = total
  }

  /// The number of matched positions before `slot`.
  ///
  /// - Precondition: ``finish()`` was called.
  @inlinable @inline(__always)
  func rank(_ slot: Int) -> Int {
    let word = slot &>> 6
    let bit = UInt64(slot & 63)
    let below = bit == 0 ? 0 : words[word] & ((1 &<< bit) &- 1)
    return Int(rankBefore[word]) &+ below.nonzeroBitCount
  }
}
