import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Synchronization
import Testing
import TrellisTerminal

@MainActor
@Suite struct DashboardBrowserTests {
  static let base = Date(timeIntervalSince1970: 1_700_000_000)

  static let v1 = GitHubMilestone(id: 1, number: 1, title: "v1", state: .open)

  static func issue(
    _ number: Int, _ title: String, labels: [String] = [], pullRequest: Bool = false,
    minutes: Int, state: GitHubIssue.State = .open, milestone: GitHubMilestone? = nil
  ) -> GitHubIssue {
    GitHubIssue(
      id: Int64(number), number: number, title: title, state: state,
      user: GitHubUser(login: "octocat", id: 1), labels: labels.map { GitHubLabel(name: $0) },
      milestone: milestone, createdAt: base,
      updatedAt: base.addingTimeInterval(Double(minutes) * 60), isPullRequest: pullRequest)
  }

  static let tracker = DashboardSource(
    host: .github, repository: RepositoryName(owner: "acme", name: "tracker"))
  static let platform = DashboardSource(
    host: .enterprise("ghe.example.com"), repository: RepositoryName(owner: "platform", name: "api")
  )

  /// Two repositories on two hosts, and three sections.
  static func browser() throws -> (DashboardBrowser, [IssueCache]) {
    let tracker = try IssueCache()
    try tracker.apply(
      CacheUpdate(
        issues: [
          issue(1, "Crash on launch", labels: ["bug"], minutes: 5, milestone: v1),
          issue(2, "Dark mode", minutes: 9, milestone: v1),
          issue(3, "Bump version", pullRequest: true, minutes: 8),
          issue(4, "Old crash", labels: ["bug"], minutes: 1, state: .closed),
        ], isComplete: true, milestones: [v1], syncedAt: base))
    let platform = try IssueCache()
    try platform.apply(
      CacheUpdate(
        issues: [
          issue(10, "API times out", labels: ["bug"], minutes: 7),
          issue(11, "Add pagination", pullRequest: true, minutes: 3),
        ], isComplete: true, syncedAt: base))
    let dashboard = Dashboard(repositories: [
      .init(source: Self.tracker, cache: tracker, me: "octocat"),
      .init(source: Self.platform, cache: platform, me: nil),
    ])
    let sections = try [
      DashboardSection(title: "Bugs", query: SearchQuery(parsing: "is:open label:bug")),
      DashboardSection(
        title: "PRs", query: SearchQuery(parsing: "is:pr"), grouping: .repository),
      DashboardSection(title: "Tracker", query: SearchQuery(parsing: "repo:acme/tracker")),
    ]
    let browser = DashboardBrowser(
      dashboard: dashboard, sections: sections, size: TerminalSize(columns: 100, rows: 12),
      now: { base.addingTimeInterval(3600) })
    return (browser, [tracker, platform])
  }

  @Test func tabsCountEverySectionAndRowsNameTheirRepositories() throws {
    let (browser, _) = try Self.browser()
    var lines = browser.render().lines
    // The first frame waits for the section shown; the others are counted on the first tick.
    #expect(lines[1].contains(" Bugs 2 ") && lines[1].contains(" PRs … "))
    browser.tick()
    lines = browser.render().lines
    #expect(lines[0].contains("dashboard · 2 repositories"))
    #expect(lines[1].contains(" Bugs 2 ") && lines[1].contains(" PRs 2 "))
    #expect(lines[1].contains(" Tracker 4 "))
    // Newest first across both caches, each row with its repository.
    #expect(
      lines[3].contains("ghe.example.com/platform/api#10") && lines[3].contains("API times out"))
    #expect(lines[4].contains("acme/tracker#1") && lines[4].contains("Crash on launch"))
    #expect(browser.focusedRow == DashboardRow(source: 1, number: 10))
  }

  @Test func keysSwitchSectionsGroupAndOpen() throws {
    let (browser, _) = try Self.browser()
    _ = browser.handle(.key(KeyEvent(.tab)))
    #expect(browser.selected == 1)
    var lines = browser.render().lines
    // Grouped by repository: a header per repository, rows without the name.
    #expect(
      lines[2].contains("acme/tracker") && lines[3].contains("#3 ") && !lines[3].contains("acme"))
    #expect(lines[4].contains("ghe.example.com/platform/api") && lines[5].contains("#11"))
    _ = browser.handle(.key(KeyEvent(.character("v"))))
    lines = browser.render().lines
    #expect(lines[2].contains("2 items") && lines[3].contains("acme/tracker#3"))
    _ = browser.handle(.key(KeyEvent(.character("3"))))
    #expect(browser.selected == 2)
    #expect(browser.handle(.key(KeyEvent(.enter))) == [.read(Self.tracker, 2)])
    #expect(browser.handle(.key(KeyEvent(.character("y")))) == [.copy("acme/tracker#2")])
    _ = browser.handle(.key(KeyEvent(.down)))
    #expect(
      browser.handle(.key(KeyEvent(.character("o"))))
        == [.open("https://github.com/acme/tracker/pull/3")])
    _ = browser.handle(.key(KeyEvent(.tab, modifiers: .shift)))
    #expect(browser.selected == 1)
    #expect(browser.handle(.key(KeyEvent(.character("q")))) == [.quit])
    #expect(browser.handle(.key(KeyEvent(.character("c"), modifiers: .control))) == [.interrupted])
  }

  @Test func aSectionOverOneRepositoryHasItsMilestoneChips() throws {
    let (browser, _) = try Self.browser()
    // Over two repositories: no chips, the list right under the tabs.
    #expect(browser.render().lines[2].contains("items"))
    _ = browser.handle(.key(KeyEvent(.character("3"))))
    var lines = browser.render().lines
    #expect(lines[2].contains(" All 4 ") && lines[2].contains(" No milestone 2 "))
    #expect(lines[2].contains(" v1 2 "))
    #expect(browser.milestoneFilter == .all)
    _ = browser.handle(.key(KeyEvent(.character("]"))))
    _ = browser.handle(.key(KeyEvent(.character("]"))))
    #expect(browser.milestoneFilter == .number(1))
    lines = browser.render().lines
    #expect(lines[3].contains("2 items"))
    #expect(lines[4].contains("#2 ") && lines[5].contains("#1 ") && !lines[6].contains("#"))
    _ = browser.handle(.key(KeyEvent(.character("["))))
    #expect(browser.milestoneFilter == .withoutMilestone)
    // Another section and back: each keeps its own choice.
    _ = browser.handle(.key(KeyEvent(.character("1"))))
    #expect(browser.milestoneFilter == .all)
    _ = browser.handle(.key(KeyEvent(.character("3"))))
    #expect(browser.milestoneFilter == .withoutMilestone)
  }

  @Test func aChangeInOneCacheUpdatesEveryMatchingSectionAndKeepsTheFocus() throws {
    let (browser, caches) = try Self.browser()
    _ = browser.handle(.key(KeyEvent(.down)))
    #expect(browser.focusedRow == DashboardRow(source: 0, number: 1))
    // A sync brings a new bug, newer than everything, into the tracker.
    try caches[0].apply(
      CacheUpdate(
        issues: [Self.issue(5, "Leak", labels: ["bug"], minutes: 30)], syncedAt: Self.base))
    browser.refresh()
    let lines = browser.render().lines
    #expect(lines[1].contains(" Bugs 3 ") && lines[1].contains(" Tracker 5 "))
    #expect(lines[3].contains("acme/tracker#5"))
    #expect(browser.focusedRow == DashboardRow(source: 0, number: 1))
  }

  @Test func anEmptySectionSaysWhatItAskedFor() throws {
    let empty = Dashboard(repositories: [])
    let browser = DashboardBrowser(
      dashboard: empty,
      sections: [DashboardSection(title: "A", query: try SearchQuery(parsing: "is:open"))],
      size: TerminalSize(columns: 80, rows: 10))
    #expect(browser.render().lines.contains { $0.contains("Nothing matches is:open") })
    #expect(browser.handle(.key(KeyEvent(.enter))).isEmpty)
  }
}

@Suite struct DashboardSyncSchedulerTests {
  static func source(_ name: String, host: GitHubHost = .github) -> DashboardSource {
    DashboardSource(host: host, repository: RepositoryName(owner: "acme", name: name))
  }

  /// A long first sync is cut off at each turn's end and resumed: the short ones finish
  /// first, and every repository is done in the end.
  @Test func turnsKeepALongSyncFromStarvingTheOthers() async throws {
    let pagesDone = Mutex<[String: Int]>([:])
    let needed = ["big": 12, "small": 1, "tiny": 1]
    let repositories = try ["big", "small", "tiny"].map { (Self.source($0), try IssueCache()) }
    let scheduler = DashboardSyncScheduler(
      repositories: repositories, slice: .milliseconds(150), timeout: nil
    ) { source, _, _ in
      let name = source.repository.name
      // A page at a time, each kept (as the cache keeps committed pages) when cut off.
      while pagesDone.withLock({ $0[name, default: 0] }) < needed[name, default: 0] {
        try await Task.sleep(for: .milliseconds(40))
        pagesDone.withLock { $0[name, default: 0] += 1 }
      }
    }
    let reports = Mutex<[String]>([])
    await scheduler.run { report in
      switch report {
      case .turnEnded(let source, .success(let finished)):
        reports.withLock { $0.append("\(source.repository.name):\(finished ? "done" : "cut")") }
      case .turnEnded(let source, .failure):
        reports.withLock { $0.append("\(source.repository.name):failed") }
      case .roundFinished(let failures): reports.withLock { $0.append("round:\(failures)") }
      case .progress: break
      }
    }
    let seen = reports.withLock { $0 }
    #expect(Array(seen.prefix(3)) == ["big:cut", "small:done", "tiny:done"])
    #expect(seen.filter { $0 == "big:cut" }.count >= 2)
    #expect(seen.suffix(2) == ["big:done", "round:0"])
    #expect(pagesDone.withLock { $0 } == needed)
  }

  @Test func aRateLimitedHostIsNotAskedAgain() async throws {
    let calls = Mutex<[String]>([])
    let enterprise = GitHubHost.enterprise("ghe.example.com")
    let repositories = [
      (Self.source("a", host: enterprise), try IssueCache()),
      (Self.source("b"), try IssueCache()),
      (Self.source("c", host: enterprise), try IssueCache()),
    ]
    let scheduler = DashboardSyncScheduler(repositories: repositories, timeout: nil) {
      source, _, _ in
      calls.withLock { $0.append(source.repository.name) }
      if source.host == enterprise {
        throw GitHubError(.rateLimited, url: "https://ghe.example.com/api/v3/x")
      }
    }
    let failures = Mutex<Int?>(nil)
    await scheduler.run { report in
      if case .roundFinished(let count) = report { failures.withLock { $0 = count } }
    }
    #expect(calls.withLock { $0 } == ["a", "b"])
    #expect(failures.withLock { $0 } == 2)
  }
}
