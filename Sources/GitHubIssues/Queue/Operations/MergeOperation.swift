import Foundation

/// A pull request merged through the outbox, at the head that was read, its head branch
/// deleted after when asked and when that is provably safe.
///
/// Its state is read before every send (sent before without an answer, or merged on the web).
/// GitHub refuses a merge it cannot make (405: checks, reviews, conflicts) and one whose head
/// moved (409): the action then waits in conflict with GitHub's reason.
struct MergeOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// How, at which head, and whether the head branch goes after.
  var merge: PullRequestMerge

  var needsViewer: Bool { false }

  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let issue = read(issue)
    if issue.mergedAt != nil {
      guard markDone(action, issue: issue, onIssue: issue.number) else {
        return .stop(cacheFailure())
      }
      // Merged by someone else (never sent by us): their merge, their branch to keep or delete.
      if wasSent(action) { await deleteBranch(pullRequest: issue.number) }
      return settled(action, issue)
    }
    guard issue.state == .open else {
      return conflict(action, "#\(issue.number) was closed without merging")
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    if let unsent = markSending(action) { return unsent }
    do {
      try await client.mergePullRequest(issue.number, merge, in: repository)
    } catch {
      let refusal: String? =
        switch error.status {
        case 405: "GitHub will not merge it: \(error.summary())"
        case 409: "its head moved since it was read: review the new commits (\(error.summary()))"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
    let merged = try? await client.issue(issue.number, of: repository)
    guard markDone(action, issue: merged, onIssue: issue.number) else {
      return .stop(cacheFailure())
    }
    await deleteBranch(pullRequest: issue.number)
    return .sent(merged)
  }

  /// Deletes the merged head branch when asked, and only when it is provably the pull
  /// request's and still at the head merged; a failure leaves it (the merge stands).
  ///
  /// Read just before the delete: the pull request's head is this repository's own branch of
  /// that name (a fork's branch is its owner's, and a branch of the same name here belongs to
  /// another pull request), and the branch still points at the merged commit (a commit pushed
  /// after the merge would be on no branch once it is gone).
  private func deleteBranch(pullRequest number: Int) async {
    guard let branch = merge.deletingBranch,
      let pull = try? await client.pullRequest(number, of: repository),
      pull.headIsOwned(by: repository), pull.headRef == branch,
      let head = try? await client.branchHead(branch, in: repository),
      head == merge.headSHA.lowercased()
    else { return }
    try? await client.deleteBranch(branch, in: repository)
  }
}
