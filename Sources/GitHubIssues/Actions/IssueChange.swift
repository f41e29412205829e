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
    switch self {
    case .close(.completed): "close #\(number)"
    case .close(.notPlanned): "close #\(number) as not planned"
    case .reopen: "reopen #\(number)"
    case .setMilestone(let milestone):
      "move #\(number) to milestone "
        + (milestoneTitles[milestone].map { "“\($0)”" } ?? "\(milestone)")
    case .removeMilestone: "take #\(number) out of its milestone"
    case .addLabels(let labels): "label #\(number) \(labels.joined(separator: ", "))"
    case .removeLabel(let label): "remove \(label) from #\(number)"
    case .addAssignees(let logins): "assign #\(number) to \(logins.joined(separator: ", "))"
    case .removeAssignees(let logins): "unassign \(logins.joined(separator: ", ")) from #\(number)"
    }
  }
}
