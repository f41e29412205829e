import Foundation

/// An issue made a sub-issue of another through the outbox.
///
/// The issue's parent is read before every send (sent before without an answer, or linked on
/// the web meanwhile): already under the parent asked is done, without a request.
struct SubIssueOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// The parent's number, in the same repository.
  var parent: Int

  var needsViewer: Bool { false }

  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let issue = read(issue)
    do {
      if try await client.parentIssue(of: issue.number, in: repository)?.number == parent {
        guard markDone(action, onIssue: issue.number) else { return .stop(cacheFailure()) }
        return settled(action)
      }
    } catch {
      return .stop(error)
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    if let unsent = markSending(action) { return unsent }
    do {
      let answer = try await client.addSubIssue(id: issue.id, toParent: parent, in: repository)
      guard markDone(action, issue: answer, onIssue: issue.number) else {
        return .stop(cacheFailure())
      }
      return .sent(nil)
    } catch {
      let refusal: String? =
        switch error.code {
        case .validation, .notFound:
          "#\(parent) could not take it as a sub-issue: \(error.summary())"
        default: OutboxLedger.refusal(error)
        }
      return failed(action, error, refusal: refusal)
    }
  }
}
