import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import Trellis
import TrellisTerminal
import TrellisTestSupport

/// The browser fed by an observed cache query, as the `issues` host runs it during a sync.
@MainActor
@Suite struct LiveBrowserTests {
  static let base = Date(timeIntervalSince1970: 1_700_000_000)
  static let milestone = GitHubMilestone(id: 900, number: 9, title: "Backlog", state: .open)

  static func issue(
    _ number: Int, minutes: Int, milestone: GitHubMilestone? = nil,
    subIssues: SubIssueSummary? = nil
  ) -> GitHubIssue {
    GitHubIssue(
      id: Int64(100_000 + number), number: number, title: "Issue number \(number)", state: .open,
      user: GitHubUser(login: "someone", id: 1), labels: [], milestone: milestone, comments: 0,
      createdAt: base, updatedAt: base.addingTimeInterval(Double(minutes) * 60), body: nil,
      isPullRequest: false, subIssues: subIssues)
  }

  /// A cache of 300 issues: 200 in Backlog updated recently, 100 with no milestone.
  func cache() throws -> IssueCache {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: (1...200).map { Self.issue($0, minutes: 10_000 + $0, milestone: Self.milestone) }
          + (201...300).map { Self.issue($0, minutes: 5_000 + $0) },
        isComplete: true, milestones: [Self.milestone], syncedAt: Self.base))
    return cache
  }

  @Test func aPageBelowTheVisibleRowsRedrawsOnlyTheCounts() async throws {
    let cache = try cache()
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    #expect(harness.frame().changed.isEmpty, "the first element is what the browser shows")
    // 100 old issues, sorted below everything on screen.
    try cache.writePage(
      (301...400).map { Self.issue($0, minutes: $0 - 300) }, advancingMarks: false)
    harness.browser.apply(try #require(try await lists.next()))
    let frame = harness.frame()
    #expect(!frame.rows.isEmpty)
    #expect(
      frame.rows.isSubset(of: [0, 1, 2]), "only the chip counts and the totals: \(frame.rows)")
    #expect(harness.text.contains("No milestone 200"))
    #expect(harness.browser.shownNumbers.count == 400)
  }

  @Test func aRowMovedAwayRedrawsTheRecountedHeaderAndReusesTheRest() async throws {
    let cache = try cache()
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.press(.down, .down, .down)
    // A row above the focus leaves Backlog for "No milestone", below the screen.
    try cache.writePage([Self.issue(199, minutes: 20_000)], advancingMarks: false)
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(harness.text.contains("Backlog 199"))
    let statistics = harness.browser.listPane.list.statistics
    // The header whose count changed and the row that took the moved one's place are drawn;
    // the rows that stayed or only shifted are copied.
    #expect(statistics.drawn <= 3, "\(statistics)")
    #expect(statistics.reused > 10, "\(statistics)")
  }

  @Test func aNumberWiderThanAnyShownRedrawsEveryRow() async throws {
    let cache = try cache()
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    func titleColumn() -> Int? {
      for line in harness.lines {
        if let range = line.range(of: "Issue number 195") {
          return line.distance(from: line.startIndex, to: range.lowerBound)
        }
      }
      return nil
    }
    let before = try #require(titleColumn())
    // An old issue numbered 12345, sorted below the screen: the number column widens.
    try cache.writePage([Self.issue(12_345, minutes: 1)], advancingMarks: false)
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(try #require(titleColumn()) > before)
  }

  /// Property: random pages moving issues between milestones, adding new ones and closing some,
  /// with sections collapsed and expanded between them, leave the list (sections and items in
  /// order) as a browser opened afresh on the same cache shows it.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func changedRowsPlacedOneByOneGiveTheListOfAFreshBrowser(seed: UInt64) async throws {
    var rng = SplitMix64(seed: seed)
    let other = GitHubMilestone(id: 901, number: 10, title: "Later", state: .open)
    let milestones: [GitHubMilestone?] = [Self.milestone, other, nil]
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: (1...120).map {
          Self.issue($0, minutes: $0, milestone: milestones[$0 % 3])
        },
        isComplete: true, milestones: [Self.milestone, other], syncedAt: Self.base))
    // Odd seeds sort by creation (here, by number): moved rows then land anywhere in their
    // new section, not only on top.
    let sorts = Int(seed % 2)
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    for _ in 0..<sorts { _ = harness.browser.perform(.cycleSort) }
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    let sections: [ListSection] = [.milestone(number: 9), .milestone(number: 10), .noMilestone]
    for step in 0..<60 {
      if step % 6 == 5 {
        harness.browser.setSection(sections[Int.random(in: 0..<3, using: &rng)], collapsed: nil)
      }
      // Versions only move forward, as GitHub's do; within a page they are random.
      let base = 1_000 + 20 * step
      let page = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
        Self.issue(
          // The lowest numbers often, to reach the ends of sections sorted by number.
          Int.random(in: 0..<3, using: &rng) == 0
            ? Int.random(in: 1...4, using: &rng) : Int.random(in: 1...140, using: &rng),
          minutes: base + Int.random(in: 0..<20, using: &rng),
          milestone: milestones[Int.random(in: 0..<3, using: &rng)])
      }
      try cache.writePage(
        Array(Dictionary(page.map { ($0.number, $0) }) { a, _ in a }.values),
        advancingMarks: false)
      harness.browser.apply(try #require(try await lists.next()))
      harness.frame()
      let fresh = try BrowserHarness(cache: cache, status: .syncing(nil))
      for _ in 0..<sorts { _ = fresh.browser.perform(.cycleSort) }
      var freshLists = cache.observeList(fresh.browser.observedFilter).makeAsyncIterator()
      fresh.browser.apply(try #require(try await freshLists.next()))
      let shown = harness.browser.listPane.list.dataSource.snapshot()
      let expected = fresh.browser.listPane.list.dataSource.snapshot()
      #expect(shown.sectionIdentifiers == expected.sectionIdentifiers, "seed \(seed), step \(step)")
      for section in expected.sectionIdentifiers where shown.contains(section: section) {
        #expect(
          shown.itemIdentifiers(inSection: section) == expected.itemIdentifiers(inSection: section),
          "seed \(seed), step \(step), \(section)")
      }
    }
  }

  @Test func theFocusedIssueStaysOnItsScreenRowWhenRowsAppearAboveIt() async throws {
    let cache = try cache()
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.press(.down, .down, .down, .down, .down)
    let focused = try #require(harness.browser.focusedIssue?.number)
    let row = try #require(harness.screenRow(containing: "Issue number \(focused)"))
    // Five newer issues in the same milestone: above the focus.
    try cache.writePage(
      (2_001...2_005).map { Self.issue($0, minutes: 90_000 + $0, milestone: Self.milestone) },
      advancingMarks: false)
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(harness.browser.focusedIssue?.number == focused)
    #expect(harness.screenRow(containing: "Issue number \(focused)") == row)
  }

  @Test func sectionsCollapseByKeyAndClickAndStayCollapsedAfterARestart() throws {
    let cache = try cache()
    var harness = try BrowserHarness(cache: cache)
    #expect(harness.text.contains("Issue number 200"))
    harness.press(.character("z"))
    #expect(harness.text.contains("▸ Backlog"))
    #expect(!harness.text.contains("Issue number 200"))
    #expect(harness.browser.focusedIssue?.milestoneNumber == nil, "the focus left the section")
    // A filter change and back keeps it collapsed; so does a new browser on the same cache.
    harness.press(.character("s"), .character("s"), .character("s"))
    #expect(harness.text.contains("▸ Backlog"))
    var restarted = try BrowserHarness(cache: cache)
    #expect(restarted.text.contains("▸ Backlog"))
    #expect(!restarted.text.contains("Issue number 200"))
    // A click on the header expands it.
    let row = try #require(restarted.screenRow(containing: "▸ Backlog"))
    restarted.click(x: 5, y: row)
    #expect(restarted.text.contains("Issue number 200"))
    #expect(!restarted.text.contains("▸ Backlog"))
    #expect(restarted.browser.focusedIssue?.number == 200, "the focus goes to the expanded rows")
  }

  @Test func aCollapsedSectionCountsNewItemsWithoutShowingThem() async throws {
    let cache = try cache()
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.press(.character("z"))
    try cache.writePage(
      [Self.issue(3_000, minutes: 99_999, milestone: Self.milestone)], advancingMarks: false)
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(harness.text.contains("201 open issues"))
    #expect(!harness.browser.shownNumbers.contains(3_000))
    harness.press(.character("Z"))
    #expect(harness.browser.shownNumbers.first == 3_000)
  }

  @Test func subIssuesNestUnderTheirParentAndOpenWithSpace() async throws {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: (1...20).map {
          Self.issue(
            $0, minutes: 100 - $0, milestone: Self.milestone,
            subIssues: $0 == 3 ? SubIssueSummary(total: 2, completed: 1) : nil)
        }, isComplete: true, milestones: [Self.milestone], syncedAt: Self.base))
    try cache.replaceSubIssues(of: 3, with: [7, 9])
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(!harness.browser.shownNumbers.contains(7) && !harness.browser.shownNumbers.contains(9))
    #expect(harness.text.contains("▸ 1/2 Issue number 3"))
    // Focus #3 (the third row) and open it: its sub-issues follow it, indented.
    harness.press(.down, .down)
    #expect(harness.browser.focusedIssue?.number == 3)
    harness.press(.character(" "))
    #expect(Array(harness.browser.shownNumbers.prefix(5)) == [1, 2, 3, 7, 9])
    #expect(harness.text.contains("▾ 1/2 Issue number 3"))
    let child = try #require(harness.lines.first { $0.contains("Issue number 7") })
    let parent = try #require(harness.lines.first { $0.contains("Issue number 3") })
    // The child's title starts right of the parent's disclosure marker.
    #expect(
      try #require(child.range(of: "Issue number")).lowerBound.utf16Offset(in: child)
        > (try #require(parent.range(of: "▾"))).lowerBound.utf16Offset(in: parent))
    harness.press(.character(" "))
    #expect(Array(harness.browser.shownNumbers.prefix(4)) == [1, 2, 3, 4])

    // Lists from the network that disagree: a cycle and a second parent. Every issue still
    // shows exactly once.
    try cache.replaceSubIssues(of: 7, with: [3, 11])
    try cache.replaceSubIssues(of: 12, with: [9, 11])
    harness.browser.apply(try #require(try await lists.next()))
    harness.press(.character("Z"))
    for _ in 0..<20 { harness.press(.character(" "), .down) }
    let shown = harness.browser.shownNumbers
    #expect(Set(shown).count == shown.count)
    #expect(Set(shown).isSubset(of: Set(1...20)))
  }

  /// A parent opens on all of its sub-issues: those in other milestones, or left out of the
  /// list, show under it marked with their milestone, and Space on one goes to its own row.
  @Test func subIssuesFromOtherMilestonesOpenUnderTheirParent() async throws {
    let other = GitHubMilestone(id: 99, number: 8, title: "Later", state: .open)
    var issues: [GitHubIssue] = []
    for number in 1...6 {
      let summary: SubIssueSummary? = number == 1 ? SubIssueSummary(total: 3, completed: 1) : nil
      let milestone = number >= 5 ? other : Self.milestone
      issues.append(
        Self.issue(number, minutes: 100 - number, milestone: milestone, subIssues: summary))
    }
    var closed = Self.issue(7, minutes: 1)
    closed.state = .closed
    issues.append(closed)
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: issues, isComplete: true, milestones: [Self.milestone, other],
        syncedAt: Self.base))
    try cache.replaceSubIssues(of: 1, with: [5, 6, 7])
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(harness.text.contains("▸ 1/3 Issue number 1"))
    for _ in 0..<8 where harness.browser.focusedIssue?.number != 1 { harness.press(.down) }
    #expect(harness.browser.focusedIssue?.number == 1)
    harness.press(.character(" "))
    #expect(harness.text.contains("▾ 1/3 Issue number 1"))
    let shown = harness.browser.listPane.list.dataSource.snapshot().itemIdentifiers
    let opened = try #require(shown.firstIndex(of: harness.browser.row(1)))
    #expect(
      Array(shown[opened..<opened + 4])
        == [
          harness.browser.row(1), .subIssue(5, parent: harness.browser.key(1)),
          .subIssue(6, parent: harness.browser.key(1)),
          .subIssue(7, parent: harness.browser.key(1)),
        ])
    #expect(shown.contains(harness.browser.row(5)), "#5 keeps its own row in Later")
    #expect(
      !shown.contains { $0.key != nil && harness.browser.listPane.model.number(of: $0) == 7 },
      "#7 is closed: the open list leaves it out")
    let child = try #require(harness.lines.first { $0.contains("#7 ") })
    #expect(child.contains("↗ no milestone") && child.contains("Issue number 7"), "\(child)")
    #expect(harness.lines.contains { $0.contains("#5 ") && $0.contains("↗ Later") })

    // Enter on a sub-issue row opens that issue; an action acts on it.
    harness.press(.down)
    #expect(harness.browser.focusedIssue?.number == 5)
    harness.press(.enter)
    #expect(harness.browser.state.mode == .reading)
    #expect(harness.text.contains("Issue number 5"))
    harness.press(.escape)
    // Space on it goes to its own row, in Later.
    harness.press(.character(" "))
    #expect(harness.browser.listPane.list.focusedItem == harness.browser.row(5))
    #expect(
      harness.lines.last?.contains("#5 is listed in Later: the focus is on it there.") == true,
      "\(harness.lines.last ?? "")")
    // A sub-issue the list leaves out says so.
    for _ in 0..<10
    where harness.browser.listPane.list.focusedItem != .subIssue(7, parent: harness.browser.key(1))
    {
      harness.press(.down)
    }
    harness.press(.character(" "))
    #expect(harness.lines.last?.contains("#7 is not in this list") == true)
    #expect(
      harness.browser.listPane.list.focusedItem == .subIssue(7, parent: harness.browser.key(1)))
    for _ in 0..<10 where harness.browser.focusedIssue?.number != 2 { harness.press(.down) }
    harness.press(.character(" "))
    #expect(harness.lines.last?.contains("#2 has no sub-issues.") == true)
  }

  /// A parent opened on the last row of the screen scrolls its sub-issues into view and stays
  /// on screen itself.
  @Test func openingAParentOnTheLastRowShowsItsSubIssues() throws {
    let children = { (parent: Int) in [100 + parent * 3, 101 + parent * 3, 102 + parent * 3] }
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: (1...200).map {
          Self.issue(
            $0, minutes: 1_000 - $0, milestone: Self.milestone,
            subIssues: $0 <= 30 ? SubIssueSummary(total: 3, completed: 0) : nil)
        }, isComplete: true, milestones: [Self.milestone], syncedAt: Self.base))
    for parent in 1...30 { try cache.replaceSubIssues(of: parent, with: children(parent)) }
    var harness = try BrowserHarness(cache: cache, status: .syncing(nil))
    harness.frame()
    let shownNumbers = { (lines: [String]) in
      lines.compactMap { line in
        line.range(of: #"Issue number (\d+)"#, options: .regularExpression).flatMap {
          Int(line[$0].split(separator: " ").last ?? "")
        }
      }
    }
    let bottom = try #require(shownNumbers(harness.lines).last)
    #expect(bottom < 30, "the screen ends on a parent")
    while harness.browser.focusedIssue?.number != bottom { harness.press(.down) }
    #expect(shownNumbers(harness.lines).last == bottom)
    harness.press(.character(" "))
    let shown = shownNumbers(harness.lines)
    #expect(shown.contains(bottom))
    #expect(children(bottom).allSatisfy(shown.contains), "\(shown)")
  }

  @Test func aSubIssueChainAsLongAsTheListNestsOnlySoDeep() throws {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: (1...300).map { Self.issue($0, minutes: 1_000 - $0, milestone: Self.milestone) },
        isComplete: true, milestones: [Self.milestone], syncedAt: Self.base))
    // 1 ⊃ 2 ⊃ 3 ⊃ … ⊃ 300: a chain from the network, far deeper than GitHub allows.
    for number in 1..<300 { try cache.replaceSubIssues(of: number, with: [number + 1]) }
    var harness = try BrowserHarness(cache: cache)
    let roots = harness.browser.shownNumbers
    #expect(roots.first == 1)
    #expect(
      roots.count < 300 && roots.count >= 300 / 17, "chains cut every 17 levels: \(roots.count)")
    // Open every parent on the way down: each issue shows once, indentation stays bounded.
    for _ in 0..<40 { harness.press(.character(" "), .down) }
    let shown = harness.browser.shownNumbers
    #expect(Set(shown).count == shown.count)
    #expect(shown.prefix(17) == ArraySlice(1...17))
  }
}
