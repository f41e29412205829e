/// A chip of the milestone bar: every issue, those without a milestone, or one milestone.
public enum MilestoneChip: Hashable, Sendable {
  case all
  case noMilestone
  case milestone(number: Int)
}
