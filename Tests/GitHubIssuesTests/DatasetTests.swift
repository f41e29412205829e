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
    #expect(try cache.milestoneCounts(state: .all).all == 83)
    #expect(try cache.milestoneCounts(state: .all).milestones.map(\.issueCount).reduce(0, +) > 0)
  }

  @Test(arguments: [
    IssueFilter(state: .open), IssueFilter(state: .all, kind: .both),
    IssueFilter(state: .closed, label: "Docs"), IssueFilter(state: .all, text: "cassette"),
  ])
  func milestoneCountsMatchingAFilterAgreeWithItsItems(filter: IssueFilter) throws {
    let cache = try IssueCache()
    try cache.apply(BundledDataset.load())
    let counts = try cache.milestoneCounts(matching: filter)
    let items = try cache.issues(filter)
    #expect(counts.all == items.count)
    #expect(counts.none == items.filter { $0.milestoneNumber == nil }.count)
    for summary in counts.milestones {
      #expect(
        summary.issueCount == items.filter { $0.milestoneNumber == summary.milestone.number }.count)
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
