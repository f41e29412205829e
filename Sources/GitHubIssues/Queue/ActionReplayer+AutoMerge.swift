import Foundation

// Auto-merge through the outbox: the pull request is read (GraphQL) before every send, so a
// lost answer, or auto-merge turned on elsewhere, is seen and nothing is sent twice.

extension ActionReplayer {
  /// Turns on a pull request's auto-merge, unless GitHub has it on already (or merged it).
  ///
  /// Before every send the pull request's state, head and auto-merge are read: merged is done;
  /// auto-merge on with the method asked is done (found after a lost answer, or held when
  /// turned on elsewhere); on with another method, closed, or a head that moved since it was
  /// read waits in conflict, said. Turning it on is one mutation that names the head read, so
  /// GitHub refuses it rather than merge commits nobody saw.
  func send(
    autoMerge merge: PullRequestMerge, _ action: QueuedAction, _ issue: GitHubIssue,
    _ pass: Pass
  ) async -> Outcome {
    let number = issue.number
    let wasSent = if case .sending = action.status { true } else { false }
    func done() -> Bool {
      (try? cache.markDone(
        action.id, issue: nil, comment: nil, commentID: nil, onIssue: number, now: now()))
        != nil
    }
    func conflict(_ reason: String) -> Outcome {
      try? cache.markConflict(action.id, reason: reason)
      return .conflict(nil)
    }
    let state: AutoMergeState
    do {
      state = try await client.autoMergeState(ofPullRequest: number, in: repository)
    } catch {
      return .stop(error)
    }
    switch state.state {
    case .merged:
      guard done() else { return .stop(cacheFailure()) }
      return wasSent ? .foundLanded(nil) : .alreadyHeld
    case .closed: return conflict("#\(number) was closed without merging")
    case .open: break
    }
    if let method = state.autoMergeMethod {
      // On is on: a method this client does not know is another method, never "off".
      guard method.lowercased() == merge.method.rawValue else {
        return conflict(
          "#\(number) will already be merged by itself with another method "
            + "(\(method.lowercased().prefix(40)))")
      }
      guard done() else { return .stop(cacheFailure()) }
      return wasSent ? .foundLanded(nil) : .alreadyHeld
    }
    guard state.headSHA == merge.headSHA else {
      return conflict(
        "the head of #\(number) moved since it was read (now \(state.headSHA.prefix(7))): review "
          + "the new commits")
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    if let undone = mayHaveBeenUndone(action, "Auto-merge of #\(number)") { return undone }
    if let unsent = markSending(action) { return unsent }
    do {
      try await client.enableAutoMerge(ofPullRequest: state.nodeID, merge)
    } catch {
      let refusal: String? =
        switch error.code {
        case .notFound, .validation:
          "GitHub will not merge #\(number) by itself: \(error.summary())"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
    guard done() else { return .stop(cacheFailure()) }
    return .sent(nil)
  }
}
