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
  /// How long a triage sent without an answer is only looked for
  /// (``ActionReplayer/unansweredGrace``).
  package var unansweredGrace: TimeInterval = ActionReplayer.defaultUnansweredGrace

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
    let summary = await sendTriage()
    outcome.triaged = summary.sent + summary.foundLanded + summary.alreadyHeld
    outcome.stopped = summary.stopped ?? summary.refusals.sorted { $0.key < $1.key }.first?.value
    do {
      let state = try store.pollState()
      let due = state.polledAt.map { $0.addingTimeInterval(Double(state.interval)) } ?? .distantPast
      outcome.nextPoll = due
      // A refusal held up nothing (that triage waits in conflict): the poll goes on. So does a
      // pause GitHub asked of writes, which a read does not wait for.
      let blocked = summary.stopped.map { !Self.lets(poll: $0) } ?? false
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

  /// Whether the poll goes on after the triage stopped on `error`: only a pause GitHub asked
  /// of writes (a secondary limit, or the one kept) leaves reads alone.
  private static func lets(poll error: GitHubError) -> Bool {
    error.code == .rateLimited && error.rateLimit == .secondary
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
    let summary = await sendTriage()
    let stopped = summary.stopped ?? summary.refusals[row]
    guard let status = try store.state(ofTriage: row) else { return .queued(because: stopped) }
    switch status {
    case .done: return .landed
    case .conflict(let reason):
      try store.cancelTriage(row, now: now())
      return .refused(reason: reason)
    case .pending:
      if let stopped, ActionReplayer.provesNothingLanded(stopped) {
        try store.cancelTriage(row, now: now())
        return .refused(reason: stopped.summary())
      }
      return .queued(because: stopped)
    case .sending, .cancelled:
      return .queued(because: stopped)
    }
  }

  /// Sends the queued triage through the one outbox loop (``OutboxLoop``), each thread's in
  /// order, each once (``TriageOperation``).
  ///
  /// Nothing is sent while GitHub's pause for the host holds — one a repository's queue met
  /// holds the triage too. A triage sent without an answer is looked for on GitHub before it
  /// is sent again, and only looked for within the grace GitHub may take to apply it. A refusal
  /// puts that triage in conflict and the other threads' go on; any other failure stops the
  /// queue (a refused token puts the triage back to pending; a lost answer leaves it marked as
  /// sent).
  ///
  /// - Returns: What the loop counted, and why it stopped early.
  package func sendTriage() async -> ActionReplayer.Summary {
    var summary = ActionReplayer.Summary()
    let lock: SyncLock?
    if let path = store.path {
      guard let taken = try? await SyncLock.acquire(forCacheAt: path + ".triage", policy: .failFast)
      else { return summary }
      lock = taken
    } else {
      lock = nil
    }
    defer { withExtendedLifetime(lock) {} }
    let loop = OutboxLoop(
      now: now, unansweredGrace: unansweredGrace, pause: store.writePause,
      place: "the inbox's triage")
    let items: [InboxStore.TriageItem]
    do {
      items = try store.pendingTriage()
    } catch {
      summary.stopped = GitHubError(.decoding, url: "inbox", detail: "\(error)")
      return summary
    }
    guard !items.isEmpty else { return summary }
    if let paused = loop.paused(.sendAndSettle) {
      summary.stopped = paused
      summary.waiting = items.count
      return summary
    }
    var order: [String] = []
    var byThread: [String: [InboxStore.TriageItem]] = [:]
    for item in items {
      if byThread[item.thread] == nil { order.append(item.thread) }
      byThread[item.thread, default: []].append(item)
    }
    let operation = TriageOperation(client: client, store: store, now: now)
    await loop.send(
      order.map { ThreadTriage(operation: operation, rows: byThread[$0] ?? []) },
      ActionReplayer.Pass(sending: .sendAndSettle), into: &summary)
    summary.waiting = (try? store.pendingTriage().count) ?? 0
    return summary
  }

  /// One thread's triage, in order, as the loop sends it.
  private struct ThreadTriage: OutboxGroup {
    let operation: TriageOperation
    let rows: [InboxStore.TriageItem]

    func send(_ row: InboxStore.TriageItem, _ pass: ActionReplayer.Pass) async
      -> ActionReplayer.Outcome
    {
      await operation.send(row, pass)
    }
  }
}
