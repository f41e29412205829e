import Foundation

// Resolving a thread through the outbox: the thread's state is read before every send, so a
// lost answer (or a thread resolved on the web meanwhile) is seen and nothing is sent twice.

extension ActionReplayer {
  /// Resolves or unresolves a thread, unless GitHub has it so already.
  ///
  /// The pull request's threads are read whole (GraphQL; REST does not know threads) before
  /// every send: the thread whose first comment is the one named, and whether it is resolved
  /// (read twice before a thread is said to be gone).
  /// Setting a thread to what it is changes nothing on GitHub, so the check is exact. A thread
  /// no longer there waits in conflict.
  func send(
    _ resolution: ThreadResolution, _ action: QueuedAction, _ issue: GitHubIssue, _ pass: Pass
  ) async -> Outcome {
    let number = issue.number
    var threads: [ReviewThreadState] = []
    // A thread not found is looked for in a second read before it is said gone: a comment
    // deleted while the pages were read shifts later threads past a page's end.
    for _ in 0..<2 where !threads.contains(where: { $0.firstCommentID == resolution.commentID }) {
      do {
        threads = try await client.reviewThreads(ofPullRequest: number, in: repository)
        try? cache.keepThreadStates(threads, ofPullRequest: number)
      } catch {
        return .stop(error)
      }
    }
    func done() -> Bool {
      (try? cache.markResolutionDone(action.id, resolution, onPullRequest: number, now: now()))
        != nil
    }
    guard let thread = threads.first(where: { $0.firstCommentID == resolution.commentID }) else {
      try? cache.markConflict(
        action.id,
        reason: "#\(number) has no review thread that starts with comment "
          + "\(resolution.commentID) (deleted, or not a thread's first comment)")
      return .conflict(nil)
    }
    if thread.isResolved == resolution.change.resolves {
      guard done() else { return .stop(cacheFailure()) }
      if case .sending = action.status { return .foundLanded(nil) }
      return .alreadyHeld
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    if let undone = mayHaveBeenUndone(
      action, "The \(resolution.change.rawValue) of the thread of comment \(resolution.commentID)")
    {
      return undone
    }
    if let unsent = markSending(action) { return unsent }
    do {
      let resolved = try await client.apply(resolution.change, toThread: thread.nodeID)
      guard resolved == resolution.change.resolves else {
        // GitHub answered with the thread as it was: left sending, read again next time.
        return .stop(
          GitHubError(
            .serverError, url: "review threads of \(repository)#\(number)",
            detail: "GitHub answered the \(resolution.change.rawValue) with the thread unchanged"))
      }
      guard done() else { return .stop(cacheFailure()) }
      return .sent(nil)
    } catch {
      let refusal: String? =
        switch error.code {
        case .notFound, .validation:
          "GitHub refused to \(resolution.change.rawValue) the thread of comment "
            + "\(resolution.commentID) on #\(number): \(error.summary())"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
  }
}
