#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trellis

/// `layout:*`: prepare 1M items, query a phone-sized viewport, append a page.
func layoutWorkloads(wanted: (String) -> Bool) {
  let count = 1_000_000
  var rng = SplitMix64(state: 11)
  let heights = (0..<4096).map { _ in Double(Int.random(in: 80...320, using: &rng)) }
  let phone = Size(width: 390, height: 844)
  // An item that fills its group: a row of a list, a chip of a row.
  let filling = LayoutElement.item(
    LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))))

  func waterfall() -> WaterfallLayout { benchWaterfall(heights: heights) }

  if wanted("layout:waterfall") {
    let (ms, layout) = measure(runs: 5) { () -> WaterfallLayout in
      var layout = waterfall()
      layout.prepare(LayoutContext(itemCounts: [count], containerSize: phone))
      return layout
    }
    reportPrepare("layout:waterfall:1M", ms, count: count)
    reportQueries("layout:waterfall:query", layout, viewport: phone, rng: &rng)
  }

  if wanted("layout:flow-chips") {
    let widths = (0..<4096).map { _ in Double(Int.random(in: 40...160, using: &rng)) }
    let (ms, layout) = measure(runs: 5) { () -> FlowLayout in
      var layout = FlowLayout(scrollDirection: .horizontal)
      layout.itemSize = .perItem { Size(width: widths[$0.item & 4095], height: 40) }
      layout.minimumLineSpacing = 8
      layout.sectionInset = EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
      layout.prepare(
        LayoutContext(itemCounts: [count], containerSize: Size(width: 390, height: 40)))
      return layout
    }
    reportPrepare("layout:flow-chips:1M", ms, count: count)
    reportQueries(
      "layout:flow-chips:query", layout, viewport: Size(width: 390, height: 40), rng: &rng)
  }

  if wanted("layout:flow-wrap") {
    // Chips of their own widths wrapping onto rows, as tags in a vertical list.
    let widths = (0..<4096).map { _ in Double(Int.random(in: 40...160, using: &rng)) }
    let (ms, layout) = measure(runs: 5) { () -> FlowLayout in
      var layout = FlowLayout()
      layout.itemSize = .perItem { Size(width: widths[$0.item & 4095], height: 32) }
      layout.minimumInteritemSpacing = 8
      layout.minimumLineSpacing = 8
      layout.sectionInset = EdgeInsets(all: 16)
      layout.prepare(LayoutContext(itemCounts: [count], containerSize: phone))
      return layout
    }
    reportPrepare("layout:flow-wrap:1M", ms, count: count)
    reportQueries("layout:flow-wrap:query", layout, viewport: phone, rng: &rng)
  }

  if wanted("layout:flow-grid") {
    let (ms, layout) = measure(runs: 5) { () -> FlowLayout in
      var layout = FlowLayout()
      layout.itemSize = .fixed(Size(width: 120, height: 120))
      layout.minimumInteritemSpacing = 5
      layout.minimumLineSpacing = 5
      layout.prepare(LayoutContext(itemCounts: [count], containerSize: phone))
      return layout
    }
    reportPrepare("layout:flow-grid:1M", ms, count: count)
    reportQueries("layout:flow-grid:query", layout, viewport: phone, rng: &rng)
  }

  if wanted("layout:compositional-grid") {
    let item = LayoutItem(
      size: LayoutSize(width: .fractionalWidth(1.0 / 3), height: .fractionalHeight(1)),
      contentInsets: EdgeInsets(all: 2))
    let group = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .fractionalWidth(1.0 / 3)),
      subitems: [.item(item)])
    var section = LayoutSection(group: group)
    section.contentInsets = EdgeInsets(all: 8)
    let (ms, layout) = measure(runs: 5) { () -> CompositionalLayout in
      var layout = CompositionalLayout(section: section)
      layout.prepare(LayoutContext(itemCounts: [count], containerSize: phone))
      return layout
    }
    reportPrepare("layout:compositional-grid:1M", ms, count: count)
    reportQueries("layout:compositional-grid:query", layout, viewport: phone, rng: &rng)
  }

  if wanted("layout:badges") {
    // A five-column grid whose every item carries a badge: a phone screen returns about 114
    // elements, half of them supplementaries.
    let layout = badgeGrid(count: count, container: phone)
    reportQueries("layout:badges:query", layout, viewport: phone, rng: &rng)
  }

  if wanted("layout:background") {
    // One 1M-item list section under a background decoration that spans all of it.
    let row = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)),
      subitems: [filling])
    var section = LayoutSection(group: row)
    section.decorationItems = [.background(kind: "background")]
    section.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
        alignment: .top, pinToVisibleBounds: true)
    ]
    var layout = CompositionalLayout(section: section)
    layout.prepare(LayoutContext(itemCounts: [count], containerSize: phone))
    reportQueries("layout:background:query", layout, viewport: phone, rng: &rng)
  }

  if wanted("layout:orthogonal") {
    // A 100k-chip row that scrolls sideways, between two ordinary sections.
    let chips = 100_000
    let chip = LayoutGroup.horizontal(
      size: LayoutSize(width: .absolute(88), height: .absolute(32)),
      subitems: [filling])
    var bar = LayoutSection(group: chip)
    bar.orthogonalScrollingBehavior = .continuous
    bar.interGroupSpacing = 8
    let row = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)),
      subitems: [filling])
    let list = LayoutSection(group: row)
    var layout = CompositionalLayout { section, _ in section == 1 ? bar : list }
    layout.prepare(LayoutContext(itemCounts: [10, chips, 10_000], containerSize: phone))
    let length = layout.orthogonalContentLength(forSection: 1)
    var times: [Double] = []
    var found = 0
    for _ in 0..<1000 {
      layout.setOrthogonalOffset(
        Double.random(in: 0..<(length - phone.width), using: &rng), forSection: 1)
      let viewport = Rect(x: 0, y: 200, width: phone.width, height: phone.height)
      let start = clock.now
      found = layout.attributes(in: viewport, viewport: viewport).count
      times.append(milliseconds(clock.now - start) * 1000)
    }
    print(
      "layout:orthogonal:query".padding(to: 22) + format(median(times) / 1000).leftPadding(to: 10)
        + " ms   \(format(median(times))) µs per query over a 100k-item row at random offsets, "
        + "\(found) elements (last)")
  }

  if wanted("layout:memory") {
    fflush(nil)
    let status = system("'\(executablePath())' layout-memory")
    if status != 0 { print("Error: layout-memory exited with \(status)") }
  }

  if wanted("layout:append") {
    var layout = waterfall()
    layout.prepare(LayoutContext(itemCounts: [count], containerSize: phone))
    do {
      // The first append after `prepare` is timed apart: it is the one that used to copy the store.
      func append(_ added: Int, to layout: inout WaterfallLayout, total: inout Int) -> Double {
        total += added
        let start = clock.now
        layout.invalidate(
          .itemsAppended(section: 0, newCount: total),
          context: LayoutContext(itemCounts: [total], containerSize: phone))
        return milliseconds(clock.now - start) * 1000
      }
      var total = count
      var times: [Double] = []
      for _ in 0..<11 { times.append(append(1000, to: &layout, total: &total)) }
      print(
        "layout:append-1000".padding(to: 22) + format(median(times) / 1000).leftPadding(to: 10)
          + " ms   µs per 1,000 appended to 1M: first \(format(times[0])), median "
          + "\(format(median(times))), slowest \(format(times.max() ?? 0))")
      var single = waterfall()
      single.prepare(LayoutContext(itemCounts: [count], containerSize: phone))
      total = count
      var singles: [Double] = []
      for _ in 0..<101 { singles.append(append(1, to: &single, total: &total)) }
      print(
        "layout:append-1".padding(to: 22) + format(median(singles) / 1000).leftPadding(to: 10)
          + " ms   µs per item appended to 1M: first \(format(singles[0])), median "
          + "\(format(median(singles))), slowest \(format(singles.max() ?? 0))")
    }
  }
}

/// Prints a prepare time and its cost per item.
private func reportPrepare(_ name: String, _ ms: Double, count: Int) {
  print(
    name.padding(to: 22) + format(ms).leftPadding(to: 10)
      + " ms   \(format(ms * 1_000_000 / Double(count))) ns per item")
}

/// The grid of `layout:badges`: five columns of square items, each with a badge at its top
/// trailing corner.
func badgeGrid(count: Int, container: Size) -> CompositionalLayout {
  let badge = LayoutSupplementaryItem(
    kind: "badge", size: LayoutSize(width: .absolute(16), height: .absolute(16)),
    anchor: LayoutAnchor(edges: [.top, .trailing], offset: .absolute(x: 4, y: -4)))
  let item = LayoutItem(
    size: LayoutSize(width: .fractionalWidth(1.0 / 5), height: .fractionalHeight(1)),
    contentInsets: EdgeInsets(all: 2), supplementaryItems: [badge])
  let group = LayoutGroup.horizontal(
    size: LayoutSize(width: .fractionalWidth(1), height: .fractionalWidth(1.0 / 5)),
    subitems: [.item(item)])
  var section = LayoutSection(group: group)
  section.contentInsets = EdgeInsets(all: 8)
  var layout = CompositionalLayout(section: section)
  layout.prepare(LayoutContext(itemCounts: [count], containerSize: container))
  return layout
}

/// `layout-query-profile N`: N viewport queries of the `layout:badges` grid in a loop, for a
/// profiler; prints the elements found.
func layoutQueryProfile(queries: Int) {
  let phone = Size(width: 390, height: 844)
  let layout = badgeGrid(count: 1_000_000, container: phone)
  var rng = SplitMix64(state: 7)
  var found = 0
  let extent = layout.contentSize.height - phone.height
  for _ in 0..<queries {
    let viewport = Rect(
      x: 0, y: Double.random(in: 0..<extent, using: &rng), width: phone.width,
      height: phone.height)
    found &+= layout.attributes(in: viewport, viewport: viewport).count
  }
  print("\(found) elements in \(queries) queries")
}

/// Times 1,000 queries of a viewport at random offsets along the scroll axis; prints the median.
private func reportQueries(
  _ name: String, _ layout: some CollectionLayout, viewport size: Size, rng: inout SplitMix64
) {
  let vertical = layout.scrollAxis == .vertical
  let extent =
    vertical ? layout.contentSize.height - size.height : layout.contentSize.width - size.width
  var times: [Double] = []
  var found = 0
  for _ in 0..<1000 {
    let offset = Double.random(in: 0..<Swift.max(1, extent), using: &rng)
    let viewport =
      vertical
      ? Rect(x: 0, y: offset, width: size.width, height: size.height)
      : Rect(x: offset, y: 0, width: size.width, height: size.height)
    let start = clock.now
    found = layout.attributes(in: viewport, viewport: viewport).count
    times.append(milliseconds(clock.now - start) * 1000)
  }
  print(
    name.padding(to: 22) + format(median(times) / 1000).leftPadding(to: 10)
      + " ms   \(format(median(times))) µs per viewport query, \(found) elements (last), "
      + "\(format(median(times) * 1000 / Double(Swift.max(1, found)) / 1000)) µs per element")
}

/// The waterfall of `layout:waterfall` and `layout-memory`: two columns 8 apart, heights from a
/// table of 4,096.
private func benchWaterfall(heights: [Double]) -> WaterfallLayout {
  var layout = WaterfallLayout()
  layout.columnCount = { _ in 2 }
  layout.columnSpacing = 8
  layout.itemSpacing = 8
  layout.sectionInset = EdgeInsets(all: 8)
  layout.itemHeight = .height { path, _ in heights[path.item & 4095] }
  return layout
}

/// `layout-memory`: the peak and retained resident memory of preparing the 1M-item waterfall of
/// `layout:waterfall`, per item, measured in a process of its own.
func layoutMemory() -> Bool {
  let count = 1_000_000
  var rng = SplitMix64(state: 11)
  let heights = (0..<4096).map { _ in Double(Int.random(in: 80...320, using: &rng)) }
  var layout = benchWaterfall(heights: heights)
  releaseFreedMemory()
  guard let baseline = residentKilobytes("VmRSS:"), resetPeak() else {
    print("Error: layout-memory needs /proc/self/status and /proc/self/clear_refs (Linux).")
    return false
  }
  layout.prepare(
    LayoutContext(itemCounts: [count], containerSize: Size(width: 390, height: 844)))
  guard let peak = residentKilobytes("VmHWM:"), let retained = residentKilobytes("VmRSS:") else {
    return false
  }
  let perItem = { (kilobytes: Int) in format(Double(kilobytes - baseline) * 1024 / Double(count)) }
  print(
    "layout:memory".padding(to: 22) + perItem(peak).leftPadding(to: 10)
      + " B    peak per prepared waterfall item (1M; retained \(perItem(retained)) B, height "
      + "\(Int(layout.contentSize.height)))")
  return true
}

/// `pictures DIRECTORY`: writes the SVG pictures used in the documentation.
func writePictures(to directory: String) {
  var chips = FlowLayout(scrollDirection: .horizontal)
  let chipWidths: [Double] = [3, 12, 6, 6, 9, 5].map { $0 * 8 + 48 }
  chips.itemSize = .perItem { Size(width: chipWidths[$0.item], height: 40) }
  chips.minimumLineSpacing = 8
  chips.sectionInset = EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
  chips.prepare(LayoutContext(itemCounts: [6], containerSize: Size(width: 390, height: 40)))

  var grid = FlowLayout()
  let gridWidths: [Double] = [60, 90, 70, 50, 110, 80, 40, 100, 60, 75]
  grid.itemSize = .perItem { Size(width: gridWidths[$0.item], height: 28) }
  grid.minimumInteritemSpacing = 8
  grid.minimumLineSpacing = 8
  grid.sectionInset = EdgeInsets(all: 12)
  grid.headerSize = { _ in 24 }
  grid.prepare(LayoutContext(itemCounts: [10], containerSize: Size(width: 320, height: 400)))

  var cards = WaterfallLayout()
  let cardHeights: [Double] = [120, 80, 150, 60, 100, 140, 90, 70, 130, 110]
  cards.itemHeight = .height { path, _ in cardHeights[path.item % cardHeights.count] }
  cards.columnSpacing = 8
  cards.itemSpacing = 8
  cards.sectionInset = EdgeInsets(all: 8)
  cards.headerHeight = { _, _ in 30 }
  cards.prepare(LayoutContext(itemCounts: [10], containerSize: Size(width: 320, height: 600)))

  let feature = LayoutItem(
    size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
    contentInsets: EdgeInsets(all: 4))
  let small = LayoutItem(
    size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(0.5)),
    contentInsets: EdgeInsets(all: 4))
  let column = LayoutGroup.vertical(
    size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
    subitems: [.item(small)])
  let badge = LayoutSupplementaryItem(
    kind: "badge", size: LayoutSize(width: .absolute(16), height: .absolute(16)),
    anchor: LayoutAnchor(edges: [.top, .trailing], offset: .absolute(x: 4, y: -4)))
  var composed = CompositionalLayout(configuration: .init(interSectionSpacing: 12)) { section, _ in
    let header = BoundarySupplementaryItem(
      kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(28)),
      alignment: .topLeading)
    if section == 0 {
      let chip = LayoutItem(
        size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)),
        supplementaryItems: [badge])
      let group = LayoutGroup.horizontal(
        size: LayoutSize(width: .absolute(110), height: .absolute(44)), subitems: [.item(chip)])
      var carousel = LayoutSection(group: group)
      carousel.orthogonalScrollingBehavior = .groupPaging
      carousel.interGroupSpacing = 8
      carousel.contentInsets = EdgeInsets(top: 8, leading: 16, bottom: 8, trailing: 16)
      carousel.boundarySupplementaryItems = [header]
      return carousel
    }
    let group = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(160)),
      subitems: [.item(feature), .group(column)])
    var grid = LayoutSection(group: group)
    grid.contentInsets = EdgeInsets(all: 12)
    grid.boundarySupplementaryItems = [header]
    grid.decorationItems = [.background(kind: "background", contentInsets: EdgeInsets(all: 4))]
    return grid
  }
  composed.prepare(LayoutContext(itemCounts: [8, 6], containerSize: Size(width: 320, height: 600)))

  let pictures = [
    (
      "compositional-nested-and-orthogonal.svg",
      LayoutPicture.svg(
        of: composed.allAttributes,
        contentSize: Size(
          width: composed.orthogonalContentLength(forSection: 0),
          height: composed.contentSize.height
        ))
    ),
    (
      "flow-chip-bar.svg",
      LayoutPicture.svg(of: chips.allAttributes, contentSize: chips.contentSize)
    ),
    (
      "flow-wrapping-grid.svg",
      LayoutPicture.svg(of: grid.allAttributes, contentSize: grid.contentSize)
    ),
    (
      "waterfall-two-columns.svg",
      LayoutPicture.svg(of: cards.allAttributes, contentSize: cards.contentSize)
    ),
  ]
  for (name, svg) in pictures {
    let path = directory + "/" + name
    guard let file = fopen(path, "w") else {
      print("Error: cannot write \(path)")
      continue
    }
    fputs(svg, file)
    fclose(file)
    print("wrote \(path)")
  }
}
