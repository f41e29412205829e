import Testing
import Trellis
import TrellisTerminal
import TrellisTestSupport

/// Display callbacks, the working range, row actions and keyboard reordering.
@MainActor
@Suite struct CollectionLifecycleTests {
  /// What the callbacks said, in order.
  enum Event: Hashable, CustomStringConvertible {
    case willDisplay(Int)
    case endDisplaying(Int)
    case enter(Int)
    case exit(Int)

    var description: String {
      switch self {
      case .willDisplay(let id): "+\(id)"
      case .endDisplaying(let id): "-\(id)"
      case .enter(let id): "enter \(id)"
      case .exit(let id): "exit \(id)"
      }
    }
  }

  /// A list of one-line rows in sections without headers, 30×`height`, recording every callback.
  @MainActor final class Recorder {
    var events: [Event] = []
    let view: CollectionView<Int, Int>

    init(sections: [[Int]], height: Int = 10, workingRange: Double = 5) {
      view = CollectionView<Int, Int>(
        layout: Layouts.list(width: 30), frame: CellRect(x: 0, y: 0, width: 30, height: height)
      ) { _, id in RowCell(text: "row \(id)") }
      view.dataSource.apply(
        Snapshot(sections: sections.enumerated().map { ($0.offset, $0.element) }))
      view.workingRange = .distance(workingRange)
      view.onWillDisplay = { [unowned self] id, _ in events.append(.willDisplay(id)) }
      view.onDidEndDisplaying = { [unowned self] id, _ in events.append(.endDisplaying(id)) }
      view.onEnterWorkingRange = { [unowned self] ids in events += ids.map(Event.enter) }
      view.onExitWorkingRange = { [unowned self] ids in events += ids.map(Event.exit) }
    }

    /// Renders a frame and returns the events it caused.
    func frame() -> [Event] {
      events = []
      var screen = CellBuffer(width: 30, height: view.frame.height)
      view.render(into: &screen)
      return events
    }
  }

  // MARK: Display callbacks

  @Test func theFirstFrameDisplaysTheVisibleRowsAndAScrollSwapsOneInAndOneOut() {
    let recorder = Recorder(sections: [Array(0..<100)], workingRange: 0)
    let first = recorder.frame()
    #expect(
      first.filter { if case .willDisplay = $0 { true } else { false } }
        == (0..<10).map(Event.willDisplay))
    recorder.view.scroll(by: 1)
    #expect(recorder.frame() == [.endDisplaying(0), .willDisplay(10), .exit(0), .enter(10)])
    // A frame with nothing changed says nothing.
    #expect(recorder.frame() == [])
  }

  @Test func aReloadedOrMovedRowThatStaysOnScreenIsNotDisplayedAgain() {
    let recorder = Recorder(sections: [Array(0..<20)], workingRange: 0)
    _ = recorder.frame()
    var snapshot = recorder.view.dataSource.snapshot()
    snapshot.reloadItems([3])
    snapshot.moveItem(5, afterItem: 8)
    recorder.view.dataSource.apply(snapshot)
    #expect(recorder.frame() == [])
  }

  @Test func thePlaceholderEndsEveryDisplayAndItsRemovalStartsThemAgain() {
    let recorder = Recorder(sections: [Array(0..<4)], workingRange: 0)
    _ = recorder.frame()
    recorder.view.placeholder = .empty("Nothing")
    #expect(recorder.frame() == (0..<4).map(Event.endDisplaying) + (0..<4).map(Event.exit))
    recorder.view.placeholder = nil
    #expect(recorder.frame() == (0..<4).map(Event.willDisplay) + (0..<4).map(Event.enter))
  }

  // MARK: Working range

  /// IGListKit's working range announced items again after the list shrank (its #1581): here an
  /// item already in the range hears nothing, a deleted one leaves once, and the rows that slide
  /// into the range enter once.
  @Test func aShrinkingListAnnouncesOnlyWhatEnteredAndLeftTheWorkingRange() {
    let recorder = Recorder(sections: [Array(0..<30)], height: 10, workingRange: 5)
    let first = recorder.frame()
    #expect(
      first.filter { if case .enter = $0 { true } else { false } } == (0..<15).map(Event.enter))
    // Rows far below the range go: nothing in the range changed.
    recorder.view.dataSource.apply(Snapshot(sections: [(0, Array(0..<20))]))
    #expect(recorder.frame() == [])
    // Three rows at the top go: they stop showing and leave; three more rows show and enter.
    recorder.view.dataSource.apply(Snapshot(sections: [(0, Array(3..<20))]))
    #expect(
      recorder.frame() == [
        .endDisplaying(0), .endDisplaying(1), .endDisplaying(2), .willDisplay(10),
        .willDisplay(11), .willDisplay(12), .exit(0), .exit(1), .exit(2), .enter(15), .enter(16),
        .enter(17),
      ])
    // Shrinking to what the range already holds announces nothing but the exits.
    recorder.view.dataSource.apply(Snapshot(sections: [(0, Array(3..<8))]))
    #expect(recorder.frame() == (8..<13).map(Event.endDisplaying) + (8..<18).map(Event.exit))
  }

  /// Random scrolls, inserts, deletes, reloads, resizes and placeholders, against a model that
  /// knows where every row is (row *i* of the data at line *i*): after each frame the callbacks
  /// have announced exactly the rows on screen and in the range, and each row's announcements
  /// alternate, entry first.
  @Test(arguments: 0..<12 as Range<UInt64>)
  func callbacksFollowAReferenceModelOverRandomChanges(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let recorder = Recorder(sections: [Array(0..<40), Array(40..<60)], height: 8, workingRange: 3)
    var next = 1000
    var displayed = Set<Int>()
    var inRange = Set<Int>()
    for step in 0..<150 {
      let view = recorder.view
      var snapshot = view.dataSource.snapshot()
      let items = snapshot.itemIdentifiers
      switch Int.random(in: 0..<9, using: &rng) {
      case 0, 1: view.scroll(by: Double(Int.random(in: -12...12, using: &rng)))
      case 2:
        let doomed = items.filter { _ in Int.random(in: 0..<6, using: &rng) == 0 }
        snapshot.deleteItems(doomed)
        view.dataSource.apply(snapshot)
      case 3:
        let count = Int.random(in: 1...6, using: &rng)
        let section = snapshot.sectionIdentifiers.randomElement(using: &rng) ?? 0
        let fresh = Array(next..<(next + count))
        next += count
        if let anchor = snapshot.itemIdentifiers(inSection: section).randomElement(using: &rng) {
          snapshot.insertItems(fresh, beforeItem: anchor)
        } else {
          snapshot.appendItems(fresh, toSection: section)
        }
        view.dataSource.apply(snapshot)
      case 4 where !items.isEmpty:
        snapshot.reloadItems(items.filter { _ in Bool.random(using: &rng) })
        view.dataSource.apply(snapshot)
      case 5 where items.count > 1:
        let item = items.randomElement(using: &rng)!
        let other = items.filter { $0 != item }.randomElement(using: &rng)!
        snapshot.moveItem(item, beforeItem: other)
        view.dataSource.apply(snapshot)
      case 6:
        view.frame = CellRect(x: 0, y: 0, width: 30, height: Int.random(in: 1...14, using: &rng))
      case 7:
        view.placeholder =
          view.placeholder == nil && Int.random(in: 0..<3, using: &rng) == 0
          ? .empty("Nothing") : nil
      default: view.setContentOffset(Point(x: 0, y: Double(Int.random(in: 0...70, using: &rng))))
      }
      let events = recorder.frame()
      for event in events {
        switch event {
        case .willDisplay(let id):
          #expect(displayed.insert(id).inserted, "seed \(seed) step \(step): \(id) displayed twice")
        case .endDisplaying(let id):
          #expect(displayed.remove(id) != nil, "seed \(seed) step \(step): \(id) ended unseen")
        case .enter(let id):
          #expect(inRange.insert(id).inserted, "seed \(seed) step \(step): \(id) entered twice")
        case .exit(let id):
          #expect(inRange.remove(id) != nil, "seed \(seed) step \(step): \(id) left unseen")
        }
      }
      // The model: the data's rows one per line, the view's lines from its offset.
      let rows = view.dataSource.snapshot().itemIdentifiers
      let top = Int(view.contentOffset.y)
      let height = view.frame.height
      let onScreen =
        view.placeholder != nil
        ? [] : Set(rows.indices.filter { $0 >= top && $0 < top + height }.map { rows[$0] })
      let nearby =
        view.placeholder != nil
        ? [] : Set(rows.indices.filter { $0 >= top - 3 && $0 < top + height + 3 }.map { rows[$0] })
      #expect(displayed == onScreen, "seed \(seed) step \(step): displayed")
      #expect(inRange == nearby, "seed \(seed) step \(step): working range")
      #expect(view.displayedItemIdentifiers == onScreen)
      #expect(view.workingRangeItemIdentifiers == nearby)
    }
  }

  /// An infinite distance, like ``WorkingRange/all``, puts every item in range, off screen too,
  /// once; scrolling announces nothing more, and a change of the data announces only what came
  /// and went.
  @Test(arguments: [WorkingRange.all, .distance(.infinity)])
  func anUnboundedWorkingRangeHoldsEveryItem(range: WorkingRange) {
    let recorder = Recorder(sections: [Array(0..<40), Array(40..<60)], height: 5)
    recorder.view.workingRange = range
    let first = recorder.frame()
    #expect(
      first.filter { if case .enter = $0 { true } else { false } } == (0..<60).map(Event.enter))
    #expect(recorder.view.workingRangeItemIdentifiers == Set(0..<60))
    _ = recorder.view.handle(.key(KeyEvent(.pageDown)))
    #expect(
      recorder.frame().allSatisfy {
        if case .enter = $0 { false } else if case .exit = $0 { false } else { true }
      },
      "a scroll changed an unbounded working range")
    recorder.view.dataSource.apply(
      Snapshot(sections: [(0, Array(1..<40) + [99]), (1, Array(40..<60))]))
    let changed = recorder.frame().filter {
      if case .willDisplay = $0 { false } else if case .endDisplaying = $0 { false } else { true }
    }
    #expect(changed == [.exit(0), .enter(99)])
    recorder.view.placeholder = .loading("Loading")
    #expect(recorder.frame().filter { if case .exit = $0 { true } else { false } }.count == 60)
    #expect(recorder.view.workingRangeItemIdentifiers.isEmpty)
  }

  @Test func aDistanceOfZeroOrLessIsTheVisibleRows() {
    #expect(WorkingRange.distance(0).normalized == .visible)
    #expect(WorkingRange.distance(-3).normalized == .visible)
    #expect(WorkingRange.distance(.nan).normalized == .visible)
    #expect(WorkingRange.distance(.infinity).normalized == .all)
    #expect((12 as WorkingRange) == .distance(12))
    let recorder = Recorder(sections: [Array(0..<30)], height: 5)
    recorder.view.workingRange = .distance(-4)
    _ = recorder.frame()
    #expect(recorder.view.workingRangeItemIdentifiers == Set(0..<5))
  }

  @Test func withoutCallbacksNothingIsTracked() {
    let view = CollectionView<Int, Int>(
      layout: Layouts.list(width: 30), frame: CellRect(x: 0, y: 0, width: 30, height: 5)
    ) { _, id in RowCell(text: "row \(id)") }
    view.dataSource.apply(Snapshot(sections: [(0, Array(0..<10))]))
    var screen = CellBuffer(width: 30, height: 5)
    view.render(into: &screen)
    #expect(view.displayedItemIdentifiers.isEmpty)
    #expect(view.workingRangeItemIdentifiers.isEmpty)
    #expect(view.statistics.layoutQueries == 1)
  }

  // MARK: Row actions

  func listWithActions(_ log: Box) -> CollectionView<Int, Int> {
    let view = CollectionView<Int, Int>(
      layout: Layouts.list(width: 40), frame: CellRect(x: 0, y: 0, width: 40, height: 5)
    ) { _, id in RowCell(text: "row \(id)") }
    view.dataSource.apply(Snapshot(sections: [(0, Array(0..<10))]))
    view.rowActionsProvider = { id in
      [
        RowAction(title: "Archive") { log.lines.append("archive \(id)") },
        RowAction(title: "Delete", style: .destructive) { log.lines.append("delete \(id)") },
      ]
    }
    return view
  }

  @MainActor final class Box {
    var lines: [String] = []
  }

  @Test func theActionsKeyShowsButtonsOnTheFocusedRowAndEnterRunsTheChosenOne() {
    let log = Box()
    let view = listWithActions(log)
    var harness = TerminalHarness(width: 40, height: 5)
    view.focus(2)
    harness.frame(view)
    #expect(view.handle(.key(KeyEvent(.character(".")))))
    harness.frame(view)
    #expect(view.rowActionsItem == 2)
    #expect(harness.lines[2].hasSuffix(" 1 Archive   2 Delete "))
    #expect(harness.lines[2].hasPrefix("row 2"))
    #expect(harness.terminal.screen[39, 2].style.background == .red)
    // Every key is the actions' while they are open: j does not move the focus.
    view.handle(.key(KeyEvent(.character("j"))))
    #expect(view.focusedItem == 2)
    view.handle(.key(KeyEvent(.right)))
    #expect(view.rowActionsTitles?.selected == 1)
    view.handle(.key(KeyEvent(.enter)))
    #expect(log.lines == ["delete 2"])
    #expect(view.rowActionsItem == nil)
    harness.frame(view)
    #expect(harness.lines[2].trimmingSuffix() == "row 2")
  }

  @Test func aDigitRunsItsActionEscapeClosesAndAClickOnAButtonRunsIt() {
    let log = Box()
    let view = listWithActions(log)
    var harness = TerminalHarness(width: 40, height: 5)
    view.focus(1)
    harness.frame(view)
    view.handle(.key(KeyEvent(.character("."))))
    view.handle(.key(KeyEvent(.character("1"))))
    #expect(log.lines == ["archive 1"])
    view.handle(.key(KeyEvent(.character("."))))
    view.handle(.key(KeyEvent(.escape)))
    #expect(view.rowActionsItem == nil)
    #expect(log.lines == ["archive 1"])
    view.handle(.key(KeyEvent(.character("."))))
    harness.frame(view)
    let column = harness.lines[1].firstRange(of: "Delete").map {
      harness.lines[1].distance(from: harness.lines[1].startIndex, to: $0.lowerBound)
    }
    view.handle(.mouse(MouseEvent(.press(.left), x: column ?? 0, y: 1)))
    #expect(log.lines == ["archive 1", "delete 1"])
  }

  @Test func actionsCloseWhenTheirRowIsDeletedAndOpenOnlyWithAProvider() {
    let log = Box()
    let view = listWithActions(log)
    view.focus(4)
    #expect(view.showRowActions())
    view.dataSource.apply(Snapshot(sections: [(0, [0, 1, 2])]))
    #expect(view.rowActionsItem == nil)
    view.rowActionsProvider = nil
    #expect(!view.handle(.key(KeyEvent(.character(".")))))
  }

  // MARK: Keyboard reordering

  /// A list whose rows move, recording the transactions the handlers receive.
  func reorderable(_ sections: [[Int]], transactions: Transactions) -> CollectionView<Int, Int> {
    let view = CollectionView<Int, Int>(
      layout: Layouts.list(width: 30), frame: CellRect(x: 0, y: 0, width: 30, height: 6)
    ) { _, id in RowCell(text: "row \(id)") }
    view.dataSource.apply(Snapshot(sections: sections.enumerated().map { ($0.offset, $0.element) }))
    view.dataSource.reorderingHandlers.canReorderItem = { $0 != 99 }
    view.dataSource.reorderingHandlers.willReorder = { transactions.will.append($0) }
    view.dataSource.reorderingHandlers.didReorder = { transactions.did.append($0) }
    return view
  }

  @MainActor final class Transactions {
    var will: [ReorderingTransaction<Int, Int>] = []
    var did: [ReorderingTransaction<Int, Int>] = []
  }

  @Test func altDownMovesTheFocusedRowThroughTheReorderingHandlers() {
    let transactions = Transactions()
    let view = reorderable([[0, 1, 2], [3, 4]], transactions: transactions)
    var harness = TerminalHarness(width: 30, height: 6)
    view.focus(1)
    harness.frame(view)
    #expect(view.handle(.key(KeyEvent(.down, modifiers: .alt))))
    harness.frame(view)
    #expect(harness.lines.prefix(3).map { $0.trimmingSuffix() } == ["row 0", "row 2", "row 1"])
    #expect(view.focusedItem == 1)
    #expect(transactions.did.count == 1)
    let transaction = transactions.did[0]
    #expect(transaction.initialSnapshot.itemIdentifiers(inSection: 0) == [0, 1, 2])
    #expect(transaction.finalSnapshot.itemIdentifiers(inSection: 0) == [0, 2, 1])
    #expect(
      Array(transaction.difference) == [
        .remove(offset: 1, element: 1, associatedWith: 2),
        .insert(offset: 2, element: 1, associatedWith: 1),
      ])
    // At the section's end, the row crosses into the next section's first place.
    view.handle(.key(KeyEvent(.down, modifiers: .alt)))
    #expect(view.dataSource.snapshot().itemIdentifiers(inSection: 1) == [1, 3, 4])
    #expect(transactions.did.last?.sectionTransactions.map(\.sectionIdentifier) == [0, 1])
    harness.frame(view)
    #expect(
      harness.lines.prefix(5).map { $0.trimmingSuffix() } == [
        "row 0", "row 2", "row 1", "row 3", "row 4",
      ])
  }

  @Test func aRowTheHandlersRefuseDoesNotMoveAndTheKeyIsStillTaken() {
    let transactions = Transactions()
    let view = reorderable([[0, 99, 2]], transactions: transactions)
    view.focus(99)
    #expect(view.handle(.key(KeyEvent(.up, modifiers: .alt))))
    #expect(view.dataSource.snapshot().itemIdentifiers == [0, 99, 2])
    #expect(transactions.did.isEmpty)
    // Without handlers, Alt-arrows are the app's.
    view.dataSource.reorderingHandlers.canReorderItem = nil
    #expect(!view.handle(.key(KeyEvent(.up, modifiers: .alt))))
  }

  /// Random Alt-arrow presses on random rows, replayed on a model of the sections: the data
  /// source ends where the model does, each transaction goes from the data before to the data
  /// after, and the view draws the data.
  @Test(arguments: 0..<10 as Range<UInt64>)
  func keyboardReorderingReplaysThroughTheDataSource(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var model: [[Int]] = [Array(0..<5), [], Array(5..<12), Array(12..<14)]
    let transactions = Transactions()
    let view = reorderable(model, transactions: transactions)
    view.dataSource.reorderingHandlers.canReorderItem = { _ in true }
    view.frame = CellRect(x: 0, y: 0, width: 30, height: 20)
    var harness = TerminalHarness(width: 30, height: 20)
    for step in 0..<200 {
      let id = Int.random(in: 0..<14, using: &rng)
      view.focus(id)
      let forward = Bool.random(using: &rng)
      let before = view.dataSource.snapshot()
      let section = model.firstIndex { $0.contains(id) }!
      let index = model[section].firstIndex(of: id)!
      var moved = true
      if forward {
        if index + 1 < model[section].count {
          model[section].swapAt(index, index + 1)
        } else if section + 1 < model.count {
          model[section].remove(at: index)
          model[section + 1].insert(id, at: 0)
        } else {
          moved = false
        }
      } else {
        if index > 0 {
          model[section].swapAt(index, index - 1)
        } else if section > 0 {
          model[section].remove(at: index)
          model[section - 1].append(id)
        } else {
          moved = false
        }
      }
      let count = transactions.did.count
      view.handle(.key(KeyEvent(forward ? .down : .up, modifiers: .alt)))
      let after = view.dataSource.snapshot()
      #expect(
        (0..<4).map { after.itemIdentifiers(inSection: $0) } == model,
        "seed \(seed) step \(step)")
      #expect(transactions.did.count == count + (moved ? 1 : 0))
      if moved, let transaction = transactions.did.last {
        #expect(transaction.initialSnapshot.itemIdentifiers == before.itemIdentifiers)
        #expect(transaction.finalSnapshot.itemIdentifiers == after.itemIdentifiers)
        #expect(before.itemIdentifiers.applying(transaction.difference) == after.itemIdentifiers)
      }
      #expect(view.focusedItem == id)
      harness.frame(view)
      #expect(
        harness.lines.prefix(14).map { $0.trimmingSuffix() } == model.joined().map { "row \($0)" },
        "seed \(seed) step \(step)")
    }
  }
}
