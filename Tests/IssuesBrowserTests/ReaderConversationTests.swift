import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// The reader: the issue and its comments as posts under pinned author headers, fetched through
/// the host when the cache's are not current.
@MainActor
@Suite struct ReaderConversationTests {
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  static func comment(_ id: Int64, _ body: String, edited: Bool = false) -> GitHubComment {
    GitHubComment(
      id: id, user: GitHubUser(login: "commenter\(id)", id: id), body: body,
      createdAt: start.addingTimeInterval(Double(id) * 60),
      updatedAt: start.addingTimeInterval(Double(id) * 60 + (edited ? 30 : 0)),
      authorAssociation: "MEMBER", reactions: ["+1": 3])
  }

  @Test func theConversationIsFetchedOnceAndAppearsUnderItsHeaders() throws {
    let cache = try BrowserHarness.betamax()
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache)
    let issue = try #require(harness.browser.focusedIssue)
    let effects = harness.press(.enter)
    #expect(issue.comments > 0)
    #expect(effects == [.fetchConversation(issue.number)])
    harness.press(.end)
    #expect(harness.lines.contains { $0.contains("Fetching \(issue.comments) comment") })
    // The host fetched the comments into the cache.
    let comments = (1...40).map { Self.comment($0, "Comment number \($0) says **hello**.") }
    try cache.writeComments(comments, of: issue.number, completeAsOf: issue.updatedAt)
    harness.browser.conversationFetched(issue.number, .success(()))
    harness.frame()
    #expect(!harness.lines.contains { $0.contains("Fetching") })
    // Scrolled to the end: the last comment, its reactions, and its author pinned on top.
    harness.press(.end)
    #expect(harness.lines.contains { $0.contains("Comment number 40 says hello.") })
    #expect(harness.lines.contains { $0.contains("👍 3") })
    // The post on top keeps its author's header on the first line, whatever is scrolled.
    #expect(harness.lines[1].contains("commenter") && harness.lines[1].contains("member"))
    harness.press(.up)
    #expect(harness.lines[1].contains("commenter") && harness.lines[1].contains("member"))
    // Back, and in again: the comments are current, nothing is asked.
    harness.press(.escape)
    #expect(harness.press(.enter).isEmpty)
    harness.press(.end)
    #expect(harness.lines.contains { $0.contains("Comment number 40 says hello.") })
  }

  @Test func timelineEventsShowUnderThePostWrittenBeforeThem() throws {
    let cache = try BrowserHarness.betamax()
    var harness = try BrowserHarness(columns: 100, rows: 40, cache: cache)
    let issue = try #require(harness.browser.focusedIssue)
    try cache.writeComments(
      [Self.comment(1, "First."), Self.comment(3, "Third.")], of: issue.number,
      completeAsOf: issue.updatedAt)
    let json = """
      [{"event": "labeled", "actor": {"login": "hroncok", "id": 1}, "label": {"name": "bug"},
        "created_at": "2023-11-14T22:15:00Z"},
       {"event": "commented", "actor": {"login": "x", "id": 2}, "created_at": "2023-11-14T22:16:00Z"},
       {"event": "closed", "actor": null, "state_reason": "not_planned",
        "created_at": "2023-11-14T22:17:00Z"},
       {"event": "cross-referenced", "actor": {"login": "bboe", "id": 3},
        "source": {"issue": {"number": 12, "title": "Follow-up", "repository": {"full_name": "o/r"}}},
        "created_at": "2023-11-14T22:40:00Z"}]
      """
    let events = try GitHubJSON.decoder.decode([GitHubTimelineEvent].self, from: Data(json.utf8))
    try cache.replaceTimeline(of: issue.number, with: events)
    #expect(try cache.timeline(of: issue.number).count == 3, "the comment is not an event")
    harness.press(.enter)
    harness.press(.end)
    let lines = harness.lines
    let first = try #require(lines.firstIndex { $0.contains("First.") })
    let labeled = try #require(lines.firstIndex { $0.contains("↳ hroncok added the bug label") })
    let closed = try #require(
      lines.firstIndex { $0.contains("↳ ghost closed this as not planned") })
    let third = try #require(lines.firstIndex { $0.contains("Third.") })
    let mentioned = try #require(
      lines.firstIndex { $0.contains("↳ bboe mentioned this in o/r#12 “Follow-up”") })
    // "First." is at 22:14:20 and "Third." at 22:16:20: the label (22:15) goes under the first,
    // the close (22:17) and the mention (22:40) under the last.
    #expect(first < labeled && labeled < third && third < closed && closed < mentioned)
  }

  @Test func fewerCommentsThanTheIssueAnnouncesAreSaidNotLeftBlank() throws {
    let cache = try BrowserHarness.betamax()
    let issue = try #require(try cache.issues(IssueFilter()).first { $0.comments > 1 })
    try cache.writeComments(
      [Self.comment(1, "The only one here.")], of: issue.number, completeAsOf: nil)
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache)
    while harness.browser.focusedNumber != issue.number { harness.press(.down) }
    #expect(harness.press(.enter) == [.fetchConversation(issue.number)])
    // The host's listing came back short: what is cached is shown, and the gap is said.
    harness.browser.conversationFetched(issue.number, .success(()))
    harness.frame()
    harness.press(.end)
    #expect(harness.lines.contains { $0.contains("The only one here.") })
    #expect(
      harness.lines.contains {
        $0.contains("1 of the \(issue.comments) comments the issue announces could be fetched")
      })
  }

  @Test func aFailedFetchSaysWhyAndKeepsWhatIsCached() throws {
    let cache = try BrowserHarness.betamax()
    let numbers = try cache.issues(IssueFilter()).filter { $0.comments > 0 }.map(\.number)
    let number = try #require(numbers.first)
    try cache.writeComments(
      [Self.comment(1, "An old comment.")], of: number, completeAsOf: nil)
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache)
    while harness.browser.focusedNumber != number { harness.press(.down) }
    #expect(harness.press(.enter) == [.fetchConversation(number)])
    harness.browser.conversationFetched(number, .failure(HostFailure("offline mode")))
    harness.frame()
    harness.press(.end)
    #expect(harness.lines.contains { $0.contains("An old comment.") })
    #expect(
      harness.lines.contains {
        $0.contains("Could not fetch the comments: offline mode (showing the 1 cached)")
      })
  }

  @Test func anEditedCommentRedrawsOnlyWhatChanged() throws {
    let cache = try BrowserHarness.betamax()
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache)
    let issue = try #require(harness.browser.focusedIssue)
    try cache.writeComments(
      [Self.comment(1, "First."), Self.comment(2, "Second.")], of: issue.number,
      completeAsOf: issue.updatedAt)
    harness.press(.enter)
    harness.browser.conversationFetched(issue.number, .success(()))
    harness.frame()
    harness.press(.end)
    try cache.writeComments(
      [Self.comment(1, "First."), Self.comment(2, "Second, edited.", edited: true)],
      of: issue.number, completeAsOf: issue.updatedAt)
    harness.browser.conversationFetched(issue.number, .success(()))
    let frame = harness.frame()
    #expect(harness.lines.contains { $0.contains("Second, edited.") })
    #expect(harness.lines.contains { $0.contains("commenter2") && $0.contains("edited") })
    #expect(frame.rows.count <= 4, "\(frame.rows.sorted())")
  }

  @Test func aLongThreadShowsItsFirstScreenAndFillsInAsTimePassesOrKeysAsk() throws {
    let cache = try BrowserHarness.betamax()
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache)
    let issue = try #require(harness.browser.focusedIssue)
    try cache.writeComments(
      (1...300).map { Self.comment($0, "Comment \($0).") }, of: issue.number,
      completeAsOf: issue.updatedAt)
    harness.press(.enter)
    let first = harness.browser.readerPane.model!.postCount
    #expect(first > 1 && first < 100, "\(first) posts rendered for the first screen")
    harness.browser.tick()
    #expect(harness.browser.readerPane.model!.postCount > first)
    harness.press(.end)
    #expect(harness.browser.readerPane.model!.postCount == 301)
    #expect(harness.lines.contains { $0.contains("Comment 300.") })
    // In order: the posts of the snapshot are the issue, then every comment oldest first.
    let sections = harness.browser.readerPane.view.dataSource.snapshot().sectionIdentifiers
    #expect(sections == [0] + (1...300).map(Int64.init))
  }

  /// A pull request's reader: its checks under the description, its reviews among the
  /// comments with their threads; asked of the host every time (checks change on their own).
  @Test func aPullRequestShowsItsChecksAndReviewsWithTheirThreads() throws {
    let cache = try BrowserHarness.betamax()
    let at = { (minute: Double) in Self.start.addingTimeInterval(minute * 60) }
    let pull = GitHubIssue(
      id: 99_001, number: 9_001, title: "Parse empty input", state: .open,
      user: GitHubUser(login: "octocat", id: 7), createdAt: at(0), updatedAt: at(60),
      body: "Handles the empty case.", isPullRequest: true)
    try cache.writePage([pull], advancingMarks: false)
    try cache.writeComments([Self.comment(30, "Thanks!")], of: 9_001, completeAsOf: at(60))
    let json = """
      [{"event":"reviewed","id":71,"user":{"login":"mona","id":2},"body":"Two things.",
        "state":"changes_requested","submitted_at":"2023-11-14T22:33:20Z",
        "author_association":"MEMBER"}]
      """
    let events = try GitHubJSON.decoder.decode([GitHubTimelineEvent].self, from: Data(json.utf8))
    try cache.replaceTimeline(of: 9_001, with: events)
    try cache.writeReviewComments(
      [
        ReviewComment(
          id: 1, reviewID: 71, author: "mona", body: "What if it is empty?",
          path: "Sources/Parser.swift", line: 12, diffHunk: "@@ -1 +1 @@\n+  var index = 0",
          createdAt: at(18))
      ], of: 9_001, complete: true)
    try cache.replaceChecks(
      of: 9_001,
      with: [
        PullRequestCheck(name: "build", state: .passing),
        PullRequestCheck(name: "test", state: .failing),
      ], announced: 2, headSHA: "abc1234")
    try cache.writePullRequestDetails([
      PullRequestDetails(
        number: 9_001, updatedAt: at(60), reviewDecision: .changesRequested, checks: .failing,
        mergeable: .conflicting, headRef: "empty-input", baseRef: "main", additions: 5,
        deletions: 1, requestedReviewers: ["hubot"], reviews: [])
    ])
    var harness = try BrowserHarness(columns: 100, rows: 50, cache: cache)
    harness.browser.read(number: 9_001)
    #expect(harness.browser.pendingEffects.contains(.fetchConversation(9_001)))
    harness.browser.conversationFetched(9_001, .success(()))
    harness.frame()
    let lines = harness.lines
    let checks = try #require(lines.firstIndex { $0.contains("Checks") })
    #expect(lines[checks].contains("1 failing · 1 passing"))
    let failing = try #require(lines.firstIndex { $0.contains("✗ test") })
    let passing = try #require(lines.firstIndex { $0.contains("✓ build") })
    let review = try #require(
      lines.firstIndex { $0.contains("mona") && $0.contains("changes requested") })
    let place = try #require(lines.firstIndex { $0.contains("▸ Sources/Parser.swift:12") })
    let question = try #require(lines.firstIndex { $0.contains("│ What if it is empty?") })
    let thanks = try #require(lines.firstIndex { $0.contains("Thanks!") })
    #expect(lines[review].contains("mona"))
    #expect(checks < failing && failing < passing && passing < review)
    #expect(review < place && place < question && question < thanks, "reviewed before the thanks")
    #expect(lines.contains { $0.contains("+  var index = 0") })
    #expect(lines.contains { $0.contains("empty-input → main · +5 −1 · conflicts · asks hubot") })
  }
}
