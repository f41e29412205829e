import Foundation

/// Words a person wrote that GitHub does not have yet, kept in the cache's draft store
/// (``IssueCache/drafts(onIssue:)``) until they go to the outbox, and given back there whenever
/// the outbox lets them go without GitHub having them: a refusal, a refused token, a cancel, a
/// conflict the person drops.
///
/// A pull request's drafted line comments are kept beside these, as its pending review
/// (``IssueCache/pendingReview(of:)``): they are given back there.
package struct Draft: Hashable, Sendable, Identifiable {
  /// What the words were for.
  package enum Words: Hashable, Sendable, Codable {
    /// A comment on the issue.
    case comment(String)
    /// A new issue: what it files, with the form's answers so that the form reopens filled.
    case newIssue(NewIssue)
    /// A review's summary and verdict (its line comments go back to the pending review).
    case review(verdict: ReviewSubmission.Verdict, body: String)
    /// A reply to a thread of line comments.
    case reply(ThreadReply)

    /// The kind, as the store's `kind` column keeps it: one draft of each kind per issue,
    /// but a reply's per thread.
    var kind: String {
      switch self {
      case .comment: "comment"
      case .newIssue: "newIssue"
      case .review: "review"
      case .reply(let reply): "reply:\(reply.commentID)"
      }
    }

    /// The words of a queued operation that carries some, or `nil`.
    package init?(_ operation: QueuedAction.Operation) {
      switch operation {
      case .comment(let body): self = .comment(body)
      case .create(let issue): self = .newIssue(issue)
      case .review(let review):
        guard !CommentDraft.normalized(review.body).isEmpty else { return nil }
        self = .review(verdict: review.verdict, body: review.body)
      case .reply(let reply): self = .reply(reply)
      case .change, .setParent, .merge, .enableAutoMerge, .enqueue, .resolveThread: return nil
      }
    }

    /// Where a person finds these words again, for the issue (or pull request) `number`: the
    /// sentence a refusal or a cancel ends with.
    package func whereKept(issue number: Int) -> String {
      switch self {
      case .comment:
        "the comment is kept as a draft (`issues comment \(number) --send-draft` sends it; C in "
          + "the browser opens it)"
      case .newIssue:
        "what you wrote is kept as a draft (`issues create` or n in the browser opens it filled)"
      case .review:
        "the review is drafted again (`issues pr review \(number) --pending` shows its summary "
          + "and line comments)"
      case .reply(let reply):
        "the reply is kept as a draft (`issues pr review \(number) --pending` shows it; "
          + "`--reply \(reply.commentID)` without a body sends it)"
      }
    }
  }

  /// Its identifier in the store.
  package var id: Int64
  /// The issue or pull request it is for; a new issue's draft has 0.
  package var issueNumber: Int
  /// The words.
  package var words: Words
  /// When it was last saved.
  package var savedAt: Date
}
