import Foundation

extension ActionReplayer {
  /// How actions taken now came out: what a command or a key says.
  package enum Settlement: Sendable {
    /// Every action is on GitHub (sent, or GitHub already held it).
    case landed
    /// GitHub refused one, or it conflicts with what GitHub holds: it and the rest of these were
    /// cancelled, the issue shown without them, their words given back to the drafts.
    case refused(Refusal)
    /// GitHub could not be reached: they wait in the queue, shown, and are sent later.
    case queued([QueuedAction], because: GitHubError?)
  }

  /// Actions taken now that GitHub refused, or that conflict with what it holds: taken back.
  package struct Refusal: Sendable {
    /// The action refused (or in conflict).
    package var action: QueuedAction
    /// Why, for the person (GitHub's words when it refused).
    package var reason: String
    /// GitHub's refusal, when it refused.
    package var error: GitHubError?
    /// The actions that went before it and landed: they stay.
    package var landed: [QueuedAction]
    /// The words of the actions taken back, given back to the drafts (``Draft``): a refusal
    /// never loses what the person wrote.
    package var kept: [Draft.Words]

    /// Where the words taken back are kept, as a sentence to end a refusal's message with.
    ///
    /// Empty when none were; else " The comment is kept as a draft (…)." and the like.
    package var keptSentence: String {
      let places = kept.map { $0.whereKept(issue: action.issueNumber) }
      guard !places.isEmpty else { return "" }
      let joined = places.joined(separator: "; ")
      return " " + joined.prefix(1).uppercased() + joined.dropFirst() + "."
    }
  }

  /// Sends the issue's queue now for actions just queued on it (the person waits for them),
  /// and says how they came out.
  ///
  /// Only "GitHub could not be reached or did not answer" leaves them queued. A refusal, a
  /// conflict, a refused token or a redirect outside the API root is taken back at once — the
  /// person asked for this now, and sees why; nothing stays queued to be sent again — unlike an
  /// action that waited in the queue, which waits for the person's choice.
  ///
  /// A write is sent at most once by this call. When its answer was lost (a dropped
  /// connection, a 5xx after GitHub may have applied it), GitHub is read once more to see
  /// whether it landed — never by sending it again: if it did not land, it waits in the queue,
  /// marked as sent, and the next `queue send` (or sync) reads GitHub again before sending it.
  package func sendNow(_ queued: [QueuedAction]) async -> Settlement {
    guard let number = queued.first?.issueNumber else { return .landed }
    let ids = Set(queued.map(\.id))
    func mine() -> [QueuedAction] {
      ((try? cache.queuedActions(all: true)) ?? []).filter { ids.contains($0.id) }
    }
    var summary = await replay(onIssues: [number])
    // Another replay is sending the queue (the browser's, a sync's): it ends soon.
    var waits = 0
    while summary.stopped?.code == .syncInProgress, waits < 50 {
      try? await Task.sleep(for: .milliseconds(100))
      waits += 1
      summary = await replay(onIssues: [number])
    }
    if let stopped = summary.stopped,
      Self.provesNothingLanded(stopped)
        || (Self.saysNothingIsThere(stopped)
          && !mine().contains { if case .sending = $0.status { true } else { false } })
    {
      // A refused token, or a redirect the client would not follow: nothing of these landed,
      // and sending them later would fail the same way. So it is when GitHub says the
      // repository or the issue is not there (404, 410) before any of them was sent: the
      // person learns now, as gh says it, rather than from a queue that never empties.
      var landed: [QueuedAction] = []
      var first: QueuedAction?
      var kept: [Draft.Words] = []
      for action in mine() {
        switch action.status {
        case .done: landed.append(action)
        case .pending, .conflict, .sending:
          first = first ?? action
          if let words = try? cache.cancelQueuedAction(action.id) { kept.append(words) }
        case .cancelled: break
        }
      }
      if let first {
        return .refused(
          Refusal(
            action: first, reason: stopped.summary(), error: stopped, landed: landed, kept: kept))
      }
    }
    let unanswered = mine().contains {
      if case .sending = $0.status { return true }
      return false
    }
    if unanswered {
      // A write without an answer may have landed: GitHub is read once more, which settles it
      // if it did, and sends nothing.
      let settled = await replay(onIssues: [number], sending: .settleOnly)
      summary.refusals.merge(settled.refusals) { first, _ in first }
      if summary.stopped == nil { summary.stopped = settled.stopped }
    }
    let mine = mine()
    if let conflicted = mine.first(where: {
      if case .conflict = $0.status { return true }
      return false
    }), case .conflict(let reason) = conflicted.status {
      var kept: [Draft.Words] = []
      for action in mine where action.status.isActive {
        if let words = try? cache.cancelQueuedAction(action.id) { kept.append(words) }
      }
      let landed = mine.filter {
        if case .done = $0.status { return true }
        return false
      }
      return .refused(
        Refusal(
          action: conflicted, reason: reason, error: summary.refusals[conflicted.id],
          landed: landed, kept: kept))
    }
    let waiting = mine.filter(\.status.isActive)
    return waiting.isEmpty ? .landed : .queued(waiting, because: summary.stopped)
  }

  /// Whether a replay's stop is GitHub saying what it was to change is not there for this
  /// token (a repository deleted, renamed away, or private to others): 404 or 410.
  static func saysNothingIsThere(_ error: GitHubError) -> Bool {
    [.notFound, .gone].contains(error.code)
  }

  /// Whether a replay's stop proves that what it tried to send did not land, and would fail
  /// again later: a refused token, or a redirect outside the API root (or one that would turn a
  /// write into a read).
  static func provesNothingLanded(_ error: GitHubError) -> Bool {
    switch error.code {
    case .unauthorized, .invalidToken, .untrustedURL: true
    case .unexpectedStatus: (300..<400).contains(error.status ?? 0)
    default: false
    }
  }
}
