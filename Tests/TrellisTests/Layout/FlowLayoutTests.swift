import Testing
import Trellis
import TrellisTestSupport

@Suite struct FlowLayoutTests {
  private func frames(_ layout: FlowLayout, section: Int = 0, count: Int) -> [Rect] {
    (0..<count).compactMap {
      layout.attributesForItem(at: IndexPath(item: $0, section: section))?.frame
    }
  }

  @Test func aMilestoneChipBar() {
    // Horizontal, height 40, width = text width + 48, insets 20 at both ends, chips 8 apart.
    let textWidths: [Double] = [3, 12, 6]  // "All", "No milestone", "v1.0.0" in columns
    var layout = FlowLayout(scrollDirection: .horizontal)
    layout.itemSize = .perItem { Size(width: textWidths[$0.item] + 48, height: 40) }
    layout.minimumLineSpacing = 8
    layout.sectionInset = EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
    layout.prepare(LayoutContext(itemCounts: [3], containerSize: Size(width: 100, height: 40)))
    // x: 20; 20 + 51 + 8 = 79; 79 + 60 + 8 = 147. Content: 147 + 54 + 20 = 221.
    #expect(
      frames(layout, count: 3) == [
        Rect(x: 20, y: 0, width: 51, height: 40), Rect(x: 79, y: 0, width: 60, height: 40),
        Rect(x: 147, y: 0, width: 54, height: 40),
      ])
    #expect(layout.contentSize == Size(width: 221, height: 40))
    // Scrolled so that x 100 ..< 200 shows: the last two chips.
    let visible = layout.attributes(
      in: Rect(x: 100, y: 0, width: 100, height: 40),
      viewport: Rect(x: 100, y: 0, width: 100, height: 40))
    #expect(visible.map(\.indexPath.item).sorted() == [1, 2])
  }

  @Test func aWrappingChipGridJustifiesFullLinesAndLeadingAlignsTheLast() {
    let widths: [Double] = [50, 60, 70, 40, 90]
    var layout = FlowLayout()
    layout.itemSize = .perItem { Size(width: widths[$0.item], height: 20) }
    layout.minimumInteritemSpacing = 10
    layout.minimumLineSpacing = 5
    layout.sectionInset = EdgeInsets(all: 10)
    layout.prepare(LayoutContext(itemCounts: [5], containerSize: Size(width: 200, height: 300)))
    // Available 180. Line 1: 50 + 10 + 60 = 120; + 10 + 70 = 200 > 180, so [50, 60], justified:
    // gap = 180 - 110 = 70, x = 10 and 10 + 50 + 70 = 130. Line 2: [70, 40], gap 70: x = 10, 150,
    // y = 10 + 20 + 5 = 35. Line 3 (last): [90] leading-aligned at x = 10, y = 60.
    #expect(
      frames(layout, count: 5) == [
        Rect(x: 10, y: 10, width: 50, height: 20), Rect(x: 130, y: 10, width: 60, height: 20),
        Rect(x: 10, y: 35, width: 70, height: 20), Rect(x: 150, y: 35, width: 40, height: 20),
        Rect(x: 10, y: 60, width: 90, height: 20),
      ])
    #expect(layout.contentSize == Size(width: 200, height: 90))  // 60 + 20 + 10
  }

  @Test func sectionsWithTheirOwnSpacingsAndInsets() {
    var layout = FlowLayout()
    layout.itemSize = .fixed(Size(width: 20, height: 10))
    layout.headerSize = { _ in 6 }
    layout.sectionMetrics = { section in
      section == 0
        ? FlowLayout.SectionMetrics(
          minimumLineSpacing: 2, minimumInteritemSpacing: 4,
          inset: EdgeInsets(top: 1, leading: 3, bottom: 5, trailing: 7))
        : FlowLayout.SectionMetrics()
    }
    layout.prepare(LayoutContext(itemCounts: [5, 2], containerSize: Size(width: 100, height: 80)))
    // Section 0: lines 100 - 3 - 7 = 90 long; three items fit (20 + 4 + 20 + 4 + 20 = 68, a fourth
    // would need 92). The full line is justified: gaps (90 - 60) / 2 = 15, at x 3, 38, 73; y 6 + 1.
    // The last line keeps the minimum spacing: x 3 and 27, 2 below the first: y 19. Bottom 29 + 5.
    #expect(
      frames(layout, count: 5) == [
        Rect(x: 3, y: 7, width: 20, height: 10), Rect(x: 38, y: 7, width: 20, height: 10),
        Rect(x: 73, y: 7, width: 20, height: 10), Rect(x: 3, y: 19, width: 20, height: 10),
        Rect(x: 27, y: 19, width: 20, height: 10),
      ])
    // Section 1, the defaults (spacings 10, no insets): header 34..<40, one last line at 40.
    #expect(
      frames(layout, section: 1, count: 2) == [
        Rect(x: 0, y: 40, width: 20, height: 10), Rect(x: 30, y: 40, width: 20, height: 10),
      ])
    #expect(layout.contentSize.height == 50)
  }

  @Test func itemsAreCentredAcrossTheirLineAndASingleItemOnAFullLineIsCentred() {
    let sizes = [
      Size(width: 40, height: 20), Size(width: 40, height: 40), Size(width: 90, height: 10),
      Size(width: 10, height: 10),
    ]
    var layout = FlowLayout()
    layout.itemSize = .perItem { sizes[$0.item] }
    layout.minimumInteritemSpacing = 10
    layout.minimumLineSpacing = 0
    layout.prepare(LayoutContext(itemCounts: [4], containerSize: Size(width: 100, height: 300)))
    // Line 1: [40×20, 40×40], thickness 40, justified gap 20: x 0 and 60; the short one at y 10.
    // Line 2: [90] alone on a full line (90 + 10 + 10 > 100): centred at x 5. Line 3: [10] last.
    #expect(
      frames(layout, count: 4) == [
        Rect(x: 0, y: 10, width: 40, height: 20), Rect(x: 60, y: 0, width: 40, height: 40),
        Rect(x: 5, y: 40, width: 90, height: 10), Rect(x: 0, y: 50, width: 10, height: 10),
      ])
  }

  private func pinnedLayout() -> FlowLayout {
    var layout = FlowLayout()
    layout.itemSize = .fixed(Size(width: 100, height: 20))
    layout.minimumLineSpacing = 0
    layout.headerSize = { _ in 10 }
    layout.footerSize = { $0 == 0 ? 5 : 0 }
    layout.pinsSectionHeaders = true
    layout.prepare(LayoutContext(itemCounts: [3, 3], containerSize: Size(width: 100, height: 50)))
    return layout
  }

  @Test(
    "Pinned headers at several offsets, pushed up at the section's end",
    arguments: [
      // Section 0: header 0..<10, items 10, 30, 50, content end 70, footer 70..<75.
      // Section 1: header 75..<85, items 85, 105, 125, content end 145.
      (0.0, 0, 0.0), (25, 0, 25), (60, 0, 60), (65, 0, 60), (69, 0, 60), (80, 1, 80), (100, 1, 100),
      (140, 1, 135),
    ])
  func pinnedHeader(offset: Double, section: Int, y: Double) {
    let layout = pinnedLayout()
    let viewport = Rect(x: 0, y: offset, width: 100, height: 50)
    let headers = layout.attributes(in: viewport, viewport: viewport).filter {
      $0.category == .supplementary(kind: SupplementaryKind.header)
        && $0.indexPath.section == section
    }
    #expect(headers.map(\.frame.minY) == [y])
    // Floating (or pushed up) once the viewport's top is inside the section; at its place at 0.
    #expect(headers.map(\.isPinned) == [offset > 0])
  }

  @Test(
    "Pinned footers at several offsets, held down at the section's start",
    arguments: [
      // Section 0: header 0..<10, items 10, 30, 50, content end 70, footer 70..<75.
      // Section 1: header 75..<85, items 85, 105, 125, content end 145, footer 145..<150.
      // (viewport top, section, footer y, pinned); the viewport is 50 tall.
      (0.0, 0, 45.0, true), (24, 0, 69, true), (25, 0, 70, false), (40, 1, 85, true),
      (60, 1, 105, true), (100, 1, 145, false),
    ])
  func pinnedFooter(offset: Double, section: Int, y: Double, pinned: Bool) {
    var layout = pinnedLayout()
    layout.footerSize = { _ in 5 }
    layout.pinsSectionFooters = true
    layout.prepare(LayoutContext(itemCounts: [3, 3], containerSize: Size(width: 100, height: 50)))
    let viewport = Rect(x: 0, y: offset, width: 100, height: 50)
    let footers = layout.attributes(in: viewport, viewport: viewport).filter {
      $0.category == .supplementary(kind: SupplementaryKind.footer)
        && $0.indexPath.section == section
    }
    #expect(footers.map(\.frame.minY) == [y])
    #expect(footers.map(\.isPinned) == [pinned])
  }

  @Test func pinningDependsOnTheViewportNotOnTheQueriedRect() {
    let layout = pinnedLayout()
    let viewport = Rect(x: 0, y: 25, width: 100, height: 50)
    let narrow = layout.attributes(in: Rect(x: 0, y: 25, width: 100, height: 5), viewport: viewport)
    #expect(
      narrow.contains {
        $0.category == .supplementary(kind: SupplementaryKind.header) && $0.frame.minY == 25
      })
  }

  @Test func estimatedHeightsShiftOnlyLaterItemsWhenOneReportsItsSize() {
    var layout = FlowLayout()
    layout.itemSize = .estimated(Size(width: 100, height: 30))
    layout.minimumLineSpacing = 0
    let context = LayoutContext(itemCounts: [4], containerSize: Size(width: 100, height: 100))
    layout.prepare(context)
    #expect(frames(layout, count: 4).map(\.minY) == [0, 30, 60, 90])
    layout.invalidate(
      .preferredSize(IndexPath(item: 1, section: 0), Size(width: 100, height: 50)), context: context
    )
    #expect(frames(layout, count: 4).map(\.minY) == [0, 30, 80, 110])
    #expect(layout.contentSize.height == 140)
  }

  @Test func measuringAtPrepareReplacesEstimates() {
    var layout = FlowLayout()
    layout.itemSize = .estimated(Size(width: 100, height: 30))
    layout.minimumLineSpacing = 0
    layout.prepare(
      LayoutContext(itemCounts: [3], containerSize: Size(width: 100, height: 100)) {
        path, proposed in
        Size(width: proposed.width, height: Double(10 * (path.item + 1)))
      })
    #expect(frames(layout, count: 3).map(\.minY) == [0, 10, 30])
  }

  @Test func invalidatingEverythingMeasuresAgain() {
    var layout = FlowLayout()
    layout.itemSize = .estimated(Size(width: 100, height: 30))
    layout.minimumLineSpacing = 0
    var height = 10.0
    let context = LayoutContext(itemCounts: [2], containerSize: Size(width: 100, height: 100)) {
      _, proposed in Size(width: proposed.width, height: height)
    }
    layout.prepare(context)
    #expect(frames(layout, count: 2).map(\.minY) == [0, 10])
    // The data changed (other items at these index paths): their sizes are measured again.
    height = 20
    layout.invalidate(.everything, context: context)
    #expect(frames(layout, count: 2).map(\.minY) == [0, 20])
  }

  @Test func rightToLeftMirrorsEveryFrame() {
    var layout = FlowLayout()
    layout.itemSize = .fixed(Size(width: 50, height: 20))
    layout.minimumInteritemSpacing = 10
    layout.direction = .rightToLeft
    layout.prepare(LayoutContext(itemCounts: [2], containerSize: Size(width: 200, height: 100)))
    // Left to right: x 0 and 60 (last line, minimum spacing); mirrored: 150 and 90.
    #expect(frames(layout, count: 2).map(\.minX) == [150, 90])
    let visible = layout.attributes(
      in: Rect(x: 140, y: 0, width: 60, height: 20),
      viewport: Rect(x: 0, y: 0, width: 200, height: 100))
    #expect(visible.map(\.indexPath.item) == [0])
  }

  @Test(arguments: 0..<20 as Range<UInt64>)
  func rectQueriesEqualBruteForceAndCellsNeverOverlap(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for step in 0..<20 {
      var layout = FlowLayout(scrollDirection: Bool.random(using: &rng) ? .vertical : .horizontal)
      var sizes: [[Size]] = []
      for _ in 0..<Int.random(in: 0...5, using: &rng) {
        sizes.append(
          (0..<Int.random(in: 0...40, using: &rng)).map { _ in
            Size(
              width: Double(Int.random(in: 5...80, using: &rng)),
              height: Double(Int.random(in: 5...60, using: &rng)))
          })
      }
      let frozen = sizes
      layout.itemSize = .perItem { frozen[$0.section][$0.item] }
      layout.minimumLineSpacing = Double(Int.random(in: 0...10, using: &rng))
      layout.minimumInteritemSpacing = Double(Int.random(in: 0...10, using: &rng))
      layout.sectionInset = EdgeInsets(all: Double(Int.random(in: 0...10, using: &rng)))
      let header = Double(Int.random(in: 0...20, using: &rng))
      layout.headerSize = { _ in header }
      layout.footerSize = { $0 % 2 == 0 ? 7 : 0 }
      layout.direction = Bool.random(using: &rng) ? .leftToRight : .rightToLeft
      if Bool.random(using: &rng) {
        let metrics = sizes.indices.map { _ in
          FlowLayout.SectionMetrics(
            minimumLineSpacing: Double(Int.random(in: 0...10, using: &rng)),
            minimumInteritemSpacing: Double(Int.random(in: 0...10, using: &rng)),
            inset: EdgeInsets(
              top: Double(Int.random(in: 0...10, using: &rng)),
              leading: Double(Int.random(in: 0...10, using: &rng)),
              bottom: Double(Int.random(in: 0...10, using: &rng)),
              trailing: Double(Int.random(in: 0...10, using: &rng))))
        }
        layout.sectionMetrics = { metrics[$0] }
      }
      layout.prepare(
        LayoutContext(itemCounts: sizes.map(\.count), containerSize: Size(width: 200, height: 200)))
      let all = layout.allAttributes
      for _ in 0..<10 {
        let rect = Rect(
          x: Double(Int.random(in: -50...600, using: &rng)),
          y: Double(Int.random(in: -50...2000, using: &rng)),
          width: Double(Int.random(in: 0...300, using: &rng)),
          height: Double(Int.random(in: 0...300, using: &rng)))
        let expected = Set(all.filter { $0.frame.intersects(rect) })
        let found = layout.attributes(in: rect, viewport: rect)
        #expect(Set(found) == expected, "seed \(seed), step \(step), rect \(rect)")
        #expect(found.count == expected.count, "seed \(seed), step \(step): duplicates")
      }
      let cells = all.filter { $0.category == .cell }
      for (index, cell) in cells.enumerated() {
        for other in cells[(index + 1)...] where other.indexPath.section == cell.indexPath.section {
          #expect(
            !cell.frame.intersects(other.frame),
            "seed \(seed), step \(step): \(cell) overlaps \(other)")
        }
      }
    }
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func appendingItemsGivesTheFramesOfAFullRecompute(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let widths = (0..<200).map { _ in Double(Int.random(in: 10...90, using: &rng)) }
    var counts = [Int.random(in: 0...20, using: &rng), Int.random(in: 0...20, using: &rng)]
    var layout = FlowLayout()
    layout.itemSize = .perItem { Size(width: widths[$0.item], height: 20) }
    layout.headerSize = { _ in 12 }
    layout.footerSize = { _ in 6 }
    let container = Size(width: 300, height: 200)
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: container))
    for _ in 0..<5 {
      let section = Int.random(in: 0...1, using: &rng)
      counts[section] += Int.random(in: 1...20, using: &rng)
      layout.invalidate(
        .itemsAppended(section: section, newCount: counts[section]),
        context: LayoutContext(itemCounts: counts, containerSize: container))
      var full = layout
      full.prepare(LayoutContext(itemCounts: counts, containerSize: container))
      #expect(layout.allAttributes == full.allAttributes)
      #expect(layout.contentSize == full.contentSize)
    }
  }
}
