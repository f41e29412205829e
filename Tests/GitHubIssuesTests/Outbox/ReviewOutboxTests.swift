import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing

/// Pull request reviews through the outbox: line comments drafted into a pending review, then
/// one write with all of them — exactly once, a lost answer settled by reading the reviews back
/// (their comments included), never by a look-alike review.
@Suite(.serialized) struct ReviewOutboxTests {
  let acme = RepositoryName(owner: "acme", name: "tracker")
  static let head = String(repeating: "c", count: 40)

  /// A pull request by someone other than the viewer, its 20 files served with hunks of 30
  /// lines (lines 1–30 added, plus a removed line 5 on the base's side).
  private func setUp() async throws -> (LocalGitHub, GitHubClient, IssueCache, Int) {
    let github = try await LocalGitHub.start()
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 60, milestoneCount: 2, seed: 5), as: acme)
    await github.requireToken(forWrites: "test-token")
    var client = GitHubClient(
      host: await github.host, token: "test-token",
      transport: HTTPClientTransport(timeout: LocalGitHub.patientTimeout))
    client.initialBackoff = .milliseconds(1)
    client.maximumRetries = 0
    let cache = try IssueCache()
    _ = try await IssueSynchronizer(client: client, cache: cache, repository: acme).sync()
    var pull: Int?
    for number in 1...60 where pull == nil {
      if let item = await github.issue(number: number, in: acme), item.isPullRequest,
        item.user.login != "octocat"
      {
        pull = number
      }
    }
    let number = try #require(pull)
    let files = (0..<20).map { index in
      PullRequestFile(
        path: "Sources/File\(index).swift", status: "modified", additions: 30, deletions: 1,
        patch: "@@ -5,1 +1,30 @@\n-old line\n"
          + (1...30).map { "+line \($0)" }.joined(separator: "\n"))
    }
    await github.servePullRequestFiles(files, ofPullRequest: number, in: acme, head: Self.head)
    return (github, client, cache, number)
  }

  private func replay(_ client: GitHubClient, _ cache: IssueCache) async -> ActionReplayer.Summary {
    await ActionReplayer(client: client, cache: cache, repository: acme, unansweredGrace: 0)
      .replay()
  }

  /// Twenty comments of every shape: one line, several lines, the base's side, a suggestion.
  private func twentyComments(tag: String) -> [DraftLineComment] {
    (0..<20).map { index in
      let path = "Sources/File\(index).swift"
      switch index % 4 {
      case 0: return DraftLineComment(path: path, line: 12, body: "\(tag): why this?")
      case 1: return DraftLineComment(path: path, line: 9, startLine: 3, body: "\(tag): split")
      case 2: return DraftLineComment(path: path, line: 5, side: .left, body: "\(tag): kept?")
      default:
        return DraftLineComment(
          path: path, line: 20, body: "```suggestion\nline 20 fixed\n```")
      }
    }
  }

  private func draft(
    _ comments: [DraftLineComment], on number: Int, _ cache: IssueCache
  ) throws {
    for comment in comments {
      try cache.draftLineComment(comment, onPullRequest: number, commitID: Self.head)
    }
  }

  @Test func aReviewGoesAsOneWriteWithItsDraftedComments() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    try draft(twentyComments(tag: "A"), on: number, cache)
    #expect(try cache.pendingReview(of: number).count == 20)
    let action = try cache.enqueueReview(
      .requestChanges, body: "Please look at these.", onPullRequest: number, headSHA: nil)
    // The drafts left the pending review for the queue, in the same transaction.
    #expect(try cache.pendingReview(of: number).isEmpty)
    guard case .review(let review) = action.operation else {
      Issue.record("queued \(action.operation)")
      return
    }
    #expect(review.comments.count == 20 && review.commitID == Self.head)
    let before = await github.appliedWrites.count
    let summary = await replay(client, cache)
    #expect(summary.stopped == nil && summary.sent == 1 && summary.waiting == 0)
    #expect(await github.appliedWrites.count == before + 1)
    let reviews = await github.submittedReviews(ofPullRequest: number, in: acme)
    try #require(reviews.count == 1)
    #expect(reviews[0].state == "CHANGES_REQUESTED" && reviews[0].body == "Please look at these.")
    #expect(reviews[0].comments.map(\.body) == twentyComments(tag: "A").map(\.body))
    #expect(reviews[0].comments[1].line == 9 && reviews[0].comments[2].line == 5)
  }

  @Test func aLostAnswerIsFoundOnGitHubAndNotSentAgain() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    try draft(twentyComments(tag: "B"), on: number, cache)
    _ = try cache.enqueueReview(.comment, body: "Notes", onPullRequest: number, headSHA: nil)
    await github.inject(
      .failAfterApplying(status: 502), path: "/repos/acme/tracker/pulls/\(number)/reviews",
      method: "POST")
    var summary = await replay(client, cache)
    #expect(summary.waiting == 1 && summary.sent == 0)
    summary = await replay(client, cache)
    #expect(summary.foundLanded == 1 && summary.sent == 0 && summary.waiting == 0)
    #expect(await github.submittedReviews(ofPullRequest: number, in: acme).count == 1)
  }

  /// The same verdict and summary by the viewer, written on the web around a lost send that
  /// never arrived — one before the first send, one after with other line comments — are not
  /// taken for ours: the review is sent, once.
  @Test func aLookAlikeReviewIsNotTakenForOurs() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    let web = ReviewSubmission(
      verdict: .comment, body: "Notes", commitID: Self.head,
      comments: [DraftLineComment(path: "Sources/File0.swift", line: 12, body: "C: why this?")])
    _ = try await client.submitReview(web, onPullRequest: number, in: acme)
    try draft(twentyComments(tag: "C"), on: number, cache)
    _ = try cache.enqueueReview(.comment, body: "Notes", onPullRequest: number, headSHA: nil)
    await github.setChaos(Chaos(seed: 1, dropRead: 0, dropBeforeWrite: 1))
    var summary = await replay(client, cache)
    await github.setChaos(nil)
    #expect(summary.waiting == 1)
    _ = try await client.submitReview(web, onPullRequest: number, in: acme)
    summary = await replay(client, cache)
    #expect(summary.sent == 1 && summary.foundLanded == 0 && summary.waiting == 0)
    let reviews = await github.submittedReviews(ofPullRequest: number, in: acme)
    #expect(reviews.map(\.comments.count) == [1, 1, 20])
  }

  @Test func aRefusedReviewWaitsInConflictWithItsReason() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    // A line no longer in the diff (drafted on a diff GitHub no longer places it in).
    try cache.draftLineComment(
      DraftLineComment(path: "Sources/File0.swift", line: 400, body: "gone"),
      onPullRequest: number, commitID: Self.head)
    let action = try cache.enqueueReview(
      .comment, body: "Notes", onPullRequest: number, headSHA: nil)
    let summary = await replay(client, cache)
    #expect(summary.conflicts == 1 && summary.sent == 0)
    let reason = try #require(summary.refusals[action.id])
    #expect(reason.summary().contains("Line could not be resolved"), "\(reason)")
    #expect(await github.submittedReviews(ofPullRequest: number, in: acme).isEmpty)
    guard case .conflict(let said)? = try cache.queuedActions().first?.status else {
      Issue.record("not in conflict")
      return
    }
    #expect(said.contains("GitHub refused the review"), "\(said)")
  }

  @Test func draftsAreOfOneCommitAndTheSameSubmissionIsQueuedOnce() async throws {
    let (github, _, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    try draft(Array(twentyComments(tag: "D").prefix(2)), on: number, cache)
    #expect(throws: ReviewDraftError.self) {
      try cache.draftLineComment(
        DraftLineComment(path: "Sources/File0.swift", line: 1, body: "x"),
        onPullRequest: number, commitID: String(repeating: "d", count: 40))
    }
    let ids = try cache.pendingReview(of: number).map(\.id)
    #expect(try cache.discardPendingReview(of: number, only: [ids[0]]) == 1)
    #expect(try cache.pendingReview(of: number).map(\.id) == [ids[1]])
    #expect(try cache.discardPendingReview(of: number) == 1)
    // An approval run twice before it is sent is one action.
    let first = try cache.enqueueReview(.approve, body: "", onPullRequest: number, headSHA: nil)
    let again = try cache.enqueueReview(.approve, body: "", onPullRequest: number, headSHA: nil)
    #expect(first.id == again.id)
    #expect(try cache.queuedActions().count == 1)
  }

  /// Resolving and unresolving threads through the outbox: the threads are read (GraphQL, in
  /// pages) before every send, so an answer lost after GitHub applied the mutation, or a thread
  /// resolved on the web meanwhile, sends nothing more; a comment that starts no thread waits
  /// in conflict.
  @Test func threadsAreResolvedOnceWhateverTheAnswer() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    try draft(Array(twentyComments(tag: "T").prefix(5)), on: number, cache)
    _ = try cache.enqueueReview(.comment, body: "Threads", onPullRequest: number, headSHA: nil)
    #expect(await replay(client, cache).sent == 1)
    // Served threads first, then the review's five.
    let threads = Array(await github.reviewThreads(of: number, in: acme).suffix(5))
    #expect(threads.count == 5)
    await github.setReviewThreadPageSize(2)

    // Applied, then the answer lost: read back, not sent again.
    let first = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: Int64(threads[4].root), change: .resolve)),
      onIssue: number)
    await github.inject(
      .failAfterApplying(status: 502), path: "/graphql", method: "POST", times: 1, after: 3)
    _ = await replay(client, cache)
    #expect(await github.isThreadResolved(threads[4].node))
    #expect(try cache.queuedActions().map(\.id) == [first.id])
    let settled = await replay(client, cache)
    #expect(settled.foundLanded == 1 && settled.sent == 0)
    #expect(try cache.queuedActions().isEmpty)
    #expect(await github.threadResolutions.count == 1)

    // Resolved on the web meanwhile: nothing sent.
    await github.setThread(threads[1].node, resolved: true)
    _ = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: Int64(threads[1].root), change: .resolve)),
      onIssue: number)
    #expect(await replay(client, cache).alreadyHeld == 1)
    #expect(await github.threadResolutions.count == 1)

    // Unresolved again: one mutation.
    _ = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: Int64(threads[4].root), change: .unresolve)),
      onIssue: number)
    #expect(await replay(client, cache).sent == 1)
    #expect(await !github.isThreadResolved(threads[4].node))
    #expect(await github.threadResolutions.map(\.resolved) == [true, false])

    // A comment that starts no thread: in conflict, said.
    let stray = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: 999_999, change: .resolve)), onIssue: number)
    #expect(await replay(client, cache).conflicts == 1)
    guard
      case .conflict(let said)? = try cache.queuedActions().first(where: { $0.id == stray.id })?
        .status
    else {
      Issue.record("not in conflict")
      return
    }
    #expect(said.contains("no review thread that starts with comment 999999"), "\(said)")
    #expect(await github.threadResolutions.count == 2)
  }

  /// Threads deleted while their pages are read (offset cursors: the next page skips one), a
  /// page answered in part, and a listing that never ends: the thread is found by a second read
  /// and resolved once; a partial or endless listing sends nothing and leaves the action
  /// waiting.
  @Test func threadsListedWhileDeletedInPartOrEndlesslyAreNeverMisread() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    try draft(Array(twentyComments(tag: "D").prefix(5)), on: number, cache)
    _ = try cache.enqueueReview(.comment, body: "Threads", onPullRequest: number, headSHA: nil)
    #expect(await replay(client, cache).sent == 1)
    let threads = await github.reviewThreads(of: number, in: acme)
    await github.setReviewThreadPageSize(2)
    // Page one's first thread deleted after it is served: the third thread slides onto page
    // one, and the first read never sees it.
    await github.deleteThreadsWhileListing(pages: 1)
    let target = threads[2]
    _ = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: Int64(target.root), change: .resolve)),
      onIssue: number)
    let summary = await replay(client, cache)
    #expect(summary.sent == 1 && summary.conflicts == 0, "\(summary)")
    #expect(await github.isThreadResolved(target.node))
    #expect(await github.threadResolutions.count == 1)

    // A page answered in part (a thread null, an error naming it): no list is made of the
    // rest — nothing sent, the action still waiting.
    await github.setReviewThreadsPartly(true)
    let partly = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: Int64(threads[3].root), change: .resolve)),
      onIssue: number)
    let partial = await replay(client, cache)
    #expect(partial.stopped != nil && partial.sent == 0, "\(partial)")
    #expect(await github.threadResolutions.count == 1)
    #expect(try cache.queuedActions().map(\.id) == [partly.id])
    await github.setReviewThreadsPartly(false)
    try cache.cancelQueuedAction(partly.id)

    // Endless: a pagination failure, nothing sent, the action still waiting.
    await github.setReviewThreadsNeverEnd(true)
    let waiting = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: Int64(threads[3].root), change: .resolve)),
      onIssue: number)
    let stopped = await replay(client, cache)
    #expect(stopped.stopped?.code == .pagination, "\(stopped)")
    #expect(await github.threadResolutions.count == 1)
    #expect(try cache.queuedActions().map(\.id) == [waiting.id])
    #expect(await !github.isThreadResolved(threads[3].node))
  }

  /// A text longer than GitHub takes (65,536 characters, counted as Unicode scalars) is
  /// refused as it is written — a draft, a review's summary, a reply, a comment, a new issue's
  /// body — with nothing queued and nothing drafted lost; one at the limit is taken.
  @Test func textsLongerThanGitHubTakesAreRefusedWhenWritten() async throws {
    let (github, _, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    let limit = QueuedAction.Operation.maximumTextLength
    // At the limit in two-byte and four-byte characters: taken.
    try cache.draftLineComment(
      DraftLineComment(
        path: "Sources/File0.swift", line: 12, body: String(repeating: "é", count: limit)),
      onPullRequest: number, commitID: Self.head)
    try cache.draftLineComment(
      DraftLineComment(
        path: "Sources/File1.swift", line: 12, body: String(repeating: "👍", count: limit)),
      onPullRequest: number, commitID: Self.head)
    let over = String(repeating: "a", count: limit + 1)
    #expect(
      throws: OverlongText(what: "The line comment on Sources/File2.swift:12", length: limit + 1)
    ) {
      try cache.draftLineComment(
        DraftLineComment(path: "Sources/File2.swift", line: 12, body: over),
        onPullRequest: number, commitID: Self.head)
    }
    #expect(try cache.pendingReview(of: number).count == 2)
    // A summary too long: nothing queued, the drafts still pending.
    let summary = String(repeating: "b", count: 70_000)
    let refused = #expect(throws: OverlongText.self) {
      try cache.enqueueReview(.comment, body: summary, onPullRequest: number, headSHA: nil)
    }
    #expect(
      refused?.description
        == "The review's summary is 70,000 characters long; GitHub takes at most 65,536.")
    #expect(try cache.pendingReview(of: number).count == 2)
    #expect(try cache.queuedActions().isEmpty)
    #expect(throws: OverlongText.self) {
      try cache.enqueue(.reply(ThreadReply(commentID: 1, body: over)), onIssue: number)
    }
    #expect(throws: OverlongText.self) { try cache.enqueueComment(over, onIssue: number) }
    let rows = try cache.issues(IssueFilter()).count
    #expect(throws: OverlongText.self) {
      try cache.enqueueNewIssue(NewIssue(title: "Long", body: over), author: "octocat")
    }
    #expect(try cache.issues(IssueFilter()).count == rows)
    #expect(try cache.queuedActions().isEmpty)
    // The review at the limit goes as one write, both comments whole.
    _ = try cache.enqueueReview(.comment, body: "Long ones", onPullRequest: number, headSHA: nil)
    // Two texts of up to 256 KB each, answered by a debug build on a busy machine: time enough.
    let client = GitHubClient(
      host: await github.host, token: "test-token", transport: HTTPClientTransport(timeout: 60))
    let summaryOfReplay = await replay(client, cache)
    #expect(summaryOfReplay.sent == 1, "\(summaryOfReplay)")
    let reviews = await github.submittedReviews(ofPullRequest: number, in: acme)
    #expect(reviews.count == 1)
    #expect(reviews.first?.comments.map(\.body.unicodeScalars.count) == [limit, limit])
  }

  /// 30 reviews of 20 line comments each, queued at once on one pull request — half with the
  /// same words — and sent while connections drop before reads, before writes and after
  /// writes GitHub applied, and 502s answer applied ones: exactly 30 reviews of 20 comments on
  /// GitHub (more than a page of reviews to read back), none lost, none twice.
  @Test func thirtyReviewsLandExactlyOnceUnderDropsAnd502s() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    let seed: UInt64 = 0x5E71_E700
    print("ReviewOutboxTests seed \(seed)")
    var wanted: [String: Int] = [:]
    for index in 0..<30 {
      let tag = index % 2 == 0 ? "same" : "R\(index)"
      try draft(twentyComments(tag: tag), on: number, cache)
      _ = try cache.enqueueReview(
        .comment, body: "Review \(tag)", onPullRequest: number, headSHA: nil)
      wanted["Review \(tag)", default: 0] += 1
    }
    #expect(try cache.queuedActions().count == 30)
    await github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.02, dropBeforeWrite: 0.15, dropAfterWrite: 0.15,
        failAfterWrite: 0.15))
    var passes = 0
    while try !cache.queuedActions().isEmpty, passes < 500 {
      passes += 1
      _ = await replay(client, cache)
    }
    await github.setChaos(nil)
    print("\(passes) passes")
    #expect(try cache.queuedActions().isEmpty)
    let reviews = await github.submittedReviews(ofPullRequest: number, in: acme)
    var served: [String: Int] = [:]
    for review in reviews { served[review.body, default: 0] += 1 }
    #expect(served == wanted)
    #expect(reviews.allSatisfy { $0.comments.count == 20 })
  }
}

extension ReviewOutboxTests {
  /// Starts a thread (a review with one line comment, "Why?") and gives its first comment's id.
  private func startThread(on number: Int, _ client: GitHubClient) async throws -> Int64 {
    let review = ReviewSubmission(
      verdict: .comment, body: "Notes", commitID: Self.head,
      comments: [DraftLineComment(path: "Sources/File0.swift", line: 12, body: "Why?")])
    _ = try await client.submitReview(review, onPullRequest: number, in: acme)
    return try #require(
      try await client.reviewCommentPages(of: acme, pullRequest: number).reduce([]) {
        $0 + $1.items
      }.first { $0.body == "Why?" }
    ).id
  }

  /// Replies to a thread through the outbox: the same "+1" thirty times, sent while connections
  /// drop and 502s answer applied writes, after the same words by the viewer written before —
  /// exactly thirty new replies, each found or sent once; a reply to a comment gone waits in
  /// conflict.
  @Test func repliesLandExactlyOnceEvenWhenTheyAllSayTheSame() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    let root = try await startThread(on: number, client)
    // The same words, by the viewer, before any reply is queued: not ours.
    _ = try await client.reply(
      ThreadReply(commentID: root, body: "+1"), onPullRequest: number, in: acme)
    let seed: UInt64 = 0x2E_B1E5
    print("ReviewOutboxTests replies seed \(seed)")
    for _ in 0..<30 {
      try cache.enqueue(.reply(ThreadReply(commentID: root, body: "+1")), onIssue: number)
    }
    await github.setChaos(
      Chaos(
        seed: seed, dropRead: 0.02, dropBeforeWrite: 0.15, dropAfterWrite: 0.15,
        failAfterWrite: 0.15))
    var passes = 0
    while try !cache.queuedActions().isEmpty, passes < 500 {
      passes += 1
      _ = await replay(client, cache)
    }
    await github.setChaos(nil)
    #expect(try cache.queuedActions().isEmpty)
    let replies = try await client.reviewCommentPages(of: acme, pullRequest: number).reduce([]) {
      $0 + $1.items
    }.filter { $0.inReplyTo == root }
    #expect(replies.count == 31, "\(passes) passes")

    // A reply to a comment GitHub does not have: refused, in conflict, nothing sent.
    try cache.enqueue(.reply(ThreadReply(commentID: 999_999, body: "?")), onIssue: number)
    let summary = await replay(client, cache)
    #expect(summary.conflicts == 1 && summary.sent == 0)
  }

  /// A reply whose answer was lost, then slid onto a page already read by a comment deleted
  /// mid-listing, is still found: the line comments are read newest first, twice before the
  /// reply is called not landed — one reply on GitHub, not two.
  @Test func aReplySlidPastByADeletionIsStillFound() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    let root = try await startThread(on: number, client)
    await github.addLineComments(
      5, by: "mona", onPullRequest: number, in: acme, path: "Sources/File1.swift", line: 3)
    try cache.enqueue(.reply(ThreadReply(commentID: root, body: "+1")), onIssue: number)
    // The reply lands and its answer is lost.
    await github.setChaos(Chaos(seed: 1, dropAfterWrite: 1))
    _ = await replay(client, cache)
    await github.setChaos(nil)
    let waiting = try #require(try cache.queuedActions().first)
    guard case .sending = waiting.status else {
      Issue.record("the reply is not waiting for its answer: \(waiting.status)")
      return
    }
    // Newer comments by someone else; pages sized so that the reply is the first of page two
    // newest first (where same-second comments fall is GitHub's choice); page one's first
    // comment is deleted once it is served, and the reply slides onto the page already read.
    await github.addLineComments(
      2, by: "mona", onPullRequest: number, in: acme, path: "Sources/File1.swift", line: 3,
      at: Date().addingTimeInterval(60))
    let newestFirst = try await client.reviewCommentPages(
      of: acme, pullRequest: number, newestFirst: true
    ).reduce([]) { $0 + $1.items }
    let position = try #require(newestFirst.firstIndex { $0.inReplyTo == root })
    #expect(position >= 2)
    await github.setLineCommentPageSize(position)
    await github.deleteLineCommentsWhileListing(pages: 1)
    let summary = await replay(client, cache)
    #expect(summary.foundLanded == 1 && summary.sent == 0, "\(summary)")
    #expect(try cache.queuedActions().isEmpty)
    await github.setLineCommentPageSize(nil)
    let replies = try await client.reviewCommentPages(of: acme, pullRequest: number).reduce([]) {
      $0 + $1.items
    }.filter { $0.inReplyTo == root }
    #expect(replies.map(\.body) == ["+1"])
  }
}

extension ReviewOutboxTests {
  /// Review threads walked while GitHub refuses one cursor in two: the walk asks again, steps
  /// back or starts over (``CursorRefusals``), lists every thread once, and the thread is
  /// resolved once.
  @Test func threadsAreListedWholeWhileGitHubRefusesTheirCursors() async throws {
    let (github, client, cache, number) = try await setUp()
    defer { Task { await github.stop() } }
    try draft(Array(twentyComments(tag: "X").prefix(9)), on: number, cache)
    _ = try cache.enqueueReview(.comment, body: "Threads", onPullRequest: number, headSHA: nil)
    #expect(await replay(client, cache).sent == 1)
    let threads = await github.reviewThreads(of: number, in: acme)
    let last = try #require(threads.last)
    await github.setReviewThreadPageSize(2)
    await github.configureGraphQL { $0.expiredCursorEvery = 2 }
    let listed = try await client.reviewThreads(ofPullRequest: number, in: acme)
    #expect(listed.map(\.nodeID) == threads.map(\.node))
    let refused = await github.graphQLState.cursorQueries / 2
    #expect(refused >= 2, "only \(refused) cursors were refused")
    _ = try cache.enqueue(
      .resolveThread(ThreadResolution(commentID: Int64(last.root), change: .resolve)),
      onIssue: number)
    let summary = await replay(client, cache)
    #expect(summary.sent == 1 && summary.conflicts == 0, "\(summary)")
    #expect(await github.isThreadResolved(last.node))
    #expect(await github.threadResolutions.count == 1)
  }
}
