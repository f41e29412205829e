import Foundation
import GitHubIssues
@testable import IssuesBrowser
import TerminalTestSupport
import Testing
import TrellisTerminal

/// The screen draws the state; it never changes it.
@MainActor
@Suite struct BrowserScreenTests {
  @Test func drawingTwiceDrawsTheSameAndChangesNoState() throws {
    var harness = try BrowserHarness(columns: 140, rows: 30)
    for keys: [Key] in [[], [.enter], [.enter, .end], [.character("?")], [.character("l")]] {
      harness.press(.escape, .escape)
      for key in keys { harness.press(key) }
      let state = harness.browser.state
      let first = harness.browser.render()
      let second = harness.browser.render()
      #expect(first == second, "\(keys)")
      #expect(harness.browser.state == state, "\(keys)")
    }
  }

  @Test func linksWithoutAURLPointAtTheConfiguredHost() throws {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: [
          GitHubIssue(
            id: 1, number: 7, title: "On the Enterprise host", state: .open,
            user: GitHubUser(login: "someone", id: 1), labels: [], milestone: nil, comments: 0,
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
            body: nil, isPullRequest: false)
        ], milestones: [], labels: []))
    let browser = IssueBrowser(
      cache: cache, repository: RepositoryName(owner: "acme", name: "tracker"),
      host: .enterprise("ghe.example.com"), size: TerminalSize(columns: 80, rows: 24))
    #expect(
      browser.handle(.key(KeyEvent(.character("o"))))
        == [.open("https://ghe.example.com/acme/tracker/issues/7")])
    #expect(
      browser.handle(.key(KeyEvent(.character("Y"))))
        == [.copy("https://ghe.example.com/acme/tracker/issues/7")])
  }
}
