import Foundation

/// What an observed list query yields: the list a filter selects, across every milestone, and
/// the milestones and labels to show it with, as of one committed transaction.
///
/// The list ignores the filter's milestone, so that one element gives both the counts of every
/// milestone chip and, filtered by the selected one, the list: the two never disagree.
public struct ObservedIssueList: Sendable {
  /// The items the filter selects in every milestone, in the filter's order.
  public var entries: [IssueListEntry]
  /// Milestones: open ones first by due date (undated after dated), then closed ones.
  public var milestones: [GitHubMilestone]
  /// The labels, by name.
  public var labels: [GitHubLabel]
  /// What changed since the previous element.
  public var change: IssueListChange
}

/// What changed between two elements of an observed list query.
public enum IssueListChange: Hashable, Sendable {
  /// The first element, or too much changed to say: read everything again.
  case everything
  /// These items (by number) were added, removed, moved or edited, so their rows must be drawn
  /// again; `metadata` says whether milestones or labels were written too.
  case items(Set<Int>, metadata: MetadataChange)
}

/// Whether the milestones or labels changed in a transaction.
public enum MetadataChange: Hashable, Sendable {
  /// They did not.
  case unchanged
  /// Milestones or labels were written: chip titles, order or label colours may differ.
  case changed
}
