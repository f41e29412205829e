import Foundation

/// Keeps a host's inbox current the way GitHub asks: the triage queue sent first (in order,
/// each once), then the inbox polled no sooner than GitHub's `X-Poll-Interval` and with
/// `If-Modified-Since`, so that an idle inbox answers `304` and costs no rate limit.
package struct InboxSync: Sendable {
  /// The client the inbox is asked through.
  package var client: GitHubClient
  /// Where the inbox is kept.
  package var store: InboxStore
  /// The clock that decides whether a poll is due.
  package var now: @Sendable () -> Date = { Date() }

  /// A sync for a host's inbox.
  package init(client: GitHubClient, store: InboxStore) {
    self.client = client
    self.store = store
  }

  /// What a run did.
  package struct Outcome: Sendable {
    /// Triage actions that reached GitHub (sent, or found there after a lost answer).
    package var triaged = 0
    /// Whether GitHub was asked for the inbox (a poll was due, or forced).
    package var polled = false
    /// Whether the inbox changed (GitHub answered with threads, not `304`).
    package var changed = false
    /// When the next poll is due.
    package var nextPoll = Date.distantPast
    /// Why it stopped early, if it did.
    package var stopped: GitHubError?
  }

  /// Sends the triage queue, then polls when due (or with `force`).
  package func run(force: Bool = false) async -> Outcome {
    var outcome = Outcome()
    let (triaged, stopped) = await sendTriage()
    outcome.triaged = triaged
    outcome.stopped = stopped
    do {
      let state = try store.pollState()
      let due = state.polledAt.map { $0.addingTimeInterval(Double(state.interval)) } ?? .distantPast
      outcome.nextPoll = due
      // A refusal held up nothing (that triage waits in conflict): the poll goes on.
      let blocked = stopped.map { OutboxLedger.refusal($0) == nil } ?? false
      guard force || due <= now(), !blocked else { return outcome }
      outcome.polled = true
      let listing = try await client.notifications(ifModifiedSince: state.lastModified)
      let at = now()
      try store.apply(listing, polledAt: at)
      outcome.changed = listing.threads != nil
      outcome.nextPoll = at.addingTimeInterval(Double(listing.pollInterval))
    } catch let error as GitHubError {
      outcome.stopped = error
    } catch {
      outcome.stopped = GitHubError(.decoding, url: "inbox", detail: "\(error)")
    }
    return outcome
  }

  /// What a command that triages one thread now is told.
  package enum TriageSettlement: Sendable, Equatable {
    /// On GitHub.
    case landed
    /// GitHub refused it, or the token was refused: nothing of it landed and nothing stays
    /// queued.
    case refused(reason: String)
    /// Not known to have landed: it waits in the queue, shown, for the next run that reaches
    /// GitHub (which checks first whether a lost answer landed).
    case queued(because: GitHubError?)
  }

  /// Queues a triage and sends the queue now, as a command does: the same rule as
  /// ``ActionReplayer/sendNow(_:)`` — a refusal (or a refused token) says so and leaves nothing
  /// queued; anything else that did not settle waits in the queue, never sent twice here.
  package func triageNow(_ kind: GitHubClient.Triage, thread id: String) async throws
    -> TriageSettlement
  {
    let row = try store.triage(kind, thread: id, now: now())
    let (_, stopped) = await sendTriage()
    guard let state = try store.state(ofTriage: row) else { return .queued(because: stopped) }
    switch state.status {
    case "done": return .landed
    case "conflict":
      try store.cancelTriage(row, now: now())
      return .refused(reason: state.conflict ?? "GitHub refused it")
    case "pending":
      if let stopped, ActionReplayer.provesNothingLanded(stopped) {
        try store.cancelTriage(row, now: now())
        return .refused(reason: stopped.summary())
      }
      return .queued(because: stopped)
    default: return .queued(because: stopped)
    }
  }

  /// Sends the queued triage in order, each once, by the outbox's rules (``OutboxLedger``).
  ///
  /// One whose answer was lost is checked on GitHub first (a thread read, or gone, is not asked
  /// again); one cancelled since the queue was read is not sent. A refusal puts that triage in
  /// conflict and the others go on; any other failure stops the queue (a refused token puts the
  /// triage back to pending; a lost answer leaves it marked as sent).
  ///
  /// - Returns: How many reached GitHub, and why it stopped early (or the first refusal).
  package func sendTriage() async -> (Int, GitHubError?) {
    let lock: SyncLock?
    if let path = store.path {
      guard let taken = try? await SyncLock.acquire(forCacheAt: path + ".triage", policy: .failFast)
      else { return (0, nil) }
      lock = taken
    } else {
      lock = nil
    }
    defer { withExtendedLifetime(lock) {} }
    var sent = 0
    var refused: GitHubError?
    for item in (try? store.pendingTriage()) ?? [] {
      do {
        // What is left to send: all of it, unless an earlier send lost its answer and GitHub
        // shows part or all of it done (an unsubscribe is two steps: ignore, then done).
        var remaining = item.kind
        if item.unanswered {
          let unread = try await client.threadIsUnread(item.thread)
          let landed: Bool
          switch item.kind {
          case .read: landed = unread != true
          case .done: landed = unread == nil
          case .unsubscribe:
            let ignored = try await client.threadIsIgnored(item.thread)
            landed = ignored && unread == nil
            if ignored { remaining = .done }
          }
          if landed {
            try? store.markDone(item.id, thread: item.thread, kind: item.kind, now: now())
            sent += 1
            continue
          }
        }
        guard try store.markSending(item.id, now: now()) else { continue }
        try await client.triage(remaining, thread: item.thread)
        try store.markDone(item.id, thread: item.thread, kind: item.kind, now: now())
        sent += 1
      } catch let error as GitHubError {
        if [.notFound, .gone].contains(error.code) {
          // The thread is gone from GitHub: nothing left to triage.
          try? store.markDone(item.id, thread: item.thread, kind: item.kind, now: now())
          continue
        }
        let failure = OutboxLedger.classify(error, refusal: OutboxLedger.refusal(error))
        try? store.recordFailure(failure, of: item.id, error: error)
        if case .refused = failure {
          refused = refused ?? error
          continue
        }
        return (sent, error)
      } catch {
        return (sent, GitHubError(.decoding, url: "inbox", detail: "\(error)"))
      }
    }
    return (sent, refused)
  }
}
