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

  @Test func aFailedFetchSaysWhyAndKeepsWhatIsCached() throws {
    let cache = try BrowserHarness.betamax()
    let numbers = try cache.issues(IssueFilter()).filter { $0.comments > 0 }.map(\.number)
    let number = try #require(numbers.first)
    try cache.writeComments(
      [Self.comment(1, "An old comment.")], of: number, completeAsOf: nil)
    var harness = try BrowserHarness(columns: 100, rows: 30, cache: cache)
    while harness.browser.list.focusedItem != number { harness.press(.down) }
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
    let first = harness.browser.readerPosts.count
    #expect(first > 1 && first < 100, "\(first) posts rendered for the first screen")
    harness.browser.tick()
    #expect(harness.browser.readerPosts.count > first)
    harness.press(.end)
    #expect(harness.browser.readerPosts.count == 301)
    #expect(harness.lines.contains { $0.contains("Comment 300.") })
    // In order: the posts of the snapshot are the issue, then every comment oldest first.
    let sections = harness.browser.reader.dataSource.snapshot().sectionIdentifiers
    #expect(sections == [0] + (1...300).map(Int64.init))
  }
}
