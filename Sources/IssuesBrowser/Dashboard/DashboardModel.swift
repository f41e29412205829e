import Foundation
import GitHubIssues
import Trellis

/// The dashboard screen's state as a value: the sections and their answers, the one shown, each
/// section's grouping and milestone chip, the message and the `?` overlay — and what the list,
/// the tabs and the chips show from them, tested without a view or a cache.
package struct DashboardModel: Hashable, Sendable {
  /// The sections, in tab order.
  package let sections: [DashboardSection]
  /// The section shown.
  package private(set) var selected = 0
  /// Each section's items, in its order.
  package private(set) var answers: [[DashboardEntry]]
  /// Sections whose answers are still to be read (their tabs say `…`).
  package private(set) var stale: Set<Int>
  /// Sections whose grouping the person switched (`v`).
  package private(set) var groupingOverride: [Int: DashboardSection.Grouping] = [:]
  /// The milestone chosen in each section that has chips.
  package private(set) var chipFilters: [Int: MilestoneFilter] = [:]
  /// What the title bar says beside the name: sync progress, or where the caches stand.
  package var status = ""
  /// The status line's message.
  package var message: StatusMessage?
  /// The `?` overlay, while it is open.
  package var help: HelpOverlay?

  /// The state of a dashboard of `sections`, the first shown, none answered yet.
  package init(sections: [DashboardSection]) {
    precondition(!sections.isEmpty, "a dashboard has at least one section")
    self.sections = sections
    answers = Array(repeating: [], count: sections.count)
    stale = Set(sections.indices)
  }

  /// Takes a section's answer.
  package mutating func answer(_ index: Int, with entries: [DashboardEntry]) {
    answers[index] = entries
    stale.remove(index)
  }

  /// Marks every section to be asked again.
  package mutating func markEveryAnswerStale() { stale = Set(sections.indices) }

  /// Shows another section; `false` when it is not one, or already shown.
  @discardableResult
  package mutating func select(_ index: Int) -> Bool {
    guard sections.indices.contains(index), index != selected else { return false }
    selected = index
    return true
  }

  /// The section after the one shown, round the end.
  package var nextSection: Int { (selected + 1) % sections.count }
  /// The section before the one shown, round the start.
  package var previousSection: Int { (selected + sections.count - 1) % sections.count }

  /// How the section shown arranges its items.
  package var grouping: DashboardSection.Grouping {
    groupingOverride[selected] ?? sections[selected].grouping
  }

  /// Groups the section shown by repository, or not.
  package mutating func toggleGrouping() {
    groupingOverride[selected] = grouping == .none ? .repository : DashboardSection.Grouping.none
  }

  /// What each tab counts: its items, or `nil` while its answer is still to be read.
  package var tabCounts: [Int?] {
    answers.indices.map { stale.contains($0) ? nil : answers[$0].count }
  }

  // MARK: Milestone chips

  /// The chip chosen in the section shown, when it has chips.
  package func chosenChip(hasChips: Bool) -> MilestoneFilter {
    hasChips ? chipFilters[selected] ?? .all : .all
  }

  /// Chooses a chip in the section shown.
  package mutating func choose(_ chip: MilestoneFilter) { chipFilters[selected] = chip }

  /// The chips of the section shown over its one repository's `milestones` (in the cache's
  /// order): All, No milestone when an item has none, then the milestones that hold an item.
  package func chipOrder(milestones: [GitHubMilestone]) -> [MilestoneFilter] {
    let entries = answers[selected]
    let used = Set(entries.compactMap(\.milestoneNumber))
    var order: [MilestoneFilter] = [.all]
    if entries.contains(where: { $0.milestoneNumber == nil }) { order.append(.withoutMilestone) }
    for milestone in milestones where used.contains(milestone.number) {
      order.append(.number(milestone.number))
    }
    return order
  }

  /// How many of the section's items each chip holds.
  package var chipCounts: [MilestoneFilter: Int] {
    let entries = answers[selected]
    var counts: [MilestoneFilter: Int] = [.all: entries.count]
    for entry in entries {
      counts[entry.milestoneNumber.map(MilestoneFilter.number) ?? .withoutMilestone, default: 0] +=
        1
    }
    return counts
  }

  // MARK: The list

  /// The section's items under a chip.
  package func entries(under chip: MilestoneFilter) -> [DashboardEntry] {
    let entries = answers[selected]
    return switch chip {
    case .all: entries
    case .withMilestone: entries.filter { $0.milestoneNumber != nil }
    case .withoutMilestone: entries.filter { $0.milestoneNumber == nil }
    case .number(let number): entries.filter { $0.milestoneNumber == number }
    }
  }

  /// The list's snapshot for the section shown under a chip: one section, or one per
  /// repository in the order they first appear.
  package func snapshot(under chip: MilestoneFilter) -> Snapshot<DashboardGroup, DashboardRow> {
    let entries = entries(under: chip)
    switch grouping {
    case .none:
      return Snapshot(sections: [
        (.all, entries.map { DashboardRow(source: $0.source, number: $0.number) })
      ])
    case .repository:
      var order: [Int] = []
      var bySource: [Int: [DashboardRow]] = [:]
      for entry in entries {
        if bySource[entry.source] == nil { order.append(entry.source) }
        bySource[entry.source, default: []].append(
          DashboardRow(source: entry.source, number: entry.number))
      }
      return Snapshot(sections: order.map { (DashboardGroup.repository($0), bySource[$0] ?? []) })
    }
  }

  /// Moves time on: the message expires.
  package mutating func tick(now: Date) {
    if let message, message.hasExpired(at: now) { self.message = nil }
  }
}
