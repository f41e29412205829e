import Testing
import TrellisTestSupport

@testable import Trellis

/// ``SectionFinder`` against a scan of the offsets, over random section sizes: empty sections,
/// one huge section among many small ones, and even ones.
@Suite struct SectionFinderTests {
  @Test(arguments: 0..<300 as Range<UInt64>)
  func everyPositionIsFoundInItsSection(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let sectionCount = Int.random(in: 0...200, using: &rng)
    let sizes: [Int] = (0..<sectionCount).map { _ in
      switch seed % 3 {
      case 0: Int.random(in: 0...3, using: &rng) == 0 ? 0 : Int.random(in: 1...40, using: &rng)
      case 1: Int.random(in: 0...50, using: &rng) == 0 ? 2_000 : Int.random(in: 0...2, using: &rng)
      default: 17
      }
    }
    var offsets = [0]
    for size in sizes { offsets.append(offsets[offsets.count - 1] + size) }
    let finder = SectionFinder(offsets: offsets)
    var wrong = 0
    for position in 0..<offsets[offsets.count - 1] {
      // The section that holds it: the last whose first position is at or before it, non-empty.
      let expected = (0..<sectionCount).last {
        offsets[$0] <= position && offsets[$0 + 1] > position
      }
      if finder.section(atPosition: position) != expected { wrong += 1 }
    }
    #expect(wrong == 0, "seed \(seed)")
  }
}
