import Testing
import Trellis
import TrellisTerminal
import TrellisTestSupport

@MainActor
@Suite struct CollectionViewTests {
  // MARK: Fixtures

  /// A list of `count` numbered rows in one section, 40×10.
  func list(count: Int, width: Int = 40, height: Int = 10) -> CollectionView<Int, Int> {
    let view = CollectionView<Int, Int>(
      layout: Layouts.list(width: Double(width)),
      frame: CellRect(x: 0, y: 0, width: width, height: height)
    ) { _, id in RowCell(text: "row \(id)") }
    view.dataSource.apply(Snapshot(sections: [(0, Array(0..<count))]))
    return view
  }

  /// A chip bar of titles at the top of a `width`-column screen.
  func chipBar(_ titles: [String], width: Int = 40) -> CollectionView<Int, String> {
    let view = CollectionView<Int, String>(
      layout: Layouts.chipBar(), frame: CellRect(x: 0, y: 0, width: width, height: 1)
    ) { _, title in ChipCell(title: title) }
    view.measure = { [titles] indexPath, proposed in
      Size(width: ChipCell.width(of: titles[indexPath.item]), height: proposed.height)
    }
    view.dataSource.apply(Snapshot(sections: [(0, titles)]))
    return view
  }

  // MARK: Drawing

  @Test func aListDrawsOnlyTheVisibleRows() {
    let view = list(count: 10_000)
    var harness = TerminalHarness(width: 40, height: 10)
    harness.frame(view)
    #expect(harness.lines.map { $0.trimmingSuffix() } == (0..<10).map { "row \($0)" })
    #expect(view.statistics.drawn == 10)
  }

  @Test func scrollingOneLineInATenThousandItemListWritesAboutAScreen() {
    let view = list(count: 10_000)
    var harness = TerminalHarness(width: 40, height: 10)
    view.focus(0)
    harness.frame(view)
    for _ in 0..<9 { view.moveFocus(.down) }
    harness.frame(view)
    #expect(view.contentOffset.y == 0)
    view.moveFocus(.down)
    let frame = harness.frame(view)
    #expect(view.contentOffset.y == 1)
    #expect(harness.lines.first?.trimmingSuffix() == "row 1")
    #expect(harness.lines.last?.trimmingSuffix() == "row 10")
    // The row leaving the focus and the new focused row drawn; the other eight copied, one line up.
    #expect(view.statistics.drawn == 2)
    #expect(view.statistics.reused == 8)
    // At most every cell of the screen once, with a few bytes of cursor moves per row.
    #expect(frame.bytes.count <= 40 * 10 + 10 * 12 + 40)
  }

  @Test func theFocusedRowIsDrawnFocused() {
    let view = list(count: 5)
    var harness = TerminalHarness(width: 40, height: 10)
    view.focus(2)
    harness.frame(view)
    #expect(harness.terminal.screen[0, 2].style.attributes.contains(.reverse))
    #expect(!harness.terminal.screen[0, 1].style.attributes.contains(.reverse))
  }

  @Test func movingTheFocusRedrawsOnlyTheTwoRowsWhoseStateChanged() {
    let view = list(count: 100)
    var harness = TerminalHarness(width: 40, height: 10)
    view.focus(3)
    harness.frame(view)
    view.moveFocus(.down)
    let frame = harness.frame(view)
    #expect(view.statistics.drawn == 2)
    #expect(Set(frame.changedCells.map(\.y)) == [3, 4])
  }

  @Test func aBatchUpdateThatReconfiguresOneVisibleItemChangesOnlyItsCells() {
    var names = (0..<20).map { "row \($0)" }
    let view = CollectionView<Int, Int>(
      layout: Layouts.list(width: 40), frame: CellRect(x: 0, y: 0, width: 40, height: 10)
    ) { _, id in RowCell(text: names[id]) }
    var snapshot = Snapshot(sections: [(0, Array(0..<20))])
    view.dataSource.apply(snapshot)
    var harness = TerminalHarness(width: 40, height: 10)
    harness.frame(view)
    names[4] = "row four, renamed"
    snapshot.reconfigureItems([4])
    view.dataSource.apply(snapshot)
    let frame = harness.frame(view)
    #expect(view.statistics.drawn == 1)
    #expect(!frame.changedCells.isEmpty)
    #expect(frame.changedCells.allSatisfy { $0.y == 4 })
    #expect(harness.lines[4].trimmingSuffix() == "row four, renamed")
  }

  @Test func anInsertRedrawsTheNewRowAndCopiesTheRowsItPushedDown() {
    let view = list(count: 20)
    var harness = TerminalHarness(width: 40, height: 10)
    harness.frame(view)
    view.dataSource.apply(Snapshot(sections: [(0, [100] + Array(0..<20))]))
    harness.frame(view)
    #expect(view.statistics.drawn == 1)
    #expect(view.statistics.reused == 9)
    #expect(harness.lines.prefix(3).map { $0.trimmingSuffix() } == ["row 100", "row 0", "row 1"])
  }

  @Test func deletingTheFocusedItemFocusesTheOneThatTookItsPlace() {
    let view = list(count: 10)
    view.focus(4)
    view.dataSource.apply(Snapshot(sections: [(0, [0, 1, 2, 3, 5, 6])]))
    #expect(view.focusedItem == 5)
    view.dataSource.apply(Snapshot(sections: [(0, [0, 1])]))
    #expect(view.focusedItem == 1)
  }

  // MARK: Chips

  @Test func selectingAnotherChipRewritesOnlyTheOldAndTheNewChip() {
    let titles = ["All", "No milestone", "v1.0", "v2.0"]
    let bar = chipBar(titles)
    bar.activate("All")
    var harness = TerminalHarness(width: 40, height: 1)
    harness.frame(bar)
    #expect(harness.lines[0].trimmingSuffix() == "[All] [No milestone] [v1.0] [v2.0]")
    bar.activate("v1.0")
    let frame = harness.frame(bar)
    #expect(bar.statistics.drawn == 2)
    // "[All]" is columns 0–4, "[v1.0]" 21–26: nothing else changed.
    let columns = Set(frame.changedCells.map(\.x))
    #expect(columns.isSubset(of: Set(0..<5).union(21..<27)))
    #expect(columns.contains(0) && columns.contains(21))
    // Two style changes and the two chips' characters, with moves: far less than a line.
    #expect(frame.bytes.count < 80)
    #expect(harness.terminal.screen[21, 0].style.background == .cyan)
    #expect(harness.terminal.screen[0, 0].style.background == .default)
  }

  @Test func hangulAndEmojiChipsAlignToTheirDisplayWidth() {
    let titles = ["전체", "마일스톤 🚀", "v1", "😃"]
    let bar = chipBar(titles)
    var harness = TerminalHarness(width: 40, height: 1)
    harness.frame(bar)
    // Widths: [전체] 6, [마일스톤 🚀] 13, [v1] 4, [😃] 4, one column between each.
    #expect(harness.lines[0].trimmingSuffix() == "[전체] [마일스톤 🚀] [v1] [😃]")
    #expect(harness.terminal.screen[7, 0].grapheme == "[")
    #expect(harness.terminal.screen[21, 0].grapheme == "[")
    #expect(harness.terminal.screen[26, 0].grapheme == "[")
  }

  @Test func theChipBarScrollsSidewaysToKeepTheFocusedChipInView() {
    let titles = (1...12).map { "milestone \($0)" }
    let bar = chipBar(titles, width: 30)
    var harness = TerminalHarness(width: 30, height: 1)
    bar.focus(titles[0])
    harness.frame(bar)
    for _ in 0..<5 { bar.moveFocus(.right) }
    harness.frame(bar)
    #expect(bar.focusedItem == "milestone 6")
    #expect(bar.layout.orthogonalOffset(forSection: 0) > 0)
    // The focused chip ends at the right edge, whole.
    #expect(harness.lines[0].trimmingSuffix().hasSuffix("[milestone 6]"))
    bar.moveFocus(.first)
    harness.frame(bar)
    #expect(harness.lines[0].hasPrefix("[milestone 1]"))
  }

  @Test func clickingAChipSelectsIt() {
    let bar = chipBar(["All", "v1", "v2"])
    var selected: [String] = []
    bar.onSelect = { selected.append($0) }
    var harness = TerminalHarness(width: 40, height: 1)
    harness.frame(bar)
    bar.handle(.mouse(MouseEvent(.press(.left), x: 7, y: 0)))
    harness.frame(bar)
    bar.handle(.mouse(MouseEvent(.release(.left), x: 7, y: 0)))
    harness.frame(bar)
    #expect(selected == ["v1"])
    #expect(bar.selection.selectedIdentifiers == ["v1"])
    #expect(bar.focusedItem == "v1")
  }

  // MARK: Scrolling, headers, resizing, states

  @Test func keysScrollAndMoveTheFocus() {
    let view = list(count: 1000)
    var harness = TerminalHarness(width: 40, height: 10)
    view.focus(0)
    harness.frame(view)
    view.handle(.key(KeyEvent(.pageDown)))
    #expect(view.contentOffset.y == 9)
    #expect(view.focusedItem == 9)
    view.handle(.key(KeyEvent(.character("G"))))
    #expect(view.focusedItem == 999)
    #expect(view.contentOffset.y == 990)
    view.handle(.key(KeyEvent(.character("k"))))
    #expect(view.focusedItem == 998)
    view.handle(.key(KeyEvent(.home)))
    #expect(view.focusedItem == 0)
    #expect(view.contentOffset.y == 0)
    view.navigationKeys = .standard
    #expect(!view.handle(.key(KeyEvent(.character("j")))))
  }

  @Test func theMouseWheelScrollsAndTheFocusFollows() {
    let view = list(count: 100)
    view.focus(0)
    view.handle(.mouse(MouseEvent(.scrollDown, x: 1, y: 1)))
    view.handle(.mouse(MouseEvent(.scrollDown, x: 1, y: 1)))
    #expect(view.contentOffset.y == 6)
    #expect(view.focusedItem == 6)
  }

  @Test func pinnedHeadersStayOnTopAndNeverHideTheFocus() {
    let view = CollectionView<String, Int>(
      layout: Layouts.list(width: 40, headers: true),
      frame: CellRect(x: 0, y: 0, width: 40, height: 6)
    ) { _, id in RowCell(text: "row \(id)") }
    view.dataSource.supplementaryProvider = { _, _, section in HeaderCell(title: section) }
    view.dataSource.apply(
      Snapshot(sections: [("open", Array(0..<20)), ("closed", Array(20..<40))]))
    var harness = TerminalHarness(width: 40, height: 6)
    view.focus(0)
    for _ in 0..<8 { view.moveFocus(.down) }
    harness.frame(view)
    #expect(harness.lines[0].trimmingSuffix() == "# open")
    #expect(harness.lines[5].trimmingSuffix() == "row 8")
    // Back up: row 4 must show below the pinned header, not under it.
    for _ in 0..<4 { view.moveFocus(.up) }
    harness.frame(view)
    #expect(harness.lines[0].trimmingSuffix() == "# open")
    #expect(harness.lines[1].trimmingSuffix() == "row 4")
    view.focus(25)
    harness.frame(view)
    #expect(harness.lines[0].trimmingSuffix() == "# closed")
    #expect(harness.lines.contains { $0.trimmingSuffix() == "row 25" })
  }

  @Test func resizingKeepsTheFocusedItemInView() {
    let view = list(count: 1000)
    var harness = TerminalHarness(width: 40, height: 20)
    view.frame = CellRect(x: 0, y: 0, width: 40, height: 20)
    view.focus(500)
    harness.frame(view)
    #expect(harness.lines.contains { $0.trimmingSuffix() == "row 500" })
    harness.resize(width: 30, height: 5)
    view.frame = CellRect(x: 0, y: 0, width: 30, height: 5)
    view.layout = Layouts.list(width: 30)
    harness.frame(view)
    #expect(harness.lines.contains { $0.trimmingSuffix() == "row 500" })
    #expect(harness.lines.count == 5 && harness.lines[0].count == 30)
  }

  @Test func loadEmptyAndErrorStatesAreDrawnInPlaceOfTheContent() {
    let view = list(count: 3)
    var harness = TerminalHarness(width: 40, height: 10)
    var state = LoadState<[Int], TestFailure>.idle
    state.startLoading()
    view.placeholder = CollectionPlaceholder(
      state.presentation, empty: "No issues", failure: { $0.message })
    harness.frame(view)
    #expect(harness.lines.contains { $0.contains("Loading…") })
    state.finish(with: [])
    view.placeholder = CollectionPlaceholder(
      state.presentation, empty: "No issues", failure: { $0.message })
    harness.frame(view)
    #expect(harness.lines.contains { $0.contains("No issues") })
    state.fail(with: TestFailure(message: "The network is down"))
    view.placeholder = CollectionPlaceholder(
      state.presentation, empty: "No issues", failure: { $0.message })
    harness.frame(view)
    #expect(harness.lines.contains { $0.contains("The network is down") })
    state.finish(with: [1])
    view.placeholder = CollectionPlaceholder(
      state.presentation, empty: "No issues", failure: { $0.message })
    #expect(view.placeholder == nil)
    harness.frame(view)
    #expect(harness.lines[0].trimmingSuffix() == "row 0")
  }

  @Test func arrowsMoveSpatiallyInAGrid() {
    // Three columns of 10×2 cells, one apart: item i is at column i % 3, row i / 3.
    var layout = FlowLayout()
    layout.itemSize = .fixed(Size(width: 10, height: 2))
    layout.minimumInteritemSpacing = 1
    layout.minimumLineSpacing = 1
    let view = CollectionView<Int, Int>(
      layout: layout, frame: CellRect(x: 0, y: 0, width: 32, height: 10)
    ) { _, id in RowCell(text: "\(id)") }
    view.dataSource.apply(Snapshot(sections: [(0, Array(0..<12))]))
    view.focus(4)
    view.moveFocus(.right)
    #expect(view.focusedItem == 5)
    view.moveFocus(.down)
    #expect(view.focusedItem == 8)
    view.moveFocus(.left)
    #expect(view.focusedItem == 7)
    view.moveFocus(.up)
    #expect(view.focusedItem == 4)
    view.moveFocus(.left)
    view.moveFocus(.left)
    // Nothing further left: the focus stays.
    #expect(view.focusedItem == 3)
  }

  @Test func appendingPagesToAWaterfallRelaysOutOnlyTheNewItems() {
    var heights = (0..<10).map { 3 + $0 % 4 }
    var layout = WaterfallLayout()
    layout.columnCount = { _ in 2 }
    layout.columnSpacing = 1
    layout.itemSpacing = 1
    layout.itemHeight = .height { indexPath, _ in Double(heights[indexPath.item]) }
    let view = CollectionView<Int, Int>(
      layout: layout, frame: CellRect(x: 0, y: 0, width: 40, height: 12)
    ) { _, id in RowCell(text: "card \(id)") }
    view.dataSource.apply(Snapshot(sections: [(0, Array(0..<10))]))
    var harness = TerminalHarness(width: 40, height: 12)
    harness.frame(view)
    heights += (10..<20).map { 3 + $0 % 4 }
    view.dataSource.apply(Snapshot(sections: [(0, Array(0..<20))]))
    harness.frame(view)
    #expect(view.statistics.drawn == 0)
    view.focus(19)
    harness.frame(view)
    #expect(harness.lines.contains { $0.contains("card 19") })
  }
}

/// Batch updates that move, insert and delete items across the sections of a list lay out only
/// the run of sections they touch; what the view then draws is what a new view draws.
@MainActor
@Suite struct SectionRunUpdateTests {
  func makeView() -> CollectionView<Int, Int> {
    var section = LayoutSection.rows(height: 1)
    section.boundarySupplementaryItems = [.header(height: 1, pinned: true)]
    let view = CollectionView<Int, Int>(
      layout: CompositionalLayout(section: section),
      frame: CellRect(x: 0, y: 0, width: 30, height: 12)
    ) { _, id in RowCell(text: "row \(id)") }
    view.dataSource.supplementaryProvider = { _, _, section in
      HeaderCell(title: "section \(section)")
    }
    return view
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func updatesAcrossSectionsDrawWhatANewViewDraws(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var sections = (0..<5).map { section in
      Array((section * 100)..<(section * 100 + Int.random(in: 0...15, using: &rng)))
    }
    func snapshot() -> Snapshot<Int, Int> {
      Snapshot(sections: sections.enumerated().map { ($0.offset, $0.element) })
    }
    let view = makeView()
    view.dataSource.apply(snapshot())
    var harness = TerminalHarness(width: 30, height: 12)
    harness.frame(view)
    var next = 10_000
    for step in 0..<60 {
      let from = Int.random(in: 0..<5, using: &rng)
      let to = Int.random(in: 0..<5, using: &rng)
      let change = Int.random(in: 0..<4, using: &rng)
      switch change {
      case 0...1 where !sections[from].isEmpty:
        let item = sections[from].remove(
          at: Int.random(in: sections[from].indices, using: &rng))
        sections[to].insert(item, at: Int.random(in: 0...sections[to].count, using: &rng))
      case 2:
        sections[to].insert(next, at: Int.random(in: 0...sections[to].count, using: &rng))
        next += 1
      default:
        if !sections[from].isEmpty {
          sections[from].remove(at: Int.random(in: sections[from].indices, using: &rng))
        }
      }
      view.dataSource.apply(snapshot())
      if step % 5 == 0, let item = sections.joined().randomElement(using: &rng) {
        view.focus(item)
      }
      harness.frame(view)
      let fresh = makeView()
      fresh.dataSource.apply(snapshot())
      fresh.setContentOffset(view.contentOffset)
      var freshHarness = TerminalHarness(width: 30, height: 12)
      freshHarness.frame(fresh)
      #expect(fresh.contentOffset == view.contentOffset, "seed \(seed), step \(step)")
      #expect(harness.lines == freshHarness.lines, "seed \(seed), step \(step), \(sections)")
    }
  }
}

/// Frames whose elements stay where they were (focus moves, reconfigured rows, a pinned header
/// over a row) are drawn in place; what the view then shows is, cell for cell and style for
/// style, what a new view shows.
@MainActor
@Suite struct InPlaceRedrawTests {
  /// The text each row shows, changed by the test between frames.
  final class Versions {
    var of: [Int: Int] = [:]
  }

  func makeView(_ versions: Versions) -> CollectionView<Int, Int> {
    var section = LayoutSection.rows(height: 1)
    section.boundarySupplementaryItems = [.header(height: 1, pinned: true)]
    let view = CollectionView<Int, Int>(
      layout: CompositionalLayout(section: section),
      frame: CellRect(x: 0, y: 0, width: 30, height: 12)
    ) { _, id in RowCell(text: "row \(id) v\(versions.of[id, default: 0])") }
    view.dataSource.supplementaryProvider = { _, _, section in
      HeaderCell(title: "section \(section)")
    }
    view.dataSource.apply(
      Snapshot(sections: (0..<4).map { ($0, Array(($0 * 100)..<($0 * 100 + 8))) }))
    return view
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func framesDrawnInPlaceMatchANewView(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let versions = Versions()
    let view = makeView(versions)
    var harness = TerminalHarness(width: 30, height: 12)
    harness.frame(view)
    let items = view.dataSource.snapshot().itemIdentifiers
    var drawnInPlace = 0
    for step in 0..<200 {
      switch Int.random(in: 0..<5, using: &rng) {
      case 0: view.moveFocus(.down)
      case 1: view.moveFocus(.up)
      case 2: view.focus(items.randomElement(using: &rng))
      case 3:
        let item = items.randomElement(using: &rng) ?? 0
        versions.of[item, default: 0] += 1
        view.setNeedsDisplay(item: item)
      default:
        view.setContentOffset(
          Point(
            x: 0,
            y: max(
              0, min(25, view.contentOffset.y + Double.random(in: -2...2, using: &rng).rounded()))))
      }
      let offset = view.contentOffset
      harness.frame(view)
      if view.statistics.reused > 0 && view.statistics.drawn < 12 { drawnInPlace += 1 }
      let fresh = makeView(versions)
      fresh.focus(view.focusedItem)
      fresh.setContentOffset(offset)
      var freshHarness = TerminalHarness(width: 30, height: 12)
      freshHarness.frame(fresh)
      #expect(fresh.contentOffset == view.contentOffset, "seed \(seed), step \(step)")
      #expect(
        harness.screen.changedCells(from: freshHarness.screen).isEmpty,
        "seed \(seed), step \(step):\n\(harness.lines.joined(separator: "\n"))")
    }
    #expect(drawnInPlace > 50, "seed \(seed): \(drawnInPlace) frames reused rows")
  }
}

struct TestFailure: Error {
  var message: String
}

extension String {
  func trimmingSuffix() -> String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}
