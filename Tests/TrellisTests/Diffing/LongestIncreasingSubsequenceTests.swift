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
    let marks = values.withUnsafeBufferPointer { longestIncreasingSubsequence($0, among: included) }
    let marked = values.indices.filter { isOnSubsequence(marks, $0) }.map { values[$0] }
    #expect(marked.allSatisfy(included.contains), "seed \(seed)")
    #expect(zip(marked, marked.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed)")
    #expect(marked.count == Self.referenceLength(values, among: included), "seed \(seed)")
  }
}
