import Foundation

/// What an observed list query yields: the list a filter selects, across every milestone, and
/// the milestones and labels to show it with, as of one committed transaction.
///
/// The list ignores the filter's milestone, so that one element gives both the count of every
/// milestone and, filtered by one of them, that milestone's list: the two never disagree.
public struct ObservedIssueList: Sendable {
  /// The items the filter selects in every milestone, in the filter's order.
  public var entries: [IssueListEntry]
  /// How many of `entries` each milestone holds, kept up to date change by change rather than
  /// counted again.
  public var counts: EntryCounts
  /// Milestones: open ones first by due date (undated after dated), then closed ones.
  public var milestones: [GitHubMilestone]
  /// The labels, by name.
  public var labels: [GitHubLabel]
  /// The sub-issues of every issue that has some, by parent number, in GitHub's order (whether
  /// or not the filter selects them).
  package var subIssues: [Int: [Int]]
  /// What changed since the previous element; a change of an issue's sub-issues counts the
  /// parent and the children that came or went as changed items.
  public var change: IssueListChange
  /// The queue's marks when they changed (every first element has them); `nil` when the queue
  /// did not change since the previous element, so that a list change reads no queue.
  public var queue: QueueMarks?
}
