import Foundation
import Synchronization

/// Sends the cache's action queue to GitHub — the outbox every write goes through: in order per
/// issue, each action exactly once.
///
/// GitHub takes no idempotency key, so a write whose answer was lost may or may not have landed,
/// and only a read can tell. Each action is therefore marked as sent — durably, in the same
/// statement that checks it is still waiting — before its request goes; a crash, a dropped
/// connection or a 5xx leaves it marked, and the next replay reads GitHub first and settles it
/// without sending it again when it landed. What "it landed" means is each operation's own
/// (``OutboxOperation``, one type per write in `Queue/Operations/`), and never takes someone
/// else's data for ours: a comment, a review or a new issue is known by the token's account and
/// an id or number newer than GitHub's newest at the first send; a close by the timeline's
/// event; a field change by the issue holding what it asks.
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
    // GitHub asked the host's writes to wait (a secondary limit's `retry-after`, a quota's
    // reset): every process waits, not only the one told — a replay a second later sends nothing.
    if let paused = loop.paused(sending) {
      summary.stopped = paused
      summary.waiting = (try? cache.queuedActions().count) ?? 0
      return summary
    }
    await send(&summary, onIssues: issues, sending: sending)
    summary.waiting = (try? cache.queuedActions().count) ?? 0
    return summary
  }

  /// The one outbox loop, as this replay runs it.
  private var loop: OutboxLoop {
    OutboxLoop(
      now: now, unansweredGrace: unansweredGrace, pause: cache.writePause,
      place: "the queue of \(repository)")
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
    if pass.viewer == nil, actions.contains(where: { $0.operation.outbox(self).needsViewer }) {
      switch await resolveViewer() {
      case .success(let login): pass.viewer = login
      case .failure(let error):
        summary.stopped = error
        loop.keepPause(askedBy: error)
        return
      }
    }
    await loop.send(
      order.map { IssueActions(outbox: self, rows: byIssue[$0] ?? []) }, pass, into: &summary)
  }

  /// What a replay groups an issue's actions by: the row they were queued on, or for an action
  /// queued before rows had keys on an issue no longer cached, its number.
  private enum IssueIdentity: Hashable {
    case key(IssueKey)
    case number(Int)
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

  /// One issue's actions, in order, as the loop sends them.
  ///
  /// Each goes through its ``OutboxOperation``; the issue is read from GitHub once, before the
  /// first that reads it. One in conflict holds the issue's later actions behind it, and so
  /// does one held, refused or cancelled on a row not filed yet. A create's answer gives the
  /// later actions, queued on its provisional row, their number.
  private struct IssueActions: OutboxGroup {
    let outbox: ActionReplayer
    let rows: [QueuedAction]
    /// The issue as GitHub has it, once read (or answered).
    var current: GitHubIssue?
    /// The number GitHub gave a new issue filed in this pass.
    var filed: Int?

    init(outbox: ActionReplayer, rows: [QueuedAction]) {
      self.outbox = outbox
      self.rows = rows
    }

    mutating func send(_ row: QueuedAction, _ pass: Pass) async -> Outcome {
      var action = row
      if let filed { action.issueNumber = filed }
      let operation = action.operation.outbox(outbox)
      if operation.readsIssue {
        // On a row not filed yet: it waits behind the create.
        if action.issueNumber <= 0 { return .held }
        if current == nil {
          do {
            current = try await outbox.client.issue(action.issueNumber, of: outbox.repository)
          } catch {
            if [.notFound, .gone].contains(error.code) {
              try? outbox.cache.markConflict(
                action.id, reason: "#\(action.issueNumber) is no longer on GitHub")
              return .conflict(nil)
            }
            return .stop(error)
          }
        }
      }
      let outcome = await operation.send(action, on: current, pass)
      switch outcome {
      case .sent(let answer), .foundLanded(let answer): current = answer ?? current
      default: break
      }
      return outcome
    }

    mutating func mayGoOn(after row: QueuedAction, _ outcome: Outcome) -> Bool {
      guard row.issueNumber <= 0, filed == nil else { return true }
      // A create: the actions after it go to its number, or wait while it has none.
      guard let number = current?.number, number > 0 else { return false }
      filed = number
      return true
    }
  }

  /// How one action's send came out, as its ``OutboxOperation`` reports it.
  enum Outcome {
    /// Sent and answered (with the issue as GitHub answered, when it did).
    case sent(GitHubIssue?)
    /// Sent before without an answer, and found on GitHub: not sent again.
    case foundLanded(GitHubIssue?)
    /// GitHub held it already when its turn came: nothing sent.
    case alreadyHeld
    /// Cancelled since the replay read the queue, before its request left.
    case cancelledMeanwhile
    /// In conflict: with GitHub's refusal, or `nil` when the issue moved on GitHub.
    case conflict(GitHubError?)
    /// Would be sent, but this pass only settles.
    case held
    /// The replay stops here: GitHub could not be reached, limited, or the cache failed.
    case stop(GitHubError)
  }

  /// A body as GitHub may give it back: line endings and the ends' white space aside.
  static func normalized(_ body: String) -> String {
    body.replacingOccurrences(of: "\r\n", with: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func cacheFailure() -> GitHubError {
    GitHubError(.decoding, url: "cache", detail: "could not write the queue's progress")
  }
}
