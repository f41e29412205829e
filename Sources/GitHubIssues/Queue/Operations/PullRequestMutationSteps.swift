import Foundation

// The steps the pull-request mutations share (auto-merge, the merge queue): what the pull
// request's state settles before anything else, and the send itself — at the head read, marked
// first, a write someone may have undone left to the person.

extension OutboxOperation {
  /// How the pull request's state settles the action before anything else: merged is done
  /// (found after a lost answer, or held); closed waits in conflict; open settles nothing.
  func settledByState(
    _ state: AutoMergeState.State, _ action: QueuedAction, pullRequest number: Int
  ) -> ActionReplayer.Outcome? {
    switch state {
    case .merged:
      guard markDone(action, onIssue: number) else { return .stop(cacheFailure()) }
      return settled(action)
    case .closed: return conflict(action, "#\(number) was closed without merging")
    case .open: return nil
    }
  }

  /// Found on GitHub already: done (found after a lost answer, or held).
  func foundOnGitHub(_ action: QueuedAction, pullRequest number: Int) -> ActionReplayer.Outcome {
    guard markDone(action, onIssue: number) else { return .stop(cacheFailure()) }
    return settled(action)
  }

  /// Sends one mutation for the action, at the head it was asked on.
  ///
  /// A head that moved since it was read waits in conflict; under a settle-only pass it is
  /// held; one sent before without an answer that GitHub does not show waits for the person
  /// (``mayHaveBeenUndone(_:_:)``). It is marked as sent before the request leaves, and
  /// GitHub's refusal (not found, invalid) is said with `refused` in front of its words.
  func sendMutation(
    _ action: QueuedAction, pullRequest number: Int, head: String, asked: String,
    _ pass: ActionReplayer.Pass, what: String, refused: String,
    _ mutation: () async throws(GitHubError) -> Void
  ) async -> ActionReplayer.Outcome {
    guard head == asked else {
      return conflict(
        action,
        "the head of #\(number) moved since it was read (now \(head.prefix(7))): review the new "
          + "commits")
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    if let undone = mayHaveBeenUndone(action, what) { return undone }
    if let unsent = markSending(action) { return unsent }
    do {
      try await mutation()
    } catch {
      let refusal: String? =
        switch error.code {
        case .notFound, .validation: "\(refused): \(error.summary())"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
    guard markDone(action, onIssue: number) else { return .stop(cacheFailure()) }
    return .sent(nil)
  }
}
