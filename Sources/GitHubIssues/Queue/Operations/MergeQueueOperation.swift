import Foundation

/// A pull request added to its base branch's merge queue through the outbox: where a branch
/// merges through a queue, REST's merge is refused (405) and the queue is the way in.
///
/// The pull request is read (GraphQL: REST knows no merge queue) before every send, so a lost
/// answer, or the pull request queued elsewhere, is seen and nothing is sent twice.
struct MergeQueueOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// The head read: the queue takes that head or nothing.
  var merge: PullRequestMerge

  var needsViewer: Bool { false }

  /// Adds a pull request to the merge queue, unless it is in it already (or merged).
  ///
  /// Before every send the pull request is read: merged, or in the queue, is done (found after
  /// a lost answer, or held when queued elsewhere); closed, a branch without a queue (any more),
  /// or a head that moved since it was read waits in conflict, said. The send is one mutation
  /// that names the head read.
  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let number = read(issue).number
    let state: MergeQueueState
    do {
      guard let read = try await client.mergeQueueState(ofPullRequest: number, in: repository)
      else {
        return conflict(
          action,
          "GitHub here has no merge queues: merge #\(number) without one (`issues pr merge`)")
      }
      state = read
    } catch {
      return .stop(error)
    }
    if let settled = settledByState(state.state, action, pullRequest: number) { return settled }
    if state.entry != nil { return foundOnGitHub(action, pullRequest: number) }
    guard state.queueEnabled else {
      return conflict(
        action,
        "the base branch of #\(number) has no merge queue (any more): merge it with "
          + "`issues pr merge \(number)`")
    }
    return await sendMutation(
      action, pullRequest: number, head: state.headSHA, asked: merge.headSHA, pass,
      what: "Queueing #\(number) to merge", refused: "GitHub will not queue #\(number) to merge"
    ) { () throws(GitHubError) in
      try await client.enqueue(pullRequest: state.nodeID, headSHA: merge.headSHA)
    }
  }
}
