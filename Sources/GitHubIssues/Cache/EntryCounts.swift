/// How many entries of a list are in each milestone and in none.
public struct EntryCounts: Hashable, Sendable {
  /// Every entry.
  public var all = 0
  /// Entries in no milestone.
  package var noMilestone = 0
  /// Entries by milestone number; milestones with none are left out.
  package var byMilestone: [Int: Int] = [:]

  /// No entries.
  public init() {}

  /// Counts entries.
  public init(_ entries: [IssueListEntry]) {
    for entry in entries { add(entry) }
  }

  /// Counts one more entry.
  package mutating func add(_ entry: IssueListEntry) {
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
