import Foundation
import GRDB
@testable import GitHubIssues
import GitHubTestSupport
import Testing
import TrellisTestSupport

/// A pull request's conversation beyond its comments — reviews, line-comment threads, checks —
/// as decoded from REST, threaded, fetched and kept.
@Suite(.serialized) struct PullRequestConversationTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")
  let synthetic = SyntheticRepository(itemCount: 300, milestoneCount: 2, seed: 9)
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try GitHubJSON.decoder.decode(type, from: Data(json.utf8))
  }

  // MARK: Decoding

  @Test func aReviewedEventIsAReviewAndAPendingOneIsNot() throws {
    let events = try decode(
      [GitHubTimelineEvent].self,
      #"""
      [{"event":"reviewed","id":80,"node_id":"PRR_1","user":{"login":"mona","id":2},
        "body":"Nice.","state":"approved","submitted_at":"2024-03-01T10:00:00Z",
        "author_association":"MEMBER","commit_id":"abc"},
       {"event":"reviewed","id":81,"user":{"login":"hubot","id":3},"body":null,
        "state":"pending"},
       {"event":"reviewed","id":82,"user":null,"body":"","state":"changes_requested",
        "submitted_at":"2024-03-02T10:00:00Z"},
       {"event":"labeled","actor":{"login":"x","id":4},"created_at":"2024-03-01T09:00:00Z",
        "label":{"name":"bug"}}]
      """#)
    guard case .reviewed(let review) = events[0].kind else {
      Issue.record("not a review: \(events[0].kind)")
      return
    }
    #expect(review.id == 80 && review.author == "mona" && review.state == "APPROVED")
    #expect(review.body == "Nice." && review.authorAssociation == "MEMBER")
    #expect(events[0].createdAt == review.submittedAt && events[0].actor.login == "mona")
    #expect(events[1].kind == .other("reviewed"), "a pending review is not shown")
    guard case .reviewed(let ghost) = events[2].kind else {
      Issue.record("not a review: \(events[2].kind)")
      return
    }
    #expect(ghost.author == GitHubUser.ghost.login && ghost.state == "CHANGES_REQUESTED")
    #expect(!events[0].isShown && events[3].isShown, "a review is a post, not a line")
  }

  @Test func aPullRequestTakesOnlyAHexadecimalHeadCommit() throws {
    let pull = try decode(
      GitHubPullRequest.self,
      #"""
      {"number":7,"updated_at":"2024-03-01T10:00:00Z","head":{"ref":"fix","sha":"0a1b2c3d4e"},
       "base":{"ref":"main"},"additions":5,"deletions":-2,"mergeable":null,"review_comments":3,
       "requested_reviewers":[{"login":"mona"},null],"requested_teams":[{"slug":"core"}]}
      """#)
    #expect(pull.headSHA == "0a1b2c3d4e" && pull.headRef == "fix" && pull.baseRef == "main")
    #expect(pull.deletions == 0 && pull.mergeable == nil && pull.reviewComments == 3)
    #expect(pull.requestedReviewers == ["mona"] && pull.requestedTeams == ["core"])
    for sha in ["../../../x", "abc/def", "", "ABCDEF1", String(repeating: "a", count: 65)] {
      #expect(throws: DecodingError.self, "head \(sha)") {
        try decode(
          GitHubPullRequest.self,
          #"{"number":7,"updated_at":"2024-03-01T10:00:00Z","head":{"sha":"\#(sha)"}}"#)
      }
    }
  }

  @Test func checkRunsAndStatusesFoldIntoOneRollup() throws {
    let runs = try decode(
      CheckRunList.self,
      #"""
      {"total_count":140,"check_runs":[
        {"name":"build","status":"completed","conclusion":"success",
         "started_at":"2024-03-01T10:00:00Z","completed_at":"2024-03-01T10:02:00Z",
         "details_url":"https://github.com/o/r/actions/runs/1/job/2",
         "app":{"slug":"github-actions"},"check_suite":{"id":70}},
        {"name":"lint","status":"completed","conclusion":"skipped"},
        {"name":"test","status":"in_progress","conclusion":null},
        {"name":7},
        {"name":"deploy","status":"completed","conclusion":"timed_out","html_url":"https://x"}]}
      """#)
    #expect(runs.totalCount == 140)
    #expect(runs.checks.map(\.state) == [.passing, .neutral, .pending, .failing], "7 is no name")
    #expect(runs.checks.last?.url == "https://x")
    // A GitHub Actions run keeps its times and job page, and is named by its workflow run.
    let build = try #require(runs.checks.first)
    #expect(build.detailsURL == "https://github.com/o/r/actions/runs/1/job/2")
    #expect(build.completedAt?.timeIntervalSince(try #require(build.startedAt)) == 120)
    #expect(runs.actionsSuites == [0: 70])
    #expect(runs.named(by: [70: "CI", 71: "Lint"]).map(\.workflowName) == ["CI", "", "", ""])
    let statuses = try decode(
      CombinedStatus.self,
      #"{"statuses":[{"context":"ci/a","state":"error"},{"context":"ci/b","state":"success"}]}"#)
    #expect(statuses.checks.map(\.state) == [.failing, .passing] && statuses.totalCount == 2)
    #expect(PullRequestCheck.rollup(runs.checks) == .failing)
    #expect(PullRequestCheck.rollup([.init(name: "a", state: .pending)]) == .pending)
    #expect(
      PullRequestCheck.rollup([
        .init(name: "a", state: .passing), .init(name: "b", state: .neutral),
      ])
        == .passing)
    #expect(PullRequestCheck.rollup([]) == nil)
  }

  @Test func theReviewDecisionIsWorkedOutFromTheLatestReviews() throws {
    let pull = GitHubPullRequest(
      number: 3, updatedAt: Self.start, headRef: "f", headSHA: "abcdef0", baseRef: "main")
    func review(_ author: String, _ state: String, _ minute: Double) -> PullRequestReview {
      PullRequestReview(
        id: Int64(minute), author: author, state: state, body: "",
        submittedAt: Self.start.addingTimeInterval(minute * 60))
    }
    let changedMind = [review("a", "CHANGES_REQUESTED", 1), review("a", "APPROVED", 2)]
    let details = pull.details(
      reviews: changedMind, checks: nil, cached: nil, repositoryOwner: "acme")
    #expect(details.reviewDecision == .approved)
    #expect(
      details.reviews == [
        .init(author: "a", state: "APPROVED", submittedAt: Self.start.addingTimeInterval(120))
      ])
    let blocked = changedMind + [review("b", "CHANGES_REQUESTED", 3), review("b", "COMMENTED", 4)]
    let second = pull.details(reviews: blocked, checks: [], cached: nil, repositoryOwner: "acme")
    #expect(second.reviewDecision == .changesRequested, "a comment does not lift a request")
    #expect(second.checks == nil)
    var asked = pull
    asked.requestedTeams = ["core"]
    let third = asked.details(reviews: [], checks: nil, cached: nil, repositoryOwner: "acme")
    #expect(third.reviewDecision == .reviewRequired && third.requestedReviewers == ["acme/core"])
    #expect(
      pull.details(reviews: [], checks: nil, cached: nil, repositoryOwner: "a").reviewDecision
        == nil)
  }

  // MARK: Threads

  @Test func repliesJoinTheirThreadAndReplyOnlyReviewsAreLeftOut() {
    func comment(_ id: Int64, review: Int64?, replyTo: Int64? = nil, minute: Double)
      -> ReviewComment
    {
      ReviewComment(
        id: id, reviewID: review, inReplyTo: replyTo, author: "u\(id)", body: "c\(id)",
        path: "a.swift", line: 3, createdAt: Self.start.addingTimeInterval(minute * 60))
    }
    let reviews = [
      PullRequestReview(
        id: 1, author: "mona", state: "CHANGES_REQUESTED", body: "See inline.",
        submittedAt: Self.start.addingTimeInterval(60)),
      PullRequestReview(
        id: 2, author: "octocat", state: "COMMENTED", body: "",
        submittedAt: Self.start.addingTimeInterval(300)),
    ]
    let comments = [
      comment(12, review: 2, replyTo: 10, minute: 4),
      comment(10, review: 1, minute: 1),
      comment(11, review: 1, minute: 1.5),
      comment(13, review: 2, replyTo: 12, minute: 6),
      comment(20, review: 99, minute: 9),
    ]
    let threaded = PullRequestReview.threaded(reviews, comments: comments)
    #expect(threaded.map(\.id) == [1, 99], "the reply-only review is left out")
    #expect(threaded[0].threads.map { $0.comments.map(\.id) } == [[10, 12, 13], [11]])
    #expect(threaded[1].author == "u20" && threaded[1].threads.count == 1)
  }

  /// A comment's side is read as GitHub writes it and kept by the cache: a base-side comment
  /// stays on the base's line after a round trip.
  @Test func aLineCommentsSideIsReadAndKept() throws {
    let json = """
      [{"id": 7, "user": {"login": "mona", "id": 1}, "body": "old", "path": "a.swift",
        "line": 4, "side": "LEFT", "diff_hunk": "@@ -4 +3,0 @@", "created_at": "2024-01-01T00:00:00Z"},
       {"id": 8, "user": {"login": "mona", "id": 1}, "body": "new", "path": "a.swift",
        "line": 4, "diff_hunk": "", "created_at": "2024-01-01T00:00:01Z"}]
      """
    let comments = try GitHubJSONDecoder().decode([ReviewComment].self, from: Data(json.utf8))
    #expect(comments.map(\.side) == [.left, .right])
    let cache = try IssueCache()
    try cache.writeReviewComments(comments, of: 3, complete: true)
    let kept = try cache.reviews(of: 3).flatMap { $0.threads.flatMap(\.comments) }
    #expect(kept.map(\.id) == [7, 8] && kept.map(\.side) == [.left, .right])
  }

  @Test func threadingKeepsEveryCommentOnceWhateverTheReplies() {
    let seed: UInt64 = 0x5EED_7E1D
    print("threading seed \(seed)")
    var generator = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let count = Int(generator.next() % 30)
      let reviews = (0..<Int(generator.next() % 5)).map {
        PullRequestReview(
          id: Int64($0 + 1), author: "r\($0)",
          state: ["COMMENTED", "APPROVED"][Int(generator.next() % 2)],
          body: generator.next() % 2 == 0 ? "" : "b", submittedAt: nil)
      }
      let comments = (0..<count).map { index in
        // Replies to anything, themselves and unknown comments included: cycles must end.
        ReviewComment(
          id: Int64(100 + index), reviewID: Int64(generator.next() % 7),
          inReplyTo: generator.next() % 2 == 0 ? Int64(100 + Int(generator.next() % 40)) : nil,
          author: "a", body: "", path: "p", line: nil,
          createdAt: Self.start.addingTimeInterval(Double(generator.next() % 100)))
      }
      let threaded = PullRequestReview.threaded(reviews, comments: comments)
      let placed = threaded.flatMap { $0.threads.flatMap { $0.comments.map(\.id) } }
      #expect(placed.sorted() == comments.map(\.id).sorted())
      #expect(Set(threaded.map(\.id)).count == threaded.count)
    }
  }

  // MARK: Fetching

  private func setUp(token: String?) async throws -> (LocalGitHub, GitHubClient, IssueCache) {
    let github = try await LocalGitHub.start()
    try await github.serve(synthetic: synthetic, as: acme)
    var client = GitHubClient(
      host: await github.host, token: token,
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(10)
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    return (github, client, cache)
  }

  @Test func readingAPullRequestBringsItsReviewsThreadsAndChecksWithoutGraphQL() async throws {
    let (github, client, cache) = try await setUp(token: nil)
    defer { Task { await github.stop() } }
    let pulls = synthetic.make().issues.filter(\.isPullRequest).map(\.number)
    let changes = try #require(pulls.first { $0 % 4 == 1 && $0 % 3 == 1 })
    let fetcher = ConversationFetcher(client: client, cache: cache, repository: acme)
    _ = try await fetcher.fetch(changes)
    let reviews = try cache.reviews(of: changes)
    #expect(reviews.map(\.author) == ["mona"], "octocat's reply-only review joins mona's thread")
    let thread = try #require(reviews.first?.threads.first)
    #expect(thread.comments.map(\.author) == ["mona", "octocat"])
    #expect(thread.comments.first?.path == "Sources/Parser.swift")
    #expect(thread.comments.first?.line == 12)
    let checks = try #require(try cache.checks(of: changes))
    #expect(checks.checks.map(\.name) == ["build", "test", "ci/lint"] && checks.announced == 3)
    #expect(checks.checks.map(\.state) == [.passing, .failing, .passing])
    let details = try #require(try cache.pullRequestDetails(number: changes))
    #expect(details.reviewDecision == .changesRequested && details.checks == .failing)
    #expect(details.headRef == "feature/\(changes)" && details.additions == (changes * 37) % 500)
    #expect(await github.requestCount(pathPrefix: "/graphql") == 0)

    // Read again: nothing changed, the same conversation, checks asked again.
    let before = await github.requestCount(pathPrefix: "/repos/acme/tracker/commits/")
    _ = try await fetcher.fetch(changes)
    #expect(try cache.reviews(of: changes) == reviews)
    #expect(await github.requestCount(pathPrefix: "/repos/acme/tracker/commits/") == before + 2)

    let approved = try #require(pulls.first { $0 % 4 == 0 })
    _ = try await fetcher.fetch(approved)
    #expect(try cache.reviews(of: approved).map(\.verdict) == ["approved"])
    #expect(try cache.pullRequestDetails(number: approved)?.reviewDecision == .approved)
    // An issue asks nothing of pull requests.
    let issue = try #require(synthetic.make().issues.first { !$0.isPullRequest }).number
    let asked = await github.requestCount(pathPrefix: "/repos/acme/tracker/pulls/")
    _ = try await fetcher.fetch(issue)
    #expect(await github.requestCount(pathPrefix: "/repos/acme/tracker/pulls/") == asked)
  }

  @Test func aLineCommentGoneFromGitHubGoesOnlyAfterACompleteListing() async throws {
    let (github, client, cache) = try await setUp(token: "t")
    defer { Task { await github.stop() } }
    let pulls = synthetic.make().issues.filter(\.isPullRequest).map(\.number)
    let number = try #require(pulls.first { $0 % 4 == 1 })
    let stale = ReviewComment(
      id: 1, reviewID: Int64(number * 10 + 1), author: "gone", body: "deleted on GitHub",
      path: "x", line: 1, createdAt: Self.start)
    try cache.writeReviewComments([stale], of: number, complete: false)
    let fetcher = ConversationFetcher(client: client, cache: cache, repository: acme)
    // A listing that breaks keeps what was cached.
    await github.inject(
      .dropConnection, path: "/repos/acme/tracker/pulls/\(number)/comments", times: 10)
    _ = try await fetcher.fetch(number)
    var ids = try cache.reviews(of: number).flatMap { $0.threads.flatMap(\.comments) }.map(\.id)
    #expect(ids.contains(1))
    await github.clearFaults()
    _ = try await fetcher.fetch(number, force: true)
    ids = try cache.reviews(of: number).flatMap { $0.threads.flatMap(\.comments) }.map(\.id)
    #expect(ids.sorted() == [Int64(number * 100 + 1), Int64(number * 100 + 2)])
  }
}

extension PullRequestConversationTests {
  /// When GraphQL does not answer, a sync's fallback brings the newest pull requests' details
  /// through REST, a bounded number at a time, and stops at the first it cannot read.
  @Test func theRESTFallbackBringsTheNewestDetailsWithinItsBound() async throws {
    let (github, client, cache) = try await setUp(token: "t")
    defer { Task { await github.stop() } }
    let missing = try cache.pullRequestsNeedingDetails()
    #expect(missing.count > 4)
    let fetcher = PullRequestFetcher(client: client, cache: cache, repository: acme)
    let first = await fetcher.fetchMissingDetails(limit: 3)
    #expect(first.fetched == 3 && first.left == missing.count - 3)
    for number in missing.prefix(3) {
      let details = try #require(try cache.pullRequestDetails(number: number))
      let expected: PullRequestDetails.ReviewDecision? =
        switch number % 4 {
        case 0: .approved
        case 1: .changesRequested
        case 2: .reviewRequired  // reviewers are asked of every other one
        default: nil
        }
      #expect(details.reviewDecision == expected, "#\(number)")
      #expect(details.checks == [.passing, .failing, .pending][number % 3], "#\(number)")
      #expect(details.requestedReviewers.contains("acme/core") == (number % 6 == 0))
      PullRequestDetailsTests.expectLatestReviewsAndTeams(details)
    }
    #expect(Array(try cache.pullRequestsNeedingDetails()) == Array(missing.dropFirst(3)))
    // Four requests a pull request: the pull request, its reviews, check runs and statuses.
    #expect(await github.requestCount(pathPrefix: "/repos/acme/tracker/pulls/") == 6)
    #expect(await github.requestCount(pathPrefix: "/repos/acme/tracker/commits/") == 6)
    // The network gone: the first failure ends it, nothing else asked.
    await github.inject(.status(404), path: "/repos/acme/tracker/pulls/\(missing[3])")
    let second = await fetcher.fetchMissingDetails(limit: 3)
    #expect(second.fetched == 0 && second.left == missing.count - 3)
    #expect(await github.requestCount(pathPrefix: "/repos/acme/tracker/pulls/") == 7)
  }
}

extension PullRequestConversationTests {
  /// A cache from before reviews and checks had gh's shapes forgets what it read without
  /// them, so that it is read again rather than printed empty, and keeps everything else.
  @Test func aCacheFromBeforeGhsReviewShapesReadsThemAgain() throws {
    let path = try IssueCacheTests.cacheFromAnOlderRelease(
      upTo: "v16: a list's columns by key, for searches the words drive",
      sql: """
        INSERT INTO pullRequest(number, updatedAt, mergeable, headRef, baseRef, additions,
          deletions)
        VALUES (1, '2024-01-01', 'MERGEABLE', 'a', 'main', 1, 1),
          (2, '2024-01-01', 'MERGEABLE', 'b', 'main', 2, 2),
          (3, '2024-01-01', 'MERGEABLE', 'c', 'main', 3, 3);
        INSERT INTO pullRequestReview(number, author, state) VALUES (1, 'mona', 'APPROVED');
        INSERT INTO pullRequestReviewer(number, reviewer) VALUES (2, 'acme/core'),
          (3, 'mona');
        INSERT INTO review(id, issueNumber, author, state, body) VALUES (9, 1, 'mona',
          'APPROVED', '');
        INSERT INTO timelineListing(issueNumber, issueUpdatedAt) VALUES (1, '2024-01-01'),
          (3, '2024-01-01');
        INSERT INTO pullRequestCheck(number, position, name, state, kind, conclusion)
          VALUES (3, 0, 'build', 'passing', 'CheckRun', 'success');
        INSERT INTO pullRequestCheckListing(number, headSHA, announced)
          VALUES (3, 'abcdef0', 1);
        """)
    defer { IssueCacheTests.removeFolder(of: path) }
    let cache = try IssueCache(path: path)
    // Read without the review's text, and without the team's name: read again.
    #expect(try cache.pullRequestDetails(number: 1) == nil)
    #expect(try cache.pullRequestDetails(number: 2) == nil)
    // Nothing was missing from the third.
    let kept = try #require(try cache.pullRequestDetails(number: 3))
    #expect(kept.requestedReviewers == ["mona"] && kept.headRef == "c")
    // Checks come again with the next reading; a timeline with reviews is listed again.
    #expect(try cache.checks(of: 3) == nil)
    let listed = try cache.writer.read { db in
      try Int.fetchAll(db, sql: "SELECT issueNumber FROM timelineListing ORDER BY 1")
    }
    #expect(listed == [3])
    #expect(try cache.reviews(of: 1, threaded: false).map { $0.nodeID } == [nil])
  }
}
