import Testing
import Trellis

/// The README's quick start prints what the README says it prints.
@Suite struct ReadmeExampleTests {
  enum Section: Hashable { case reading, finished }

  @Test func quickStartPrintsOneStageOfTwoMoves() {
    let old = Snapshot(sections: [(Section.reading, [1, 2, 3]), (.finished, [4])])
    let new = Snapshot(sections: [(Section.reading, [3, 1]), (.finished, [4, 2])])
    let lines = StagedChangeset(from: old, to: new).map { "\($0.kind) \($0.update)" }
    #expect(
      lines == ["itemInsertsAndMoves BatchUpdate(itemMoves: [[0, 2] → [0, 0], [0, 1] → [1, 1]])"])
  }
}
