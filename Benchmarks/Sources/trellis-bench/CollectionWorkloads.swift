import Trellis
import TrellisTerminal

/// A row for the collection benchmarks: a number and a title, as an issue list shows.
private struct BenchRow: CollectionCell {
  var number: Int

  func draw(in canvas: inout Canvas, state: CellState) {
    let style = state.contains(.focused) ? Style(attributes: .reverse) : .plain
    canvas.fill(style: style)
    let x = canvas.text("#\(number)", x: 1, y: 0, style: Style(foreground: .green))
    canvas.text("Crash when scrolling the 마일스톤 chip bar 😃", x: x + 2, y: 0, style: style)
  }
}

private struct BenchHeader: CollectionCell {
  var section: Int

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.fill(style: Style(attributes: .bold))
    canvas.text("Milestone \(section)", x: 1, y: 0, style: Style(attributes: .bold))
  }
}

/// A full-width list layout, one line per row, with pinned one-line headers.
private func listLayout() -> CompositionalLayout {
  var section = LayoutSection.rows(height: 1)
  section.boundarySupplementaryItems = [.header(height: 1, pinned: true)]
  return CompositionalLayout(section: section)
}

/// Builds a list view of `sections` × `perSection` rows on a 200×60 screen.
@MainActor
private func makeList(sections: Int, perSection: Int) -> CollectionView<Int, Int> {
  let view = CollectionView<Int, Int>(
    layout: listLayout(), frame: CellRect(x: 0, y: 0, width: 200, height: 60)
  ) { _, id in BenchRow(number: id) }
  view.dataSource.supplementaryProvider = { _, _, section in BenchHeader(section: section) }
  view.dataSource.apply(
    Snapshot(
      sections: (0..<sections).map { section in
        (section, Array((section * perSection)..<((section + 1) * perSection)))
      }))
  return view
}

/// A list view on a 200×60 screen whose first frame is already out: each workload changes it and
/// times the next frames.
@MainActor
private final class ListScreen {
  let view: CollectionView<Int, Int>
  var screen = CellBuffer(width: 200, height: 60)
  var renderer = FrameRenderer()

  init(sections: Int, perSection: Int, focus: Int? = nil) {
    view = makeList(sections: sections, perSection: perSection)
    if let focus { view.focus(focus) }
    _ = frame()
  }

  /// Draws the view and returns the frame's byte count.
  func frame() -> Int {
    view.render(into: &screen)
    return renderer.render(screen).count
  }
}

/// Times `body` once per run and returns the median in milliseconds.
@MainActor
func medianOf(runs: Int, _ body: () -> Void, between: () -> Void = {}) -> Double {
  var times: [Double] = []
  for _ in 0..<runs {
    let start = clock.now
    body()
    times.append(milliseconds(clock.now - start))
    // Untimed: what a host does once the frame is written, before the next input.
    between()
  }
  return median(times)
}

/// The collection-view workloads: what a keypress costs, from the event to the bytes of the frame.
@MainActor
func collectionWorkloads(wanted: (String) -> Bool) {
  if wanted("collection:keypress:100k") {
    // 100 sections × 1,000 rows; each press of ↓ moves the focus, scrolls when needed, draws the
    // view into the screen and renders the frame's bytes.
    let list = ListScreen(sections: 100, perSection: 1000, focus: 0)
    let view = list.view
    var bytes: [Double] = []
    var drawn: [Double] = []
    let ms = medianOf(runs: 2000) {
      view.handle(.key(KeyEvent(.down)))
      bytes.append(Double(list.frame()))
      drawn.append(Double(view.statistics.drawn))
    }
    print(
      "collection:keypress:100k".padding(to: 26) + format(ms).leftPadding(to: 8)
        + " ms   ↓ to frame bytes, median of 2000 (focus at item \(view.focusedItem ?? -1));"
        + " \(Int(median(bytes))) bytes, \(Int(median(drawn))) elements drawn")
  }

  if wanted("collection:page:100k") {
    let list = ListScreen(sections: 100, perSection: 1000, focus: 50_000)
    var bytes: [Double] = []
    let ms = medianOf(runs: 500) {
      list.view.handle(.key(KeyEvent(.pageDown)))
      bytes.append(Double(list.frame()))
    }
    print(
      "collection:page:100k".padding(to: 26) + format(ms).leftPadding(to: 8)
        + " ms   PageDown to frame bytes, median of 500; \(Int(median(bytes))) bytes")
  }

  if wanted("collection:scroll-line:10k") {
    // One line of scrolling in a 10,000-row list: layout query, reuse decisions and drawing.
    let list = ListScreen(sections: 1, perSection: 10_000)
    var offset = 0.0
    var bytes: [Double] = []
    let ms = medianOf(runs: 2000) {
      offset += 1
      list.view.setContentOffset(Point(x: 0, y: offset))
      bytes.append(Double(list.frame()))
    }
    print(
      "collection:scroll-line:10k".padding(to: 26) + format(ms).leftPadding(to: 8)
        + " ms   one line of scroll to frame bytes (layout query, reuse, drawing, diff);"
        + " \(Int(median(bytes))) bytes (screen 200×60)")
  }

  if wanted("collection:chip-filter:100k") {
    // A chip selection that changes the list: diff 100k → 50k rows, lay out, draw, render.
    let list = ListScreen(sections: 100, perSection: 1000)
    let all = list.view.dataSource.snapshot()
    let even = Snapshot(
      sections: (0..<100).filter { $0 % 2 == 0 }.map { ($0, all.itemIdentifiers(inSection: $0)) })
    var flip = false
    let ms = medianOf(runs: 41) {
      flip.toggle()
      list.view.dataSource.apply(flip ? even : all)
      _ = list.frame()
    }
    print(
      "collection:chip-filter:100k".padding(to: 26) + format(ms).leftPadding(to: 8)
        + " ms   apply a filtered snapshot (100k ↔ 50k rows) and draw the frame")
  }
}
