import Foundation
import GitHubIssues
import Testing
import TrellisTestSupport

@Suite struct IssueListObservationTests {
  typealias Make = IssueCacheTests

  /// The numbers of the rows a change names, read from the lists before and after it, and
  /// whether it names no other row; `nil` for `.everything`.
  func numbers(_ change: IssueListChange, _ lists: ObservedIssueList...) -> Set<Int>? {
    guard case .items(let keys, _) = change else { return nil }
    var numbers: [IssueKey: Int] = [:]
    for list in lists { for entry in list.entries { numbers[entry.key] = entry.number } }
    let found = keys.compactMap { numbers[$0] }
    return found.count == keys.count ? Set(found) : nil
  }

  func metadata(_ change: IssueListChange) -> MetadataChange? {
    guard case .items(_, let metadata) = change else { return nil }
    return metadata
  }

  func filled(_ path: String? = nil) throws -> IssueCache {
    let cache = try path.map { try IssueCache(path: $0) } ?? IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: (1...20).map {
          Make.issue($0, "issue \($0)", milestone: $0 % 2 == 0 ? Make.v1 : nil, minutes: $0)
        },
        isComplete: true, milestones: [Make.v1, Make.v2], syncedAt: Make.base))
    return cache
  }

  @Test func theFirstElementIsTheListAndEachCommitYieldsTheChangedItems() async throws {
    let cache = try filled()
    var lists = cache.observeList(IssueFilter(milestone: .number(1), state: .open))
      .makeAsyncIterator()
    let first = try #require(try await lists.next())
    #expect(first.change == .everything)
    #expect(
      first.entries.map(\.number) == Array((1...20).reversed()), "every milestone, newest first")
    #expect(first.milestones.map(\.number) == [2, 1])

    // One page: a new issue on top, one closed, one edited in place.
    try cache.writePage(
      [
        Make.issue(21, "new", minutes: 30),
        Make.issue(3, "issue 3", state: .closed, minutes: 3),
        Make.issue(4, "retitled", milestone: Make.v1, minutes: 31),
      ], advancingMarks: false)
    let second = try #require(try await lists.next())
    #expect(numbers(second.change, first, second) == [21, 3, 4])
    #expect(metadata(second.change) == .changed)
    #expect(
      second.entries.map(\.number) == [4, 21] + (1...20).reversed().filter { $0 != 3 && $0 != 4 })
    #expect(second.entries == (try cache.listEntries(IssueFilter(state: .open))))
  }

  @Test func aWriteThatChangesNothingShownYieldsNothing() async throws {
    let cache = try filled()
    let observation = cache.observeList(IssueFilter(state: .open))
    var lists = observation.makeAsyncIterator()
    let first = try #require(try await lists.next())
    // The same rows written again, and an unrelated table.
    try cache.writePage([Make.issue(5, "issue 5", minutes: 5)], advancingMarks: false)
    _ = try cache.finishListing(
      complete: false, syncedAt: Make.base.addingTimeInterval(60), highWaterMark: nil)
    try cache.writePage([Make.issue(7, "issue 7 edited", minutes: 70)], advancingMarks: false)
    let next = try #require(try await lists.next())
    #expect(numbers(next.change, first, next) == [7])
    #expect(metadata(next.change) == .unchanged)
  }

  @Test func subIssueListsAreObservedAsChangesOfTheirParentAndChildren() async throws {
    let cache = try filled()
    var lists = cache.observeList(IssueFilter(state: .open)).makeAsyncIterator()
    let start = try #require(try await lists.next())
    try cache.replaceSubIssues(of: 2, with: [4, 6])
    let first = try #require(try await lists.next())
    #expect(first.subIssues == [2: [4, 6]])
    #expect(numbers(first.change, start) == [2, 4, 6])
    try cache.replaceSubIssues(of: 2, with: [6, 8])
    let second = try #require(try await lists.next())
    #expect(second.subIssues == [2: [6, 8]])
    #expect(numbers(second.change, start) == [2, 4, 6, 8])
  }

  @Test func aSlowConsumerGetsTheLatestListWithEveryChangeItMissed() async throws {
    let cache = try filled()
    var lists = cache.observeList(IssueFilter(state: .all)).makeAsyncIterator()
    let start = try #require(try await lists.next())
    for number in 30..<35 {
      try cache.writePage([Make.issue(number, "n", minutes: number)], advancingMarks: false)
    }
    let merged = try #require(try await lists.next())
    #expect(numbers(merged.change, start, merged) == Set(30..<35))
    #expect(merged.entries.prefix(5).map(\.number) == [34, 33, 32, 31, 30])
  }

  @Test func aNumberPassedToAnotherIssueWithTheSameSortKeyIsFollowed() async throws {
    let cache = try filled()
    var lists = cache.observeList(IssueFilter(state: .all)).makeAsyncIterator()
    let start = try #require(try await lists.next())
    // Issue 7 (updated at minute 7) gives way to another issue numbered 7, updated at the same
    // minute: both rows share a sort key while the commit is merged.
    var successor = Make.issue(7, "issue 7", state: .closed, minutes: 7)
    successor.id = 99_007
    try cache.writePage([successor], advancingMarks: false)
    let list = try #require(try await lists.next())
    // Two rows changed: the one that left and the one that came, both numbered 7.
    #expect(numbers(list.change, start, list) == [7])
    if case .items(let keys, _) = list.change { #expect(keys.count == 2) }
    #expect(list.entries == (try cache.listEntries(IssueFilter(state: .all))))
    #expect(list.entries.filter { $0.number == 7 }.map(\.isOpen) == [false])
    #expect(list.entries.map(\.number) == Array((1...20).reversed()))
  }

  /// Random pages of edits, moves, closes and new issues under random filters and sorts: after
  /// every commit the merged list equals the list queried from scratch.
  ///
  /// Most pages change a few
  /// rows (moved in place), every fifth many (merged in one pass), and some give an issue's
  /// number to a new issue with the same sort key.
  @Test(arguments: 0..<6 as Range<UInt64>)
  func mergedListsEqualFreshQueries(seed: UInt64) async throws {
    var rng = SplitMix64(seed: seed)
    let cache = try filled()
    let sort = IssueSort.allCases[Int.random(in: 0..<3, using: &rng)]
    let state = IssueStateFilter.allCases[Int.random(in: 0..<3, using: &rng)]
    let filter = IssueFilter(state: state, sort: sort)
    var lists = cache.observeList(filter).makeAsyncIterator()
    _ = try await lists.next()
    for step in 0..<25 {
      // A new issue in every page, so that every commit changes the list. Versions only move
      // forward, as GitHub's do (the cache keeps a newer version over an older one), and are
      // random within a page.
      let base = 60 + 10 * step
      let new = Make.issue(100 + step, "new", minutes: base + Int.random(in: 0..<10, using: &rng))
      let page =
        [new]
        + (0..<(step % 5 == 4
        ? Int.random(in: 40...60, using: &rng) : Int.random(in: 1...6, using: &rng))).map { _ in
          let number = Int.random(in: 1...40, using: &rng)
          return Make.issue(
            number, "t\(Int.random(in: 0..<3, using: &rng))",
            state: Bool.random(using: &rng) ? .open : .closed,
            milestone: Bool.random(using: &rng) ? Make.v2 : nil,
            minutes: base + Int.random(in: 0..<10, using: &rng),
            comments: Int.random(in: 0...3, using: &rng))
        }
      var written = Array(Dictionary(page.map { ($0.number, $0) }) { a, _ in a }.values)
      if step % 7 == 3, let taken = written.first(where: { $0.number != 100 + step }) {
        // The same number, sort key and contents under another id: GitHub transferred an issue
        // in and the number was reused.
        var successor = taken
        successor.id += 1_000_000
        written.removeAll { $0.number == taken.number }
        written.append(successor)
      }
      try cache.writePage(written, advancingMarks: false)
      var expected = filter
      expected.milestone = .all
      let fresh = try cache.listEntries(expected)
      guard let list = try await lists.next() else { break }
      #expect(list.entries == fresh, "seed \(seed), step \(step), sort \(sort), state \(state)")
      #expect(
        list.counts == EntryCounts(fresh), "seed \(seed), step \(step): counts kept by change")
    }
  }
}
