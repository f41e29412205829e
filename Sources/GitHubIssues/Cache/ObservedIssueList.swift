import Foundation

/// What an observed list query yields: the list a filter selects, across every milestone, and
/// the milestones and labels to show it with, as of one committed transaction.
///
/// The list ignores the filter's milestone, so that one element gives both the counts of every
/// milestone chip and, filtered by the selected one, the list: the two never disagree.
public struct ObservedIssueList: Sendable {
  /// The items the filter selects in every milestone, in the filter's order.
  public var entries: [IssueListEntry]
  /// How many of `entries` each milestone holds: the chip counts, kept up to date change by
  /// change rather than counted again.
  public var counts: EntryCounts
  /// Milestones: open ones first by due date (undated after dated), then closed ones.
  public var milestones: [GitHubMilestone]
  /// The labels, by name.
  public var labels: [GitHubLabel]
  /// The sub-issues of every issue that has some, by parent number, in GitHub's order (whether
  /// or not the filter selects them).
  public var subIssues: [Int: [Int]]
  /// What changed since the previous element; a change of an issue's sub-issues counts the
  /// parent and the children that came or went as changed items.
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

/// How many entries of a list are in each milestone and in none.
public struct EntryCounts: Hashable, Sendable {
  /// Every entry.
  public var all = 0
  /// Entries in no milestone.
  public var noMilestone = 0
  /// Entries by milestone number; milestones with none are left out.
  public var byMilestone: [Int: Int] = [:]

  /// No entries.
  public init() {}

  /// Counts entries.
  public init(_ entries: [IssueListEntry]) {
    for entry in entries { add(entry) }
  }

  /// Counts one more entry.
  public mutating func add(_ entry: IssueListEntry) {
    all += 1
    if let number = entry.milestoneNumber {
      byMilestone[number, default: 0] += 1
    } else {
      noMilestone += 1
    }
  }

  /// Counts one entry less.
  public mutating func remove(_ entry: IssueListEntry) {
    all -= 1
    if let number = entry.milestoneNumber {
      let left = (byMilestone[number] ?? 0) - 1
      byMilestone[number] = left > 0 ? left : nil
    } else {
      noMilestone -= 1
    }
  }
}
