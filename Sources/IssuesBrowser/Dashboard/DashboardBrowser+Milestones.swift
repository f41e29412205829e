import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// The milestone chips of a section that reads one repository: its items by milestone, as the
// repository's own browser shows them, with counts from the section's answer.

extension DashboardBrowser {
  /// The repository the section shown reads alone, as an index into the dashboard's
  /// repositories; `nil` when it reads several (or none).
  var chipRepository: Int? {
    let query = sections[selected].query.resolvingHosts(among: dashboard.sources)
    guard query.singleRepository != nil else { return nil }
    let reached = dashboard.repositories.indices.filter {
      query.includes(
        dashboard.repositories[$0].source.repository,
        host: dashboard.repositories[$0].source.host.name)
    }
    return reached.count == 1 ? reached[0] : nil
  }

  /// The milestone chosen in the section shown.
  package var milestoneFilter: MilestoneFilter {
    model.chosenChip(hasChips: chipRepository != nil)
  }

  /// The chips for the section shown: All, No milestone, then its repository's milestones that
  /// hold one of its items (open ones first by due date, as the cache orders them).
  func chipOrder() -> [MilestoneFilter] {
    guard let source = chipRepository else { return [] }
    return model.chipOrder(milestones: milestones[source] ?? [])
  }

  /// Shows the chips of the section shown, or hides them.
  func showChips() {
    guard let source = chipRepository else {
      if chips.dataSource.snapshot().numberOfItems > 0 {
        chips.dataSource.applySnapshotUsingReloadData(Snapshot())
      }
      place()
      return
    }
    let counts = model.chipCounts
    let byNumber = Dictionary(
      (milestones[source] ?? []).map { ($0.number, $0) }
    ) { first, _ in first }
    func title(_ filter: MilestoneFilter) -> String {
      switch filter {
      case .all: "All"
      case .withMilestone: "Any milestone"
      case .withoutMilestone: "No milestone"
      case .number(let number): byNumber[number]?.title ?? "Milestone \(number)"
      }
    }
    let order = chipOrder()
    chipCells.make = { _, filter in
      let closed = if case .number(let n) = filter { byNumber[n]?.state == .closed } else { false }
      return ChipCell(title: title(filter), count: counts[filter] ?? 0, isClosed: closed)
    }
    chips.measure = { indexPath, proposed in
      guard order.indices.contains(indexPath.item) else { return proposed }
      let filter = order[indexPath.item]
      return Size(
        width: Double(ChipCell.width(title: title(filter), count: counts[filter] ?? 0)), height: 1)
    }
    if !order.contains(milestoneFilter) { model.choose(.all) }
    let chosen = milestoneFilter
    var snapshot = Snapshot<Int, MilestoneFilter>(sections: [(0, order)])
    snapshot.reconfigureItems(order.filter { chips.dataSource.indexPath(for: $0) != nil })
    chips.layout = DashboardBrowser.tabLayout()
    chips.dataSource.apply(snapshot)
    if chips.selection.selectedIdentifiers != [chosen] { chips.selection.select(chosen) }
    chips.focus(chosen)
    place()
  }

  /// Chooses the chip `offset` places along (`[` and `]`), or one clicked.
  func moveAlongChips(by offset: Int) {
    let order = chipOrder()
    guard !order.isEmpty else {
      show(message: "Milestone chips are shown when a section reads one repository (repo:).")
      return
    }
    let current = order.firstIndex(of: milestoneFilter) ?? 0
    chooseChip(order[max(0, min(order.count - 1, current + offset))])
  }

  func chooseChip(_ filter: MilestoneFilter) {
    guard filter != milestoneFilter else { return }
    model.choose(filter)
    showChips()
    showList(focusFirst: true)
  }
}
