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
  ///
  /// - Complexity: O(*n*), small milestone numbers counted in a table rather than hashed (a
  ///   list of 100,000 is counted on every chip chosen).
  public init(_ entries: [IssueListEntry]) {
    var table: [Int] = []
    for entry in entries {
      guard let number = entry.milestoneNumber else {
        noMilestone += 1
        continue
      }
      guard (0..<(1 << 16)).contains(number) else {
        byMilestone[number, default: 0] += 1
        continue
      }
      if number >= table.count { table += repeatElement(0, count: number + 1 - table.count) }
      table[number] += 1
    }
    all = entries.count
    for (number, count) in table.enumerated() where count > 0 { byMilestone[number] = count }
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
