import Trellis
import TrellisTerminal

/// A store front: a compositional screen — a featured row that pages sideways, a grid of nested groups
/// (one large card beside two small ones), a row of tags that scrolls on its own, and a list.
@MainActor
final class CompositionalScreen: GalleryScreen {
  enum Section: Int, CaseIterable {
    case featured, grid, tags, list

    var title: String {
      switch self {
      case .featured: "Featured — pages sideways"
      case .grid: "Nested groups — one large, two small"
      case .tags: "Tags — scroll on their own"
      case .list: "List"
      }
    }
  }

  struct Item: Hashable {
    var section: Section
    var index: Int
  }

  let title = "Compositional"
  let hint = "↑↓←→ move · Enter select · rows scroll sideways"
  private let view: CollectionView<Section, Item>
  private static let tags = [
    "swift", "terminal", "레이아웃", "diff", "😃 emoji", "snapshot", "sticky", "chips", "한국어",
    "waterfall", "compositional", "orthogonal", "focus", "selection", "批量更新",
  ]

  init() {
    let texts = (0..<40).map { index in
      var generator = SampleData.Generator(state: UInt64(index + 100))
      return SampleData.sentence(&generator, words: 6 + generator.next(10))
    }
    let colors: [Color] = [.cyan, .magenta, .yellow, .green, .blue]
    view = CollectionView(layout: Self.layout()) { _, item in
      switch item.section {
      case .featured:
        CardCell(title: "Featured \(item.index + 1)", body: texts[item.index], color: .yellow)
      case .grid:
        CardCell(
          title: item.index % 3 == 0 ? "Large \(item.index / 3 + 1)" : "Small \(item.index + 1)",
          body: texts[item.index + 10], color: colors[item.index % colors.count])
      case .tags:
        ChipCell(title: Self.tags[item.index], count: nil)
      case .list:
        RowCell(leading: "\(item.index + 1)".padding(3), title: texts[item.index], trailing: "")
      }
    }
    view.navigationKeys = .standard
    view.measure = { indexPath, proposed in
      guard indexPath.section == Section.tags.rawValue else { return proposed }
      return Size(
        width: ChipCell.width(title: Self.tags[indexPath.item], count: nil), height: 1)
    }
    view.dataSource.supplementaryProvider = { _, _, section in HeaderCell(title: section.title) }
    view.decorationProvider = { _, _, _ in BackgroundCell(style: Style(background: .indexed(234))) }
    let counts: [Section: Int] = [.featured: 6, .grid: 9, .tags: Self.tags.count, .list: 20]
    view.dataSource.apply(
      Snapshot(
        sections: Section.allCases.map { section in
          (section, (0..<(counts[section] ?? 0)).map { Item(section: section, index: $0) })
        }))
    view.focus(Item(section: .featured, index: 0))
  }

  static func layout() -> CompositionalLayout {
    var configuration = CompositionalLayout.Configuration()
    configuration.interSectionSpacing = 1
    return CompositionalLayout(configuration: configuration) { index, _ in
      let header = BoundarySupplementaryItem(
        kind: SupplementaryKind.header,
        size: LayoutSize(width: .fractionalWidth(1), height: .absolute(1)), alignment: .top)
      var section: LayoutSection
      switch Section(rawValue: index) ?? .list {
      case .featured:
        let item = LayoutItem(
          size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)))
        let group = LayoutGroup.horizontal(
          size: LayoutSize(width: .fractionalWidth(0.8), height: .absolute(6)),
          subitems: [.item(item)])
        section = LayoutSection(group: group)
        section.interGroupSpacing = 2
        section.orthogonalScrollingBehavior = .groupPagingCentered
      case .grid:
        let large = LayoutItem(
          size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
          contentInsets: EdgeInsets(trailing: 1))
        let small = LayoutItem(
          size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(0.5)))
        let pair = LayoutGroup.vertical(
          size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
          subitems: [.item(small), .item(small)])
        let group = LayoutGroup.horizontal(
          size: LayoutSize(width: .fractionalWidth(1), height: .absolute(10)),
          subitems: [.item(large), .group(pair)])
        section = LayoutSection(group: group)
        section.decorationItems = [.background(kind: "background")]
      case .tags:
        section = .chips(height: 1, estimatedWidth: 8, spacing: 1)
      case .list:
        section = .rows(height: 1)
      }
      section.contentInsets = EdgeInsets(leading: 1, trailing: 1)
      section.boundarySupplementaryItems = [header]
      return section
    }
  }

  func place(in area: CellRect) { view.frame = area }
  func handle(_ event: InputEvent) -> Bool { view.handle(event) }
  func tick() {}
  func render(into screen: inout CellBuffer) { view.render(into: &screen) }
  var statistics: RenderStatistics { view.statistics }
}
