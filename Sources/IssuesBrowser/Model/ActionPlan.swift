import GitHubIssues

/// What an action command comes to on an issue, decided from the issue as cached and what the
/// host can do: a value, so the rules (a closed issue is not closed again, a milestone it is in
/// already is not set again) are tested without a view or a host.
enum ActionPlan: Hashable {
  /// Show these changes at once and send them; `summary` names them while they are on their way.
  case edit([IssueChange], summary: String)
  /// Have a comment written and posted.
  case comment
  /// Start picking the milestone to move the issue to, from the chip of the one it is in.
  case pickMilestone(current: MilestoneFilter)
  /// Nothing to do, and why.
  case refuse(String)

  /// The plan for a command on an issue.
  ///
  /// - Parameters:
  ///   - command: An action command (close, reopen, comment, move to a milestone).
  ///   - issue: The issue acted on, as cached.
  ///   - access: Whether the host can change issues.
  ///   - target: The chip focused while picking a milestone.
  ///   - milestones: The milestones by number, for their titles.
  /// - Returns: What to do, or why nothing is done.
  static func plan(
    _ command: BrowserCommand, on issue: CachedIssue, access: WriteAccess,
    target: MilestoneFilter?, milestones: [Int: GitHubMilestone]
  ) -> ActionPlan {
    if let refusal = access.refusal { return .refuse(refusal) }
    let number = issue.number
    switch command {
    case .close(let reason):
      guard issue.state == .open else { return .refuse("#\(number) is already closed.") }
      return .edit([.close(reason)], summary: "closing #\(number)")
    case .reopen:
      guard issue.state == .closed else { return .refuse("#\(number) is open.") }
      return .edit([.reopen], summary: "reopening #\(number)")
    case .comment: return .comment
    case .moveToMilestone:
      return .pickMilestone(current: issue.milestoneNumber.map { .number($0) } ?? .withoutMilestone)
    case .moveToFocusedChip:
      switch target {
      case .number(let milestone)?:
        guard issue.milestoneNumber != milestone else {
          return .refuse("#\(number) is in that milestone already.")
        }
        let title = milestones[milestone]?.title ?? "milestone \(milestone)"
        return .edit([.setMilestone(number: milestone)], summary: "moving #\(number) to \(title)")
      case .withoutMilestone?:
        guard issue.milestoneNumber != nil else {
          return .refuse("#\(number) has no milestone already.")
        }
        return .edit([.removeMilestone], summary: "taking #\(number) out of its milestone")
      case .all?, .withMilestone?, nil: return .refuse("Pick a milestone, or \"No milestone\".")
      }
    default: return .refuse("That is not an action on an issue.")
    }
  }
}
