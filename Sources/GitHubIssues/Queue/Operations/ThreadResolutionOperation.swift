import Foundation

/// A review thread resolved or unresolved through the outbox.
///
/// The thread's state is read before every send, so a lost answer (or a thread resolved on the
/// web meanwhile) is seen and nothing is sent twice.
struct ThreadResolutionOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// The thread, by its first comment, and whether it is resolved or unresolved.
  var resolution: ThreadResolution

  var needsViewer: Bool { false }

  /// Resolves or unresolves a thread, unless GitHub has it so already.
  ///
  /// The pull request's threads are read whole (GraphQL; REST does not know threads) before
  /// every send: the thread whose first comment is the one named, and whether it is resolved
  /// (read twice before a thread is said to be gone).
  /// Setting a thread to what it is changes nothing on GitHub, so the check is exact. A thread
  /// no longer there waits in conflict.
  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let number = read(issue).number
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
      return conflict(
        action,
        "#\(number) has no review thread that starts with comment "
          + "\(resolution.commentID) (deleted, or not a thread's first comment)")
    }
    if thread.isResolved == resolution.change.resolves {
      guard done() else { return .stop(cacheFailure()) }
      return settled(action)
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
