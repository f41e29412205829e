import Foundation
import Synchronization

/// Sends the cache's action queue to GitHub — the outbox every write goes through: in order per
/// issue, each action exactly once.
///
/// GitHub takes no idempotency key, so a write whose answer was lost may or may not have landed,
/// and only a read can tell. Each action is therefore marked as sent — durably, in the same
/// statement that checks it is still waiting — before its request goes; a crash, a dropped
/// connection or a 5xx leaves it marked, and the next replay reads GitHub first and settles it
/// without sending it again when it landed. What "it landed" means is written per operation, and
/// never takes someone else's data for ours:
///
/// - **A comment** landed when the issue's comments, listed completely, hold one with its body,
///   written by the viewer (the token's account, resolved with `GET /user` before the first
///   send and kept with the action), newer than every comment of a listing of the issue taken
///   right before the first send, and not already claimed by another action. GitHub's comment
///   ids grow, so "newer" is an id comparison: no clock is trusted, the server's included. The
///   same body by another author, or by the viewer before the first send, is never ours. When
///   the viewer cannot be known, nothing is sent.
/// - **A close or reopen** landed when the issue's timeline holds a `closed` (or `reopened`)
///   event by the viewer newer than every state event at the first send. The issue's state
///   alone cannot tell: someone may have reopened it after our close landed, and closing it
///   again would override them.
/// - **A milestone, label or assignee change** landed when the issue holds what it asks. When it
///   does not, the action is judged as if not sent: a change someone else made since it was
///   queued is a conflict, never overwritten.
///
/// Before an action is sent, the issue is read from GitHub: when it changed there in a way that
/// conflicts with the action — judged against the state it was queued against, which no sync
/// in between re-bases (closed or reopened by someone else, moved to another milestone) — the
/// action is not sent: it waits in conflict, with the issue's later actions, for the person to
/// send it anyway or cancel it. An action GitHub already holds is settled without a request. A
/// refusal (4xx), a refused token or a redirect outside the API root did not land: the action
/// waits in conflict with the reason (a refused token leaves it pending, for a better token).
///
/// A cancel wins over a send whose request has not left: the mark checks the action's status
/// atomically. One whose request left cannot be cancelled, and ``IssueCache/cancelQueuedAction(_:now:)``
/// says so.
///
/// One replay runs at a time per cache, across processes (a lock beside the cache file). A
/// replay stops at the first failure that is not a refusal (offline, a 5xx, a rate limit): what
/// is left is sent by the next one.
package struct ActionReplayer: Sendable {
  /// The client the actions go through.
  package var client: GitHubClient
  /// The cache holding the queue.
  package var cache: IssueCache
  /// The repository of the issues.
  package var repository: RepositoryName
  /// The login comments and events are written by (the token's account): what landed is by it.
  ///
  /// `nil` resolves it from the cache (recorded per token) or `GET /user` before the first send
  /// that needs it. Never a wildcard: an action whose viewer cannot be known is not sent.
  package var viewer: String?
  /// The clock that dates the queue's steps (never used to judge what landed).
  package var now: @Sendable () -> Date = { Date() }
  /// How long a write sent without an answer is given to land before anything may send it
  /// again: until then it is only looked for on GitHub.
  ///
  /// GitHub may apply a write after the client stopped waiting (a killed process, a timeout):
  /// it ends a request it has worked on for 10 s ("Troubleshooting the REST API": requests
  /// that take longer are terminated), and the request itself may still be on its way for as
  /// long as the client waited for an answer (``HTTPClientTransport/defaultTimeout``, 15 s).
  /// A landed check made sooner can miss a write about to land, and a second send would land
  /// it twice. The default is those two and a margin: 30 s. `TRELLIS_UNANSWERED_GRACE`
  /// (seconds) sets another. What stays unknowable: a write GitHub applies later still, which
  /// no client can tell from one never received.
  package var unansweredGrace: TimeInterval = ActionReplayer.defaultUnansweredGrace

  /// ``unansweredGrace`` unless the environment sets another.
  package static var defaultUnansweredGrace: TimeInterval {
    if let text = ProcessInfo.processInfo.environment["TRELLIS_UNANSWERED_GRACE"],
      let seconds = TimeInterval(text), seconds >= 0, seconds <= 3600
    {
      return seconds
    }
    return 30
  }

  /// A replayer for a repository's queue.
  package init(
    client: GitHubClient, cache: IssueCache, repository: RepositoryName, viewer: String? = nil,
    unansweredGrace: TimeInterval = ActionReplayer.defaultUnansweredGrace
  ) {
    self.unansweredGrace = unansweredGrace
    self.client = client
    self.cache = cache
    self.repository = repository
    self.viewer = viewer
  }

  /// The caches in memory whose queue is being sent.
  private static let replaysInMemory = Mutex<Set<ObjectIdentifier>>([])

  /// What a replay did.
  package struct Summary: Sendable {
    /// Actions sent and answered.
    package var sent = 0
    /// Actions sent before without an answer, found on GitHub and not sent again.
    package var foundLanded = 0
    /// Actions GitHub already held when their turn came (nothing sent).
    package var alreadyHeld = 0
    /// Actions put in conflict by this replay.
    package var conflicts = 0
    /// Actions cancelled while this replay ran, before their request left: not sent.
    package var cancelledMeanwhile = 0
    /// Actions still waiting afterwards (pending, unanswered, or in conflict).
    package var waiting = 0
    /// Why the replay stopped before the end of the queue, if it did.
    package var stopped: GitHubError?
    /// GitHub's refusals, by the action refused (each now in conflict).
    package var refusals: [Int64: GitHubError] = [:]
  }

  /// Whether a replay may send a write, or only settle by reading what earlier sends did.
  package enum Sending: Sendable {
    /// Sends what waits, after settling what was sent without an answer.
    case sendAndSettle
    /// Reads GitHub to settle actions sent without an answer, and sends nothing: what a command
    /// does after its own send lost its answer, since a write is never sent twice in one process.
    case settleOnly
  }

  /// Sends what the queue holds, as the type's documentation says: every issue's actions, or
  /// those of `issues` only.
  package func replay(onIssues issues: Set<Int>? = nil, sending: Sending = .sendAndSettle) async
    -> Summary
  {
    var summary = Summary()
    let lock: SyncLock?
    if let path = cache.path {
      do {
        lock = try await SyncLock.acquire(forCacheAt: path + ".queue", policy: .failFast)
      } catch {
        summary.stopped = GitHubError(
          .syncInProgress, url: path, detail: "another process is sending the queue")
        summary.waiting = (try? cache.queuedActions().count) ?? 0
        return summary
      }
    } else {
      // A cache in memory lives in this process: a replay of it at a time, here.
      let key = ObjectIdentifier(cache)
      guard Self.replaysInMemory.withLock({ $0.insert(key).inserted }) else {
        summary.stopped = GitHubError(
          .syncInProgress, url: "cache", detail: "the queue is being sent already")
        summary.waiting = (try? cache.queuedActions().count) ?? 0
        return summary
      }
      lock = nil
    }
    defer {
      withExtendedLifetime(lock) {}
      if cache.path == nil {
        _ = Self.replaysInMemory.withLock { $0.remove(ObjectIdentifier(cache)) }
      }
    }
    // GitHub asked writes to wait (a secondary limit's `retry-after`, a quota's reset): every
    // process waits, not only the one told — a replay started a second later sends nothing.
    if case .sendAndSettle = sending, let pause = try? cache.writePause(), pause.until > now() {
      summary.stopped = GitHubError(
        .rateLimited, method: "POST", url: "the queue of \(repository)", resetAt: pause.until,
        detail: "GitHub asked for a pause"
          + (pause.detail.map { " (\($0))" } ?? "") + "; nothing is sent before it ends",
        rateLimit: .secondary)
      summary.waiting = (try? cache.queuedActions().count) ?? 0
      return summary
    }
    await send(&summary, onIssues: issues, sending: sending)
    if let stopped = summary.stopped, stopped.code == .rateLimited, let reset = stopped.resetAt {
      try? cache.keepWritePause(until: reset, detail: stopped.detail, now: now())
    }
    summary.waiting = (try? cache.queuedActions().count) ?? 0
    return summary
  }

  /// What one replay knows and may do, shared by its steps.
  struct Pass {
    var sending: Sending
    /// The viewer's login, once resolved.
    var viewer: String?
  }

  private func send(_ summary: inout Summary, onIssues issues: Set<Int>?, sending: Sending) async {
    guard let actions = try? cache.queuedActions() else { return }
    // Grouped by the row an action holds on to, the issue's number read from it now.
    var order: [IssueIdentity] = []
    var byIssue: [IssueIdentity: [QueuedAction]] = [:]
    for action in actions where issues?.contains(action.issueNumber) ?? true {
      let issue = action.issueKey.map(IssueIdentity.key) ?? .number(action.issueNumber)
      if byIssue[issue] == nil { order.append(issue) }
      byIssue[issue, default: []].append(action)
    }
    var pass = Pass(sending: sending, viewer: viewer)
    // Comments and state changes are recognised by their author: know who that is before the
    // first of them goes, or send none.
    if pass.viewer == nil, actions.contains(where: { needsViewer($0.operation) }) {
      switch await resolveViewer() {
      case .success(let login): pass.viewer = login
      case .failure(let error):
        summary.stopped = error
        return
      }
    }
    for issue in order {
      let actions = byIssue[issue] ?? []
      guard let number = actions.first?.issueNumber else { continue }
      guard await send(actions, onIssue: number, &summary, &pass) else { return }
    }
  }

  /// What a replay groups an issue's actions by: the row they were queued on, or for an action
  /// queued before rows had keys on an issue no longer cached, its number.
  private enum IssueIdentity: Hashable {
    case key(IssueKey)
    case number(Int)
  }

  /// Whether an operation's landed check needs the viewer's login.
  private func needsViewer(_ operation: QueuedAction.Operation) -> Bool {
    switch operation {
    case .comment, .create, .change(.close), .change(.reopen), .review, .reply: true
    case .change, .setParent, .merge, .enableAutoMerge, .resolveThread: false
    }
  }

  /// The token's login: recorded in the cache for this token, or asked of GitHub and recorded.
  private func resolveViewer() async -> Result<String, GitHubError> {
    if let token = client.token, let known = try? cache.viewerLogin(token: token) {
      return .success(known)
    }
    do {
      let user = try await client.authenticatedUser()
      if let token = client.token { try? cache.setViewerLogin(user.login, token: token) }
      return .success(user.login)
    } catch {
      return .failure(error)
    }
  }

  /// Sends one issue's actions in order; `false` when the replay must stop.
  private func send(
    _ actions: [QueuedAction], onIssue number: Int, _ summary: inout Summary, _ pass: inout Pass
  ) async -> Bool {
    var current: GitHubIssue?
    // The number GitHub gave a new issue filed in this pass: the later actions queued on its
    // provisional row go to it.
    var filed: Int?
    for var action in actions {
      // One in conflict waits for the person, and the issue's later actions with it.
      if case .conflict = action.status { return true }
      if let filed { action.issueNumber = filed }
      if case .create(let issue) = action.operation {
        var pass = pass
        if case .sending(let since) = action.status,
          now().timeIntervalSince(since) < unansweredGrace
        {
          pass.sending = .settleOnly
        }
        let outcome = await send(issue, action, pass)
        switch outcome {
        case .sent(let answer), .foundLanded(let answer):
          if case .sent = outcome { summary.sent += 1 } else { summary.foundLanded += 1 }
          current = answer
          filed = answer?.number
          continue
        case .cancelledMeanwhile:
          summary.cancelledMeanwhile += 1
          return true
        case .conflict(let refusal):
          summary.conflicts += 1
          if let refusal { summary.refusals[action.id] = refusal }
          return true
        case .held, .alreadyHeld: return true
        case .stop(let error):
          summary.stopped = error
          return false
        }
      }
      // On a row not filed yet: it waits behind the create.
      if action.issueNumber <= 0 { return true }
      if current == nil {
        do {
          current = try await client.issue(number, of: repository)
        } catch {
          if [.notFound, .gone].contains(error.code) {
            try? cache.markConflict(action.id, reason: "#\(number) is no longer on GitHub")
            summary.conflicts += 1
            return true
          }
          summary.stopped = error
          return false
        }
      }
      guard let issue = current else { return false }
      // Sent without an answer a moment ago: it may still land. Looked for, never sent again
      // before the grace is over.
      var pass = pass
      if case .sending(let since) = action.status, now().timeIntervalSince(since) < unansweredGrace
      {
        pass.sending = .settleOnly
      }
      let outcome: Outcome
      switch action.operation {
      case .change(let change): outcome = await send(change, action, issue, pass)
      case .comment(let body): outcome = await send(body, action, pass)
      case .setParent(let parent): outcome = await send(parent: parent, action, issue, pass)
      case .merge(let merge): outcome = await send(merge, action, issue, pass)
      case .enableAutoMerge(let merge): outcome = await send(autoMerge: merge, action, issue, pass)
      case .review(let review): outcome = await send(review, action, issue, pass)
      case .reply(let reply): outcome = await send(reply, action, issue, pass)
      case .resolveThread(let resolution): outcome = await send(resolution, action, issue, pass)
      case .create: return true
      }
      switch outcome {
      case .sent(let answer):
        summary.sent += 1
        current = answer ?? current
      case .foundLanded(let answer):
        summary.foundLanded += 1
        current = answer ?? current
      case .alreadyHeld:
        summary.alreadyHeld += 1
      case .cancelledMeanwhile:
        summary.cancelledMeanwhile += 1
      case .conflict(let refusal):
        summary.conflicts += 1
        if let refusal { summary.refusals[action.id] = refusal }
        return true
      case .held:
        // Not sent again in this pass; the issue's later actions wait behind it.
        return true
      case .stop(let error):
        summary.stopped = error
        return false
      }
    }
    return true
  }

  enum Outcome {
    case sent(GitHubIssue?)
    case foundLanded(GitHubIssue?)
    case alreadyHeld
    /// Cancelled since the replay read the queue, before its request left.
    case cancelledMeanwhile
    /// In conflict: with GitHub's refusal, or `nil` when the issue moved on GitHub.
    case conflict(GitHubError?)
    /// Would be sent, but this pass only settles.
    case held
    case stop(GitHubError)
  }

  private func send(
    _ change: IssueChange, _ action: QueuedAction, _ issue: GitHubIssue, _ pass: Pass
  ) async -> Outcome {
    let fields = EditableFields(issue)
    let marks = (try? cache.landedCheckMarks(of: action.id)) ?? LandedCheckMarks()
    let isStateChange: Bool
    switch change {
    case .close, .reopen: isStateChange = true
    default: isStateChange = false
    }
    if case .sending = action.status {
      if isStateChange, let known = marks.knownEventID {
        // The timeline says whether our close (or reopen) happened, whatever came after it.
        switch await stateEventLanded(
          change, after: known, by: marks.viewer ?? pass.viewer, on: action.issueNumber)
        {
        case .failure(let error): return .stop(error)
        case .success(true):
          return settle(action, issue: issue) ? .foundLanded(issue) : .stop(cacheFailure())
        case .success(false): break  // It did not land: judged below as one not sent.
        }
      } else if fields.satisfies(change) {
        return settle(action, issue: issue) ? .foundLanded(issue) : .stop(cacheFailure())
      }
    }
    if !action.isForced, let reason = conflict(change, action: action, on: fields) {
      try? cache.markConflict(action.id, reason: reason)
      // The person decides on GitHub's version, the queued actions shown on top of it.
      try? cache.confirm(issue)
      return .conflict(nil)
    }
    if fields.satisfies(change) {
      return settle(action, issue: issue) ? .alreadyHeld : .stop(cacheFailure())
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    var knownEventID: Int64?
    if isStateChange, marks.knownEventID == nil {
      switch await newestStateEventID(on: action.issueNumber) {
      case .success(let newest): knownEventID = newest
      case .failure(let error): return .stop(error)
      }
    }
    do {
      guard
        try cache.markSending(
          action.id, viewer: pass.viewer, knownCommentID: nil, knownEventID: knownEventID,
          now: now())
      else { return .cancelledMeanwhile }
    } catch {
      return .stop(cacheFailure())
    }
    do {
      let answer = try await client.apply(change, toIssue: action.issueNumber, of: repository)
      return settle(action, issue: answer) ? .sent(answer) : .stop(cacheFailure())
    } catch {
      return failed(action, error, refusal: refusal(error, change, action.issueNumber))
    }
  }

  private func send(_ body: String, _ action: QueuedAction, _ pass: Pass) async -> Outcome {
    let number = action.issueNumber
    var listedJustNow = false
    if case .sending = action.status {
      switch await findPosted(body, action, viewer: pass.viewer) {
      case .success(let found?):
        do {
          try cache.markDone(
            action.id, issue: nil, comment: nil, commentID: found, onIssue: number, now: now())
        } catch {
          return .stop(cacheFailure())
        }
        return .foundLanded(nil)
      case .success(nil): listedJustNow = true
      case .failure(let error): return .stop(error)
      }
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    guard let viewer = pass.viewer else {
      return .stop(
        GitHubError(
          .unauthorized, url: "comments of \(repository)#\(number)",
          detail: "the token's account is not known, so a lost answer could not be checked"))
    }
    let known: Int64?
    do {
      // Every comment on the issue now is older than the one this send makes: list them right
      // before the first send — a cache that looks current may have missed one written since
      // (the same "+1" on the web) — completely, or send nothing.
      if !listedJustNow {
        let outcome = try await ConversationFetcher(
          client: client, cache: cache, repository: repository
        ).fetch(number, force: true)
        if case .listed(let count, false, let announced, _) = outcome {
          return .stop(
            GitHubError(
              .incompleteListing, url: "comments of \(repository)#\(number)",
              detail: "it listed \(count) of \(announced) before sending a comment"))
        }
      }
      known = try cache.newestCommentID()
    } catch let error as GitHubError {
      return .stop(error)
    } catch {
      return .stop(cacheFailure())
    }
    do {
      guard
        try cache.markSending(
          action.id, viewer: viewer, knownCommentID: known ?? 0, knownEventID: nil, now: now())
      else { return .cancelledMeanwhile }
    } catch {
      return .stop(cacheFailure())
    }
    do {
      let comment = try await client.postComment(body, onIssue: number, of: repository)
      try? cache.markDone(
        action.id, issue: nil, comment: comment, commentID: comment.id, onIssue: number,
        now: now())
      return .sent(nil)
    } catch {
      return failed(action, error, refusal: refusal(error, nil, number))
    }
  }

  /// Files a new issue, or settles one sent without an answer.
  ///
  /// A send whose answer was lost is found, before anything is sent again, among the viewer's
  /// issues newest first: the one with the same title and body, numbered above the highest
  /// number GitHub had given right before the first send (numbers only grow), not already
  /// claimed by another create. No clock is trusted.
  private func send(_ issue: NewIssue, _ action: QueuedAction, _ pass: Pass) async -> Outcome {
    guard let key = action.issueKey else { return .stop(cacheFailure()) }
    let marks = (try? cache.landedCheckMarks(of: action.id)) ?? LandedCheckMarks()
    if case .sending = action.status {
      switch await findFiled(
        issue, viewer: marks.viewer ?? pass.viewer, known: marks.knownIssueNumber)
      {
      case .failure(let error): return .stop(error)
      case .success(let found?):
        do {
          try cache.markFiled(action.id, as: found, key: key, now: now())
        } catch {
          return .stop(cacheFailure())
        }
        return .foundLanded(found)
      case .success(nil): break  // It did not land: sent again below.
      }
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    guard let viewer = pass.viewer else {
      return .stop(
        GitHubError(
          .unauthorized, url: "issues of \(repository)",
          detail: "the token's account is not known, so a lost answer could not be checked"))
    }
    var known = marks.knownIssueNumber
    if known == nil {
      switch await newestNumber() {
      case .success(let newest):
        known = max(newest, (try? cache.highestCachedNumber()) ?? 0)
      case .failure(let error): return .stop(error)
      }
    }
    do {
      guard
        try cache.markSending(
          action.id, viewer: viewer, knownCommentID: nil, knownEventID: nil,
          knownIssueNumber: known, sending: .create(issue), now: now())
      else { return .cancelledMeanwhile }
    } catch {
      return .stop(cacheFailure())
    }
    do {
      let filed = try await client.createIssue(issue, in: repository)
      do {
        try cache.markFiled(action.id, as: filed, key: key, now: now())
      } catch {
        return .stop(cacheFailure())
      }
      return .sent(filed)
    } catch {
      return failed(action, error, refusal: OutboxLedger.refusal(error))
    }
  }

  /// Merges a pull request, unless GitHub says it is merged already.
  ///
  /// Its state is read before every send (sent before without an answer, or merged on the
  /// web). GitHub refuses a
  /// merge it cannot make (405: checks, reviews, conflicts) and one whose head moved (409): the
  /// action then waits in conflict with GitHub's reason.
  private func send(
    _ merge: PullRequestMerge, _ action: QueuedAction, _ issue: GitHubIssue, _ pass: Pass
  ) async -> Outcome {
    let wasSent = if case .sending = action.status { true } else { false }
    func done(_ answer: GitHubIssue?) -> Bool {
      (try? cache.markDone(
        action.id, issue: answer, comment: nil, commentID: nil, onIssue: issue.number, now: now()))
        != nil
    }
    if issue.mergedAt != nil {
      guard done(issue) else { return .stop(cacheFailure()) }
      // Merged by someone else (never sent by us): their merge, their branch to keep or delete.
      if wasSent { await deleteBranch(of: merge, pullRequest: issue.number) }
      return wasSent ? .foundLanded(issue) : .alreadyHeld
    }
    guard issue.state == .open else {
      try? cache.markConflict(action.id, reason: "#\(issue.number) was closed without merging")
      return .conflict(nil)
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    if let unsent = markSending(action) { return unsent }
    do {
      try await client.mergePullRequest(issue.number, merge, in: repository)
    } catch {
      let refusal: String? =
        switch error.status {
        case 405: "GitHub will not merge it: \(error.summary())"
        case 409: "its head moved since it was read: review the new commits (\(error.summary()))"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
    let merged = try? await client.issue(issue.number, of: repository)
    guard done(merged) else { return .stop(cacheFailure()) }
    await deleteBranch(of: merge, pullRequest: issue.number)
    return .sent(merged)
  }

  /// Puts in conflict a write someone may have undone after it landed; `nil` when it may go.
  ///
  /// For a write whose effect someone can undo (a thread resolved, auto-merge turned on): when
  /// it was sent before without an answer and GitHub does not show it now, ours may have landed
  /// and been undone by someone since — GitHub keeps no record this client reads that tells the
  /// two apart — so it is not sent again on its own: it waits in conflict for the person
  /// (`issues queue force` sends it).
  func mayHaveBeenUndone(_ action: QueuedAction, _ what: String) -> Outcome? {
    guard case .sending = action.status else { return nil }
    try? cache.markConflict(
      action.id,
      reason: "\(what) was sent without an answer and GitHub does not show it now: it may have "
        + "landed and been undone by someone since (force it to send it again)")
    return .conflict(nil)
  }

  /// Marks an action that needs no landed-check marks as sent, before its request: `nil` when
  /// it may go, or why it may not (cancelled meanwhile, the cache failing).
  func markSending(_ action: QueuedAction) -> Outcome? {
    do {
      return try cache.markSending(
        action.id, viewer: nil, knownCommentID: nil, knownEventID: nil, now: now())
        ? nil : .cancelledMeanwhile
    } catch {
      return .stop(cacheFailure())
    }
  }

  /// Deletes the merged head branch when asked, and only when it is provably the pull
  /// request's and still at the head merged; a failure leaves it (the merge stands).
  ///
  /// Read just before the delete: the pull request's head is this repository's own branch of
  /// that name (a fork's branch is its owner's, and a branch of the same name here belongs to
  /// another pull request), and the branch still points at the merged commit (a commit pushed
  /// after the merge would be on no branch once it is gone).
  private func deleteBranch(of merge: PullRequestMerge, pullRequest number: Int) async {
    guard let branch = merge.deletingBranch,
      let pull = try? await client.pullRequest(number, of: repository),
      pull.headIsOwned(by: repository), pull.headRef == branch,
      let head = try? await client.branchHead(branch, in: repository),
      head == merge.headSHA.lowercased()
    else { return }
    try? await client.deleteBranch(branch, in: repository)
  }

  /// Makes the issue a sub-issue of `parent`, unless GitHub says it is one already: its parent
  /// is read first, every time (sent before without an answer, or linked on the web meanwhile).
  private func send(
    parent: Int, _ action: QueuedAction, _ issue: GitHubIssue, _ pass: Pass
  ) async -> Outcome {
    do {
      if try await client.parentIssue(of: issue.number, in: repository)?.number == parent {
        let wasSent = if case .sending = action.status { true } else { false }
        guard
          (try? cache.markDone(
            action.id, issue: nil, comment: nil, commentID: nil, onIssue: issue.number,
            now: now())) != nil
        else { return .stop(cacheFailure()) }
        return wasSent ? .foundLanded(nil) : .alreadyHeld
      }
    } catch {
      return .stop(error)
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    if let unsent = markSending(action) { return unsent }
    do {
      let answer = try await client.addSubIssue(id: issue.id, toParent: parent, in: repository)
      guard
        (try? cache.markDone(
          action.id, issue: answer, comment: nil, commentID: nil, onIssue: issue.number,
          now: now())) != nil
      else { return .stop(cacheFailure()) }
      return .sent(nil)
    } catch {
      let refusal: String? =
        switch error.code {
        case .validation, .notFound:
          "#\(parent) could not take it as a sub-issue: \(error.summary())"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
  }

  /// The highest number GitHub has given in the repository, issue or pull request (0 for
  /// none): among the items created in the newest second.
  ///
  /// GitHub's order of items created in the same second is not documented, so the first item
  /// is not enough: the newest second's items are read whole — a page of ten, and more only
  /// while a page is all of that second (at most fifty pages; more leaves it unknown).
  private func newestNumber() async -> Result<Int, GitHubError> {
    let query = IssueQuery(state: .all, sort: .created, ascending: false, perPage: 10)
    var newest = 0
    var second: Date?
    var pages = 0
    do {
      for try await page in client.issuePages(of: repository, query: query) {
        pages += 1
        second = second ?? page.items.first?.createdAt
        for item in page.items where item.createdAt == second {
          newest = max(newest, item.number)
        }
        // The newest second ended on this page: nothing after it is newer.
        if page.items.contains(where: { $0.createdAt != second }) || page.next == nil {
          return .success(newest)
        }
        if pages == 50 { break }
      }
      if pages < 50 { return .success(newest) }
      return .failure(
        GitHubError(
          .incompleteListing, url: "issues of \(repository)",
          detail: "over 500 items created in one second: the newest number is not known"))
    } catch {
      return .failure(error)
    }
  }

  /// Looks for the issue an unanswered create may have filed: by `viewer`, with the title and
  /// body, numbered above `known`, not claimed by another action.
  ///
  /// The viewer's issues are read newest first. An issue filed after the first send was
  /// created no earlier than any issue numbered at or below `known`, so the walk ends at the
  /// first page that reaches a creation time older than the newest of those. GitHub's order of
  /// issues created in the same second is not documented and may change between two page
  /// requests: when such a group of ties is split across pages, an issue of it could be on
  /// neither, so every number above `known` the walk did not see is read one by one (at most
  /// ``mostProbes``; more leaves it unknown). A page with an item that could not be read
  /// leaves it unknown.
  private func findFiled(_ issue: NewIssue, viewer: String?, known: Int?) async
    -> Result<GitHubIssue?, GitHubError>
  {
    let place = "issues of \(repository)"
    guard let viewer else {
      return .failure(
        GitHubError(
          .unauthorized, url: place,
          detail: "the token's account is not known: whether the issue was filed is not known"))
    }
    guard let known else {
      return .failure(
        GitHubError(
          .incompleteListing, url: place,
          detail: "the highest number before the first send is not known: nothing is sent again"))
    }
    let claimed: Set<Int>
    do {
      claimed = try cache.claimedIssueNumbers()
    } catch {
      return .failure(cacheFailure())
    }
    let body = Self.normalized(issue.body)
    func isOurs(_ candidate: GitHubIssue) -> Bool {
      !candidate.isPullRequest && candidate.number > known && !claimed.contains(candidate.number)
        && candidate.title == issue.title && Self.normalized(candidate.body ?? "") == body
        && candidate.user.login.lowercased() == viewer.lowercased()
    }
    let query = IssueQuery(state: .all, creator: viewer, sort: .created, ascending: false)
    var seen: Set<Int> = []
    // The newest creation time of an issue numbered at or below `known`: ours is no older.
    var oldest: Date?
    // Creation times of groups of ties split across two pages.
    var splitTies: [Date] = []
    var previousLast: Date?
    do {
      for try await page in client.issuePages(of: repository, query: query) {
        if !page.skipped.isEmpty {
          return .failure(
            GitHubError(
              .incompleteListing, url: place,
              detail: "an issue of the listing could not be read: whether it was filed is not known"
            ))
        }
        if let found = page.items.first(where: isOurs) { return .success(found) }
        if let previousLast, page.items.first?.createdAt == previousLast {
          splitTies.append(previousLast)
        }
        previousLast = page.items.last?.createdAt
        seen.formUnion(page.items.map(\.number))
        for item in page.items where item.number <= known {
          oldest = max(oldest ?? item.createdAt, item.createdAt)
        }
        if let oldest, let last = page.items.last?.createdAt, last < oldest { break }
      }
    } catch {
      return .failure(error)
    }
    // Groups older than `oldest` cannot hold ours; a split one that may, leaves it to the probe.
    guard splitTies.contains(where: { tie in oldest.map { tie >= $0 } ?? true }) else {
      return .success(nil)
    }
    return await probe(above: known, skipping: seen, matching: isOurs)
  }

  /// The most issue numbers a landed check reads one by one.
  static let mostProbes = 500

  /// Reads the numbers above `known` one by one, newest first, for an issue `matching`: what
  /// the created-order walk could not prove it saw.
  private func probe(
    above known: Int, skipping seen: Set<Int>, matching isOurs: (GitHubIssue) -> Bool
  ) async -> Result<GitHubIssue?, GitHubError> {
    let newest: Int
    switch await newestNumber() {
    case .success(let number): newest = number
    case .failure(let error): return .failure(error)
    }
    let numbers = (known + 1..<max(known + 1, newest + 1)).reversed().filter { !seen.contains($0) }
    guard numbers.count <= Self.mostProbes else {
      return .failure(
        GitHubError(
          .incompleteListing, url: "issues of \(repository)",
          detail: "\(numbers.count) issues were filed since; whether ours is one is not known"))
    }
    for number in numbers {
      do {
        if let candidate = try await client.issueIfPresent(number, of: repository),
          isOurs(candidate)
        {
          return .success(candidate)
        }
      } catch {
        return .failure(error)
      }
    }
    return .success(nil)
  }

  /// Looks for the comment an unanswered send may have made: listed completely, newer than
  /// every comment known at the first send, with the body, by the viewer recorded then (or
  /// resolved now, for an action sent before versions that record it), not claimed by another
  /// action.
  private func findPosted(_ body: String, _ action: QueuedAction, viewer: String?) async
    -> Result<Int64?, GitHubError>
  {
    let number = action.issueNumber
    do {
      let marks = try cache.landedCheckMarks(of: action.id)
      guard let author = marks.viewer ?? viewer else {
        return .failure(
          GitHubError(
            .unauthorized, url: "comments of \(repository)#\(number)",
            detail: "the token's account is not known: whether a comment landed is not known"))
      }
      let outcome = try await ConversationFetcher(
        client: client, cache: cache, repository: repository
      ).fetch(number, force: true)
      if case .listed(let count, false, let announced, _) = outcome {
        return .failure(
          GitHubError(
            .incompleteListing, url: "comments of \(repository)#\(number)",
            detail: "it listed \(count) of \(announced): whether a comment landed is not known"))
      }
      let known = marks.knownCommentID ?? 0
      let claimed = try cache.claimedCommentIDs(onIssue: number)
      let wanted = Self.normalized(body)
      let found = try cache.comments(of: number).first { comment in
        comment.id > known && !claimed.contains(comment.id)
          && Self.normalized(comment.body) == wanted
          && comment.author.lowercased() == author.lowercased()
      }
      return .success(found?.id)
    } catch let error as GitHubError {
      return .failure(error)
    } catch {
      return .failure(cacheFailure())
    }
  }

  /// The newest `closed` or `reopened` event on the issue's timeline (0 when it has none):
  /// what a close or reopen sent now will be newer than.
  private func newestStateEventID(on number: Int) async -> Result<Int64, GitHubError> {
    await stateEvents(on: number).map { events in events.map { $0.eventID ?? 0 }.max() ?? 0 }
  }

  /// Whether the issue's timeline holds the close (or reopen) a send made: an event of that
  /// kind by `viewer`, newer than `known`.
  private func stateEventLanded(
    _ change: IssueChange, after known: Int64, by viewer: String?, on number: Int
  ) async -> Result<Bool, GitHubError> {
    guard let viewer else {
      return .failure(
        GitHubError(
          .unauthorized, url: "timeline of \(repository)#\(number)",
          detail: "the token's account is not known: whether the change landed is not known"))
    }
    return await stateEvents(on: number).map { events in
      events.contains { event in
        guard (event.eventID ?? 0) > known,
          event.actor.login.lowercased() == viewer.lowercased()
        else { return false }
        switch (change, event.kind) {
        case (.close, .closed), (.reopen, .reopened): return true
        default: return false
        }
      }
    }
  }

  /// The issue's `closed` and `reopened` events, read through every page of its timeline (as
  /// many pages as the first announced, checked by the client).
  private func stateEvents(on number: Int) async -> Result<[GitHubTimelineEvent], GitHubError> {
    do {
      var events: [GitHubTimelineEvent] = []
      for try await page in client.timelinePages(of: repository, issue: number) {
        events += page.items.filter {
          switch $0.kind {
          case .closed, .reopened: true
          default: false
          }
        }
      }
      return .success(events)
    } catch {
      return .failure(error)
    }
  }

  /// A body as GitHub may give it back: line endings and the ends' white space aside.
  static func normalized(_ body: String) -> String {
    body.replacingOccurrences(of: "\r\n", with: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Why a change conflicts with what GitHub holds now, when it does: the issue moved on
  /// GitHub away from the version the action was queued against.
  private func conflict(
    _ change: IssueChange, action: QueuedAction, on fields: EditableFields
  ) -> String? {
    guard let base = try? cache.conflictBase(action.id) else { return nil }
    switch change {
    case .close where fields.state == .closed && base.state == .open:
      return "#\(action.issueNumber) was closed on GitHub meanwhile"
    case .reopen where fields.state == .open && base.state == .closed:
      return "#\(action.issueNumber) was reopened on GitHub meanwhile"
    case .setMilestone, .removeMilestone:
      // Moved elsewhere than where it goes: moved to the same place is no conflict.
      guard fields.milestoneNumber != base.milestoneNumber, !fields.satisfies(change)
      else { return nil }
      return "#\(action.issueNumber) was moved "
        + (fields.milestoneNumber.map { "to milestone \($0)" } ?? "out of its milestone")
        + " on GitHub meanwhile"
    default: return nil
    }
  }

  /// What a failed send means: a refusal, or a redirect the client would not follow, did not
  /// land (the action waits in conflict); a refused token or a rate limit did not either (it is
  /// pending again); anything else may have (it stays marked as sent).
  func failed(_ action: QueuedAction, _ error: GitHubError, refusal: String?) -> Outcome {
    let failure = OutboxLedger.classify(error, refusal: refusal)
    try? cache.recordFailure(failure, of: action.id, error: error)
    if case .refused = failure { return .conflict(error) }
    return .stop(error)
  }

  /// GitHub's refusal, said for the person, or `nil` when the failure is not one.
  private func refusal(_ error: GitHubError, _ change: IssueChange?, _ number: Int) -> String? {
    switch error.code {
    case .validation:
      if case .setMilestone(let number)? = change {
        return "milestone \(number) is no longer on GitHub (\(error.summary()))"
      }
      return OutboxLedger.refusal(error)
    case .notFound, .gone: return "#\(number) is no longer on GitHub: \(error.summary())"
    default: return OutboxLedger.refusal(error)
    }
  }

  private func settle(_ action: QueuedAction, issue: GitHubIssue) -> Bool {
    (try? cache.markDone(
      action.id, issue: issue, comment: nil, commentID: nil, onIssue: action.issueNumber,
      now: now())) != nil
  }

  func cacheFailure() -> GitHubError {
    GitHubError(.decoding, url: "cache", detail: "could not write the queue's progress")
  }
}
