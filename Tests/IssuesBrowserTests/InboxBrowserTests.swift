import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// The inbox screen as a value: triage shown in the same key press, the focus kept in place,
/// filters, and the subjects' live state from the caches.
@MainActor
@Suite struct InboxBrowserTests {
  static let start = Date(timeIntervalSince1970: 1_750_000_000)

  static func inbox(_ count: Int) throws -> InboxStore {
    let store = try InboxStore()
    let threads = (0..<count).map { index in
      GitHubNotification(
        id: "\(100 + index)", unread: true, reason: index % 2 == 0 ? "mention" : "assign",
        updatedAt: start.addingTimeInterval(Double(index) * 60), title: "Thread \(index)",
        subjectType: "Issue", number: index + 1,
        repository: RepositoryName(owner: "acme", name: index < 3 ? "web" : "tracker"))
    }
    try store.apply(
      GitHubClient.NotificationListing(
        threads: threads, isComplete: true, lastModified: nil, pollInterval: 60),
      polledAt: start)
    return store
  }

  static func text(_ browser: InboxBrowser) -> [String] { browser.render().lines }

  static func row(_ id: String) -> InboxRow { InboxRow(host: 0, thread: id) }

  @Test func triageShowsInTheSameKeyPressAndTheFocusStaysInPlace() throws {
    let store = try Self.inbox(6)
    let browser = InboxBrowser(
      inboxes: [(.github, store)], size: TerminalSize(columns: 100, rows: 12), now: { Self.start })
    #expect(browser.focused?.0.thread == "105", "newest first")
    _ = browser.handle(.key(KeyEvent(.down)))
    #expect(browser.handle(.key(KeyEvent(.character("d")))) == [.sendTriage(host: 0)])
    #expect(browser.threads[Self.row("104")] == nil && browser.threads.count == 5)
    #expect(browser.focused?.0.thread == "103", "the next thread, in the same place")
    #expect(!Self.text(browser).contains { $0.contains("Thread 4") })
    #expect(Self.text(browser)[1].contains("5 threads"), "the header counts at once")
    // Read: the thread stays, as read, and the focus goes on.
    _ = browser.handle(.key(KeyEvent(.character("m"))))
    #expect(browser.threads[Self.row("103")]?.notification.unread == false)
    #expect(browser.focused?.0.thread != "103")
    #expect(browser.unreadCount == 4)
    #expect(try store.pendingTriage().map(\.kind) == [.done, .read])
    // Filters: by reason, then by repository.
    _ = browser.handle(.key(KeyEvent(.character("f"))))
    #expect(browser.reasonFilter == "assign")
    #expect(browser.threads.values.allSatisfy { $0.notification.reason == "assign" })
    _ = browser.handle(.key(KeyEvent(.character("f"))))
    _ = browser.handle(.key(KeyEvent(.character("f"))))
    #expect(browser.reasonFilter == nil)
    _ = browser.handle(.key(KeyEvent(.character("F"))))
    #expect(browser.repositoryFilter == RepositoryName(owner: "acme", name: "tracker"))
  }

  @Test func aSubjectShowsItsStateFromTheCache() throws {
    let store = try Self.inbox(2)
    let browser = InboxBrowser(
      inboxes: [(.github, store)], size: TerminalSize(columns: 100, rows: 8), now: { Self.start })
    browser.subject = { _, _, number in
      CachedIssue(
        key: IssueKey(rawValue: Int64(number)), id: Int64(number), number: number, title: "",
        state: number == 2 ? .closed : .open,
        author: "", milestoneNumber: nil, labels: [], comments: 0, createdAt: Self.start,
        updatedAt: Self.start, closedAt: nil, isPullRequest: false, htmlURL: nil, body: nil)
    }
    browser.reload()
    let lines = Self.text(browser)
    #expect(lines.contains { $0.contains("✔ acme/web#2") }, "closed since")
    #expect(lines.contains { $0.contains("● acme/web#1") })
    #expect(lines[0].contains("inbox · 2 unread"))
  }
}
