import Foundation

/// One kind of write the outbox sends: how it knows whether GitHub holds it already, what it
/// marks before its first send, the send itself, and what GitHub's refusal of it means.
///
/// ``ActionReplayer`` runs every operation through the one outbox loop (``OutboxLoop``, which
/// sends the inbox's triage too), in order per issue: it reads the issue, holds a write sent
/// without an answer for its grace, counts the outcome and stops or goes on. An operation says
/// only what is its own, in one file of `Queue/Operations/`, and reports through one
/// ``ActionReplayer/Outcome``. Adding a write is adding a case to
/// ``QueuedAction/Operation``, its line in ``QueuedAction/Operation/outbox(_:)``, and one
/// conforming type.
///
/// Every operation keeps the same three promises. A write sent without an answer is looked for
/// on GitHub before anything sends it again, and found only by what proves it ours (its
/// author, and an id or a number newer than the newest GitHub had at the first send) — never by
/// a clock. It is marked as sent, durably, before its request leaves (``markSending(_:)``), so
/// a crash cannot send it twice. A state GitHub already holds settles it without a request.
protocol OutboxOperation: Sendable {
  /// The replay the operation is sent through: its client, cache, repository and clock.
  var outbox: ActionReplayer { get }
  /// Whether the landed check knows the write by its author: the token's login must be known
  /// before it is sent, or nothing is.
  var needsViewer: Bool { get }
  /// Whether the issue is read from GitHub before the operation goes: every operation but a
  /// create, whose issue does not exist yet.
  var readsIssue: Bool { get }
  /// Sends `action`, or settles it when it was sent before without an answer.
  ///
  /// - Parameters:
  ///   - action: The action, as the queue holds it (its status says whether it was sent).
  ///   - issue: The issue as GitHub has it now; `nil` only when ``readsIssue`` is `false`.
  ///   - pass: What this replay may do: under ``ActionReplayer/Sending/settleOnly`` nothing is
  ///     sent, and the outcome is ``ActionReplayer/Outcome/held`` where a send would be.
  /// - Returns: How it came out; the replay counts it and goes on or stops.
  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
}

extension OutboxOperation {
  var readsIssue: Bool { true }

  var client: GitHubClient { outbox.client }
  var cache: IssueCache { outbox.cache }
  var repository: RepositoryName { outbox.repository }
  func now() -> Date { outbox.now() }

  /// The issue the replay read before sending an operation that ``readsIssue``.
  func read(_ issue: GitHubIssue?) -> GitHubIssue {
    guard let issue else {
      preconditionFailure("The replay reads the issue before it sends \(Self.self)")
    }
    return issue
  }

  /// Whether the action was sent before without an answer.
  func wasSent(_ action: QueuedAction) -> Bool {
    if case .sending = action.status { return true }
    return false
  }

  /// What was kept at the action's first send for its landed check (nothing before one).
  func marks(of action: QueuedAction) -> LandedCheckMarks {
    (try? cache.landedCheckMarks(of: action.id)) ?? LandedCheckMarks()
  }

  /// Records the action as done (with GitHub's answer when it gave one): `false` when the cache
  /// could not be written.
  func markDone(
    _ action: QueuedAction, issue answer: GitHubIssue? = nil, commentID: Int64? = nil,
    onIssue number: Int
  ) -> Bool {
    (try? cache.markDone(
      action.id, issue: answer, comment: nil, commentID: commentID, onIssue: number, now: now()))
      != nil
  }

  /// Done, found after a lost answer or held by GitHub already, as the action's status says.
  func settled(_ action: QueuedAction, _ answer: GitHubIssue? = nil) -> ActionReplayer.Outcome {
    wasSent(action) ? .foundLanded(answer) : .alreadyHeld
  }

  /// Puts the action in conflict for the person, with why.
  func conflict(_ action: QueuedAction, _ reason: String) -> ActionReplayer.Outcome {
    try? cache.markConflict(action.id, reason: reason)
    return .conflict(nil)
  }

  /// Puts in conflict a write someone may have undone after it landed; `nil` when it may go.
  ///
  /// For a write whose effect someone can undo (a thread resolved, auto-merge turned on): when
  /// it was sent before without an answer and GitHub does not show it now, ours may have landed
  /// and been undone by someone since — GitHub keeps no record this client reads that tells the
  /// two apart — so it is not sent again on its own: it waits in conflict for the person
  /// (`issues queue force` sends it).
  func mayHaveBeenUndone(_ action: QueuedAction, _ what: String) -> ActionReplayer.Outcome? {
    guard wasSent(action) else { return nil }
    return conflict(
      action,
      "\(what) was sent without an answer and GitHub does not show it now: it may have "
        + "landed and been undone by someone since (force it to send it again)")
  }

  /// Marks an action that needs no landed-check marks as sent, before its request: `nil` when
  /// it may go, or why it may not (cancelled meanwhile, the cache failing).
  func markSending(_ action: QueuedAction) -> ActionReplayer.Outcome? {
    do {
      return try cache.markSending(
        action.id, viewer: nil, knownCommentID: nil, knownEventID: nil, now: now())
        ? nil : .cancelledMeanwhile
    } catch {
      return .stop(cacheFailure())
    }
  }

  /// What a failed send means: a refusal, or a redirect the client would not follow, did not
  /// land (the action waits in conflict); a refused token or a rate limit did not either (it is
  /// pending again); anything else may have (it stays marked as sent).
  func failed(_ action: QueuedAction, _ error: GitHubError, refusal: String?)
    -> ActionReplayer.Outcome
  {
    let failure = OutboxLedger.classify(error, refusal: refusal)
    try? cache.recordFailure(failure, of: action.id, error: error)
    if case .refused = failure { return .conflict(error) }
    return .stop(error)
  }

  /// The failure of a write whose landed check needs the token's login when it is not known:
  /// nothing is sent, since a lost answer could not be told apart from someone else's write.
  func unknownViewer(_ place: String, _ what: String) -> GitHubError {
    GitHubError(.unauthorized, url: place, detail: "the token's account is not known: \(what)")
  }

  /// The failure of the cache while the queue's progress was written.
  func cacheFailure() -> GitHubError { outbox.cacheFailure() }

  /// A body as GitHub may give it back: line endings and the ends' white space aside.
  static func normalized(_ body: String) -> String { ActionReplayer.normalized(body) }
}

extension QueuedAction.Operation {
  /// The operation as the outbox sends it through `outbox`: the one place a write's kind picks
  /// its procedure.
  func outbox(_ outbox: ActionReplayer) -> any OutboxOperation {
    switch self {
    case .change(let change): IssueChangeOperation(outbox: outbox, change: change)
    case .comment(let body): CommentOperation(outbox: outbox, body: body)
    case .create(let issue): CreateOperation(outbox: outbox, issue: issue)
    case .setParent(let parent): SubIssueOperation(outbox: outbox, parent: parent)
    case .merge(let merge): MergeOperation(outbox: outbox, merge: merge)
    case .enableAutoMerge(let merge): AutoMergeOperation(outbox: outbox, merge: merge)
    case .enqueue(let merge): MergeQueueOperation(outbox: outbox, merge: merge)
    case .review(let review): ReviewOperation(outbox: outbox, review: review)
    case .reply(let reply): ReplyOperation(outbox: outbox, reply: reply)
    case .resolveThread(let resolution):
      ThreadResolutionOperation(outbox: outbox, resolution: resolution)
    }
  }
}
