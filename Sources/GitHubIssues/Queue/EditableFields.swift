import Foundation

/// The fields of a cached issue that ``IssueChange``s touch.
struct EditableFields: Hashable, Sendable, Codable {
  var state: GitHubIssue.State
  var stateReason: String?
  var closedAt: Date?
  var milestoneNumber: Int?
  /// Sorted, distinct, as stored.
  var labels: [String]
  /// Sorted; logins compare without case.
  var assignees: [String]

  /// Whether what `change` asks for already holds: the state, the milestone, the labels (names
  /// compared without case, as GitHub does) or the assignees it sets.
  func satisfies(_ change: IssueChange) -> Bool {
    let labelSet = Set(labels.map { $0.lowercased() })
    let assigneeSet = Set(assignees.map { $0.lowercased() })
    switch change {
    case .close: return state == .closed
    case .reopen: return state == .open
    case .setMilestone(let number): return milestoneNumber == number
    case .removeMilestone: return milestoneNumber == nil
    case .addLabels(let names):
      return names.allSatisfy { labelSet.contains(IssueCache.storableLabelName($0).lowercased()) }
    case .removeLabel(let name):
      return !labelSet.contains(IssueCache.storableLabelName(name).lowercased())
    case .addAssignees(let logins):
      return logins.allSatisfy { assigneeSet.contains($0.lowercased()) }
    case .removeAssignees(let logins):
      return logins.allSatisfy { !assigneeSet.contains($0.lowercased()) }
    }
  }

  /// The fields after a change made at `now`.
  func applying(_ change: IssueChange, now: Date) -> EditableFields {
    var fields = self
    switch change {
    case .close(let reason):
      if fields.state == .open { fields.closedAt = now }
      fields.state = .closed
      fields.stateReason = reason.rawValue
    case .reopen:
      fields.state = .open
      fields.stateReason = "reopened"
      fields.closedAt = nil
    case .setMilestone(let number):
      fields.milestoneNumber = number
    case .removeMilestone:
      fields.milestoneNumber = nil
    case .addLabels(let names):
      fields.labels = Array(Set(fields.labels + names.map(IssueCache.storableLabelName))).sorted()
    case .removeLabel(let name):
      // GitHub compares label names without case.
      let removed = IssueCache.storableLabelName(name).lowercased()
      fields.labels.removeAll { $0.lowercased() == removed }
    case .addAssignees(let logins):
      for login in logins
      where !fields.assignees.contains(where: { $0.lowercased() == login.lowercased() }) {
        fields.assignees.append(login)
      }
      fields.assignees.sort()
    case .removeAssignees(let logins):
      let removed = Set(logins.map { $0.lowercased() })
      fields.assignees.removeAll { removed.contains($0.lowercased()) }
    }
    return fields
  }
}

extension EditableFields {
  /// Whether the row shows these fields, dates compared to the millisecond the cache keeps.
  func isShown(as other: EditableFields) -> Bool {
    var (left, right) = (self, other)
    switch (left.closedAt, right.closedAt) {
    case (nil, nil): break
    case (let a?, let b?) where abs(a.timeIntervalSince(b)) < 0.002: break
    default: return false
    }
    (left.closedAt, right.closedAt) = (nil, nil)
    return left == right
  }

  /// The fields as GitHub has them in an issue it returned.
  init(_ issue: GitHubIssue) {
    state = issue.state
    stateReason = issue.stateReason
    closedAt = issue.closedAt
    milestoneNumber = issue.milestone?.number
    labels = Array(Set(issue.labels.map { IssueCache.storableLabelName($0.name) })).sorted()
    assignees = issue.assignees.map(\.login).sorted()
  }
}
