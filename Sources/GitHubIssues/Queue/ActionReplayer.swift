import Foundation
import Synchronization

/// Sends the cache's action queue to GitHub: in order per issue, each action exactly once.
///
/// Before an action is first sent, the issue is read from GitHub: when it changed there in a
/// way that conflicts with the action (closed or reopened by someone else, moved to another
/// milestone), the action is not forced — it waits in conflict, with the issue's later actions,
/// for the person to send it anyway or cancel it. An action GitHub already holds (a label that
/// is there) is settled without a request. The action is marked as sent before its request
/// goes, so that a crash, a dropped connection or a 5xx leaves it marked: the next replay reads
/// GitHub first and settles it without sending it again when it landed — the issue's state,
/// milestone, labels or assignees already as it asks, or, for a comment, a comment with its
/// body by the same author and newer than every comment known at its first send (GitHub's
/// comment ids only grow, so no clock is trusted). A refusal (4xx) did not land: the action
/// waits in conflict with GitHub's reason.
///
/// One replay runs at a time per cache, across processes (a lock beside the cache file). A
/// replay stops at the first failure that is not a refusal (offline, a 5xx, a rate limit): what
/// is left is sent by the next one.
public struct ActionReplayer: Sendable {
  /// The client the actions go through.
  public var client: GitHubClient
  /// The cache holding the queue.
  public var cache: IssueCache
  /// The repository of the issues.
  public var repository: RepositoryName
  /// The login comments are written by (the token's), to recognise one that landed; `nil`
  /// matches any author.
  public var viewer: String?
  /// The clock that dates the queue's steps.
  public var now: @Sendable () -> Date = { Date() }

  /// A replayer for a repository's queue.
  public init(
    client: GitHubClient, cache: IssueCache, repository: RepositoryName, viewer: String?
  ) {
    self.client = client
    self.cache = cache
    self.repository = repository
    self.viewer = viewer
  }

  /// The caches in memory whose queue is being sent.
  private static let replaysInMemory = Mutex<Set<ObjectIdentifier>>([])

  /// What a replay did.
  public struct Summary: Sendable {
    /// Actions sent and answered.
    public var sent = 0
    /// Actions sent before without an answer, found on GitHub and not sent again.
    public var foundLanded = 0
    /// Actions GitHub already held when their turn came (nothing sent).
    public var alreadyHeld = 0
    /// Actions put in conflict by this replay.
    public var conflicts = 0
    /// Actions still waiting afterwards (pending, unanswered, or in conflict).
    public var waiting = 0
    /// Why the replay stopped before the end of the queue, if it did.
    public var stopped: GitHubError?
    /// GitHub's refusals, by the action refused (each now in conflict).
    public var refusals: [Int64: GitHubError] = [:]
  }

  /// Sends what the queue holds, as the type's documentation says: every issue's actions, or
  /// those of `issues` only.
  public func replay(onIssues issues: Set<Int>? = nil) async -> Summary {
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
    await send(&summary, onIssues: issues)
    summary.waiting = (try? cache.queuedActions().count) ?? 0
    return summary
  }

  private func send(_ summary: inout Summary, onIssues issues: Set<Int>?) async {
    guard let actions = try? cache.queuedActions() else { return }
    var order: [Int] = []
    var byIssue: [Int: [QueuedAction]] = [:]
    for action in actions where issues?.contains(action.issueNumber) ?? true {
      if byIssue[action.issueNumber] == nil { order.append(action.issueNumber) }
      byIssue[action.issueNumber, default: []].append(action)
    }
    for number in order {
      guard await send(byIssue[number] ?? [], onIssue: number, &summary) else { return }
    }
  }

  /// Sends one issue's actions in order; `false` when the replay must stop.
  private func send(
    _ actions: [QueuedAction], onIssue number: Int, _ summary: inout Summary
  ) async -> Bool {
    var current: GitHubIssue?
    for action in actions {
      // One in conflict waits for the person, and the issue's later actions with it.
      if case .conflict = action.status { return true }
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
      let outcome: Outcome
      switch action.operation {
      case .change(let change): outcome = await send(change, action, issue)
      case .comment(let body): outcome = await send(body, action)
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
      case .conflict(let refusal):
        summary.conflicts += 1
        if let refusal { summary.refusals[action.id] = refusal }
        return true
      case .stop(let error):
        summary.stopped = error
        return false
      }
    }
    return true
  }

  private enum Outcome {
    case sent(GitHubIssue?)
    case foundLanded(GitHubIssue?)
    case alreadyHeld
    /// In conflict: with GitHub's refusal, or `nil` when the issue moved on GitHub.
    case conflict(GitHubError?)
    case stop(GitHubError)
  }

  private func send(
    _ change: IssueChange, _ action: QueuedAction, _ issue: GitHubIssue
  ) async -> Outcome {
    let fields = EditableFields(issue)
    switch action.status {
    case .sending where fields.satisfies(change):
      return settle(action, issue: issue) ? .foundLanded(issue) : .stop(cacheFailure())
    case .pending:
      if !action.isForced, let reason = conflict(change, action: action, on: fields) {
        try? cache.markConflict(action.id, reason: reason)
        // The person decides on GitHub's version, the queued actions shown on top of it.
        try? cache.confirm(issue)
        return .conflict(nil)
      }
      if fields.satisfies(change) {
        return settle(action, issue: issue) ? .alreadyHeld : .stop(cacheFailure())
      }
    default: break
    }
    do {
      try cache.markSending(action.id, knownCommentID: nil, now: now())
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

  private func send(_ body: String, _ action: QueuedAction) async -> Outcome {
    let number = action.issueNumber
    if case .sending = action.status {
      switch await findPosted(body, action) {
      case .success(let found?):
        do {
          try cache.markDone(
            action.id, issue: nil, comment: nil, commentID: found, onIssue: number, now: now())
        } catch {
          return .stop(cacheFailure())
        }
        return .foundLanded(nil)
      case .success(nil): break
      case .failure(let error): return .stop(error)
      }
    }
    let known: Int64?
    do {
      // Every comment known now is older than the one this send makes: read the issue's
      // first when they are not current, so that an older comment with the same body by the
      // same author is known too.
      if try !cache.commentsAreCurrent(of: number) {
        _ = try await ConversationFetcher(client: client, cache: cache, repository: repository)
          .fetch(number)
      }
      known = try cache.newestCommentID()
    } catch let error as GitHubError {
      return .stop(error)
    } catch {
      return .stop(cacheFailure())
    }
    do {
      try cache.markSending(action.id, knownCommentID: known ?? 0, now: now())
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

  /// Looks for the comment an unanswered send may have made: listed completely, newer than
  /// every comment known at the first send, with the body, by the viewer, not claimed by
  /// another action.
  private func findPosted(_ body: String, _ action: QueuedAction) async -> Result<
    Int64?, GitHubError
  > {
    let number = action.issueNumber
    do {
      let outcome = try await ConversationFetcher(
        client: client, cache: cache, repository: repository
      ).fetch(number, force: true)
      if case .listed(let count, false, let announced, _) = outcome {
        return .failure(
          GitHubError(
            .incompleteListing, url: "comments of \(repository)#\(number)",
            detail: "it listed \(count) of \(announced): whether a comment landed is not known"))
      }
      let known = try cache.knownCommentID(of: action.id) ?? 0
      let claimed = try cache.claimedCommentIDs(onIssue: number)
      let wanted = Self.normalized(body)
      let found = try cache.comments(of: number).first { comment in
        comment.id > known && !claimed.contains(comment.id)
          && Self.normalized(comment.body) == wanted
          && (viewer.map { $0.lowercased() == comment.author.lowercased() } ?? true)
      }
      return .success(found?.id)
    } catch let error as GitHubError {
      return .failure(error)
    } catch {
      return .failure(cacheFailure())
    }
  }

  /// A body as GitHub may give it back: line endings and the ends' white space aside.
  static func normalized(_ body: String) -> String {
    body.replacingOccurrences(of: "\r\n", with: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Why a change conflicts with what GitHub holds now, when it does: the issue moved on
  /// GitHub away from what it was shown as when the action was queued.
  private func conflict(
    _ change: IssueChange, action: QueuedAction, on fields: EditableFields
  ) -> String? {
    guard let before = try? cache.shownBefore(action.id) else { return nil }
    switch change {
    case .close where fields.state == .closed && before.state == .open:
      return "#\(action.issueNumber) was closed on GitHub meanwhile"
    case .reopen where fields.state == .open && before.state == .closed:
      return "#\(action.issueNumber) was reopened on GitHub meanwhile"
    case .setMilestone, .removeMilestone:
      // Moved elsewhere than where it goes: moved to the same place is no conflict.
      guard fields.milestoneNumber != before.milestoneNumber, !fields.satisfies(change)
      else { return nil }
      return "#\(action.issueNumber) was moved "
        + (fields.milestoneNumber.map { "to milestone \($0)" } ?? "out of its milestone")
        + " on GitHub meanwhile"
    default: return nil
    }
  }

  /// What a failed send means: a refusal did not land (the action waits in conflict, or, for
  /// a token or rate problem, pending); anything else may have (it stays marked as sent).
  private func failed(_ action: QueuedAction, _ error: GitHubError, refusal: String?) -> Outcome {
    if [.unauthorized, .invalidToken, .rateLimited].contains(error.code) {
      try? cache.markPendingAgain(action.id, reason: error.summary())
      return .stop(error)
    }
    if let refusal {
      try? cache.markConflict(action.id, reason: refusal)
      return .conflict(error)
    }
    try? cache.noteFailure(action.id, error.summary())
    return .stop(error)
  }

  /// GitHub's refusal, said for the person, or `nil` when the failure is not one.
  private func refusal(_ error: GitHubError, _ change: IssueChange?, _ number: Int) -> String? {
    switch error.code {
    case .validation:
      if case .setMilestone(let number)? = change {
        return "milestone \(number) is no longer on GitHub (\(error.summary()))"
      }
      return "GitHub refused it: \(error.summary())"
    case .notFound, .gone: return "#\(number) is no longer on GitHub: \(error.summary())"
    case .forbidden: return "GitHub refused it: \(error.summary())"
    default: return nil
    }
  }

  private func settle(_ action: QueuedAction, issue: GitHubIssue) -> Bool {
    (try? cache.markDone(
      action.id, issue: issue, comment: nil, commentID: nil, onIssue: action.issueNumber,
      now: now())) != nil
  }

  private func cacheFailure() -> GitHubError {
    GitHubError(.decoding, url: "cache", detail: "could not write the queue's progress")
  }
}
