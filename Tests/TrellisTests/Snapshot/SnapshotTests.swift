import Testing
import Trellis

enum Section: Hashable, Sendable {
  case reading, finished, wishlist
}

@Suite struct SnapshotTests {
  @Test func buildingFromSectionsPutsEachItemInItsSection() {
    let snapshot = Snapshot(sections: [(Section.reading, [1, 2]), (.finished, [3])])
    #expect(snapshot.sectionIdentifiers == [.reading, .finished])
    #expect(snapshot.itemIdentifiers == [1, 2, 3])
    #expect(snapshot.itemIdentifiers(inSection: .finished) == [3])
    #expect(snapshot.numberOfSections == 2)
    #expect(snapshot.numberOfItems == 3)
    #expect(snapshot.numberOfItems(inSection: .reading) == 2)
    #expect(snapshot.sectionIdentifier(containingItem: 3) == .finished)
    #expect(snapshot.sectionIdentifier(containingItem: 9) == nil)
  }

  @Test func appendItemsWithoutASectionAppendsToTheLastSectionAsUIKitDoes() {
    // The classic surprise: items appended with no section named all go to the last one.
    var snapshot = Snapshot<Section, Int>()
    snapshot.appendSections([.reading, .finished])
    snapshot.appendItems([1, 2])
    #expect(snapshot.itemIdentifiers(inSection: .reading) == [])
    #expect(snapshot.itemIdentifiers(inSection: .finished) == [1, 2])
    snapshot.appendItems([3], toSection: .reading)
    #expect(snapshot.itemIdentifiers(inSection: .reading) == [3])
  }

  @Test func indexOfItemCountsAcrossSections() {
    let snapshot = Snapshot(sections: [
      (Section.reading, [10, 11]), (.finished, []), (.wishlist, [12, 13]),
    ])
    #expect(snapshot.indexOfItem(10) == 0)
    #expect(snapshot.indexOfItem(13) == 3)
    #expect(snapshot.indexOfItem(99) == nil)
    #expect(snapshot.indexOfSection(.wishlist) == 2)
    #expect(snapshot.indexPath(for: 12) == IndexPath(item: 0, section: 2))
    #expect(snapshot.itemIdentifier(at: IndexPath(item: 1, section: 2)) == 13)
    #expect(snapshot.itemIdentifier(at: IndexPath(item: 2, section: 2)) == nil)
    #expect(snapshot.itemIdentifier(at: IndexPath(item: 0, section: 3)) == nil)
  }

  @Test func insertingSectionsBeforeAndAfterKeepsLookupsRight() {
    var snapshot = Snapshot(sections: [(Section.finished, [1])])
    snapshot.insertSections([.reading], beforeSection: .finished)
    snapshot.insertSections([.wishlist], afterSection: .finished)
    #expect(snapshot.sectionIdentifiers == [.reading, .finished, .wishlist])
    #expect(snapshot.indexPath(for: 1) == IndexPath(item: 0, section: 1))
    snapshot.appendItems([2], toSection: .wishlist)
    #expect(snapshot.indexOfItem(2) == 1)
  }

  @Test func insertingItemsBeforeAndAfterAnItem() {
    var snapshot = Snapshot(sections: [(Section.reading, [1, 4])])
    snapshot.insertItems([2, 3], beforeItem: 4)
    snapshot.insertItems([5], afterItem: 4)
    snapshot.insertItems([0], beforeItem: 1)
    #expect(snapshot.itemIdentifiers == [0, 1, 2, 3, 4, 5])
    #expect(snapshot.indexOfItem(5) == 5)
  }

  @Test func deletingItemsAndSectionsUpdatesEveryLookup() {
    var snapshot = Snapshot(sections: [
      (Section.reading, [1, 2, 3]), (.finished, [4, 5]), (.wishlist, [6]),
    ])
    snapshot.deleteItems([2, 5])
    #expect(snapshot.itemIdentifiers == [1, 3, 4, 6])
    #expect(snapshot.indexPath(for: 3) == IndexPath(item: 1, section: 0))
    snapshot.deleteSections([.finished])
    #expect(snapshot.sectionIdentifiers == [.reading, .wishlist])
    #expect(snapshot.contains(item: 4) == false)
    #expect(snapshot.indexPath(for: 6) == IndexPath(item: 0, section: 1))
    #expect(snapshot.numberOfItems == 3)
  }

  @Test func deleteAllItemsRemovesSectionsTooAsUIKitDoes() {
    var snapshot = Snapshot(sections: [(Section.reading, [1])])
    snapshot.deleteAllItems()
    #expect(snapshot.numberOfSections == 0)
    #expect(snapshot.numberOfItems == 0)
    #expect(snapshot == Snapshot())
  }

  @Test func movingItemsWithinAndAcrossSections() {
    var snapshot = Snapshot(sections: [(Section.reading, [1, 2, 3]), (.finished, [4])])
    snapshot.moveItem(1, afterItem: 3)
    #expect(snapshot.itemIdentifiers(inSection: .reading) == [2, 3, 1])
    snapshot.moveItem(2, beforeItem: 4)
    #expect(snapshot.itemIdentifiers(inSection: .reading) == [3, 1])
    #expect(snapshot.itemIdentifiers(inSection: .finished) == [2, 4])
    snapshot.moveItem(4, afterItem: 1)
    #expect(snapshot.itemIdentifiers == [3, 1, 4, 2])
    #expect(snapshot.indexPath(for: 2) == IndexPath(item: 0, section: 1))
  }

  @Test func movingSectionsCarriesTheirItems() {
    var snapshot = Snapshot(sections: [(Section.reading, [1]), (.finished, [2]), (.wishlist, [3])])
    snapshot.moveSection(.reading, afterSection: .wishlist)
    #expect(snapshot.sectionIdentifiers == [.finished, .wishlist, .reading])
    snapshot.moveSection(.wishlist, beforeSection: .finished)
    #expect(snapshot.sectionIdentifiers == [.wishlist, .finished, .reading])
    #expect(snapshot.itemIdentifiers == [3, 2, 1])
    #expect(snapshot.indexPath(for: 1) == IndexPath(item: 0, section: 2))
  }

  @Test func reloadAndReconfigureMarksAreKeptInOrderAndDroppedWithTheirItems() {
    var snapshot = Snapshot(sections: [(Section.reading, [1, 2, 3]), (.finished, [4])])
    snapshot.reloadItems([3, 1, 3])
    snapshot.reconfigureItems([2])
    snapshot.reloadSections([.finished])
    #expect(snapshot.reloadedItemIdentifiers == [3, 1])
    #expect(snapshot.reconfiguredItemIdentifiers == [2])
    #expect(snapshot.reloadedSectionIdentifiers == [.finished])
    snapshot.deleteItems([3, 2])
    snapshot.deleteSections([.finished])
    #expect(snapshot.reloadedItemIdentifiers == [1])
    #expect(snapshot.reconfiguredItemIdentifiers == [])
    #expect(snapshot.reloadedSectionIdentifiers == [])
  }

  @Test func copiesAreIndependent() {
    let original = Snapshot(sections: [(Section.reading, [1, 2])])
    var copy = original
    copy.deleteItems([1])
    copy.appendSections([.finished])
    #expect(original.itemIdentifiers == [1, 2])
    #expect(original.numberOfSections == 1)
    #expect(copy.itemIdentifiers == [2])
  }

  @Test func validatingReportsEveryDuplicateAndWhereItIs() {
    #expect(throws: SnapshotValidationError<String, Int>.self) {
      try Snapshot(validating: [("a", [1, 2, 1]), ("b", [2, 3]), ("a", [4])])
    }
    do {
      _ = try Snapshot(validating: [("a", [1, 2, 1]), ("b", [2, 3]), ("a", [4])])
    } catch {
      #expect(
        error.duplicateItems == [
          .init(
            identifier: 1,
            indexPaths: [IndexPath(item: 0, section: 0), IndexPath(item: 2, section: 0)]),
          .init(
            identifier: 2,
            indexPaths: [IndexPath(item: 1, section: 0), IndexPath(item: 0, section: 1)]),
        ])
      #expect(error.duplicateSections == [.init(identifier: "a", indexes: [0, 2])])
      #expect(
        error.description
          == "3 duplicate identifiers: item 1 at [0, 0], [0, 2]; item 2 at [0, 1], [1, 0]; section a at 0, 2"
      )
    }
  }

  @Test func validatingGoodDataGivesTheSameSnapshot() throws {
    let sections = [("a", [1, 2]), ("b", [3])]
    #expect(try Snapshot(validating: sections) == Snapshot(sections: sections))
  }
}

@Suite struct SnapshotMisuseTests {
  @Test func appendingADuplicateItemTraps() async {
    await #expect(processExitsWith: .failure) {
      var snapshot = Snapshot(sections: [("a", [1])])
      snapshot.appendItems([1], toSection: "a")
    }
  }

  /// The trap names the identifier, whatever its type (CI checks the release build too).
  @Test func aDuplicateTrapNamesTheIdentifier() async throws {
    let built = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Snapshot<Int, String>(sections: [(1, ["x", "y", "y"])])
    }
    #expect(
      String(decoding: built.standardErrorContent, as: UTF8.self).contains(
        "Item identifier y appears twice in the items being added"))
    let appended = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      var snapshot = Snapshot<Int, String>(sections: [(1, ["x"]), (2, ["w"])])
      snapshot.appendItems(["q", "x"], toSection: 2)
    }
    #expect(
      String(decoding: appended.standardErrorContent, as: UTF8.self).contains(
        "Item identifier x already exists in the snapshot at"))
  }

  @Test func appendingItemsWithNoSectionTraps() async {
    await #expect(processExitsWith: .failure) {
      var snapshot = Snapshot<String, Int>()
      snapshot.appendItems([1])
    }
  }

  @Test func usingAnUnknownSectionTraps() async {
    await #expect(processExitsWith: .failure) {
      var snapshot = Snapshot(sections: [("a", [1])])
      snapshot.insertSections(["b"], beforeSection: "c")
    }
  }

  @Test func deletingAnUnknownItemTraps() async {
    await #expect(processExitsWith: .failure) {
      var snapshot = Snapshot(sections: [("a", [1])])
      snapshot.deleteItems([2])
    }
  }

  @Test func movingAnItemRelativeToItselfTraps() async {
    await #expect(processExitsWith: .failure) {
      var snapshot = Snapshot(sections: [("a", [1])])
      snapshot.moveItem(1, beforeItem: 1)
    }
  }

  @Test func buildingWithADuplicateSectionTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Snapshot(sections: [("a", [1]), ("a", [2])])
    }
  }
}
