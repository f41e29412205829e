import Foundation

/// A close, reopen, milestone, label or assignee change through the outbox.
///
/// A close or reopen landed when the issue's timeline holds a `closed` (or `reopened`) event by
/// the viewer newer than every state event at the first send: the issue's state alone cannot
/// tell, since someone may have reopened it after our close landed, and closing it again would
/// override them. A milestone, label or assignee change landed when the issue holds what it
/// asks; when it does not, it is judged as if not sent. A change someone else made since the
/// action was queued — judged against the state it was queued against, which no sync in
/// between re-bases — is a conflict, never overwritten.
struct IssueChangeOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// The change asked.
  var change: IssueChange

  var needsViewer: Bool { isStateChange }

  private var isStateChange: Bool {
    switch change {
    case .close, .reopen: true
    default: false
    }
  }

  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let issue = read(issue)
    let fields = EditableFields(issue)
    let marks = marks(of: action)
    if wasSent(action) {
      if isStateChange, let known = marks.knownEventID {
        // The timeline says whether our close (or reopen) happened, whatever came after it.
        switch await stateEventLanded(
          after: known, by: marks.viewer ?? pass.viewer, on: action.issueNumber)
        {
        case .failure(let error): return .stop(error)
        case .success(true):
          return settle(action, issue) ? .foundLanded(issue) : .stop(cacheFailure())
        case .success(false): break  // It did not land: judged below as one not sent.
        }
      } else if fields.satisfies(change) {
        return settle(action, issue) ? .foundLanded(issue) : .stop(cacheFailure())
      }
    }
    if !action.isForced, let reason = conflictReason(action, on: fields) {
      try? cache.markConflict(action.id, reason: reason)
      // The person decides on GitHub's version, the queued actions shown on top of it.
      try? cache.confirm(issue)
      return .conflict(nil)
    }
    if fields.satisfies(change) {
      return settle(action, issue) ? .alreadyHeld : .stop(cacheFailure())
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
      return settle(action, answer) ? .sent(answer) : .stop(cacheFailure())
    } catch {
      return failed(action, error, refusal: refusal(error, action.issueNumber))
    }
  }

  private func settle(_ action: QueuedAction, _ issue: GitHubIssue) -> Bool {
    markDone(action, issue: issue, onIssue: action.issueNumber)
  }

  /// Why the change conflicts with what GitHub holds now, when it does: the issue moved on
  /// GitHub away from the version the action was queued against.
  private func conflictReason(_ action: QueuedAction, on fields: EditableFields) -> String? {
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

  /// GitHub's refusal, said for the person, or `nil` when the failure is not one.
  private func refusal(_ error: GitHubError, _ number: Int) -> String? {
    switch error.code {
    case .validation:
      if case .setMilestone(let number) = change {
        return "milestone \(number) is no longer on GitHub (\(error.summary()))"
      }
      return OutboxLedger.refusal(error)
    case .notFound, .gone: return "#\(number) is no longer on GitHub: \(error.summary())"
    default: return OutboxLedger.refusal(error)
    }
  }

  /// The newest `closed` or `reopened` event on the issue's timeline (0 when it has none):
  /// what a close or reopen sent now will be newer than.
  private func newestStateEventID(on number: Int) async -> Result<Int64, GitHubError> {
    await stateEvents(on: number).map { events in events.map { $0.eventID ?? 0 }.max() ?? 0 }
  }

  /// Whether the issue's timeline holds the close (or reopen) a send made: an event of that
  /// kind by `viewer`, newer than `known`.
  private func stateEventLanded(after known: Int64, by viewer: String?, on number: Int) async
    -> Result<Bool, GitHubError>
  {
    guard let viewer else {
      return .failure(
        unknownViewer(
          "timeline of \(repository)#\(number)", "whether the change landed is not known"))
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

  /// The issue's `closed` and `reopened` events, read through every page of its timeline; a
  /// timeline its pages do not prove whole (``ListingProof``: an entry that cannot be read may
  /// be the event) is a failure.
  private func stateEvents(on number: Int) async -> Result<[GitHubTimelineEvent], GitHubError> {
    do {
      let (events, proof) = try await ListingProof.collect(
        client.timelinePages(of: repository, issue: number),
        pageLimit: ReviewOperation.pageLimit * 10)
      if let gap = proof.gap {
        return .failure(
          GitHubError(
            .incompleteListing, url: "the timeline of \(repository)#\(number)",
            detail: "\(gap): whether the change landed is not known"))
      }
      return .success(
        events.filter {
          switch $0.kind {
          case .closed, .reopened: true
          default: false
          }
        })
    } catch {
      return .failure(error)
    }
  }
}
