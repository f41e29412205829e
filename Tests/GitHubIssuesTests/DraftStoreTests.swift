import Foundation
@testable import GitHubIssues
import Testing
import TrellisTestSupport

/// The draft store and the queue together: what a person wrote is in exactly one of them until
/// GitHub has it, whatever is queued, cancelled or drafted again, in whatever order.
@Suite struct DraftStoreTests {
  /// A cache with a pull request (#5) and issues to write on.
  private func cache() throws -> IssueCache {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: [
          IssueCacheTests.issue(1, "One"), IssueCacheTests.issue(2, "Two"),
          IssueCacheTests.issue(5, "A pull request", pullRequest: true),
        ],
        isComplete: true, milestones: [], syncedAt: IssueCacheTests.base))
    return cache
  }

  /// Every text the cache holds for the person: drafts, the pending review, the queue.
  private func kept(_ cache: IssueCache) throws -> [String] {
    var texts: [String] = []
    for draft in try cache.allDrafts() {
      switch draft.words {
      case .comment(let body): texts.append(body)
      case .newIssue(let issue): texts += [issue.title, issue.body]
      case .review(_, let body): texts.append(body)
      case .reply(let reply): texts.append(reply.body)
      }
    }
    texts += try cache.pendingReview(of: 5).map(\.comment.body)
    for action in try cache.queuedActions() {
      switch action.operation {
      case .comment(let body): texts.append(body)
      case .create(let issue): texts += [issue.title, issue.body]
      case .review(let review): texts += [review.body] + review.comments.map(\.body)
      case .reply(let reply): texts.append(reply.body)
      default: break
      }
    }
    return texts
  }

  /// Random comments, new issues (some with comments queued on them), line comments, reviews
  /// and replies, queued and cancelled in random order: after every step each text ever typed
  /// is somewhere the person can find it — never lost with a cancel.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func everyTextTypedIsKeptUntilGitHubHasIt(seed: UInt64) throws {
    print("DraftStoreTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    let cache = try cache()
    var typed: [String] = []
    for step in 0..<120 {
      let text = "text \(step) \(random.next() % 1000)\r\n  with spaces  "
      switch random.next() % 6 {
      case 0:
        typed.append(text)
        _ = try cache.enqueueComment(text, onIssue: Int(random.next() % 2) + 1)
      case 1:
        typed.append(text)
        let create = try cache.enqueueNewIssue(NewIssue(title: text, body: text), author: "me")
        if random.next() % 2 == 0 {
          let comment = "comment on new \(step)"
          typed.append(comment)
          _ = try cache.enqueueComment(comment, onIssue: create.issueNumber)
        }
      case 2:
        typed.append(text)
        try cache.draftLineComment(
          DraftLineComment(path: "a.swift", line: step + 1, side: .right, body: text),
          onPullRequest: 5, commitID: String(repeating: "a", count: 40))
      case 3:
        typed.append(text)
        _ = try cache.enqueueReview(
          .comment, body: text, onPullRequest: 5, headSHA: String(repeating: "a", count: 40))
      case 4:
        typed.append(text)
        try cache.enqueue(.reply(ThreadReply(commentID: Int64(step), body: text)), onIssue: 5)
      default:
        let waiting = try cache.queuedActions()
        if !waiting.isEmpty {
          let action = waiting[Int(random.next() % UInt64(waiting.count))]
          _ = try? cache.cancelQueuedAction(action.id)
        }
      }
      let texts = try kept(cache)
      for text in typed {
        #expect(
          texts.contains { $0.contains(text) }, "seed \(seed), step \(step): “\(text)” was lost")
      }
    }
  }

  /// A cancel gives the words back byte for byte; a draft started meanwhile is kept before them.
  @Test func aCancelGivesTheWordsBackAfterADraftStartedMeanwhile() throws {
    let cache = try cache()
    let action = try cache.enqueueComment("Queued words.\r\n", onIssue: 1)
    try cache.saveDraft(.comment("Started meanwhile."), onIssue: 1)
    // What the cancel says it kept is the draft as it now reads.
    #expect(
      try cache.cancelQueuedAction(action.id)
        == .comment("Started meanwhile.\n\nQueued words.\r\n"))
    #expect(
      try cache.drafts(onIssue: 1).map(\.words)
        == [.comment("Started meanwhile.\n\nQueued words.\r\n")])
  }
}
