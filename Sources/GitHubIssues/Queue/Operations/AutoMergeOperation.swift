import Foundation

/// A pull request's auto-merge turned on through the outbox.
///
/// The pull request is read (GraphQL; REST does not say whether auto-merge is on) before every
/// send, so a lost answer, or auto-merge turned on elsewhere, is seen and nothing is sent twice.
struct AutoMergeOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// How GitHub is to merge it, and the head read.
  var merge: PullRequestMerge

  var needsViewer: Bool { false }

  /// Turns on a pull request's auto-merge, unless GitHub has it on already (or merged it).
  ///
  /// Before every send the pull request's state, head and auto-merge are read: merged is done;
  /// auto-merge on with the method asked is done (found after a lost answer, or held when
  /// turned on elsewhere); on with another method, closed, or a head that moved since it was
  /// read waits in conflict, said. Turning it on is one mutation that names the head read, so
  /// GitHub refuses it rather than merge commits nobody saw.
  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let number = read(issue).number
    let state: AutoMergeState
    do {
      state = try await client.autoMergeState(ofPullRequest: number, in: repository)
    } catch {
      return .stop(error)
    }
    if let settled = settledByState(state.state, action, pullRequest: number) { return settled }
    if let method = state.autoMergeMethod {
      // On is on: a method this client does not know is another method, never "off".
      guard method.lowercased() == merge.method.rawValue else {
        return conflict(
          action,
          "#\(number) will already be merged by itself with another method "
            + "(\(method.lowercased().prefix(40)))")
      }
      return foundOnGitHub(action, pullRequest: number)
    }
    return await sendMutation(
      action, pullRequest: number, head: state.headSHA, asked: merge.headSHA, pass,
      what: "Auto-merge of #\(number)", refused: "GitHub will not merge #\(number) by itself"
    ) { () throws(GitHubError) in
      try await client.enableAutoMerge(ofPullRequest: state.nodeID, merge)
    }
  }
}
