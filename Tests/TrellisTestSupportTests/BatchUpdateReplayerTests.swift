import Testing
import Trellis
import TrellisTestSupport

/// The replayer must accept what UIKit accepts and reject what it rejects; otherwise the diff's
/// property tests prove nothing.
@Suite struct BatchUpdateReplayerTests {
  let old = SectionedData(sections: ["a", "b"], items: [[1, 2, 3], [4, 5]])

  private func path(_ section: Int, _ item: Int) -> IndexPath {
    IndexPath(item: item, section: section)
  }

  private func violation(
    _ update: BatchUpdate, to new: SectionedData<String, Int>
  ) -> String? {
    do {
      try BatchUpdateReplayer.apply(update, to: old, expecting: new)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func acceptsAValidBatchWithEveryKindOfChange() {
    var update = BatchUpdate()
    update.itemDeletes = [path(0, 1)]
    update.itemInserts = [path(1, 0)]
    update.itemMoves = [Move(source: path(0, 0), target: path(1, 3))]
    update.itemReloads = [path(0, 2)]
    update.sectionInserts = [2]
    let new = SectionedData(sections: ["a", "b", "c"], items: [[3], [9, 4, 5, 1], [7]])
    #expect(violation(update, to: new) == nil)
  }

  @Test func rejectsAnIndexPathBothDeletedAndMoved() {
    var update = BatchUpdate()
    update.itemDeletes = [path(0, 0)]
    update.itemMoves = [Move(source: path(0, 0), target: path(0, 1))]
    #expect(
      violation(update, to: SectionedData(sections: ["a", "b"], items: [[2, 1], [4, 5]]))?.contains(
        "both") == true)
  }

  @Test func rejectsAnIndexPathDeletedTwice() {
    var update = BatchUpdate()
    update.itemDeletes = [path(0, 0), path(0, 0)]
    #expect(
      violation(update, to: SectionedData(sections: ["a", "b"], items: [[2, 3], [4, 5]])) != nil)
  }

  @Test func rejectsAnIndexPathBothReloadedAndMoved() {
    var update = BatchUpdate()
    update.itemReloads = [path(0, 0)]
    update.itemMoves = [Move(source: path(0, 0), target: path(0, 2))]
    #expect(
      violation(update, to: SectionedData(sections: ["a", "b"], items: [[2, 3, 1], [4, 5]])) != nil)
  }

  @Test func rejectsWrongItemCounts() {
    var update = BatchUpdate()
    update.itemDeletes = [path(0, 0)]
    let message = violation(
      update, to: SectionedData(sections: ["a", "b"], items: [[1, 2, 3], [4, 5]]))
    #expect(message?.contains("number of items in section 0") == true)
  }

  @Test func rejectsWrongSectionCounts() {
    var update = BatchUpdate()
    update.sectionInserts = [1]
    #expect(violation(update, to: old)?.contains("number of sections") == true)
  }

  @Test func rejectsAnUpdateWhoseCountsMatchButIdentitiesDoNot() {
    // Swapping two items needs a move; claiming "nothing changed" must fail.
    #expect(
      violation(
        BatchUpdate(), to: SectionedData(sections: ["a", "b"], items: [[2, 1, 3], [4, 5]])) != nil)
  }

  @Test func rejectsAMoveIntoASectionBeingInserted() {
    var update = BatchUpdate()
    update.sectionInserts = [2]
    update.itemMoves = [Move(source: path(0, 0), target: path(2, 0))]
    let new = SectionedData(sections: ["a", "b", "c"], items: [[2, 3], [4, 5], [1]])
    #expect(violation(update, to: new)?.contains("being inserted") == true)
  }

  @Test func rejectsAnItemDeleteInASectionBeingDeleted() {
    var update = BatchUpdate()
    update.sectionDeletes = [1]
    update.itemDeletes = [path(1, 0)]
    #expect(
      violation(update, to: SectionedData(sections: ["a"], items: [[1, 2, 3]]))?.contains(
        "being deleted") == true)
  }

  @Test func rejectsAMoveOutOfASectionBeingDeleted() {
    var update = BatchUpdate()
    update.sectionDeletes = [1]
    update.itemMoves = [Move(source: path(1, 0), target: path(0, 3))]
    #expect(violation(update, to: SectionedData(sections: ["a"], items: [[1, 2, 3, 4]])) != nil)
  }

  @Test func appliesSectionMovesWithUntouchedSectionsFillingTheGaps() {
    var update = BatchUpdate()
    update.sectionMoves = [Move(source: 0, target: 1)]
    #expect(
      violation(update, to: SectionedData(sections: ["b", "a"], items: [[4, 5], [1, 2, 3]])) == nil)
    #expect(violation(update, to: old) != nil)
  }

  @Test func replayNamesTheStageThatBrokeARule() {
    var bad = BatchUpdate()
    bad.itemDeletes = [path(5, 0)]
    let changes = StagedChangeset([
      Changeset(
        kind: .deletes, update: bad, sectionIdentifiers: old.sections, itemIdentifiers: old.items)
    ])
    #expect(throws: BatchUpdateViolation.self) {
      try BatchUpdateReplayer.replay(changes, from: old)
    }
  }
}
