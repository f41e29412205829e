import Testing
import Trellis

@Suite struct SelectionModelTests {
  @Test func singleSelectionReportsTheOldAndTheNewItem() {
    // A chip bar: selecting another chip redraws exactly two chips.
    var chips = SelectionModel<String>.single(selected: "All")
    let change = chips.select("v1.0")
    #expect(change == SelectionChange(deselected: ["All"], selected: ["v1.0"]))
    #expect(change.changed == ["All", "v1.0"])
    #expect(chips.selectedIdentifiers == ["v1.0"])
    #expect(chips.isSelected("All") == false)
  }

  @Test func selectingTheSelectedItemAgainChangesNothing() {
    var chips = SelectionModel<String>.single(selected: "All")
    #expect(chips.select("All").isEmpty)
    #expect(chips.selectedIdentifiers == ["All"])
  }

  @Test func singleSelectionFromNothingReportsOnlyTheNewItem() {
    var model = SelectionModel<Int>.single()
    #expect(model.select(3) == SelectionChange(selected: [3]))
    #expect(model.deselect(4).isEmpty)
    #expect(model.deselect(3) == SelectionChange(deselected: [3]))
    #expect(model.selectedIdentifiers == [])
  }

  @Test func multipleSelectionKeepsSelectionOrder() {
    var model = SelectionModel<Int>.multiple(selected: [2])
    #expect(model.select(5) == SelectionChange(selected: [5]))
    #expect(model.select(2).isEmpty)
    #expect(model.toggle(1) == SelectionChange(selected: [1]))
    #expect(model.selectedIdentifiers == [2, 5, 1])
    #expect(model.toggle(5) == SelectionChange(deselected: [5]))
    #expect(model.deselectAll() == SelectionChange(deselected: [2, 1]))
    #expect(model.selectedIdentifiers == [])
  }

  @Test func noSelectionModeSelectsNothing() {
    var model = SelectionModel<Int>.none
    #expect(model.select(1).isEmpty)
    #expect(model.mode == .none)
    #expect(model.selectedIdentifiers == [])
  }

  @Test func selectionFollowsIdentityAcrossSnapshots() {
    var model = SelectionModel<Int>.multiple(selected: [1, 2, 3])
    // 1 moved to another section, 2 deleted, 3 unchanged.
    let next = Snapshot(sections: [("a", [3]), ("b", [4, 1])])
    #expect(model.reconcile(with: next) == SelectionChange(deselected: [2]))
    #expect(model.selectedIdentifiers == [1, 3])
    #expect(model.reconcile(with: next).isEmpty)
  }

  @Test func singleSelectionOfADeletedItemIsCleared() {
    var model = SelectionModel<Int>.single(selected: 9)
    #expect(
      model.reconcile(with: Snapshot(sections: [("a", [1])])) == SelectionChange(deselected: [9]))
    #expect(model == .single())
  }
}
