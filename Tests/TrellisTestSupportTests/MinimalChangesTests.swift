import Testing
import TrellisTestSupport

@Suite struct MinimalChangesTests {
  /// The O(n²) definition of a longest increasing subsequence's length, to check the fast one.
  private func quadraticLongestRun(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
      for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func longestIncreasingRunMatchesTheQuadraticDefinition(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for step in 0..<200 {
      let values = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
        Int.random(in: 0..<30, using: &rng)
      }
      #expect(
        MinimalChanges.longestIncreasingRun(values) == quadraticLongestRun(values),
        "seed \(seed), step \(step): \(values)")
    }
  }

  @Test func countsMovesAcrossSectionsAndKeepsTheLongestRunInPlace() {
    let source = SectionedData(sections: ["a", "b"], items: [[1, 2, 3, 4], [5]])
    let target = SectionedData(sections: ["b", "a", "c"], items: [[5, 4], [2, 3, 1], [6]])
    #expect(
      MinimalChanges(from: source, to: target)
        == MinimalChanges(sectionMoves: 1, itemMoves: 2, itemDeletes: 0, itemInserts: 0))
  }

  @Test func itemsOfDeletedOrInsertedSectionsAreDeletedAndInsertedNotMoved() {
    let source = SectionedData(sections: ["a", "b"], items: [[1, 2], [3]])
    let target = SectionedData(sections: ["a", "c"], items: [[1], [2, 3]])
    #expect(
      MinimalChanges(from: source, to: target)
        == MinimalChanges(sectionMoves: 0, itemMoves: 0, itemDeletes: 1, itemInserts: 0))
  }
}
