import Testing
import Trellis
import TrellisTestSupport

@MainActor
@Suite struct ReorderingTests {
  @Test func movesNeedAHandlerAndAreReportedBeforeAndAfter() {
    let view = RecordingView<String>()
    let dataSource = DiffableDataSource<String, Int, String>(view: view) { _, id in "\(id)" }
    view.dataSource = dataSource
    dataSource.apply(Snapshot(sections: [("a", [1, 2, 3]), ("b", [4])]))
    #expect(!dataSource.canMoveItem(at: IndexPath(item: 0, section: 0)))
    #expect(
      dataSource.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0))
        == nil)

    var events: [String] = []
    dataSource.reorderingHandlers = ReorderingHandlers(
      canReorderItem: { $0 != 4 },
      willReorder: { events.append("will \($0.initialSnapshot == dataSource.snapshot())") },
      didReorder: { events.append("did \($0.finalSnapshot == dataSource.snapshot())") })
    #expect(!dataSource.canMoveItem(at: IndexPath(item: 0, section: 1)))
    let transaction = dataSource.moveItem(
      at: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0))
    #expect(events == ["will true", "did true"])
    #expect(dataSource.snapshot() == Snapshot(sections: [("a", [2, 3, 1]), ("b", [4])]))
    #expect([1, 2, 3, 4].applying(transaction!.difference) == [2, 3, 1, 4])
    #expect(transaction?.sectionTransactions.map(\.sectionIdentifier) == ["a"])

    let across = dataSource.moveItem(
      at: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))
    #expect(dataSource.snapshot() == Snapshot(sections: [("a", [2, 1]), ("b", [4, 3])]))
    #expect([2, 3, 1, 4].applying(across!.difference) == [2, 1, 4, 3])
    let sections = across!.sectionTransactions
    #expect(sections.map(\.sectionIdentifier) == ["a", "b"])
    #expect(sections[0].finalSnapshot.items == [2, 1])
    #expect(sections[1].initialSnapshot.items.applying(sections[1].difference) == [4, 3])
    #expect(view.batches.count == 1, "a move the view already shows needs no batch update")
  }

  @Test func rowsOfATreeDoNotMoveAlone() {
    let dataSource = DiffableDataSource<Int, Int, String> { _, id in "\(id)" }
    dataSource.reorderingHandlers.canReorderItem = { _ in true }
    var tree = SectionSnapshot<Int>()
    tree.append([1, 2])
    tree.append([3], to: 1)
    dataSource.apply(tree, to: 0)
    #expect(!dataSource.canMoveItem(at: IndexPath(item: 0, section: 0)))
  }

  /// A row from elsewhere is refused by a section that nests a tree, which keeps its hierarchy;
  /// a flat section takes it.
  @Test func aTreeSectionRefusesRowsFromElsewhere() {
    let dataSource = DiffableDataSource<Int, Int, String> { _, id in "\(id)" }
    dataSource.reorderingHandlers.canReorderItem = { _ in true }
    dataSource.apply(Snapshot(sections: [(0, [1, 2]), (1, [10]), (2, [20])]))
    var tree = SectionSnapshot<Int>()
    tree.append([1, 2])
    tree.append([3], to: 1)
    tree.expand([1])
    dataSource.apply(tree, to: 0)
    let into = IndexPath(item: 1, section: 0)
    #expect(!dataSource.canMoveItem(at: IndexPath(item: 0, section: 1), to: into))
    #expect(dataSource.moveItem(at: IndexPath(item: 0, section: 1), to: into) == nil)
    #expect(dataSource.snapshot(for: 0).items == [1, 3, 2], "the tree is whole")
    #expect(dataSource.snapshot(for: 0).parent(of: 3) == 1)
    #expect(
      dataSource.canMoveItem(at: IndexPath(item: 0, section: 1), to: IndexPath(item: 0, section: 2))
    )
    #expect(
      dataSource.moveItem(at: IndexPath(item: 0, section: 1), to: IndexPath(item: 0, section: 2))
        != nil)
    #expect(dataSource.snapshot().itemIdentifiers(inSection: 2) == [10, 20])
  }

  @Test func aMoveFromAMissingItemTrapsAsOneToAMissingSectionDoes() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let dataSource = DiffableDataSource<Int, Int, String> { _, id in "\(id)" }
        dataSource.reorderingHandlers.canReorderItem = { _ in true }
        dataSource.apply(Snapshot(sections: [(0, [1, 2])]))
        dataSource.moveItem(
          at: IndexPath(item: 5, section: 0), to: IndexPath(item: 0, section: 0))
      }
    }
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let dataSource = DiffableDataSource<Int, Int, String> { _, id in "\(id)" }
        dataSource.reorderingHandlers.canReorderItem = { _ in true }
        dataSource.apply(Snapshot(sections: [(0, [1, 2])]))
        dataSource.moveItem(
          at: IndexPath(item: 0, section: 0), to: IndexPath(item: 0, section: 3))
      }
    }
  }
}
