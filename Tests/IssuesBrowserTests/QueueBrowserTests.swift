import Foundation
@testable import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// The queue in the browser: rows marked, the reader saying what waits and why, `F` sending
/// a conflict anyway and `U` cancelling what was not sent.
@MainActor
@Suite struct QueueBrowserTests {
  @Test func aConflictIsShownAndThePersonChooses() throws {
    let cache = try BrowserHarness.betamax()
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache)
    let issue = try #require(harness.browser.focusedIssue)
    let close = try cache.enqueue(.change(.close(.completed)), onIssue: issue.number)
    try cache.enqueue(.change(.addLabels(["queued"])), onIssue: issue.number)
    try cache.markConflict(close.id, reason: "#\(issue.number) was closed on GitHub meanwhile")
    // Without a cache observation here, the queue's marks are read as a new list would bring them.
    harness.browser.listPane.forgetRows(nil)
    harness.browser.listPane.readQueue()
    // Shown closed: the open list lost it; with closed ones, its row is marked.
    harness.press(.character("s"))
    harness.frame()
    let row = try #require(harness.lines.first { $0.contains("#\(issue.number) ") })
    #expect(row.hasPrefix("!"), "\(row)")
    #expect(harness.lines.first?.contains("⇡ 1 queued") == true)
    // The reader says what waits and why.
    let effects = harness.press(.enter)
    _ = effects
    #expect(harness.lines.contains { $0.contains("Queued") && $0.contains("2 actions") })
    #expect(
      harness.lines.contains {
        $0.contains("! close #\(issue.number) — #\(issue.number) was closed")
      })
    // F sets the conflict aside and asks the host to send.
    #expect(harness.press(.character("F")).contains(.sendQueue))
    #expect(try cache.queuedActions().allSatisfy { $0.status == .pending })
    // U cancels both: the issue shows as before, open and without the label.
    harness.press(.character("U"))
    #expect(try cache.queuedActions().isEmpty)
    let shown = try #require(try cache.issues(numbers: [issue.number]).first)
    #expect(shown.state == .open && !shown.labels.contains("queued"))
    #expect(harness.lines.last?.contains("Cancelled 2 queued actions") == true)
  }
}
