import Testing
import Trellis
import TrellisTestSupport

/// Named edge cases with exact changesets, each also replayed under UIKit's rules.
@Suite struct StagedChangesetTests {
  private func diff(
    _ source: [(String, [Int])], _ target: [(String, [Int])],
    changed: Set<Int> = []
  ) throws -> StagedChangeset<String, Int> {
    let from = Snapshot(sections: source)
    let to = Snapshot(sections: target)
    let changes = StagedChangeset(from: from, to: to) { changed.contains($0) ? .reload : nil }
    #expect(try BatchUpdateReplayer.replay(changes, from: SectionedData(from)) == SectionedData(to))
    #expect(changes.counts == MinimalChanges(from: SectionedData(from), to: SectionedData(to)))
    return changes
  }

  @Test func identicalSnapshotsGiveNoStages() throws {
    #expect(try diff([("a", [1, 2]), ("b", [3])], [("a", [1, 2]), ("b", [3])]).isEmpty)
    #expect(try diff([], []).isEmpty)
  }

  @Test func emptyToNonEmptyInsertsSectionsWithTheirItems() throws {
    let changes = try diff([], [("a", [1, 2]), ("b", [])])
    #expect(changes.map(\.kind) == [.sectionInsertsAndMoves])
    #expect(changes[0].update.sectionInserts == [0, 1])
    #expect(changes[0].update.itemInserts == [])
  }

  @Test func nonEmptyToEmptyDeletesSectionsOnly() throws {
    let changes = try diff([("a", [1, 2]), ("b", [3])], [])
    #expect(changes.map(\.kind) == [.deletes])
    #expect(changes[0].update.sectionDeletes == [0, 1])
    #expect(changes[0].update.itemDeletes == [])
    #expect(changes[0].sectionIdentifiers == [])
  }

  @Test func oneItemMovedToTheEndIsOneMove() throws {
    let source = Array(0..<1000)
    let changes = try diff([("a", source)], [("a", Array(source.dropFirst()) + [0])])
    #expect(changes.count == 1)
    #expect(
      changes[0].update.itemMoves == [
        Move(source: IndexPath(item: 0, section: 0), target: IndexPath(item: 999, section: 0))
      ])
  }

  @Test func aReversedListKeepsOneItemAndMovesTheRest() throws {
    let changes = try diff([("a", [1, 2, 3, 4, 5])], [("a", [5, 4, 3, 2, 1])])
    #expect(changes.itemMoveCount == 4)
  }

  @Test func everyItemMovedToAnotherSection() throws {
    let changes = try diff([("a", [1, 2]), ("b", [3, 4])], [("a", [3, 4]), ("b", [1, 2])])
    #expect(changes.map(\.kind) == [.itemInsertsAndMoves])
    #expect(changes.itemMoveCount == 4)
    #expect(changes.sectionMoveCount == 0)
  }

  @Test func aSectionMovedWhileItsItemsChange() throws {
    let changes = try diff(
      [("a", [1, 2, 3]), ("b", [4, 5]), ("c", [6])],
      [("c", [6, 7]), ("a", [3, 1]), ("b", [5, 4, 2])],
      changed: [5])
    #expect(changes.map(\.kind) == [.sectionInsertsAndMoves, .itemInsertsAndMoves, .updates])
    #expect(changes.sectionMoveCount == 1)
    #expect(changes.last?.update.itemReloads == [IndexPath(item: 0, section: 2)])
  }

  @Test func anItemMovedIntoAnInsertedSectionLeavesAndArrivesWithIt() throws {
    let changes = try diff([("a", [1, 2, 3])], [("a", [1, 3]), ("new", [2, 9])])
    #expect(changes.map(\.kind) == [.deletes, .sectionInsertsAndMoves])
    #expect(changes[0].update.itemDeletes == [IndexPath(item: 1, section: 0)])
    #expect(changes[1].update.sectionInserts == [1])
    #expect(changes.itemMoveCount == 0)
  }

  @Test func anItemFromADeletedSectionIsInsertedInItsNewSection() throws {
    let changes = try diff([("a", [1]), ("gone", [2, 3])], [("a", [1, 3])])
    #expect(changes.map(\.kind) == [.deletes, .itemInsertsAndMoves])
    #expect(changes[0].update.sectionDeletes == [1])
    #expect(changes[1].update.itemInserts == [IndexPath(item: 1, section: 0)])
  }

  @Test func deletedSectionsAndItemsUseSourcePositionsAndInsertsUseTargetPositions() throws {
    let changes = try diff(
      [("a", [1, 2, 3]), ("b", [4]), ("c", [5, 6])],
      [("a", [1, 3]), ("c", [7, 5, 6])])
    #expect(changes.map(\.kind) == [.deletes, .itemInsertsAndMoves])
    #expect(changes[0].update.sectionDeletes == [1])
    #expect(changes[0].update.itemDeletes == [IndexPath(item: 1, section: 0)])
    #expect(changes[0].sectionIdentifiers == ["a", "c"])
    #expect(changes[0].itemIdentifiers == [[1, 3], [5, 6]])
    #expect(changes[1].update.itemInserts == [IndexPath(item: 0, section: 1)])
  }

  @Test func contentChangesOfMovedItemsAreUpdatedAtTheirTargetPosition() throws {
    let changes = try diff([("a", [1, 2, 3])], [("a", [3, 1, 2])], changed: [3, 2])
    #expect(changes.map(\.kind) == [.itemInsertsAndMoves, .updates])
    #expect(
      changes[0].update.itemMoves == [
        Move(source: IndexPath(item: 2, section: 0), target: IndexPath(item: 0, section: 0))
      ])
    #expect(
      changes[1].update.itemReloads == [
        IndexPath(item: 0, section: 0), IndexPath(item: 2, section: 0),
      ])
  }

  @Test func marksInTheTargetBecomeUpdatesButNotForItemsOfReloadedSections() throws {
    let source = Snapshot(sections: [("a", [1, 2]), ("b", [3])])
    var target = source
    target.reloadItems([2, 3])
    target.reconfigureItems([1])
    target.reloadSections(["b"])
    let changes = StagedChangeset(from: source, to: target)
    #expect(changes.map(\.kind) == [.updates])
    #expect(changes[0].update.itemReloads == [IndexPath(item: 1, section: 0)])
    #expect(changes[0].update.itemReconfigures == [IndexPath(item: 0, section: 0)])
    #expect(changes[0].update.sectionReloads == [1])
  }

  @Test func flatDiffOfIdentifiableElements() throws {
    struct Issue: Identifiable, Equatable {
      var id: Int
      var title: String
    }
    let source = [Issue(id: 1, title: "a"), Issue(id: 2, title: "b"), Issue(id: 3, title: "c")]
    let target = [Issue(id: 3, title: "c"), Issue(id: 1, title: "A"), Issue(id: 4, title: "d")]
    let changes = StagedChangeset(source: source, target: target, update: .reconfigure)
    #expect(changes.map(\.kind) == [.deletes, .itemInsertsAndMoves, .updates])
    #expect(changes[0].update.itemDeletes == [IndexPath(item: 1, section: 0)])
    #expect(changes[1].update.itemInserts == [IndexPath(item: 2, section: 0)])
    #expect(changes.itemMoveCount == 1)
    #expect(changes[2].update.itemReconfigures == [IndexPath(item: 1, section: 0)])
  }

  @Test func aMillionUnchangedItemsGiveNoStages() {
    struct Element: Identifiable, Equatable { var id: Int }
    let elements = (0..<1_000_000).map(Element.init)
    #expect(StagedChangeset(source: elements, target: elements).isEmpty)
  }

  @Test func duplicateIdentifiersInAFlatTargetTrap() async {
    await #expect(processExitsWith: .failure) {
      struct Element: Identifiable, Equatable { var id: Int }
      _ = StagedChangeset(
        source: [Element(id: 1), Element(id: 2)], target: [Element(id: 2), Element(id: 2)])
    }
  }
}
