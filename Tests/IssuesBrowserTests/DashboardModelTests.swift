import Foundation
@testable import GitHubIssues
@testable import IssuesBrowser
import Testing

/// The dashboard's state as a value: sections shown and cycled, answers and stale tabs,
/// grouping, milestone chips and the list's snapshot — without a view or a cache.
@Suite struct DashboardModelTests {
  static func entry(_ source: Int, _ number: Int, milestone: Int? = nil) -> DashboardEntry {
    DashboardEntry(
      source: source, number: number, isOpen: true, isPullRequest: false,
      milestoneNumber: milestone, key: Int64(1_000 - number), secondKey: 0)
  }

  static let sections = [
    DashboardSection(title: "Bugs", query: SearchQuery(terms: [QueryTerm(.label(anyOf: ["bug"]))])),
    DashboardSection(
      title: "PRs", query: SearchQuery(terms: [QueryTerm(.kind(.pullRequest))]),
      grouping: .repository),
    DashboardSection(
      title: "Web",
      query: SearchQuery(terms: [
        QueryTerm(.repository(RepositoryName(owner: "acme", name: "web"), host: nil))
      ])),
  ]

  @Test func tabsCountWhatIsAnsweredAndSectionsCycle() {
    var model = DashboardModel(sections: Self.sections)
    #expect(model.tabCounts == [nil, nil, nil])
    model.answer(0, with: [Self.entry(0, 1), Self.entry(1, 2)])
    #expect(model.tabCounts == [2, nil, nil])
    #expect(model.previousSection == 2 && model.nextSection == 1)
    let moved = model.select(1)
    let again = model.select(1)
    let beyond = model.select(7)
    #expect(moved)
    #expect(!again, "already shown")
    #expect(!beyond, "no such section")
    #expect(model.nextSection == 2)
    model.markEveryAnswerStale()
    #expect(model.tabCounts == [nil, nil, nil])
  }

  @Test func groupingFollowsTheSectionUntilThePersonSwitchesIt() {
    var model = DashboardModel(sections: Self.sections)
    model.answer(1, with: [Self.entry(0, 1), Self.entry(1, 2), Self.entry(0, 3)])
    model.select(1)
    #expect(model.grouping == .repository)
    let grouped = model.snapshot(under: .all)
    #expect(grouped.sectionIdentifiers == [.repository(0), .repository(1)])
    #expect(grouped.itemIdentifiers.map(\.number) == [1, 3, 2])
    model.toggleGrouping()
    #expect(model.grouping == .none)
    #expect(model.snapshot(under: .all).itemIdentifiers.map(\.number) == [1, 2, 3])
    model.select(0)
    #expect(model.grouping == .none, "the others keep theirs")
  }

  @Test func chipsAreTheMilestonesThatHoldAnItemAndFilterTheList() {
    var model = DashboardModel(sections: Self.sections)
    model.answer(
      2, with: [Self.entry(0, 1, milestone: 5), Self.entry(0, 2), Self.entry(0, 3, milestone: 5)])
    model.select(2)
    let milestones = [
      GitHubMilestone(id: 9, number: 9, title: "later", state: .open),
      GitHubMilestone(id: 5, number: 5, title: "v1", state: .open),
    ]
    #expect(model.chipOrder(milestones: milestones) == [.all, .withoutMilestone, .number(5)])
    #expect(model.chipCounts == [.all: 3, .withoutMilestone: 1, .number(5): 2])
    #expect(model.chosenChip(hasChips: true) == .all)
    model.choose(.number(5))
    #expect(model.chosenChip(hasChips: true) == .number(5))
    #expect(model.chosenChip(hasChips: false) == .all)
    #expect(model.snapshot(under: .number(5)).itemIdentifiers.map(\.number) == [1, 3])
    #expect(model.entries(under: .withoutMilestone).map(\.number) == [2])
  }

  @Test func aMessageExpires() {
    var model = DashboardModel(sections: Self.sections)
    let now = Date(timeIntervalSince1970: 5)
    model.message = StatusMessage("said", now: now)
    model.tick(now: now.addingTimeInterval(StatusMessage.duration - 1))
    #expect(model.message != nil)
    model.tick(now: now.addingTimeInterval(StatusMessage.duration))
    #expect(model.message == nil)
  }
}
