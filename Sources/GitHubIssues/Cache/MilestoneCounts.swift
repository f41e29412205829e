/// A milestone with the number of cached issues in it, for a chip and its badge.
public struct MilestoneSummary: Hashable, Sendable, Identifiable {
  /// The milestone.
  public var milestone: GitHubMilestone
  /// Cached issues (not pull requests) in it that match the state asked for.
  public var issueCount: Int

  public var id: Int64 { milestone.id }
}

/// Issue counts for the chip bar: all, no milestone, and each milestone.
public struct MilestoneCounts: Hashable, Sendable {
  /// Every issue.
  public var all: Int
  /// Issues in no milestone.
  public var none: Int
  /// Each milestone: open ones first by due date (undated last), then closed ones.
  public var milestones: [MilestoneSummary]
}
