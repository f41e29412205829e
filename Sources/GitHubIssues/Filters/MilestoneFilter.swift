/// Which issues by milestone: the one vocabulary of GitHub's `milestone` parameter and the
/// cache's filter (and so of any milestone picker built on them).
public enum MilestoneFilter: Hashable, Sendable {
  /// Every issue, whatever its milestone (no filter).
  case all
  /// Issues in some milestone, any (GitHub's `milestone=*`).
  case withMilestone
  /// Issues in no milestone (GitHub's `milestone=none`).
  case withoutMilestone
  /// Issues in the milestone with this number.
  case number(Int)

  /// Whether an issue in `milestoneNumber` (`nil`: none) passes the filter.
  package func matches(milestoneNumber: Int?) -> Bool {
    switch self {
    case .all: true
    case .withMilestone: milestoneNumber != nil
    case .withoutMilestone: milestoneNumber == nil
    case .number(let number): milestoneNumber == number
    }
  }
}
