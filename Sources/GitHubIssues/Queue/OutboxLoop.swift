import Foundation

/// A row of an outbox queue as the one loop reads it: its place in the queue and where it
/// stands on the ledger (``OutboxLedger``).
protocol OutboxRow: Sendable {
  /// The queue's order.
  var id: Int64 { get }
  /// Where it stands.
  var status: QueuedAction.Status { get }
}

extension QueuedAction: OutboxRow {}

/// The rows of one queue that go in order — one issue's actions, one thread's triage: a row
/// that does not settle holds the rows after it, and nothing else.
protocol OutboxGroup {
  associatedtype Row: OutboxRow
  /// The rows, in the queue's order.
  var rows: [Row] { get }
  /// Sends `row`, or settles it when it was sent before without an answer: everything the
  /// queue does for one row, through its operation (``OutboxOperation``, ``TriageOperation``).
  mutating func send(_ row: Row, _ pass: ActionReplayer.Pass) async -> ActionReplayer.Outcome
  /// Whether the rows after `row` may go once it came out as `outcome`, which did not stop
  /// the group (a create GitHub gave no number holds its issue's later actions).
  mutating func mayGoOn(after row: Row, _ outcome: ActionReplayer.Outcome) -> Bool
}

extension OutboxGroup {
  mutating func mayGoOn(after row: Row, _ outcome: ActionReplayer.Outcome) -> Bool { true }
}

/// The one loop every outbox queue is sent through — the repositories' action queues
/// (``ActionReplayer``) and the inbox's triage (``InboxSync``): the rules that are no one
/// operation's own, in one place.
///
/// Nothing is sent while GitHub's pause for the host holds (``WritePause``), and a rate limit
/// met keeps one for every process. A row in conflict holds its group. A row sent without an
/// answer less than ``unansweredGrace`` ago is only looked for: GitHub may still be applying
/// it. Each outcome is counted once, in ``ActionReplayer/Summary``; a stop ends the run, a
/// conflict or a held row ends its group.
struct OutboxLoop {
  /// The clock that dates the queue's steps and ends the pause.
  var now: @Sendable () -> Date
  /// How long a row sent without an answer is only looked for (``ActionReplayer/unansweredGrace``).
  var unansweredGrace: TimeInterval
  /// The host's pause.
  var pause: WritePause
  /// The queue, as a message names it: "the queue of acme/tracker".
  var place: String

  /// Why nothing may be sent now — GitHub's pause for the host holds — or `nil`.
  func paused(_ sending: ActionReplayer.Sending) -> GitHubError? {
    guard case .sendAndSettle = sending, let pause = pause.holding(at: now()) else { return nil }
    return GitHubError(
      .rateLimited, method: "POST", url: place, resetAt: pause.until,
      detail: "GitHub asked for a pause"
        + (pause.detail.map { " (\($0))" } ?? "") + "; nothing is sent before it ends",
      rateLimit: .secondary)
  }

  /// Sends the groups in order, counting into `summary`, and keeps the pause a rate limit
  /// asked for.
  func send<Group: OutboxGroup>(
    _ groups: [Group], _ pass: ActionReplayer.Pass, into summary: inout ActionReplayer.Summary
  ) async {
    for var group in groups {
      guard await send(&group, pass, into: &summary) else { break }
    }
    keepPause(askedBy: summary.stopped)
  }

  /// Keeps, for every process, the pause a rate limit asked for when `error` is one.
  func keepPause(askedBy error: GitHubError?) {
    guard let error, error.code == .rateLimited, let reset = error.resetAt else { return }
    try? pause.keep(until: reset, detail: error.detail, now: now())
  }

  /// Sends one group's rows in order; `false` when the run must stop.
  private func send<Group: OutboxGroup>(
    _ group: inout Group, _ pass: ActionReplayer.Pass, into summary: inout ActionReplayer.Summary
  ) async -> Bool {
    for row in group.rows {
      var pass = pass
      switch row.status {
      case .conflict: return true
      case .sending(let since) where now().timeIntervalSince(since) < unansweredGrace:
        // Sent without an answer a moment ago: it may still land. Looked for, never sent
        // again before the grace is over.
        pass.sending = .settleOnly
      default: break
      }
      let outcome = await group.send(row, pass)
      switch outcome {
      case .sent: summary.sent += 1
      case .foundLanded: summary.foundLanded += 1
      case .alreadyHeld: summary.alreadyHeld += 1
      case .cancelledMeanwhile: summary.cancelledMeanwhile += 1
      case .conflict(let refusal):
        summary.conflicts += 1
        if let refusal { summary.refusals[row.id] = refusal }
        return true
      case .held:
        // Not sent in this pass; the group's later rows wait behind it.
        return true
      case .stop(let error):
        summary.stopped = error
        return false
      }
      guard group.mayGoOn(after: row, outcome) else { return true }
    }
    return true
  }
}
