import Foundation
@testable import GitHubIssues
import Testing
import TrellisTestSupport

/// A list whose words drive its query (the full-text index's matches looked up, then sorted in
/// memory) gives the entries and rows, in the order, that the ordered SQL of the same filter
/// gives.
@Suite struct SearchedEntriesTests {
  @Test func wordDrivenEntriesMatchTheOrderedQuery() throws {
    let cache = try IssueCache()
    try cache.apply(SyntheticRepository(itemCount: 3_000, milestoneCount: 8, seed: 5).make())
    let seed: UInt64 = 0x5EA_2C4
    print("SearchedEntriesTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    let words = ["dark", "memory", "검색", "export", "scroll", "cra", "mode", "zzzz", "a"]
    var driven = 0
    for round in 0..<300 {
      var filter = IssueFilter(
        milestone: pick([.all, .withoutMilestone, .number(1)]),
        state: pick([.open, .closed, .all]),
        kind: pick([.issues, .pullRequests, .both]), sort: pick(IssueSort.allCases),
        direction: pick([.descending, .ascending]), limit: pick([nil, 1, 25]))
      switch random.next() % 3 {
      case 0:
        filter.text = (0...(random.next() % 2)).map { _ in pick(words) }.joined(separator: " ")
      case 1:
        filter.terms = (0...(random.next() % 3)).map { _ in
          switch random.next() % 5 {
          case 0: QueryTerm(.phrase(pick(["dark mode", "memory leak", "export csv"])))
          case 1: QueryTerm(.text(pick(words)), .exclude)
          case 2: QueryTerm(.label(anyOf: [pick(["bug", "ui", "docs"])]))
          default: QueryTerm(.text(pick(words)))
          }
        }
      default: filter.labels = [pick(["bug", "ui"])]
      }
      let ordered = try cache.writer.read { db in
        try IssueCache.orderedIssues(filter, db).map(\.number)
      }
      let entries = try cache.listEntries(filter).map(\.number)
      #expect(entries == ordered, "seed \(seed), round \(round): \(filter)")
      #expect(try cache.issues(filter).map(\.number) == ordered, "seed \(seed), round \(round)")
      var streamed: [Int] = []
      try cache.forEachIssue(filter) { streamed.append($0.number) }
      #expect(streamed == ordered, "seed \(seed), round \(round)")
      if !ordered.isEmpty, filter.text != nil || !filter.terms.isEmpty { driven += 1 }
    }
    #expect(driven > 50, "the word-driven path was tried on lists that are not empty")
  }
}
