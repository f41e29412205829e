import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import Trellis
import TrellisTerminal

/// The browser's actions: keys ask the host for an edit; the edit shows through the same
/// observed-list path a sync takes, and taking it back restores the screen.
@MainActor
@Suite struct BrowserActionTests {
  static let base = Date(timeIntervalSince1970: 1_700_000_000)
  static let backlog = GitHubMilestone(id: 900, number: 9, title: "Backlog", state: .open)
  static let next = GitHubMilestone(id: 901, number: 10, title: "Next", state: .open)

  /// 60 open issues: 30 in Backlog, 20 in Next, 10 with no milestone.
  func cache() throws -> IssueCache {
    let cache = try IssueCache()
    let issues = (1...60).map { (number: Int) -> GitHubIssue in
      let milestone: GitHubMilestone? =
        number <= 30 ? Self.backlog : number <= 50 ? Self.next : nil
      let updated: Date = Self.base.addingTimeInterval(Double(number) * 60)
      return GitHubIssue(
        id: Int64(50_000 + number), number: number, title: "Issue number \(number)",
        state: .open, user: GitHubUser(login: "someone", id: 1), milestone: milestone,
        createdAt: Self.base, updatedAt: updated)
    }
    try cache.apply(
      CacheUpdate(
        issues: issues, isComplete: true, milestones: [Self.backlog, Self.next],
        syncedAt: Self.base))
    return cache
  }

  /// The request in the effects, if any.
  private func editRequest(in effects: [BrowserEffect]) -> EditRequest? {
    for effect in effects { if case .edit(let request) = effect { return request } }
    return nil
  }

  @Test func closingShowsAtOnceAndTakingItBackRestoresTheScreen() async throws {
    let cache = try cache()
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.press(.down, .down, .down)
    harness.frame()
    let focused = try #require(harness.browser.focusedNumber)
    let before = harness.lines
    let focusedRow = try #require(before.firstIndex { $0.contains("#\(focused) ") })

    let effects = harness.press(.character("x"))
    let request = try #require(editRequest(in: effects))
    #expect(request.number == focused && request.changes == [.close(.completed)])
    #expect(harness.lines.last?.contains("closing #\(focused)…") == true)

    // The host shows it in the cache; the observation carries it to the list.
    let pending = try request.changes.map { try cache.enqueue(.change($0), onIssue: focused) }
    harness.browser.apply(try #require(try await lists.next()))
    let shown = harness.frame()
    #expect(!harness.text.contains("Issue number \(focused)\n"), "gone from the open list")
    #expect(!harness.lines.dropLast().contains { $0.contains("#\(focused) ") })
    #expect(harness.text.contains("59 issues"))
    // The focus went to its neighbour, on its row, and the status line says so.
    let neighbour = try #require(harness.browser.focusedNumber)
    #expect(harness.lines[focusedRow].contains("#\(neighbour) "))
    #expect(harness.text.contains("#\(focused) left this list; the focus is on #\(neighbour)."))
    // Rows above the closed one do not redraw (the chips and the filter line do).
    let untouched = Set(4..<focusedRow)
    #expect(shown.rows.isDisjoint(with: untouched), "redrew \(shown.rows)")

    // GitHub refused: taken back (the answer may come before the list change that shows it),
    // and the screen is as it was.
    harness.browser.actionFinished(
      request.id, .failure(HostFailure("Could not close #\(focused): forbidden. Nothing changed.")))
    #expect(
      harness.browser.state.flash?.text
        == "Could not close #\(focused): forbidden. Nothing changed. It left this list; the focus is on #\(neighbour)."
    )
    for action in pending.reversed() { try cache.cancelQueuedAction(action.id) }
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(Array(harness.lines.dropLast()) == Array(before.dropLast()))
    #expect(harness.browser.focusedNumber == focused, "the focus is back on it")
    #expect(harness.lines.last?.contains("Could not close #\(focused)") == true)
    #expect(harness.browser.state.pendingActions.isEmpty)
  }

  @Test func movingToAMilestonePicksAChipAndLeavesTheFilterAlone() async throws {
    let cache = try cache()
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache, status: .syncing(nil))
    var lists = cache.observeList(harness.browser.observedFilter).makeAsyncIterator()
    harness.browser.apply(try #require(try await lists.next()))
    harness.press(.down, .down, .down, .down)
    let focused = try #require(harness.browser.focusedNumber)
    let issue = try #require(try cache.issue(number: focused))
    let filter = harness.browser.state.filter
    harness.press(.character("m"))
    #expect(harness.browser.state.mode == .movingToMilestone(issue: focused))
    #expect(harness.lines.last?.contains("move #\(focused) to") == true)
    // The focus starts on the issue's own milestone; pick another one.
    let own: MilestoneFilter = issue.milestoneNumber.map { .number($0) } ?? .withoutMilestone
    #expect(harness.browser.listPane.chips.focusedItem == own)
    var effects: [BrowserEffect] = []
    for _ in 0..<6 {
      harness.press(.right)
      if case .number(let number)? = harness.browser.listPane.chips.focusedItem,
        number != issue.milestoneNumber
      {
        effects = harness.press(.enter)
        break
      }
    }
    let request = try #require(editRequest(in: effects))
    guard case .setMilestone(let target) = request.changes.first else {
      Issue.record("a milestone change, got \(request.changes)")
      return
    }
    #expect(harness.browser.state.mode == .browsing)
    #expect(harness.browser.state.filter == filter, "picking is not filtering")
    #expect(harness.browser.listPane.chips.focusedItem == filter.milestone)

    let countBefore = harness.browser.listPane.model.chipCounts[.number(target)] ?? 0
    let before = harness.lines
    let pending = try request.changes.map { try cache.enqueue(.change($0), onIssue: focused) }
    harness.browser.apply(try #require(try await lists.next()))
    let moved = harness.frame()
    #expect(harness.browser.listPane.model.chipCounts[.number(target)] == countBefore + 1)
    #expect(try cache.issue(number: focused)?.milestoneNumber == target)
    // The focus follows the issue into its new milestone, on screen (on the row it had, as
    // far as the end of the list allows).
    #expect(harness.browser.focusedNumber == focused)
    #expect(harness.lines.dropLast().contains { $0.contains("#\(focused) ") }, "\(harness.text)")
    #expect(!moved.rows.isEmpty)

    // Taken back: the issue returns to its row, focused, and the screen is as it was.
    for action in pending.reversed() { try cache.cancelQueuedAction(action.id) }
    harness.browser.apply(try #require(try await lists.next()))
    harness.frame()
    #expect(harness.browser.focusedNumber == focused)
    #expect(Array(harness.lines.dropLast()) == Array(before.dropLast()))

    // Esc leaves the issue where it is.
    harness.press(.character("m"))
    #expect(harness.press(.escape).isEmpty)
    #expect(harness.browser.state.mode == .browsing)
  }

  @Test func withoutATokenTheKeysSaySoAndSendNothing() async throws {
    var harness = try BrowserHarness(cache: try cache(), status: .cached(lastSynced: nil))
    harness.browser.writeAccess = .needsToken(advice: "set GH_TOKEN")
    #expect(harness.press(.character("x")).isEmpty)
    #expect(harness.lines.last?.contains("needs a token: set GH_TOKEN") == true)
    #expect(harness.press(.character("C")).isEmpty)
    harness.browser.writeAccess = .unavailable(reason: "the demo has no network")
    #expect(harness.press(.character("m")).isEmpty)
    #expect(harness.browser.state.mode == .browsing)
    #expect(harness.lines.last?.contains("the demo has no network") == true)
  }

  @Test func theReaderActsOnTheIssueItShows() throws {
    let cache = try cache()
    var harness = try BrowserHarness(cache: cache, status: .cached(lastSynced: nil))
    let focused = try #require(harness.browser.focusedNumber)
    harness.press(.enter)
    #expect(harness.browser.state.mode == .reading)
    let effects = harness.press(.character("c"))
    guard
      case .comment(let request)? = effects.first(where: {
        if case .comment = $0 { true } else { false }
      })
    else {
      Issue.record("a comment request, got \(effects)")
      return
    }
    #expect(request.number == focused)
    // An issue that is already open cannot be reopened: it says so.
    #expect(harness.press(.character("X")).isEmpty)
    #expect(harness.lines.last?.contains("#\(focused) is open") == true)
    harness.browser.actionFinished(request.id, .success("Commented on #\(focused)."))
    harness.frame()
    #expect(harness.lines.last?.contains("Commented on #\(focused).") == true)
  }
}
