import Foundation
import GitHubIssues
import Testing

/// A fake GitHub holding one issue and its comments, served 2 to a page.
final class ConversationServer: @unchecked Sendable {
  private let lock = NSLock()
  private var _comments: [[String: Any]]
  private var _updatedAt = "2024-01-01T00:00:00Z"
  private var _announced: Int?
  /// Pages the server stops after, though the first page announced more.
  var stopAfterPage: Int? {
    get { lock.withLock { _stopAfterPage } }
    set { lock.withLock { _stopAfterPage = newValue } }
  }
  private var _stopAfterPage: Int?
  /// The issue's timeline, or `nil` to answer 404 (an Enterprise version without it).
  var timeline: [[String: Any]]? {
    get { lock.withLock { _timeline } }
    set { lock.withLock { _timeline = newValue } }
  }
  private var _timeline: [[String: Any]]?
  /// Whether pages come without a `link` header: page 1 looks like the only one.
  var dropsLinks: Bool {
    get { lock.withLock { _dropsLinks } }
    set { lock.withLock { _dropsLinks = newValue } }
  }
  private var _dropsLinks = false
  /// Comments not listed any more but still answered on their own (`GET …/comments/ID`).
  var hiddenButPresent: [Int] {
    get { lock.withLock { _hiddenButPresent } }
    set { lock.withLock { _hiddenButPresent = newValue } }
  }
  private var _hiddenButPresent: [Int] = []

  init(comments: Int) {
    _comments = (1...max(1, comments)).prefix(comments).map(Self.comment)
  }

  static func comment(_ id: Int) -> [String: Any] {
    [
      "id": id, "user": ["login": "user\(id)", "id": id], "body": "Comment \(id)",
      "created_at": "2024-01-0\(1 + id % 8)T00:00:00Z", "updated_at": "2024-01-09T00:00:00Z",
      "html_url": "https://github.com/o/r/issues/7#issuecomment-\(id)",
      "author_association": "MEMBER",
      "reactions": ["url": "x", "total_count": 3, "+1": 2, "heart": 1, "rocket": -4, "eyes": "x"],
    ]
  }

  /// Changes the comments; the issue's `updated_at` moves, as on GitHub.
  func setComments(_ comments: [[String: Any]], updatedAt: String, announced: Int? = nil) {
    lock.withLock {
      _comments = comments
      _updatedAt = updatedAt
      _announced = announced
    }
  }

  func answer(_ request: HTTPRequest) throws -> HTTPResponse {
    let (comments, updatedAt, announced, stop) = lock.withLock {
      (_comments, _updatedAt, _announced, _stopAfterPage)
    }
    let path = request.url.path
    if path == "/repos/o/r/issues/7" {
      let issue: [String: Any] = [
        "id": 700, "number": 7, "title": "Seven", "state": "open",
        "user": ["login": "author", "id": 1], "comments": announced ?? comments.count,
        "created_at": "2024-01-01T00:00:00Z", "updated_at": updatedAt,
      ]
      return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: issue))
    }
    if path.hasPrefix("/repos/o/r/issues/comments/"),
      let id = path.split(separator: "/").last.flatMap({ Int($0) }),
      hiddenButPresent.contains(id)
    {
      var comment = Self.comment(id)
      comment["issue_url"] = "https://api.github.com/repos/o/r/issues/7"
      return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: comment))
    }
    if path == "/repos/o/r/issues/7/timeline", let timeline {
      return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: timeline))
    }
    guard path == "/repos/o/r/issues/7/comments" else {
      return HTTPResponse(status: 404, body: Data(#"{"message":"Not Found"}"#.utf8))
    }
    let page =
      URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name == "page" }?.value.flatMap(Int.init) ?? 1
    let pages = max(1, (comments.count + 1) / 2)
    let items = Array(comments.dropFirst((page - 1) * 2).prefix(2))
    var headers: [String: String] = [:]
    let base = "https://api.github.com/repos/o/r/issues/7/comments?per_page=100&page="
    if dropsLinks {
      // No link at all.
    } else if page < pages && page == stop {
      // Announces more pages, and gives no way to them: a listing that cannot complete.
      headers["link"] = "<\(base)\(pages)>; rel=\"last\""
    } else if page < pages {
      headers["link"] = "<\(base)\(page + 1)>; rel=\"next\", <\(base)\(pages)>; rel=\"last\""
    } else if page > 1 {
      headers["link"] = "<\(base)1>; rel=\"first\""
    }
    return HTTPResponse(
      status: 200, headers: headers, body: try JSONSerialization.data(withJSONObject: items))
  }
}

@Suite struct ConversationFetcherTests {
  let repository = RepositoryName(owner: "o", name: "r")

  func fetcher(_ server: ConversationServer) throws -> (ConversationFetcher, FakeTransport) {
    let transport = FakeTransport { try server.answer($0) }
    var client = GitHubClient(host: .github, transport: transport)
    client.maximumRetries = 0
    return (
      ConversationFetcher(client: client, cache: try IssueCache(), repository: repository),
      transport
    )
  }

  @Test func commentsAreStoredAndNotAskedForAgainUntilTheIssueChanges() async throws {
    let server = ConversationServer(comments: 5)
    let (fetcher, transport) = try fetcher(server)
    #expect(
      try await fetcher.fetch(7)
        == .listed(count: 5, complete: true, announced: 5, skippedEvents: 0))
    let comments = try fetcher.cache.comments(of: 7)
    // Oldest first: comment n was written on day 1 + n % 8.
    let ids: [Int64] = comments.map(\.id)
    #expect(ids == [1, 2, 3, 4, 5])
    let first = try #require(comments.first { $0.id == 1 })
    #expect(first.author == "user1")
    #expect(first.isEdited)
    #expect(first.reactions.map(\.content) == ["+1", "heart"])
    #expect(first.reactions.map(\.count) == [2, 1])
    #expect(try fetcher.cache.issue(number: 7)?.title == "Seven")

    let requests = transport.requests.count
    #expect(try await fetcher.fetch(7) == .current)
    #expect(transport.requests.count == requests + 1, "only the issue, not its comments")

    // A comment deleted on GitHub (the issue changed) goes from the cache too.
    server.setComments(
      [1, 2, 4, 5].map(ConversationServer.comment), updatedAt: "2024-02-01T00:00:00Z")
    #expect(
      try await fetcher.fetch(7)
        == .listed(count: 4, complete: true, announced: 4, skippedEvents: 0))
    #expect(Set(try fetcher.cache.comments(of: 7).map(\.id)) == [1, 2, 4, 5])
  }

  @Test func theTimelineIsKeptWithTheConversationAndAFailureKeepsTheCachedOne() async throws {
    let server = ConversationServer(comments: 2)
    server.timeline = [
      [
        "event": "closed", "actor": ["login": "octocat", "id": 1], "state_reason": "completed",
        "created_at": "2024-01-05T00:00:00Z",
      ],
      ["event": "subscribed", "actor": ["login": "octocat", "id": 1]],
      ["event": "milestoned", "actor": NSNull(), "milestone": ["title": "1.0"]],
    ]
    let (fetcher, _) = try fetcher(server)
    _ = try await fetcher.fetch(7)
    let events = try fetcher.cache.timeline(of: 7)
    #expect(events.map(\.sentence) == ["closed this", "added this to the 1.0 milestone"])
    #expect(events.map(\.actor) == ["octocat", "ghost"])
    // The issue changed, and its timeline is not there any more: the cached one stays.
    server.timeline = nil
    server.setComments(
      [1, 2].map(ConversationServer.comment), updatedAt: "2024-02-01T00:00:00Z")
    _ = try await fetcher.fetch(7)
    #expect(try fetcher.cache.timeline(of: 7).count == 2)
  }

  @Test func anIncompleteListingDeletesNothingAndIsNotCurrent() async throws {
    let server = ConversationServer(comments: 6)
    let (fetcher, _) = try fetcher(server)
    _ = try await fetcher.fetch(7)
    // Page 1 says there are more, and the listing ends there.
    server.setComments(
      [1, 2, 3, 4].map(ConversationServer.comment), updatedAt: "2024-02-01T00:00:00Z")
    server.stopAfterPage = 1
    let outcome = try await fetcher.fetch(7)
    #expect(outcome == .listed(count: 2, complete: false, announced: 4, skippedEvents: 0))
    #expect(try fetcher.cache.comments(of: 7).count == 6)
    #expect(try fetcher.cache.commentsAreCurrent(of: 7) == false)
  }

  @Test func aFirstPageWithoutLinksIsNotTakenForTheWholeListing() async throws {
    let server = ConversationServer(comments: 250)
    let (fetcher, _) = try fetcher(server)
    _ = try await fetcher.fetch(7)
    #expect(try fetcher.cache.comments(of: 7).count == 250)
    // The issue changed; page 1 now comes without `link`: 2 of the 250 it announces.
    server.setComments(
      (1...250).map(ConversationServer.comment), updatedAt: "2024-02-01T00:00:00Z")
    server.dropsLinks = true
    let outcome = try await fetcher.fetch(7)
    #expect(outcome == .listed(count: 2, complete: false, announced: 250, skippedEvents: 0))
    #expect(try fetcher.cache.comments(of: 7).count == 250, "nothing deleted")
    #expect(try fetcher.cache.commentsAreCurrent(of: 7) == false)
  }

  @Test func aCommentMissingFromACompleteListingIsDeletedOnlyWhenGitHubSaysItIsGone() async throws {
    let server = ConversationServer(comments: 5)
    let (fetcher, transport) = try fetcher(server)
    _ = try await fetcher.fetch(7)
    // Comment 3 is no longer listed but still exists; comment 5 is gone. The count says 4.
    server.setComments(
      [1, 2, 4, 6].map(ConversationServer.comment), updatedAt: "2024-02-01T00:00:00Z")
    server.hiddenButPresent = [3]
    let before = transport.requests.count
    _ = try await fetcher.fetch(7)
    #expect(Set(try fetcher.cache.comments(of: 7).map(\.id)) == [1, 2, 3, 4, 6])
    let checks = transport.requests.dropFirst(before).map(\.url.path).filter {
      $0.hasPrefix("/repos/o/r/issues/comments/")
    }
    #expect(checks.sorted() == ["/repos/o/r/issues/comments/3", "/repos/o/r/issues/comments/5"])
  }

  @Test func anUnreadableTimelineRecordIsSkippedAndTheRestKept() async throws {
    let server = ConversationServer(comments: 1)
    server.timeline = [
      [
        "event": "closed", "actor": ["login": "octocat", "id": 1],
        "created_at": "2024-01-05T00:00:00Z",
      ],
      ["event": 42, "actor": ["login": "octocat", "id": 1]],
      [
        "event": "reopened", "actor": ["login": "octocat", "id": 1],
        "created_at": "2024-01-06T00:00:00Z",
      ],
    ]
    let (fetcher, _) = try fetcher(server)
    let outcome = try await fetcher.fetch(7)
    #expect(outcome == .listed(count: 1, complete: true, announced: 1, skippedEvents: 1))
    #expect(try fetcher.cache.timeline(of: 7).map(\.sentence) == ["closed this", "reopened this"])
  }

  @Test func moreCommentsThanAnnouncedStops() async throws {
    let server = ConversationServer(comments: 3)
    server.setComments(
      (1...1_010).map(ConversationServer.comment), updatedAt: "2024-01-01T00:00:00Z", announced: 2)
    let (fetcher, _) = try fetcher(server)
    await #expect(throws: GitHubError.self) { try await fetcher.fetch(7) }
    #expect(try fetcher.cache.comments(of: 7).isEmpty)
  }

  @Test func aNullUserAndAMissingBodyDecode() throws {
    let json =
      #"{"id": 9, "user": null, "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z", "reactions": null}"#
    let comment = try GitHubJSON.decoder.decode(GitHubComment.self, from: Data(json.utf8))
    #expect(comment.user == .ghost)
    #expect(comment.body == "")
    #expect(comment.reactions.isEmpty)
    #expect(!comment.isEdited)
  }
}
