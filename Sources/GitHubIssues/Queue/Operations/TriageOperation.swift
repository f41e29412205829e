import Foundation

/// The inbox's triage of a thread — mark read, mark done, unsubscribe — as the outbox sends it
/// (``OutboxLoop``), with the same promises as every ``OutboxOperation``.
///
/// A triage sent without an answer is looked for first: a thread read (or gone from the
/// listing, for done) is not asked again; an unsubscribe is two steps (ignore, then done), and
/// what GitHub shows done of it is not sent again. A thread GitHub no longer has needs no
/// triage. A refusal waits in conflict for the person; a refused token is pending again.
struct TriageOperation: Sendable {
  /// The client the triage goes through.
  var client: GitHubClient
  /// The inbox the queue is kept in.
  var store: InboxStore
  /// The clock that dates the queue's steps.
  var now: @Sendable () -> Date

  /// Sends `item`, or settles it when it was sent before without an answer.
  func send(_ item: InboxStore.TriageItem, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    do {
      // What is left to send: all of it, unless an earlier send lost its answer and GitHub
      // shows part or all of it done.
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
        if landed { return markDone(item, .foundLanded(nil)) }
      }
      if case .settleOnly = pass.sending { return .held }
      do {
        guard try store.markSending(item.id, now: now()) else { return .cancelledMeanwhile }
      } catch {
        return .stop(cacheFailure())
      }
      try await client.triage(remaining, thread: item.thread)
      return markDone(item, .sent(nil))
    } catch {
      if [.notFound, .gone].contains(error.code) {
        // The thread is gone from GitHub: nothing is left to triage.
        return markDone(item, .alreadyHeld)
      }
      let failure = OutboxLedger.classify(error, refusal: OutboxLedger.refusal(error))
      try? store.recordFailure(failure, of: item.id, error: error)
      if case .refused = failure { return .conflict(error) }
      return .stop(error)
    }
  }

  /// Records `item` as on GitHub and comes out as `outcome`; a stop when the inbox could not
  /// be written.
  private func markDone(_ item: InboxStore.TriageItem, _ outcome: ActionReplayer.Outcome)
    -> ActionReplayer.Outcome
  {
    do {
      try store.markDone(item.id, thread: item.thread, kind: item.kind, now: now())
      return outcome
    } catch {
      return .stop(cacheFailure())
    }
  }

  private func cacheFailure() -> GitHubError {
    GitHubError(.decoding, url: "inbox", detail: "could not write the triage queue's progress")
  }
}
