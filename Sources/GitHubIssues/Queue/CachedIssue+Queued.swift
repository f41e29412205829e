import Foundation

extension CachedIssue {
  /// The issue as the cache shows it once `action` is queued: the change applied to its state,
  /// milestone, labels and assignees exactly as ``IssueCache/enqueue(_:onIssue:now:durability:)``
  /// writes it — so that a screen that queued it can show the row without reading it again.
  package func showing(_ action: QueuedAction) -> CachedIssue {
    guard case .change(let change) = action.operation else { return self }
    let fields = EditableFields(
      state: state, stateReason: nil, closedAt: closedAt, milestoneNumber: milestoneNumber,
      labels: labels, assignees: assignees.sorted()
    ).applying(change, now: action.queuedAt)
    var issue = self
    issue.state = fields.state
    issue.closedAt = fields.closedAt
    issue.milestoneNumber = fields.milestoneNumber
    issue.labels = fields.labels
    issue.assignees = fields.assignees
    return issue
  }
}
