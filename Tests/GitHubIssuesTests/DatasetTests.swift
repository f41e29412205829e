import Foundation
import GitHubIssues
import Testing

@Suite struct DatasetTests {
  @Test func theBundledDatasetLoadsIntoACache() throws {
    let update = try BundledDataset.load()
    #expect(update.issues.count == 150)
    #expect(update.milestones?.count == 4)
    let cache = try IssueCache()
    try cache.apply(update)
    let counts = EntryCounts(try cache.listEntries(IssueFilter(state: .all)))
    #expect(counts.all == 83)
    #expect(counts.byMilestone.values.reduce(0, +) > 0)
  }

  @Test(arguments: [
    IssueFilter(state: .open), IssueFilter(state: .all, kind: .both),
    IssueFilter(state: .closed, labels: ["Docs"]), IssueFilter(state: .all, text: "cassette"),
  ])
  func milestoneCountsOfAFilterAgreeWithItsItems(filter: IssueFilter) throws {
    let cache = try IssueCache()
    try cache.apply(BundledDataset.load())
    let counts = EntryCounts(try cache.listEntries(filter))
    let items = try cache.issues(filter)
    #expect(counts.all == items.count)
    #expect(counts.noMilestone == items.filter { $0.milestoneNumber == nil }.count)
    for milestone in try cache.milestones() {
      #expect(
        counts.byMilestone[milestone.number, default: 0]
          == items.filter { $0.milestoneNumber == milestone.number }.count)
    }
  }

  @Test func syntheticRepositoriesAreDeterministicAndVaried() throws {
    let small = SyntheticRepository(itemCount: 2_000, milestoneCount: 20, seed: 7)
    let a = small.make()
    let b = small.make()
    #expect(a.issues == b.issues)
    #expect(a.issues.count == 2_000)
    #expect(a.milestones?.count == 20)
    #expect(
      a.issues.contains {
        $0.title.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
      })
    #expect(
      a.issues.contains { $0.title.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
    #expect(a.issues.contains { $0.isPullRequest })
    #expect(Set(a.issues.map(\.number)).count == 2_000)
    let cache = try IssueCache()
    try cache.apply(a)
    #expect(try cache.syncState().itemCount == 2_000)
    #expect(try cache.issues(IssueFilter(state: .all, text: "전체선택")).isEmpty == false)
  }
}
