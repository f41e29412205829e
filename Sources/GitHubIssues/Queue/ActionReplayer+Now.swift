import Foundation

extension ActionReplayer {
  /// How actions taken now came out: what a command or a key says.
  public enum Settlement: Sendable {
    /// Every action is on GitHub (sent, or GitHub already held it).
    case landed
    /// GitHub refused one, or it conflicts with what GitHub holds: it and the rest of these were
    /// cancelled, the issue shown without them; `landed` are those that went before it.
    case refused(QueuedAction, reason: String, error: GitHubError?, landed: [QueuedAction])
    /// GitHub could not be reached: they wait in the queue, shown, and are sent later.
    case queued([QueuedAction], because: GitHubError?)
  }

  /// Sends the issue's queue now for actions just queued on it (the person waits for them),
  /// and says how they came out.
  ///
  /// A refusal or a conflict is taken back at once — the person asked for this now, and sees
  /// why — unlike an action that waited in the queue, which waits for the person's choice. A
  /// lost answer is settled by reading GitHub once more before anything is sent again.
  public func sendNow(_ queued: [QueuedAction]) async -> Settlement {
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
    let unanswered = mine().contains {
      if case .sending = $0.status { return true }
      return false
    }
    if let stopped = summary.stopped, stopped.code != .syncInProgress,
      unanswered || stopped.code != .offline
    {
      // A write without an answer may have landed: GitHub is read once more, which settles it.
      summary = await replay(onIssues: [number])
    }
    let mine = mine()
    if let conflicted = mine.first(where: {
      if case .conflict = $0.status { return true }
      return false
    }), case .conflict(let reason) = conflicted.status {
      for action in mine where action.status.isActive {
        try? cache.cancelQueuedAction(action.id)
      }
      let landed = mine.filter {
        if case .done = $0.status { return true }
        return false
      }
      return .refused(
        conflicted, reason: reason, error: summary.refusals[conflicted.id], landed: landed)
    }
    let waiting = mine.filter(\.status.isActive)
    return waiting.isEmpty ? .landed : .queued(waiting, because: summary.stopped)
  }
}
