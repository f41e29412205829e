import Testing
import TrellisTestSupport

@testable import Trellis

/// `longestIncreasingSubsequence(_:among:)` against a quadratic reference: the marked elements are
/// included, strictly increasing, and as many as the longest run has.
@Suite struct LongestIncreasingSubsequenceTests {
  /// The length of the longest strictly increasing run of the values in `included`.
  static func referenceLength(_ values: [Int32], among included: Range<Int32>) -> Int {
    var lengths = [Int](repeating: 0, count: values.count)
    var longest = 0
    for index in values.indices where included.contains(values[index]) {
      var length = 1
      for earlier in 0..<index
      where included.contains(values[earlier]) && values[earlier] < values[index] {
        length = max(length, lengths[earlier] + 1)
      }
      lengths[index] = length
      longest = max(longest, length)
    }
    return longest
  }

  @Test(arguments: 0..<200 as Range<UInt64>)
  func theMarkedElementsAreALongestIncreasingRun(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let count = Int.random(in: 0...300, using: &rng)
    let values: [Int32]
    switch seed % 3 {
    case 0:
      // Distinct positions, as the diff passes them, with a few moved far.
      var positions = (0..<Int32(count)).map { $0 }
      for _ in 0..<Int.random(in: 0...5, using: &rng) where count > 1 {
        let from = Int.random(in: 0..<count, using: &rng)
        positions.insert(positions.remove(at: from), at: Int.random(in: 0..<count, using: &rng))
      }
      values = positions
    case 1: values = (0..<count).map { _ in Int32.random(in: 0..<40, using: &rng) }
    default: values = (0..<Int32(count)).shuffled(using: &rng)
    }
    let low = Int32.random(in: 0..<10, using: &rng)
    let included = low..<(low + Int32.random(in: 0...Int32(count + 10), using: &rng))
    let expected = Self.referenceLength(values, among: included)
    // Distinct values: the default, then each path forced (per element, and by runs). Repeated
    // values: per element, the only path that takes them.
    for ratio in seed % 3 == 1 ? [Int.max] : [16, Int.max, 1] {
      let marks = values.withUnsafeBufferPointer {
        longestIncreasingSubsequence($0, among: included, runPathRatio: ratio)
      }
      let marked = values.indices.filter { isOnSubsequence(marks, $0) }.map { values[$0] }
      #expect(marked.allSatisfy(included.contains), "seed \(seed), ratio \(ratio)")
      #expect(
        zip(marked, marked.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed), ratio \(ratio)")
      #expect(marked.count == expected, "seed \(seed), ratio \(ratio)")
    }
  }

  /// Distinct values in runs one apart, some runs moved, some values excluded: the chain of whole
  /// runs is as long as the longest subsequence.
  @Test(arguments: 0..<200 as Range<UInt64>)
  func theChainOfRunsIsALongestIncreasingRun(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    // 0..<n cut into pieces, the pieces shuffled: distinct values, runs one apart.
    let count = Int32.random(in: 0...120, using: &rng)
    var pieces: [Range<Int32>] = []
    var start: Int32 = 0
    while start < count {
      let end = Swift.min(count, start + Int32.random(in: 1...20, using: &rng))
      pieces.append(start..<end)
      start = end
    }
    for _ in 0..<Int.random(in: 0...4, using: &rng) where pieces.count > 1 {
      let from = Int.random(in: 0..<pieces.count, using: &rng)
      pieces.insert(pieces.remove(at: from), at: Int.random(in: 0..<pieces.count, using: &rng))
    }
    let values = pieces.flatMap { $0 }
    let low = Int32.random(in: 0...10, using: &rng)
    let included = low..<(low + Int32.random(in: 0...(count + 10), using: &rng))
    let expected = Self.referenceLength(values, among: included)
    let marks = values.withUnsafeBufferPointer {
      longestIncreasingSubsequence($0, among: included, runPathRatio: 1)
    }
    let marked = values.indices.filter { isOnSubsequence(marks, $0) }.map { values[$0] }
    #expect(marked.allSatisfy(included.contains), "seed \(seed): \(values)")
    #expect(zip(marked, marked.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed): \(values)")
    #expect(marked.count == expected, "seed \(seed): \(values), \(included)")
  }

  /// `setBits(in:of:)` against setting bit by bit, across word boundaries.
  @Test func setBitsSetsExactlyTheRange() {
    for low in 0..<130 {
      for high in low...200 {
        var words = [UInt64](repeating: 0, count: 4)
        words.withUnsafeMutableBufferPointer { setBits(in: low..<high, of: $0) }
        var expected = [UInt64](repeating: 0, count: 4)
        for bit in low..<high { expected[bit >> 6] |= 1 << UInt64(bit & 63) }
        #expect(words == expected, "\(low)..<\(high)")
      }
    }
  }
}
