import Foundation
@testable import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// Every screen the README shows is the screen as the app draws it, on the bundled betamax
/// recording at a fixed time, so that the README cannot fall behind the app: a change to what a
/// screen shows fails here until the README shows it too.
///
/// `TRELLIS_UPDATE_README=1 swift test --filter ReadmeScreensTests` writes the current screens
/// into the README.
@MainActor
@Suite(.serialized) struct ReadmeScreensTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

  /// A screen of the README: the marker its code block follows, and how the app draws it.
  enum Shown: String, CaseIterable {
    case browser, reader, dashboard, inbox, queue

    /// The HTML comment the screen's code block follows in the README.
    var marker: String { "<!-- screen: \(rawValue) -->" }
  }

  /// The betamax issues, the focus on #40 (the first row under the 1.0.0 milestone).
  static func harness(columns: Int, rows: Int, cache: IssueCache? = nil) throws -> BrowserHarness {
    try BrowserHarness(columns: columns, rows: rows, cache: cache)
  }

  /// The lines a screen shows, without trailing blanks.
  static func draw(_ shown: Shown) throws -> [String] {
    let lines: [String]
    switch shown {
    case .browser:
      lines = try harness(columns: 100, rows: 18).lines
    case .reader:
      var harness = try harness(columns: 80, rows: 20)
      harness.press(.enter)
      lines = harness.lines
    case .dashboard:
      lines = try dashboard().render().lines
    case .inbox:
      lines = try inbox().render().lines
    case .queue:
      lines = try queue()
    }
    return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }

  static let now = Date(timeIntervalSince1970: 1_767_000_000)

  /// Three sections over the betamax cache, as a `dashboard.yml` would define them.
  static func dashboard() throws -> DashboardBrowser {
    let cache = try BrowserHarness.betamax()
    let source = DashboardSource(host: .github, repository: BundledDataset.repository)
    let dashboard = Dashboard(repositories: [.init(source: source, cache: cache, me: "jerith")])
    let sections = try [
      DashboardSection(title: "Bugs", query: SearchQuery(parsing: "is:open label:Bug")),
      DashboardSection(title: "Docs", query: SearchQuery(parsing: "is:open label:Docs")),
      DashboardSection(title: "Mine", query: SearchQuery(parsing: "author:@me")),
      DashboardSection(title: "Recently closed", query: SearchQuery(parsing: "is:closed")),
    ]
    let browser = DashboardBrowser(
      dashboard: dashboard, sections: sections, size: TerminalSize(columns: 90, rows: 7),
      now: { now })
    browser.tick()
    return browser
  }

  /// Notifications about betamax issues, each for another reason.
  static func inbox() throws -> InboxBrowser {
    let store = try InboxStore()
    let cache = try BrowserHarness.betamax()
    let threads: [(Int, String, Double)] = [
      (40, "mention", 2), (137, "assign", 30), (145, "review_requested", 300),
      (131, "subscribed", 5000), (124, "comment", 90000),
    ]
    let issues = try cache.issues(numbers: threads.map(\.0))
    let notifications = threads.enumerated().map { index, thread in
      GitHubNotification(
        id: "\(900 + index)", unread: index < 3, reason: thread.1,
        updatedAt: now.addingTimeInterval(-thread.2 * 60),
        title: issues.first { $0.number == thread.0 }?.title ?? "",
        subjectType: thread.0 == 145 ? "PullRequest" : "Issue", number: thread.0,
        repository: BundledDataset.repository)
    }
    try store.apply(
      GitHubClient.NotificationListing(
        threads: notifications, isComplete: true, lastModified: nil, pollInterval: 60),
      polledAt: now)
    let browser = InboxBrowser(
      inboxes: [(.github, store)], size: TerminalSize(columns: 90, rows: 9), now: { now })
    return browser
  }

  /// The browser after three actions taken offline, one of them in conflict with GitHub: a
  /// close of #52 that someone else closed first, a label queued behind it, a comment on #40.
  static func queue() throws -> [String] {
    let cache = try BrowserHarness.betamax()
    let close = try cache.enqueue(.change(.close(.completed)), onIssue: 52)
    try cache.enqueue(.change(.addLabels(["queued"])), onIssue: 52)
    _ = try cache.enqueueComment("Fixed in 0.9.0, closing.", onIssue: 40, now: now)
    try cache.markConflict(close.id, reason: "#52 was closed on GitHub meanwhile")
    var harness = try harness(columns: 90, rows: 9, cache: cache)
    harness.browser.listPane.forgetRows(nil)
    harness.browser.listPane.readQueue()
    // Open and closed: #52 is closed here until GitHub takes the close.
    harness.press(.character("s"), .character("s"))
    return harness.lines
  }

  @Test(arguments: Shown.allCases)
  func theReadmeShowsTheScreenAsTheAppDrawsIt(_ shown: Shown) throws {
    let screen = try Self.draw(shown)
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    var lines = text.components(separatedBy: "\n")
    let marker = try #require(
      lines.firstIndex { $0 == shown.marker }, "README.md has no \(shown.marker)")
    let open = try #require(lines[marker...].firstIndex { $0.hasPrefix("```") })
    let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") })
    if ProcessInfo.processInfo.environment["TRELLIS_UPDATE_README"] == "1" {
      lines.replaceSubrange((open + 1)..<close, with: screen)
      try lines.joined(separator: "\n").write(to: Self.readme, atomically: true, encoding: .utf8)
      return
    }
    let drawn = Array(lines[(open + 1)..<close])
    #expect(
      drawn == screen,
      """
      README.md's \(shown) differs from the app's; run with TRELLIS_UPDATE_README=1 to update it:
      \(screen.joined(separator: "\n"))
      """)
  }
}
