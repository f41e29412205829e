/// One change to an issue that can be made on GitHub and shown in the cache before GitHub
/// confirms it.
///
/// An edit is a list of changes, sent in order; each is one request.
public enum IssueChange: Hashable, Sendable, Codable {
  /// Close it, saying why.
  case close(CloseReason)
  /// Open it again.
  case reopen
  /// Put it in the milestone with this number.
  case setMilestone(number: Int)
  /// Take it out of its milestone.
  case removeMilestone
  /// Add labels (existing ones; GitHub creates a label it does not know).
  case addLabels([String])
  /// Remove one label.
  case removeLabel(String)
  /// Assign it to these logins as well.
  case addAssignees([String])
  /// Unassign these logins.
  case removeAssignees([String])

  /// Why an issue was closed, as GitHub's `state_reason` says.
  public enum CloseReason: String, Hashable, Sendable, CaseIterable, Codable {
    /// Done.
    case completed
    /// Won't do.
    case notPlanned = "not_planned"
  }

  /// "close #12 as not planned", for messages; a milestone is named by its title when
  /// `milestoneTitles` has it.
  package func describe(issue number: Int, milestoneTitles: [Int: String] = [:]) -> String {
    let issue = QueuedAction.name(ofIssue: number)
    return switch self {
    case .close(.completed): "close \(issue)"
    case .close(.notPlanned): "close \(issue) as not planned"
    case .reopen: "reopen \(issue)"
    case .setMilestone(let milestone):
      "move \(issue) to milestone "
        + (milestoneTitles[milestone].map { "“\($0)”" } ?? "\(milestone)")
    case .removeMilestone: "take \(issue) out of its milestone"
    case .addLabels(let labels): "label \(issue) \(labels.joined(separator: ", "))"
    case .removeLabel(let label): "remove \(label) from \(issue)"
    case .addAssignees(let logins): "assign \(issue) to \(logins.joined(separator: ", "))"
    case .removeAssignees(let logins): "unassign \(logins.joined(separator: ", ")) from \(issue)"
    }
  }
}
