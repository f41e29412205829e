import Testing
import Trellis
import TrellisTestSupport

/// Every layout's rectangle queries against a brute-force filter over all its elements, at sizes
/// that cross the store's chunk (4,096 items) and block (32) boundaries, with every element kind:
/// headers, footers, backgrounds spanning thousands of items, badges, layout-wide boundary items,
/// pinned headers, orthogonal rows at random offsets, both axes and right-to-left.
@Suite struct LargeLayoutQueryTests {
  /// A random rectangle around the content, sometimes empty, sometimes much larger.
  private func randomRect(_ rng: inout SplitMix64, content: Size) -> Rect {
    let x = Double(Int.random(in: -100...Int(content.width) + 100, using: &rng))
    let y = Double(Int.random(in: -100...Int(content.height) + 100, using: &rng))
    let scale = Int.random(in: 0..<10, using: &rng) == 0 ? 20 : 1
    return Rect(
      x: x, y: y, width: Double(Int.random(in: 0...500 * scale, using: &rng)),
      height: Double(Int.random(in: 0...900 * scale, using: &rng)))
  }

  /// A query equals the brute-force filter, in the same order.
  private func expectQueriesMatch(
    _ layout: some CollectionLayout, all: [LayoutAttributes], _ rng: inout SplitMix64,
    _ comment: Comment
  ) {
    for _ in 0..<12 {
      let rect = randomRect(&rng, content: layout.contentSize)
      #expect(
        layout.attributes(in: rect, viewport: rect) == all.filter { $0.frame.intersects(rect) },
        "\(comment), \(rect)")
    }
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func waterfallQueriesEqualBruteForce(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var counts = (0..<3).map { _ in Int.random(in: 0...5000, using: &rng) }
    var layout = WaterfallLayout()
    let columns = (0..<3).map { _ in Int.random(in: 1...5, using: &rng) }
    layout.columnCount = { columns[$0] }
    layout.headerHeight = { section, _ in section == 1 ? 0 : 30 }
    layout.footerHeight = { _, _ in 12 }
    layout.itemHeight = .height { path, _ in Double((path.item * 37 + path.section) % 200 + 1) }
    layout.direction = seed % 2 == 0 ? .leftToRight : .rightToLeft
    let container = Size(width: 390, height: 844)
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: container))
    for step in 0..<4 {
      expectQueriesMatch(layout, all: layout.allAttributes, &rng, "seed \(seed), step \(step)")
      counts[2] += Int.random(in: 1...3000, using: &rng)
      layout.invalidate(
        .itemsAppended(section: 2, newCount: counts[2]),
        context: LayoutContext(itemCounts: counts, containerSize: container))
    }
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func flowQueriesEqualBruteForce(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let counts = (0..<3).map { _ in Int.random(in: 0...4000, using: &rng) }
    var layout = FlowLayout(scrollDirection: seed % 2 == 0 ? .vertical : .horizontal)
    layout.itemSize = .perItem { path in
      Size(width: Double((path.item * 13) % 90 + 10), height: Double((path.item * 7) % 60 + 10))
    }
    layout.headerSize = { _ in 25 }
    layout.footerSize = { $0 == 1 ? 15 : 0 }
    layout.sectionInset = EdgeInsets(all: 4)
    layout.direction = seed % 3 == 0 ? .rightToLeft : .leftToRight
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: Size(width: 390, height: 600)))
    expectQueriesMatch(layout, all: layout.allAttributes, &rng, "seed \(seed)")
  }

  /// A list under a background and a pinned header, a chip row with badges that scrolls
  /// sideways, and a grid; layout-wide header and footer.
  private func compositional(seed: UInt64) -> CompositionalLayout {
    let fill = LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))
    let badge = LayoutSupplementaryItem(
      kind: "badge", size: LayoutSize(width: .absolute(10), height: .absolute(10)),
      anchor: LayoutAnchor(edges: [.top, .trailing], offset: .absolute(x: 4, y: -4)))
    let vertical = seed % 2 == 0
    let across = { (length: Double) in
      vertical
        ? LayoutSize(width: .fractionalWidth(1), height: .absolute(length))
        : LayoutSize(width: .absolute(length), height: .fractionalHeight(1))
    }
    var list = LayoutSection(
      group: .horizontal(size: across(44), subitems: [.item(LayoutItem(size: fill))]))
    list.decorationItems = [.background(kind: "background", contentInsets: EdgeInsets(all: 2))]
    list.itemSeparator = ItemSeparator(insets: EdgeInsets(leading: 12, trailing: 4))
    list.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: across(30), alignment: vertical ? .top : .leading,
        pinToVisibleBounds: true),
      BoundarySupplementaryItem(
        kind: "footer", size: across(20), alignment: vertical ? .bottom : .trailing),
    ]
    let chip = LayoutItem(size: fill, supplementaryItems: [badge])
    var chips = LayoutSection(
      group: .horizontal(
        size: LayoutSize(width: .absolute(70), height: .absolute(32)), subitems: [.item(chip)]))
    chips.orthogonalScrollingBehavior = .continuous
    chips.interGroupSpacing = 6
    chips.decorationItems = [.background(kind: "background")]
    let cell = LayoutItem(
      size: LayoutSize(width: .fractionalWidth(1.0 / 3), height: .fractionalHeight(1)),
      contentInsets: EdgeInsets(all: 2))
    let rowBadge = LayoutSupplementaryItem(
      kind: "row-badge", size: LayoutSize(width: .absolute(12), height: .absolute(12)),
      anchor: LayoutAnchor(edges: [.bottom, .leading]))
    let grid = LayoutSection(
      group: LayoutGroup.horizontal(
        size: vertical
          ? LayoutSize(width: .fractionalWidth(1), height: .fractionalWidth(1.0 / 3))
          : LayoutSize(width: .fractionalHeight(1.0 / 3), height: .fractionalHeight(1)),
        subitems: [.item(cell)]
      )
      .supplementaryItems([rowBadge]))
    let configuration = CompositionalLayout.Configuration(
      scrollDirection: vertical ? .vertical : .horizontal, interSectionSpacing: 10,
      boundarySupplementaryItems: [
        BoundarySupplementaryItem(
          kind: "layout-header", size: across(50), alignment: vertical ? .top : .leading),
        BoundarySupplementaryItem(
          kind: "layout-footer", size: across(50), alignment: vertical ? .bottom : .trailing),
      ])
    var layout = CompositionalLayout(configuration: configuration) { section, _ in
      [list, chips, grid][section % 3]
    }
    layout.direction = seed % 3 == 0 ? .rightToLeft : .leftToRight
    return layout
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func compositionalQueriesEqualBruteForce(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var counts = (0..<6).map { _ in Int.random(in: 0...3000, using: &rng) }
    var layout = compositional(seed: seed)
    let container = Size(width: 390, height: 844)
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: container))
    // Past the content and every row scrolled sideways.
    let everything = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
    for step in 0..<4 {
      for section in [1, 4] {
        let length = layout.orthogonalContentLength(forSection: section)
        layout.setOrthogonalOffset(
          Double(Int.random(in: 0...Int(length), using: &rng)), forSection: section)
      }
      let all = layout.allAttributes
      #expect(
        Set(layout.attributes(in: everything, viewport: Rect(origin: .zero, size: container)))
          == Set(all), "seed \(seed), step \(step)")
      for _ in 0..<12 {
        // Pinned headers depend on the viewport: a rectangle's query is the viewport's whole set
        // filtered by the rectangle.
        let rect = randomRect(&rng, content: layout.contentSize)
        let viewport = randomRect(&rng, content: layout.contentSize)
        #expect(
          layout.attributes(in: rect, viewport: viewport)
            == layout.attributes(in: everything, viewport: viewport).filter {
              $0.frame.intersects(rect)
            }, "seed \(seed), step \(step), \(rect) in \(viewport)")
      }
      // Move items between the first two lists (a milestone move), or grow a chip row.
      if step % 2 == 0 {
        let moved = Int.random(in: 0...counts[0], using: &rng)
        counts[0] -= moved
        counts[3] += moved
        layout.invalidate(
          .itemsChanged(sections: 0...3),
          context: LayoutContext(itemCounts: counts, containerSize: container))
      } else {
        counts[4] += Int.random(in: 1...2000, using: &rng)
        layout.invalidate(
          .itemsAppended(section: 4, newCount: counts[4]),
          context: LayoutContext(itemCounts: counts, containerSize: container))
      }
      var full = compositional(seed: seed)
      full.prepare(LayoutContext(itemCounts: counts, containerSize: container))
      for section in [1, 4] {
        full.setOrthogonalOffset(layout.orthogonalOffset(forSection: section), forSection: section)
      }
      #expect(layout.allAttributes == full.allAttributes, "seed \(seed), step \(step)")
    }
  }

  @Test func movingItemsBetweenTwoLargeSectionsEqualsAFullLayout() {
    // The in-place path: as many items as before across the run, no orthogonal section.
    var rng = SplitMix64(seed: 99)
    let row = LayoutGroup.horizontal(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(1)),
      subitems: [
        .item(
          LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))))
      ])
    var section = LayoutSection(group: row)
    section.boundarySupplementaryItems = [.header(height: 2, pinned: true)]
    section.decorationItems = [.background(kind: "background")]
    var counts = [5000, 3000, 4500, 100]
    var layout = CompositionalLayout(section: section)
    let container = Size(width: 100, height: 50)
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: container))
    for step in 0..<10 {
      let from = Int.random(in: 0..<3, using: &rng)
      let to = Int.random(in: 0..<3, using: &rng)
      let moved = Int.random(in: 0...min(counts[from], 500), using: &rng)
      counts[from] -= moved
      counts[to] += moved
      layout.invalidate(
        .itemsChanged(sections: min(from, to)...max(from, to)),
        context: LayoutContext(itemCounts: counts, containerSize: container))
      var full = CompositionalLayout(section: section)
      full.prepare(LayoutContext(itemCounts: counts, containerSize: container))
      let all = full.allAttributes
      #expect(layout.allAttributes == all, "step \(step)")
      for _ in 0..<12 {
        let rect = randomRect(&rng, content: layout.contentSize)
        #expect(
          Set(layout.attributes(in: rect, viewport: rect))
            == Set(full.attributes(in: rect, viewport: rect)), "step \(step), \(rect)")
      }
    }
  }
}
