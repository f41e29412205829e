import Trellis
import TrellisTerminal

/// A sticky bar of milestone chips over a list of issues with sticky section headers.
///
/// Left/right move along the chips, Enter selects one, and the list follows at once.
@MainActor
final class MilestoneScreen: GalleryScreen {
  enum Chip: Hashable {
    case all
    case noMilestone
    case milestone(String)
  }

  let title = "Milestones"
  let hint = "←→ chips · Enter select · ↑↓ PgUp PgDn Home End issues"
  private let chips: CollectionView<Int, Chip>
  private let list: CollectionView<String, Int>
  private var area = CellRect(x: 0, y: 0, width: 0, height: 0)
  private let issues = Dictionary(uniqueKeysWithValues: SampleData.issues.map { ($0.number, $0) })
  private let chipOrder: [Chip]
  private let counts: [Chip: Int]

  init() {
    var counts: [Chip: Int] = [.all: SampleData.issues.count]
    for issue in SampleData.issues {
      counts[issue.milestone.map(Chip.milestone) ?? .noMilestone, default: 0] += 1
    }
    self.counts = counts
    let order: [Chip] = [.all, .noMilestone] + SampleData.milestones.map { .milestone($0.title) }
    chipOrder = order
    let closed = Set(SampleData.milestones.filter { !$0.isOpen }.map(\.title))
    chips = CollectionView(layout: Self.chipLayout()) { _, chip in
      ChipCell(
        title: Self.title(of: chip), count: counts[chip] ?? 0,
        isMuted: { if case .milestone(let name) = chip { closed.contains(name) } else { false } }())
    }
    chips.navigationKeys = .standard
    chips.measure = { indexPath, proposed in
      let chip = order[indexPath.item]
      return Size(
        width: ChipCell.width(title: Self.title(of: chip), count: counts[chip] ?? 0),
        height: proposed.height)
    }
    let issues = self.issues
    list = CollectionView(layout: Self.listLayout(), selection: .none) { _, number in
      guard let issue = issues[number] else { return RowCell(leading: "", title: "", trailing: "") }
      return RowCell(
        leading: "#\(issue.number)".padding(5), title: issue.title,
        trailing: "\(issue.author)  💬\(issue.comments)",
        leadingStyle: Style(foreground: issue.isOpen ? .green : .magenta))
    }
    list.navigationKeys = .standard
    chips.onSelect = { [weak self] chip in self?.show(chip) }
    chips.dataSource.apply(Snapshot(sections: [(0, order)]))
    chips.activate(.all)
  }

  static func title(of chip: Chip) -> String {
    switch chip {
    case .all: "All"
    case .noMilestone: "No milestone"
    case .milestone(let name): name
    }
  }

  static func chipLayout() -> CompositionalLayout {
    var section = LayoutSection.chips(height: 1, estimatedWidth: 8, spacing: 1)
    section.contentInsets = EdgeInsets(leading: 1, trailing: 1)
    return CompositionalLayout(section: section)
  }

  static func listLayout() -> CompositionalLayout {
    var section = LayoutSection.rows(height: 1)
    section.boundarySupplementaryItems = [
      .header(height: 1, pinned: true)
    ]
    return CompositionalLayout(section: section)
  }

  /// Filters the list by a chip: sections by milestone for "All", by state otherwise.
  private func show(_ chip: Chip) {
    let matching = SampleData.issues.filter { issue in
      switch chip {
      case .all: true
      case .noMilestone: issue.milestone == nil
      case .milestone(let name): issue.milestone == name
      }
    }
    var sections: [(String, [Int])] = []
    if chip == .all {
      for milestone in SampleData.milestones.map(\.title) + ["No milestone"] {
        let numbers = matching.filter { ($0.milestone ?? "No milestone") == milestone }
          .map(\.number)
        if !numbers.isEmpty { sections.append((milestone, numbers)) }
      }
    } else {
      let open = matching.filter(\.isOpen).map(\.number)
      let closed = matching.filter { !$0.isOpen }.map(\.number)
      if !open.isEmpty { sections.append(("Open", open)) }
      if !closed.isEmpty { sections.append(("Closed", closed)) }
    }
    let counts = Dictionary(uniqueKeysWithValues: sections.map { ($0.0, $0.1.count) })
    list.dataSource.supplementaryProvider = { _, _, section in
      HeaderCell(title: section, detail: "\(counts[section] ?? 0) issues")
    }
    var snapshot = Snapshot(sections: sections)
    // Headers show counts: sections that stay are redrawn with their new count.
    snapshot.reloadSections(
      sections.map(\.0).filter { list.dataSource.snapshot().indexOfSection($0) != nil })
    list.dataSource.apply(snapshot)
    list.focus(sections.first?.1.first)
  }

  func place(in area: CellRect) {
    self.area = area
    chips.frame = CellRect(x: area.x, y: area.y, width: area.width, height: 1)
    list.frame = CellRect(
      x: area.x, y: area.y + 2, width: area.width, height: max(0, area.height - 2))
  }

  func handle(_ event: InputEvent) -> Bool {
    switch event {
    case .key(let key) where key.key == .left || key.key == .right || key.key == .enter:
      return chips.handle(event)
    case .mouse(let mouse) where chips.frame.contains(x: mouse.x, y: mouse.y):
      return chips.handle(event)
    default:
      return list.handle(event)
    }
  }

  func tick() {}

  func render(into screen: inout CellBuffer) {
    chips.render(into: &screen)
    screen.draw(in: CellRect(x: area.x, y: area.y + 1, width: area.width, height: 1)) {
      $0.fill(with: "─", style: Palette.dim)
    }
    list.render(into: &screen)
  }

  var statistics: RenderStatistics {
    var total = chips.statistics
    total.drawn += list.statistics.drawn
    total.reused += list.statistics.reused
    total.layoutQueries += list.statistics.layoutQueries
    return total
  }
}

extension String {
  /// The string padded with spaces to a display width.
  func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - DisplayWidth.of(self)))
  }
}
