import Testing
import Trellis
import TrellisTestSupport

@Suite struct CompositionalLayoutTests {
  private func size(_ width: LayoutDimension, _ height: LayoutDimension) -> LayoutSize {
    LayoutSize(width: width, height: height)
  }

  private func frames(_ layout: CompositionalLayout, section: Int = 0, count: Int) -> [Rect] {
    (0..<count).compactMap {
      layout.attributesForItem(at: IndexPath(item: $0, section: section))?.frame
    }
  }

  private func prepared(
    _ section: LayoutSection, counts: [Int], width: Double = 400,
    configuration: CompositionalLayout.Configuration = .init()
  ) -> CompositionalLayout {
    var layout = CompositionalLayout(section: section, configuration: configuration)
    layout.prepare(
      LayoutContext(itemCounts: counts, containerSize: Size(width: width, height: 800)))
    return layout
  }

  @Test func aGridWithItemInsets() {
    let item = LayoutItem(
      size: size(.fractionalWidth(0.25), .fractionalHeight(1)), contentInsets: EdgeInsets(all: 5))
    let group = LayoutGroup.horizontal(
      size: size(.fractionalWidth(1), .absolute(100)), subitems: [.item(item)])
    let layout = prepared(LayoutSection(group: group), counts: [5])
    // Each item gets 400 × 0.25 = 100 by 100, shrunk by 5 on every side; four fit in a group.
    #expect(
      frames(layout, count: 5) == [
        Rect(x: 5, y: 5, width: 90, height: 90), Rect(x: 105, y: 5, width: 90, height: 90),
        Rect(x: 205, y: 5, width: 90, height: 90), Rect(x: 305, y: 5, width: 90, height: 90),
        Rect(x: 5, y: 105, width: 90, height: 90),
      ])
    #expect(layout.contentSize == Size(width: 400, height: 200))
  }

  @Test func twoColumnsFromACountBasedGroupWithSpacingAndSectionInsets() {
    let item = LayoutItem(size: size(.fractionalWidth(1), .fractionalHeight(1)))
    let group = LayoutGroup.horizontal(
      size: size(.fractionalWidth(1), .absolute(80)), repeatingSubitem: .item(item), count: 2
    )
    .spacing(.fixed(10))
    var section = LayoutSection(group: group)
    section.contentInsets = EdgeInsets(all: 10)
    section.interGroupSpacing = 10
    let layout = prepared(section, counts: [3], width: 320)
    // Effective width 320 − 20 = 300; each column (300 − 10) / 2 = 145; groups 80 tall, 10 apart.
    #expect(
      frames(layout, count: 3) == [
        Rect(x: 10, y: 10, width: 145, height: 80), Rect(x: 165, y: 10, width: 145, height: 80),
        Rect(x: 10, y: 100, width: 145, height: 80),
      ])
    #expect(layout.contentSize.height == 190)  // 100 + 80 + 10
  }

  @Test func nestedGroups() {
    let big = LayoutItem(size: size(.fractionalWidth(0.5), .fractionalHeight(1)))
    let small = LayoutItem(size: size(.fractionalWidth(1), .fractionalHeight(0.5)))
    let column = LayoutGroup.vertical(
      size: size(.fractionalWidth(0.5), .fractionalHeight(1)), subitems: [.item(small)])
    let group = LayoutGroup.horizontal(
      size: size(.fractionalWidth(1), .absolute(200)), subitems: [.item(big), .group(column)])
    let layout = prepared(LayoutSection(group: group), counts: [4])
    // Big item on the left half; the right half is a column of two half-height items.
    #expect(
      frames(layout, count: 4) == [
        Rect(x: 0, y: 0, width: 200, height: 200), Rect(x: 200, y: 0, width: 200, height: 100),
        Rect(x: 200, y: 100, width: 200, height: 100), Rect(x: 0, y: 200, width: 200, height: 200),
      ])
  }

  private func carouselThenList() -> CompositionalLayout {
    var layout = CompositionalLayout { section, _ in
      if section == 0 {
        let item = LayoutItem(
          size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)))
        let group = LayoutGroup.horizontal(
          size: LayoutSize(width: .fractionalWidth(0.8), height: .absolute(100)),
          subitems: [.item(item)])
        var carousel = LayoutSection(group: group)
        carousel.orthogonalScrollingBehavior = .groupPaging
        carousel.interGroupSpacing = 10
        carousel.contentInsets = EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
        return carousel
      }
      let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(50))
      return LayoutSection(group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    }
    layout.prepare(LayoutContext(itemCounts: [3, 2], containerSize: Size(width: 400, height: 800)))
    return layout
  }

  @Test func anOrthogonalGroupPagingSectionFollowedByANormalSection() {
    var layout = carouselThenList()
    // Effective width 360; groups 0.8 × 360 = 288 wide, 10 apart, from x 20: 20, 318, 616.
    #expect(frames(layout, count: 3).map(\.minX) == [20, 318, 616])
    #expect(layout.orthogonalContentLength(forSection: 0) == 924)  // 616 + 288 + 20
    // The next section starts under the 100-point row.
    #expect(
      frames(layout, section: 1, count: 2) == [
        Rect(x: 0, y: 100, width: 400, height: 50), Rect(x: 0, y: 150, width: 400, height: 50),
      ])
    layout.setOrthogonalOffset(150, forSection: 0)
    #expect(frames(layout, count: 3).map(\.minX) == [-130, 168, 466])
    #expect(frames(layout, section: 1, count: 1).map(\.minX) == [0])
    let visible = layout.attributes(
      in: Rect(x: 0, y: 0, width: 400, height: 100),
      viewport: Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(visible.map(\.indexPath.item).sorted() == [0, 1])
    // Group paging: leading edges at offsets 0, 298, 596 (the last clamped to 924 − 400 = 524).
    #expect(layout.targetOrthogonalOffset(forSection: 0, proposed: 200, velocity: 0) == 298)
    #expect(layout.targetOrthogonalOffset(forSection: 0, proposed: 160, velocity: -1) == 0)
    #expect(layout.targetOrthogonalOffset(forSection: 0, proposed: 590, velocity: 1) == 524)
    layout.setOrthogonalOffset(10_000, forSection: 0)
    #expect(layout.orthogonalOffset(forSection: 0) == 524)
  }

  @Test(arguments: [true, false])
  func aSectionHeaderWithSectionInsets(follows: Bool) {
    let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(50))
    var section = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    section.contentInsets = EdgeInsets(top: 5, leading: 20, bottom: 5, trailing: 20)
    section.supplementariesFollowContentInsets = follows
    section.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
        alignment: .top)
    ]
    let layout = prepared(section, counts: [1])
    let header = layout.attributesForSupplementary(
      ofKind: "header", at: IndexPath(item: 0, section: 0))?.frame
    // Following the insets: 400 − 40 = 360 wide from x 20; otherwise the full width.
    #expect(
      header
        == (follows
          ? Rect(x: 20, y: 0, width: 360, height: 30) : Rect(x: 0, y: 0, width: 400, height: 30)))
    // Items start under the header, after the top inset: 30 + 5.
    #expect(frames(layout, count: 1) == [Rect(x: 20, y: 35, width: 360, height: 50)])
  }

  @Test(
    "Pinned section headers at several offsets, pushed up at the section's end",
    arguments: [
      (0.0, 0, 0.0), (100, 0, 100), (199, 0, 199), (210, 0, 200), (229, 0, 200), (240, 1, 240),
    ])
  func pinnedHeaders(offset: Double, section: Int, y: Double) {
    let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(50))
    var definition = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    definition.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
        alignment: .top,
        pinToVisibleBounds: true)
    ]
    let layout = prepared(definition, counts: [4, 4])
    // Section 0: header 0 ..< 30, items to 230; section 1 from 230.
    let viewport = Rect(x: 0, y: offset, width: 400, height: 300)
    let headers = layout.attributes(in: viewport, viewport: viewport).filter {
      $0.category == .supplementary(kind: "header") && $0.indexPath.section == section
    }
    #expect(headers.map(\.frame.minY) == [y])
    #expect(headers.map(\.isPinned) == [offset > 0])
  }

  @Test(
    "Pinned section footers at several offsets, held back at the section's content start",
    arguments: [
      // Section 0: rows 0..<200, footer 200..<230; section 1: rows 230..<430, footer 430..<460.
      // (viewport top, section, footer y, pinned)
      (0.0, 0, 70.0, true), (120, 0, 190, true), (130, 0, 200, false), (140, 1, 230, true),
      (300, 1, 370, true), (360, 1, 430, false),
    ])
  func pinnedFooters(offset: Double, section: Int, y: Double, pinned: Bool) {
    let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(50))
    var definition = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    definition.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "footer", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
        alignment: .bottom, pinToVisibleBounds: true)
    ]
    let layout = prepared(definition, counts: [4, 4])
    let viewport = Rect(x: 0, y: offset, width: 400, height: 100)
    let footers = layout.attributes(in: viewport, viewport: viewport).filter {
      $0.category == .supplementary(kind: "footer") && $0.indexPath.section == section
    }
    #expect(footers.map(\.frame.minY) == [y])
    #expect(footers.map(\.isPinned) == [pinned])
  }

  @Test func selfSizingHeadersTakeTheirMeasuredAndReportedHeights() {
    let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(40))
    var definition = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    definition.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .estimated(30)),
        alignment: .top)
    ]
    let banner = BoundarySupplementaryItem(
      kind: "banner", size: LayoutSize(width: .fractionalWidth(1), height: .estimated(10)),
      alignment: .top)
    var layout = CompositionalLayout(
      section: definition,
      configuration: CompositionalLayout.Configuration(boundarySupplementaryItems: [banner]))
    let context = LayoutContext(
      itemCounts: [2, 2], containerSize: Size(width: 400, height: 800),
      measureSupplementary: { kind, path, proposed in
        // The proposal carries the estimate and the width.
        #expect(proposed.width == 400)
        return Size(
          width: proposed.width, height: kind == "banner" ? 24 : (path.section == 0 ? 20 : 45))
      })
    layout.prepare(context)
    func headers() -> [Double] {
      layout.allAttributes.filter { $0.category == .supplementary(kind: "header") }.map(
        \.frame.minY)
    }
    func heights() -> [Double] {
      layout.allAttributes.filter { $0.category == .supplementary(kind: "header") }.map(
        \.frame.height)
    }
    // Banner 0..<24; section 0: header 24..<44, rows 44 and 84; section 1: header 124..<169, rows
    // 169 and 209: 249 in all.
    #expect(headers() == [24, 124])
    #expect(heights() == [20, 45])
    #expect(layout.contentSize.height == 249)
    // Section 0's header reports 35: what follows moves by 15; section 1 keeps its 45.
    layout.invalidate(
      .preferredSupplementarySize(
        kind: "header", IndexPath(item: 0, section: 0), Size(width: 400, height: 35)),
      context: context)
    #expect(headers() == [24, 139])
    #expect(heights() == [35, 45])
    // The banner reports 50: everything moves by 26.
    layout.invalidate(
      .preferredSupplementarySize(
        kind: "banner", IndexPath(item: 0, section: 0), Size(width: 400, height: 50)),
      context: context)
    #expect(headers() == [50, 165])
    #expect(layout.contentSize.height == 290)
    // Without a measuring closure the estimates stand.
    var estimated = CompositionalLayout(section: definition)
    estimated.prepare(LayoutContext(itemCounts: [1], containerSize: Size(width: 400, height: 800)))
    #expect(
      estimated.allAttributes.first { $0.category == .supplementary(kind: "header") }?.frame.height
        == 30)
  }

  @Test func estimatedHeightsAfterOneItemReportsItsSize() {
    var layout = CompositionalLayout(section: .list(estimatedRowHeight: 44))
    let context = LayoutContext(itemCounts: [3], containerSize: Size(width: 400, height: 800))
    layout.prepare(context)
    #expect(frames(layout, count: 3).map(\.minY) == [0, 44, 88])
    layout.invalidate(
      .preferredSize(IndexPath(item: 1, section: 0), Size(width: 400, height: 60)), context: context
    )
    #expect(
      frames(layout, count: 3) == [
        Rect(x: 0, y: 0, width: 400, height: 44), Rect(x: 0, y: 44, width: 400, height: 60),
        Rect(x: 0, y: 104, width: 400, height: 44),
      ])
    #expect(layout.contentSize.height == 148)
  }

  @Test func flexibleInterItemSpacingSharesTheSpareWidth() {
    let item = LayoutItem(size: LayoutSize(width: .absolute(80), height: .absolute(50)))
    let group = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)), subitems: [.item(item)]
    )
    .spacing(.flexible(10))
    let layout = prepared(LayoutSection(group: group), counts: [4], width: 410)
    // 4 × 80 + 3 × 10 = 350 fits (a fifth would need 440); the spare 60 adds 20 to each gap.
    #expect(frames(layout, count: 4).map(\.minX) == [0, 110, 220, 330])
  }

  @Test func aBackgroundDecorationCoversTheContentArea() {
    let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(50))
    var section = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    section.contentInsets = EdgeInsets(all: 10)
    section.interGroupSpacing = 10
    section.decorationItems = [.background(kind: "background", contentInsets: EdgeInsets(all: 5))]
    let layout = prepared(section, counts: [2])
    // Content: 10 + 50 + 10 + 50 + 10 = 130 tall, full width; inset by 5.
    let background = layout.allAttributes.first { $0.category == .decoration(kind: "background") }
    #expect(background?.frame == Rect(x: 5, y: 5, width: 390, height: 120))
    #expect(background?.zIndex == -1)
  }

  @Test func groupSupplementariesAreAnchoredToTheirGroupAndNumberedAsItsFirstItem() {
    let half = LayoutItem(
      size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))
    let corner = LayoutSupplementaryItem(
      kind: "group-badge", size: LayoutSize(width: .absolute(20), height: .absolute(10)),
      anchor: LayoutAnchor(edges: [.top, .trailing], offset: .absolute(x: -2, y: 3)))
    let pair = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(100)), subitems: [.item(half)]
    )
    .supplementaryItems([corner])
    var section = LayoutSection(group: pair)
    section.interGroupSpacing = 8
    let layout = prepared(section, counts: [3], width: 200)
    // Groups at y 0 (items 0, 1) and 108 (item 2, a partly filled group of full size); the badge
    // at the top-trailing corner, 20 × 10, moved 2 left and 3 down: x 200 - 20 - 2, y 0 + 3.
    #expect(
      layout.attributesForSupplementary(ofKind: "group-badge", at: IndexPath(item: 0, section: 0))?
        .frame == Rect(x: 178, y: 3, width: 20, height: 10))
    #expect(
      layout.attributesForSupplementary(ofKind: "group-badge", at: IndexPath(item: 2, section: 0))?
        .frame == Rect(x: 178, y: 111, width: 20, height: 10))
    #expect(
      layout.attributesForSupplementary(ofKind: "group-badge", at: IndexPath(item: 1, section: 0))
        == nil)
    let all = layout.allAttributes.filter { $0.category == .supplementary(kind: "group-badge") }
    #expect(
      all.map(\.indexPath) == [IndexPath(item: 0, section: 0), IndexPath(item: 2, section: 0)])
  }

  @Test func itemBadgesAreAnchoredToTheirItem() {
    let badge = LayoutSupplementaryItem(
      kind: "badge", size: LayoutSize(width: .absolute(20), height: .absolute(20)),
      anchor: LayoutAnchor(edges: [.top, .trailing], offset: .fractional(x: 0.5, y: -0.5)))
    let item = LayoutItem(
      size: LayoutSize(width: .absolute(100), height: .absolute(100)), supplementaryItems: [badge])
    let group = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(100)), subitems: [.item(item)])
    let layout = prepared(LayoutSection(group: group), counts: [2])
    // Top-trailing corner of (0, 0, 100, 100) is x 80, y 0 for a 20-point badge; half outside.
    #expect(
      layout.attributesForSupplementary(ofKind: "badge", at: IndexPath(item: 0, section: 0))?.frame
        == Rect(x: 90, y: -10, width: 20, height: 20))
    #expect(
      layout.attributesForSupplementary(ofKind: "badge", at: IndexPath(item: 1, section: 0))?.frame
        == Rect(x: 190, y: -10, width: 20, height: 20))
    let visible = layout.attributes(
      in: Rect(x: 95, y: -12, width: 5, height: 5),
      viewport: Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(visible.map(\.category) == [.supplementary(kind: "badge")])
  }

  @Test func aLayoutWideHeaderWithInterSectionSpacing() {
    let row = LayoutSize(width: .fractionalWidth(1), height: .absolute(50))
    let section = LayoutSection(
      group: .vertical(size: row, subitems: [.item(LayoutItem(size: row))]))
    let configuration = CompositionalLayout.Configuration(
      interSectionSpacing: 20,
      boundarySupplementaryItems: [
        BoundarySupplementaryItem(
          kind: "banner", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
          alignment: .top)
      ])
    let layout = prepared(section, counts: [1, 1], configuration: configuration)
    #expect(
      layout.attributesForSupplementary(ofKind: "banner", at: IndexPath(item: 0, section: 0))?.frame
        == Rect(x: 0, y: 0, width: 400, height: 40))
    #expect(frames(layout, section: 0, count: 1).map(\.minY) == [40])
    #expect(frames(layout, section: 1, count: 1).map(\.minY) == [110])  // 40 + 50 + 20
    #expect(layout.contentSize.height == 160)
  }

  @Test(arguments: 0..<15 as Range<UInt64>)
  func queriesEqualBruteForceAndAppendsEqualAFullRecompute(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let columns = Double(Int.random(in: 1...4, using: &rng))
    let orthogonalSection = Int.random(in: 0...2, using: &rng)
    let spacing = Double(Int.random(in: 0...12, using: &rng))
    let badged = Bool.random(using: &rng)
    let provider: (Int, LayoutEnvironment) -> LayoutSection = { section, _ in
      let badge = LayoutSupplementaryItem(
        kind: "badge", size: LayoutSize(width: .absolute(10), height: .absolute(10)),
        anchor: LayoutAnchor(edges: [.top, .trailing], offset: .absolute(x: 4, y: -4)))
      let item = LayoutItem(
        size: LayoutSize(width: .fractionalWidth(1 / columns), height: .fractionalHeight(1)),
        contentInsets: EdgeInsets(all: 2), supplementaryItems: badged ? [badge] : [])
      let group = LayoutGroup.horizontal(
        size: LayoutSize(
          width: .fractionalWidth(section == orthogonalSection ? 0.7 : 1), height: .absolute(60)),
        subitems: [.item(item)]
      ).spacing(.fixed(spacing))
      var definition = LayoutSection(group: group)
      definition.interGroupSpacing = spacing
      definition.contentInsets = EdgeInsets(all: 8)
      definition.orthogonalScrollingBehavior = section == orthogonalSection ? .continuous : .none
      definition.boundarySupplementaryItems = [
        BoundarySupplementaryItem(
          kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(24)),
          alignment: .top)
      ]
      definition.decorationItems = [.background(kind: "background")]
      return definition
    }
    var counts = (0..<3).map { _ in Int.random(in: 0...25, using: &rng) }
    // Empty and one-cell containers too: every layout terminates on them.
    let containers = [
      Size(width: 300, height: 600), Size(width: 0, height: 600), Size(width: 300, height: 0),
      Size(width: 1, height: 1), Size(width: 0, height: 0),
    ]
    let container = containers[Int(seed) % containers.count]
    let configuration = CompositionalLayout.Configuration(
      scrollDirection: seed % 2 == 0 ? .vertical : .horizontal)
    var layout = CompositionalLayout(configuration: configuration, sectionProvider: provider)
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: container))
    for step in 0..<6 {
      let section = Int.random(in: 0..<3, using: &rng)
      counts[section] += Int.random(in: 1...10, using: &rng)
      layout.invalidate(
        .itemsAppended(section: section, newCount: counts[section]),
        context: LayoutContext(itemCounts: counts, containerSize: container))
      var full = CompositionalLayout(configuration: configuration, sectionProvider: provider)
      full.prepare(LayoutContext(itemCounts: counts, containerSize: container))
      full.setOrthogonalOffset(
        layout.orthogonalOffset(forSection: orthogonalSection), forSection: orthogonalSection)
      #expect(layout.allAttributes == full.allAttributes, "seed \(seed), step \(step)")
      layout.setOrthogonalOffset(
        Double(Int.random(in: 0...400, using: &rng)), forSection: orthogonalSection)
      let all = layout.allAttributes
      for _ in 0..<10 {
        let rect = Rect(
          x: Double(Int.random(in: -100...400, using: &rng)),
          y: Double(Int.random(in: -20...Int(layout.contentSize.height) + 20, using: &rng)),
          width: Double(Int.random(in: 0...300, using: &rng)),
          height: Double(Int.random(in: 0...400, using: &rng)))
        #expect(
          Set(layout.attributes(in: rect, viewport: rect))
            == Set(all.filter { $0.frame.intersects(rect) }), "seed \(seed), step \(step)")
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

  /// Property: items inserted, deleted or moved within and between a run of sections, then only
  /// those sections laid out again (``LayoutInvalidation/itemsChanged(sections:)``), give what a
  /// full layout gives — every element, the content size, and every query, pinned headers and
  /// footers included — whatever the sections hold (headers, footers, backgrounds, badges, an
  /// orthogonal row), with layout-wide boundary items, in either direction.
  @Test(arguments: 0..<16 as Range<UInt64>)
  func sectionsLaidOutAgainEqualAFullLayout(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let sectionCount = Int.random(in: 2...7, using: &rng)
    let orthogonalSection = Int.random(in: 0..<(sectionCount + 2), using: &rng)
    let columns = Double(Int.random(in: 1...3, using: &rng))
    let pinned = Bool.random(using: &rng)
    // Lists (one column, one height): moving items between sections keeps the run's extent, so
    // the sections after it stand as they are.
    let list = seed / 2 % 2 == 1
    let provider: (Int, LayoutEnvironment) -> LayoutSection = { section, _ in
      let badge = LayoutSupplementaryItem(
        kind: "badge", size: LayoutSize(width: .absolute(6), height: .absolute(6)),
        anchor: LayoutAnchor(edges: [.top, .trailing], offset: .absolute(x: 2, y: -2)))
      let item = LayoutItem(
        size: LayoutSize(
          width: .fractionalWidth(list ? 1 : 1 / columns), height: .fractionalHeight(1)),
        supplementaryItems: section % 3 == 1 ? [badge] : [])
      let group = LayoutGroup.horizontal(
        size: LayoutSize(
          width: .fractionalWidth(section == orthogonalSection ? 0.6 : 1),
          height: .absolute(list ? 10 : Double(10 + 5 * (section % 3)))),
        subitems: [.item(item)])
      var definition = LayoutSection(group: group)
      definition.interGroupSpacing = Double(section % 2) * 3
      definition.interGroupSpacing = list ? 0 : definition.interGroupSpacing
      definition.contentInsets = EdgeInsets(all: list ? 1 : Double(section % 3) * 2)
      definition.orthogonalScrollingBehavior = section == orthogonalSection ? .continuous : .none
      var header = BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(8)),
        alignment: .top)
      header.pinToVisibleBounds = pinned
      var footer = BoundarySupplementaryItem(
        kind: "footer", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(4)),
        alignment: .bottom)
      footer.pinToVisibleBounds = pinned && section % 2 == 0
      definition.boundarySupplementaryItems = section % 4 == 3 ? [] : [header, footer]
      if section % 2 == 0 { definition.decorationItems = [.background(kind: "background")] }
      return definition
    }
    let layoutWide = [
      BoundarySupplementaryItem(
        kind: "banner", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(12)),
        alignment: .top),
      BoundarySupplementaryItem(
        kind: "legal", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(6)),
        alignment: .bottom),
    ]
    let configuration = CompositionalLayout.Configuration(
      scrollDirection: seed % 2 == 0 ? .vertical : .horizontal,
      interSectionSpacing: Double(Int.random(in: 0...6, using: &rng)),
      boundarySupplementaryItems: seed % 4 < 2 ? layoutWide : [])
    let container = Size(width: 200, height: 160)
    var counts = (0..<sectionCount).map { _ in Int.random(in: 0...20, using: &rng) }
    func fresh() -> CompositionalLayout {
      var layout = CompositionalLayout(configuration: configuration, sectionProvider: provider)
      if seed % 3 == 2 { layout.direction = .rightToLeft }
      layout.prepare(LayoutContext(itemCounts: counts, containerSize: container))
      return layout
    }
    var layout = fresh()
    for step in 0..<16 {
      let low = Int.random(in: 0..<sectionCount, using: &rng)
      let high = Int.random(in: low..<sectionCount, using: &rng)
      switch Int.random(in: 0..<3, using: &rng) {
      case 0:
        // Items moved from one section of the run to another: the same total.
        let from = Int.random(in: low...high, using: &rng)
        let moved = Int.random(in: 0...counts[from], using: &rng)
        counts[from] -= moved
        counts[Int.random(in: low...high, using: &rng)] += moved
      case 1:
        counts[Int.random(in: low...high, using: &rng)] += Int.random(in: 1...15, using: &rng)
      default:
        let section = Int.random(in: low...high, using: &rng)
        counts[section] -= Int.random(in: 0...counts[section], using: &rng)
      }
      layout.invalidate(
        .itemsChanged(sections: low...high),
        context: LayoutContext(itemCounts: counts, containerSize: container))
      var full = fresh()
      if orthogonalSection < sectionCount {
        full.setOrthogonalOffset(
          layout.orthogonalOffset(forSection: orthogonalSection), forSection: orthogonalSection)
      }
      let context = "seed \(seed), step \(step), sections \(low)...\(high), counts \(counts)"
      #expect(layout.contentSize == full.contentSize, "\(context)")
      #expect(layout.allAttributes == full.allAttributes, "\(context)")
      let extent = Int(
        configuration.scrollDirection == .vertical
          ? full.contentSize.height : full.contentSize.width)
      for _ in 0..<12 {
        let along = Double(Int.random(in: -20...(extent + 20), using: &rng))
        let length = Double(Int.random(in: 0...200, using: &rng))
        let rect =
          configuration.scrollDirection == .vertical
          ? Rect(x: 0, y: along, width: 200, height: length)
          : Rect(x: along, y: 0, width: length, height: 160)
        #expect(
          Set(layout.attributes(in: rect, viewport: rect))
            == Set(full.attributes(in: rect, viewport: rect)), "\(context), \(rect)")
      }
      if orthogonalSection < sectionCount {
        layout.setOrthogonalOffset(
          Double(Int.random(in: 0...100, using: &rng)), forSection: orthogonalSection)
      }
    }
  }

  private func horizontalLayout(orthogonal: Bool = false) -> CompositionalLayout {
    let item = LayoutItem(
      size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(0.5)))
    let group = LayoutGroup.vertical(
      size: LayoutSize(width: .absolute(100), height: .fractionalHeight(1)), subitems: [.item(item)]
    )
    var section = LayoutSection(group: group)
    section.interGroupSpacing = 10
    section.contentInsets = EdgeInsets(top: 10, leading: 20, bottom: 10, trailing: 0)
    section.orthogonalScrollingBehavior = orthogonal ? .continuous : .none
    section.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .absolute(30), height: .fractionalHeight(1)),
        alignment: .leading)
    ]
    var layout = CompositionalLayout(
      section: section,
      configuration: CompositionalLayout.Configuration(scrollDirection: .horizontal))
    layout.prepare(LayoutContext(itemCounts: [3], containerSize: Size(width: 400, height: 300)))
    return layout
  }

  @Test func aHorizontallyScrollingLayoutStacksGroupsAndSectionsAlongX() {
    let layout = horizontalLayout()
    // Across: 300 less the top and bottom insets = 280, so items are 100 × 140. The leading
    // header takes 30 (at y 10, following the insets); the content starts at 30 + 20 = 50.
    #expect(
      layout.attributesForSupplementary(ofKind: "header", at: IndexPath(item: 0, section: 0))?.frame
        == Rect(x: 0, y: 10, width: 30, height: 280))
    #expect(
      frames(layout, count: 3) == [
        Rect(x: 50, y: 10, width: 100, height: 140), Rect(x: 50, y: 150, width: 100, height: 140),
        Rect(x: 160, y: 10, width: 100, height: 140),
      ])
    #expect(layout.contentSize == Size(width: 260, height: 300))
  }

  @Test func orthogonalSectionsOfAHorizontalLayoutScrollVertically() {
    var layout = horizontalLayout(orthogonal: true)
    // The groups now stack downwards from y 10: 10, 300 (10 + 280 + 10); one column 100 wide.
    #expect(frames(layout, count: 3).map(\.minY) == [10, 150, 300])
    #expect(layout.orthogonalContentLength(forSection: 0) == 590)  // 10 + 280 + 10 + 280 + 10
    layout.setOrthogonalOffset(100, forSection: 0)
    #expect(frames(layout, count: 3).map(\.minY) == [-90, 50, 200])
    #expect(frames(layout, count: 1).map(\.minX) == [50])
  }
}

@Suite struct CompositionalLayoutMoreTests {
  private func frames(_ layout: CompositionalLayout, section: Int = 0, count: Int) -> [Rect] {
    (0..<count).compactMap {
      layout.attributesForItem(at: IndexPath(item: $0, section: section))?.frame
    }
  }

  @Test func aCustomGroupPlacesAnItemAtEachFrameItsProviderReturns() {
    let group = LayoutGroup.custom(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(100))
    ) { size in
      [
        Rect(x: 0, y: 0, width: size.width / 2, height: 100),
        Rect(x: size.width / 2, y: 50, width: size.width / 2, height: 50),
      ]
    }
    var layout = CompositionalLayout(section: LayoutSection(group: group))
    layout.prepare(LayoutContext(itemCounts: [3], containerSize: Size(width: 200, height: 500)))
    #expect(
      frames(layout, count: 3) == [
        Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 100, y: 50, width: 100, height: 50),
        Rect(x: 0, y: 100, width: 100, height: 100),
      ])
  }

  private func carousel(_ behavior: OrthogonalScrollingBehavior) -> CompositionalLayout {
    // Groups 150 wide, 10 apart, insets 20: leading edges 0, 160, 320, 480; row 20 + 4 × 150 + 3 × 10
    // + 20 = 670 long in a 300-wide container, so offsets run from 0 to 370.
    let item = LayoutItem(
      size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)))
    let group = LayoutGroup.horizontal(
      size: LayoutSize(width: .absolute(150), height: .absolute(50)), subitems: [.item(item)])
    var section = LayoutSection(group: group)
    section.orthogonalScrollingBehavior = behavior
    section.interGroupSpacing = 10
    section.contentInsets = EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
    var layout = CompositionalLayout(section: section)
    layout.prepare(LayoutContext(itemCounts: [4], containerSize: Size(width: 300, height: 500)))
    return layout
  }

  @Test func everyOrthogonalBehaviourHasItsRestingPoints() {
    #expect(carousel(.none).targetOrthogonalOffset(forSection: 0, proposed: 123, velocity: 0) == 0)
    #expect(
      carousel(.continuous).targetOrthogonalOffset(forSection: 0, proposed: 123, velocity: 0) == 123
    )
    #expect(
      carousel(.continuous).targetOrthogonalOffset(forSection: 0, proposed: 999, velocity: 0) == 370
    )
    #expect(
      carousel(.continuousGroupLeadingBoundary).targetOrthogonalOffset(
        forSection: 0, proposed: 123, velocity: 0) == 160)
    // Paging by the 300-point width: pages 0, 300 (and 600 clamped to 370).
    #expect(
      carousel(.paging).targetOrthogonalOffset(forSection: 0, proposed: 140, velocity: 0) == 0)
    #expect(
      carousel(.paging).targetOrthogonalOffset(forSection: 0, proposed: 140, velocity: 1) == 300)
    #expect(
      carousel(.groupPaging).targetOrthogonalOffset(forSection: 0, proposed: 250, velocity: 0)
        == 320)
    // Centred: a group's centre (20 + edge + 75) at the view's centre (150): offsets edge − 55.
    #expect(
      carousel(.groupPagingCentered).targetOrthogonalOffset(
        forSection: 0, proposed: 100, velocity: 0) == 105)
    #expect(
      carousel(.groupPagingCentered).targetOrthogonalOffset(forSection: 0, proposed: 0, velocity: 0)
        == 0)
  }

  @Test func rightToLeftMirrorsEveryFrame() {
    let item = LayoutItem(size: LayoutSize(width: .absolute(100), height: .absolute(40)))
    let group = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)), subitems: [.item(item)])
    var section = LayoutSection(group: group)
    section.contentInsets = EdgeInsets(top: 0, leading: 10, bottom: 0, trailing: 0)
    var layout = CompositionalLayout(section: section)
    layout.direction = .rightToLeft
    layout.prepare(LayoutContext(itemCounts: [2], containerSize: Size(width: 300, height: 500)))
    // Left to right at x 10 and 110; mirrored across 300: 190 and 90.
    #expect(frames(layout, count: 2).map(\.minX) == [190, 90])
    let visible = layout.attributes(
      in: Rect(x: 250, y: 0, width: 50, height: 40),
      viewport: Rect(x: 0, y: 0, width: 300, height: 500))
    #expect(visible.map(\.indexPath.item) == [0])
  }
}

@Suite struct SectionPresetTests {
  @Test func rowsAreFullWidthAtTheirHeight() {
    var layout = CompositionalLayout(section: .rows(height: 2, spacing: 1))
    layout.prepare(LayoutContext(itemCounts: [3], containerSize: Size(width: 40, height: 10)))
    let frames = (0..<3).compactMap {
      layout.attributesForItem(at: IndexPath(item: $0, section: 0))?.frame
    }
    #expect(
      frames == [
        Rect(x: 0, y: 0, width: 40, height: 2), Rect(x: 0, y: 3, width: 40, height: 2),
        Rect(x: 0, y: 6, width: 40, height: 2),
      ])
  }

  @Test func chipsTakeTheirMeasuredWidthsAndScrollSideways() {
    let widths: [Double] = [5, 14, 6, 20]
    var layout = CompositionalLayout(section: .chips(height: 1, spacing: 1))
    layout.prepare(
      LayoutContext(itemCounts: [4], containerSize: Size(width: 30, height: 10)) {
        indexPath, size in
        Size(width: widths[indexPath.item], height: size.height)
      })
    let frames = (0..<4).compactMap {
      layout.attributesForItem(at: IndexPath(item: $0, section: 0))?.frame
    }
    #expect(frames.map(\.minX) == [0, 6, 21, 28])
    #expect(frames.allSatisfy { $0.minY == 0 && $0.height == 1 })
    #expect(layout.scrollsOrthogonally(section: 0))
    #expect(layout.contentSize.height == 1)
    layout.setOrthogonalOffset(100, forSection: 0)
    // 5 + 14 + 6 + 20 + 3 spaces = 48 wide in a 30-wide view: at most 18 to the side.
    #expect(layout.orthogonalOffset(forSection: 0) == 18)
  }
}
