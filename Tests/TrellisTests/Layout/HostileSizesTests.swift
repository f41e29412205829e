import Testing
import Trellis
import TrellisTestSupport

/// Layouts fed sizes no sane caller gives — not-a-number, infinities, negatives, huge values,
/// zero containers — must neither trap nor loop: they lay out, answer queries and scroll.
@Suite struct HostileSizesTests {
  private static let values: [Double] = [
    .nan, .infinity, -.infinity, -50, 0, 1e300, -1e300, .leastNonzeroMagnitude, 44, 120,
  ]

  private func value(_ rng: inout SplitMix64) -> Double {
    Self.values[Int.random(in: 0..<Self.values.count, using: &rng)]
  }

  private func exercise(_ layout: inout some CollectionLayout, _ rng: inout SplitMix64) {
    let rects = [
      Rect(x: 0, y: 0, width: 390, height: 844), Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9),
      Rect(x: .nan, y: 0, width: 10, height: 10),
      Rect(x: 0, y: -.infinity, width: .infinity, height: .infinity),
    ]
    for rect in rects {
      _ = layout.attributes(in: rect, viewport: rect)
    }
    _ = layout.allAttributes(ofLayout: layout)
    for section in 0..<3 where layout.scrollsOrthogonally(section: section) {
      layout.setOrthogonalOffset(value(&rng), forSection: section)
      _ = layout.attributes(in: rects[0], viewport: rects[0])
    }
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func everyLayoutSurvivesHostileSizes(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let sizes = (0..<64).map { _ in Size(width: value(&rng), height: value(&rng)) }
    let containers = [
      Size(width: 390, height: 844), Size(width: 0, height: 0), Size(width: .nan, height: 100),
      Size(width: 1e300, height: 1e300), Size(width: -10, height: 844),
    ]
    let container = containers[Int(seed) % containers.count]
    let counts = [Int.random(in: 0...40, using: &rng), Int.random(in: 0...40, using: &rng), 5]
    let context = LayoutContext(
      itemCounts: counts, containerSize: container,
      measure: { path, _ in sizes[(path.item + path.section) % sizes.count] },
      measureSupplementary: { _, path, _ in sizes[path.section % sizes.count] })

    var waterfall = WaterfallLayout()
    waterfall.columnCount = { _ in 3 }
    waterfall.columnSpacing = value(&rng)
    waterfall.itemHeight = .height { path, _ in sizes[path.item % sizes.count].height }
    waterfall.headerHeight = { section, _ in sizes[section % sizes.count].height }
    waterfall.prepare(context)
    exercise(&waterfall, &rng)

    for direction in [ScrollDirection.vertical, .horizontal] {
      var flow = FlowLayout(scrollDirection: direction)
      flow.itemSize = .perItem { sizes[$0.item % sizes.count] }
      flow.minimumInteritemSpacing = value(&rng)
      flow.headerSize = { sizes[$0 % sizes.count].width }
      flow.pinsSectionHeaders = true
      flow.pinsSectionFooters = true
      flow.prepare(context)
      exercise(&flow, &rng)
    }

    let estimated = LayoutSize(width: .estimated(80), height: .estimated(44))
    var chips = LayoutSection(
      group: .horizontal(size: estimated, subitems: [.item(LayoutItem(size: estimated))]))
    chips.orthogonalScrollingBehavior =
      [.paging, .groupPaging, .groupPagingCentered, .continuous][
        Int(seed) % 4]
    chips.interGroupSpacing = value(&rng)
    var list = LayoutSection.list(using: ListConfiguration(appearance: .insetGrouped))
    list.boundarySupplementaryItems.append(
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .estimated(30)),
        alignment: .top, pinToVisibleBounds: true))
    var compositional = CompositionalLayout { section, _ in section == 1 ? chips : list }
    compositional.prepare(context)
    exercise(&compositional, &rng)
    for section in 0..<3 {
      _ = compositional.targetOrthogonalOffset(
        forSection: section, proposed: value(&rng), velocity: value(&rng))
    }
    compositional.invalidate(
      .preferredSize(IndexPath(item: 0, section: 0), Size(width: .nan, height: .infinity)),
      context: context)
    compositional.invalidate(.itemsChanged(sections: 0...1), context: context)
    exercise(&compositional, &rng)
  }
}

extension CollectionLayout {
  /// Every element, through a rectangle that holds anything finite.
  fileprivate func allAttributes(ofLayout layout: Self) -> [LayoutAttributes] {
    let everything = Rect(
      x: -1e308, y: -1e308, width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude)
    return layout.attributes(in: everything, viewport: everything)
  }
}

extension HostileSizesTests {
  @Test func pagingAcrossAnAstronomicallyWideRowDoesNotTrap() {
    let chip = LayoutSize(width: .absolute(1e300), height: .absolute(40))
    var section = LayoutSection(
      group: .horizontal(size: chip, subitems: [.item(LayoutItem(size: chip))]))
    section.orthogonalScrollingBehavior = .paging
    var layout = CompositionalLayout(section: section)
    layout.prepare(LayoutContext(itemCounts: [3], containerSize: Size(width: 390, height: 844)))
    let target = layout.targetOrthogonalOffset(forSection: 0, proposed: 5e299, velocity: 1)
    #expect(target.isFinite)
    #expect(target >= 0)
  }
}

extension HostileSizesTests {
  /// Paging looks only at the page boundaries near the stop and the current offset; it must pick
  /// what choosing among every boundary of the row picks.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func pagingPicksWhatEveryBoundaryWouldGive(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let chip = LayoutSize(
      width: .absolute(Double(Int.random(in: 30...200, using: &rng))), height: .absolute(40))
    var section = LayoutSection(
      group: .horizontal(size: chip, subitems: [.item(LayoutItem(size: chip))]))
    section.orthogonalScrollingBehavior = .paging
    section.interGroupSpacing = Double(Int.random(in: 0...12, using: &rng))
    var layout = CompositionalLayout(section: section)
    let view = Double(Int.random(in: 100...400, using: &rng))
    layout.prepare(
      LayoutContext(
        itemCounts: [Int.random(in: 1...300, using: &rng)],
        containerSize: Size(width: view, height: 844)))
    let maximum = max(0, layout.orthogonalContentLength(forSection: 0) - view)
    for _ in 0..<200 {
      layout.setOrthogonalOffset(
        Double(Int.random(in: -50...Int(maximum) + 50, using: &rng)), forSection: 0)
      let current = layout.orthogonalOffset(forSection: 0)
      let proposed = Double(Int.random(in: -500...Int(maximum) + 500, using: &rng))
      let velocity = Double(Int.random(in: -1...1, using: &rng))
      // Every boundary of the row, as the documentation defines the candidates.
      var boundaries: [Double] = []
      var boundary = 0.0
      while boundary < maximum + view {
        boundaries.append(boundary)
        boundary += view
      }
      let directed =
        velocity > 0
        ? boundaries.filter { $0 > current + 1e-9 }
        : velocity < 0 ? boundaries.filter { $0 < current - 1e-9 } : boundaries
      let pool = directed.isEmpty ? boundaries : directed
      let expected = min(
        max(0, pool.min { abs($0 - proposed) < abs($1 - proposed) } ?? proposed), maximum)
      #expect(
        layout.targetOrthogonalOffset(forSection: 0, proposed: proposed, velocity: velocity)
          == expected,
        "seed \(seed): current \(current), proposed \(proposed), velocity \(velocity)")
    }
  }
}
