import Foundation

/// An action on an issue written to the cache's queue before anything is sent, so that it
/// survives being offline, a crash or a reboot, and reaches GitHub exactly once.
///
/// ``IssueCache/enqueue(_:onIssue:now:)`` queues one and shows it at once;
/// ``ActionReplayer`` sends the queue in order per issue. An action whose send got no answer
/// (``Status-swift.enum/sending(since:)``) may have landed: before it is sent again, GitHub is
/// read to see whether it did.
public struct QueuedAction: Hashable, Sendable, Identifiable {
  /// What is done to the issue.
  public enum Operation: Hashable, Sendable, Codable {
    /// A change to its state, milestone, labels or assignees.
    case change(IssueChange)
    /// A comment with this body.
    case comment(String)
    /// A new issue: the action's row is provisional (no number) until GitHub files it.
    case create(NewIssue)
    /// Makes the issue a sub-issue of this one (by number, in the same repository).
    case setParent(Int)
    /// Merges the pull request.
    case merge(PullRequestMerge)
    /// Turns on the pull request's auto-merge: GitHub merges it once its requirements are met.
    case enableAutoMerge(PullRequestMerge)
    /// Adds the pull request to its base branch's merge queue, at the head read: the queue
    /// merges it, its own way, once its checks pass on top of those ahead of it.
    case enqueue(PullRequestMerge)
    /// Submits a review of the pull request, its line comments with it.
    case review(ReviewSubmission)
    /// Replies to a thread of line comments on the pull request.
    case reply(ThreadReply)
    /// Resolves or unresolves a thread of line comments on the pull request.
    case resolveThread(ThreadResolution)

    /// "close #12", "comment on #12": what it does, for lists and messages.
    package func describe(issue number: Int, milestoneTitles: [Int: String] = [:]) -> String {
      switch self {
      case .change(let change): change.describe(issue: number, milestoneTitles: milestoneTitles)
      case .comment(let body):
        "comment on \(QueuedAction.name(ofIssue: number)): “\(body.split(whereSeparator: \.isNewline).first ?? "")”"
      case .create(let issue): "file “\(issue.title)”"
      case .merge(let merge):
        "merge \(QueuedAction.name(ofIssue: number)) (\(merge.method.rawValue))"
      case .enableAutoMerge(let merge):
        "merge \(QueuedAction.name(ofIssue: number)) when ready (\(merge.method.rawValue))"
      case .enqueue:
        "add \(QueuedAction.name(ofIssue: number)) to the merge queue"
      case .review(let review):
        "review \(QueuedAction.name(ofIssue: number)): \(review.verdict.words)"
          + (review.comments.isEmpty
            ? ""
            : ", \(review.comments.count) line comment\(review.comments.count == 1 ? "" : "s")")
      case .reply(let reply):
        "reply on \(QueuedAction.name(ofIssue: number)) to comment \(reply.commentID): “"
          + "\(reply.body.split(whereSeparator: \.isNewline).first ?? "")”"
      case .setParent(let parent):
        "make \(QueuedAction.name(ofIssue: number)) a sub-issue of #\(parent)"
      case .resolveThread(let resolution):
        "\(resolution.change.rawValue) the thread of comment \(resolution.commentID) on "
          + QueuedAction.name(ofIssue: number)
      }
    }
  }

  /// "#12", or for an issue not filed yet (its number provisional), "the new issue".
  package static func name(ofIssue number: Int) -> String {
    number > 0 ? "#\(number)" : "the new issue"
  }

  /// Where an action stands.
  public enum Status: Hashable, Sendable {
    /// Waiting to be sent.
    case pending
    /// Sent at least once without an answer that settles it: it may have landed, and GitHub
    /// is read before it is sent again.
    case sending(since: Date)
    /// Not sent: the issue changed on GitHub in a way that conflicts, or GitHub refused it.
    /// The person chooses: send it anyway (``IssueCache/sendAnyway(_:)``) or cancel it.
    case conflict(String)
    /// On GitHub (sent, or found there).
    case done(at: Date)
    /// Cancelled before it was sent.
    case cancelled(at: Date)

    /// Whether it still waits to reach GitHub (pending, sending, or in conflict).
    package var isActive: Bool {
      switch self {
      case .pending, .sending, .conflict: true
      case .done, .cancelled: false
      }
    }
  }

  /// The queue's order: actions are sent by increasing identifier, per issue.
  public var id: Int64
  /// The row of the issue acted on: the queue holds on to it, not to GitHub's number.
  ///
  /// `nil` only for an action queued by a version before keys on an issue the cache no longer
  /// holds.
  public var issueKey: IssueKey?
  /// The issue's number: its row's, or the one it was queued on when the row is gone.
  package var issueNumber: Int
  /// What is done.
  package var operation: Operation
  /// Where it stands.
  public var status: Status
  /// When it was queued.
  package var queuedAt: Date
  /// How many times it was sent.
  package var attempts: Int
  /// Why the last attempt did not settle it, when one did not.
  package var lastError: String?
  /// Whether the person chose to send it despite a conflict.
  package var isForced: Bool

  /// Creates one as the cache stores it.
  public init(
    id: Int64, issueKey: IssueKey?, issueNumber: Int, operation: Operation, status: Status,
    queuedAt: Date,
    attempts: Int = 0, lastError: String? = nil, isForced: Bool = false
  ) {
    self.id = id
    self.issueKey = issueKey
    self.issueNumber = issueNumber
    self.operation = operation
    self.status = status
    self.queuedAt = queuedAt
    self.attempts = attempts
    self.lastError = lastError
    self.isForced = isForced
  }
}
