import Testing
import Trellis
import TrellisTestSupport

@Suite struct WaterfallLayoutTests {
  private func frames(_ layout: WaterfallLayout, section: Int = 0, count: Int) -> [Rect] {
    (0..<count).compactMap {
      layout.attributesForItem(at: IndexPath(item: $0, section: section))?.frame
    }
  }

  private func twoColumns(_ heights: [Double]) -> WaterfallLayout {
    var layout = WaterfallLayout()
    layout.columnCount = { _ in 2 }
    layout.columnSpacing = 10
    layout.itemSpacing = 10
    layout.sectionInset = EdgeInsets(all: 10)
    layout.itemHeight = .height { path, _ in heights[path.item] }
    return layout
  }

  @Test func twoColumnsPlaceEachItemInTheShortestColumn() {
    let heights: [Double] = [100, 50, 60, 30, 40]
    var layout = twoColumns(heights)
    layout.prepare(LayoutContext(itemCounts: [5], containerSize: Size(width: 200, height: 400)))
    // Column width (200 - 10 - 10 - 10) / 2 = 85, at x 10 and 105. Items start at y 10.
    // 0 (100) → column 0 (tie), y 10. 1 (50) → column 1, y 10. 2 (60) → column 1 (next 70 < 120).
    // 3 (30) → column 0 (120 < 140), y 120. 4 (40) → column 1 (140 < 160), y 140.
    #expect(
      frames(layout, count: 5) == [
        Rect(x: 10, y: 10, width: 85, height: 100), Rect(x: 105, y: 10, width: 85, height: 50),
        Rect(x: 105, y: 70, width: 85, height: 60), Rect(x: 10, y: 120, width: 85, height: 30),
        Rect(x: 105, y: 140, width: 85, height: 40),
      ])
    // Bottom 180, plus the bottom inset.
    #expect(layout.contentSize == Size(width: 200, height: 190))
  }

  @Test func appendingAPageContinuesWhereTheLayoutEnded() {
    let heights: [Double] = [100, 50, 60, 30, 40, 70, 20]
    var layout = twoColumns(heights)
    layout.footerHeight = { _, _ in 15 }
    let container = Size(width: 200, height: 400)
    layout.prepare(LayoutContext(itemCounts: [5], containerSize: container))
    let before = frames(layout, count: 5)
    layout.invalidate(
      .itemsAppended(section: 0, newCount: 7),
      context: LayoutContext(itemCounts: [7], containerSize: container))
    // 5 (70) → column 0 (next 160 < 190), y 160. 6 (20) → column 1, y 190.
    #expect(frames(layout, count: 5) == before)
    #expect(
      frames(layout, count: 7)[5...] == [
        Rect(x: 10, y: 160, width: 85, height: 70), Rect(x: 105, y: 190, width: 85, height: 20),
      ])
    // Items end at 230, plus the bottom inset 10: the footer at 240.
    #expect(
      layout.attributesForSupplementary(
        ofKind: SupplementaryKind.footer, at: IndexPath(item: 0, section: 0))?.frame
        == Rect(x: 0, y: 240, width: 200, height: 15))
    #expect(layout.contentSize.height == 255)
  }

  @Test func anEmptySectionTakesNoNegativeSpaceAndItsHeaderCanSizeItself() {
    var layout = twoColumns([50])
    // A header that grows to explain why its section is empty.
    layout.headerHeight = { _, count in count == 0 ? 60 : 30 }
    layout.prepare(LayoutContext(itemCounts: [0, 1], containerSize: Size(width: 200, height: 400)))
    // Section 0: header 0..<60, insets 10 + 10, no items: ends at 80.
    // Section 1: header 80..<110, item at 120, bottom 170 + 10 = 180.
    #expect(
      layout.attributesForSupplementary(
        ofKind: SupplementaryKind.header, at: IndexPath(item: 0, section: 1))?.frame.minY == 80)
    #expect(frames(layout, section: 1, count: 1) == [Rect(x: 10, y: 120, width: 85, height: 50)])
    #expect(layout.contentSize.height == 180)
  }

  @Test func originalSizesAreScaledToTheColumnWidth() {
    var layout = WaterfallLayout()
    layout.columnSpacing = 10
    layout.itemHeight = .scaled { _ in Size(width: 200, height: 100) }
    layout.prepare(LayoutContext(itemCounts: [1], containerSize: Size(width: 210, height: 400)))
    #expect(frames(layout, count: 1) == [Rect(x: 0, y: 0, width: 100, height: 50)])
  }

  @Test func itemsGoRoundTheColumnsInTurnFromEitherSide() {
    // Three columns of (200 - 2 × 10) / 3 = 60 at x 0, 70, 140; no section inset.
    let heights: [Double] = [100, 10, 10, 10, 10]
    var layout = WaterfallLayout()
    layout.columnCount = { _ in 3 }
    layout.itemHeight = .height { path, _ in heights[path.item] }
    layout.itemRenderDirection = .leadingToTrailing
    let context = LayoutContext(itemCounts: [5], containerSize: Size(width: 200, height: 400))
    layout.prepare(context)
    // Item 3 goes under item 0 (column 0, y 110) although column 1 is shorter.
    #expect(
      frames(layout, count: 5) == [
        Rect(x: 0, y: 0, width: 60, height: 100), Rect(x: 70, y: 0, width: 60, height: 10),
        Rect(x: 140, y: 0, width: 60, height: 10), Rect(x: 0, y: 110, width: 60, height: 10),
        Rect(x: 70, y: 20, width: 60, height: 10),
      ])
    layout.itemRenderDirection = .trailingToLeading
    layout.prepare(context)
    #expect(frames(layout, count: 5).map(\.minX) == [140, 70, 0, 140, 70])
    #expect(frames(layout, count: 5).map(\.minY) == [0, 0, 0, 110, 20])
  }

  @Test func sectionsWithTheirOwnMetricsAndHeaderAndFooterInsets() {
    var layout = WaterfallLayout()
    layout.columnCount = { $0 == 0 ? 2 : 1 }
    layout.headerHeight = { _, _ in 20 }
    layout.footerHeight = { section, _ in section == 0 ? 10 : 0 }
    layout.itemHeight = .height { _, _ in 50 }
    layout.sectionMetrics = { section in
      section == 0
        ? WaterfallLayout.SectionMetrics(
          columnSpacing: 4, itemSpacing: 6,
          inset: EdgeInsets(top: 8, leading: 10, bottom: 2, trailing: 10),
          headerInset: EdgeInsets(top: 3, leading: 5, bottom: 7, trailing: 15),
          footerInset: EdgeInsets(top: 1, leading: 0, bottom: 9, trailing: 0))
        : WaterfallLayout.SectionMetrics(
          columnSpacing: 0, itemSpacing: 0, inset: .zero, headerInset: .zero,
          footerInset: EdgeInsets(all: 100))
    }
    layout.prepare(LayoutContext(itemCounts: [3, 1], containerSize: Size(width: 200, height: 400)))
    func supplementary(_ kind: String, _ section: Int) -> Rect? {
      layout.attributesForSupplementary(ofKind: kind, at: IndexPath(item: 0, section: section))?
        .frame
    }
    // Section 0: header at y 3 (inset top), x 5, width 200 - 5 - 15 = 180, height 20; then 7
    // below it and the section's top inset 8: items from 38. Columns (200 - 20 - 4) / 2 = 88 at
    // x 10 and 102. Items: 38 (col 0), 38 (col 1), 94 (col 0, after 50 + 6). Bottom 144, inset 2:
    // 146; footer inset 1: footer at 147, 10 tall; 9 below: section ends at 166.
    #expect(supplementary(SupplementaryKind.header, 0) == Rect(x: 5, y: 3, width: 180, height: 20))
    #expect(
      frames(layout, count: 3) == [
        Rect(x: 10, y: 38, width: 88, height: 50), Rect(x: 102, y: 38, width: 88, height: 50),
        Rect(x: 10, y: 94, width: 88, height: 50),
      ])
    #expect(
      supplementary(SupplementaryKind.footer, 0) == Rect(x: 0, y: 147, width: 200, height: 10))
    // Section 1: header 166..<186, one full-width item at 186; no footer, so its insets take no
    // space: the content ends at 236.
    #expect(
      supplementary(SupplementaryKind.header, 1) == Rect(x: 0, y: 166, width: 200, height: 20))
    #expect(frames(layout, section: 1, count: 1) == [Rect(x: 0, y: 186, width: 200, height: 50)])
    #expect(supplementary(SupplementaryKind.footer, 1) == nil)
    #expect(layout.contentSize.height == 236)
  }

  @Test func rightToLeftPutsTheFirstColumnOnTheRight() {
    var layout = twoColumns([100, 50])
    layout.direction = .rightToLeft
    layout.prepare(LayoutContext(itemCounts: [2], containerSize: Size(width: 200, height: 400)))
    #expect(frames(layout, count: 2).map(\.minX) == [105, 10])
  }

  @Test(arguments: 0..<20 as Range<UInt64>)
  func incrementalEqualsFullAndQueriesEqualBruteForce(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let heights = (0..<2_000).map { _ in Double(Int.random(in: 0...120, using: &rng)) }
    var counts = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
      Int.random(in: 0...30, using: &rng)
    }
    var layout = WaterfallLayout()
    let columns = (0..<counts.count).map { _ in Int.random(in: 1...4, using: &rng) }
    layout.columnCount = { columns[$0] }
    layout.columnSpacing = Double(Int.random(in: 0...12, using: &rng))
    layout.itemSpacing = Double(Int.random(in: 0...12, using: &rng))
    layout.sectionInset = EdgeInsets(all: Double(Int.random(in: 0...12, using: &rng)))
    layout.headerHeight = { section, count in section % 2 == 0 ? (count == 0 ? 40 : 20) : 0 }
    layout.footerHeight = { _, _ in 9 }
    layout.itemHeight = .height { path, _ in
      heights[(path.section * 500 + path.item) % heights.count]
    }
    // Every render direction, with layout-wide insets or metrics that differ by section.
    layout.itemRenderDirection =
      [.shortestColumnFirst, .leadingToTrailing, .trailingToLeading][
        Int(seed % 3)]
    layout.headerInset = EdgeInsets(all: Double(Int.random(in: 0...6, using: &rng)))
    if seed % 2 == 1 {
      let metrics = (0..<counts.count).map { _ in
        WaterfallLayout.SectionMetrics(
          columnSpacing: Double(Int.random(in: 0...12, using: &rng)),
          itemSpacing: Double(Int.random(in: 0...12, using: &rng)),
          inset: EdgeInsets(all: Double(Int.random(in: 0...12, using: &rng))),
          headerInset: EdgeInsets(all: Double(Int.random(in: 0...6, using: &rng))),
          footerInset: EdgeInsets(all: Double(Int.random(in: 0...6, using: &rng))))
      }
      layout.sectionMetrics = { metrics[$0] }
    }
    let container = Size(width: 320, height: 600)
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: container))
    for step in 0..<8 {
      let section = Int.random(in: 0..<counts.count, using: &rng)
      counts[section] += Int.random(in: 1...40, using: &rng)
      layout.invalidate(
        .itemsAppended(section: section, newCount: counts[section]),
        context: LayoutContext(itemCounts: counts, containerSize: container))
      var full = layout
      full.prepare(LayoutContext(itemCounts: counts, containerSize: container))
      #expect(layout.allAttributes == full.allAttributes, "seed \(seed), step \(step)")
      #expect(layout.contentSize == full.contentSize, "seed \(seed), step \(step)")
      let all = layout.allAttributes
      for _ in 0..<10 {
        let rect = Rect(
          x: Double(Int.random(in: -20...320, using: &rng)),
          y: Double(Int.random(in: -50...Int(layout.contentSize.height) + 50, using: &rng)),
          width: Double(Int.random(in: 0...400, using: &rng)),
          height: Double(Int.random(in: 0...900, using: &rng)))
        #expect(
          Set(layout.attributes(in: rect, viewport: rect))
            == Set(all.filter { $0.frame.intersects(rect) }), "seed \(seed), step \(step)")
      }
      let cells = all.filter { $0.category == .cell && !$0.frame.isEmpty }
      for (index, cell) in cells.enumerated() {
        for other in cells[(index + 1)...] where other.indexPath.section == cell.indexPath.section {
          #expect(
            !cell.frame.intersects(other.frame),
            "seed \(seed), step \(step): \(cell) overlaps \(other)")
        }
      }
    }
  }
}

@Suite struct EmptyContainerLayoutTests {
  @Test(arguments: [(0.0, 0.0), (0.0, 400.0), (200.0, 0.0), (1.0, 1.0)])
  func everyLayoutTerminatesOnEmptyAndTinyContainers(width: Double, height: Double) {
    let container = Size(width: width, height: height)
    let rect = Rect(x: 0, y: 0, width: max(width, 1), height: max(height, 1))
    var waterfall = WaterfallLayout()
    waterfall.prepare(LayoutContext(itemCounts: [50, 3], containerSize: container))
    #expect(
      Set(waterfall.attributes(in: rect, viewport: rect))
        == Set(waterfall.allAttributes.filter { $0.frame.intersects(rect) }))
    var flow = FlowLayout()
    flow.prepare(LayoutContext(itemCounts: [50, 3], containerSize: container))
    #expect(
      Set(flow.attributes(in: rect, viewport: rect))
        == Set(flow.allAttributes.filter { $0.frame.intersects(rect) }))
  }
}
