/// One item of a list, as much as grouping it into sections needs.
public struct IssueListEntry: Hashable, Sendable {
  /// The issue or pull request number.
  public var number: Int
  /// The number of its milestone, if any.
  public var milestoneNumber: Int?
  /// Whether it is open.
  public var isOpen: Bool

  /// Creates an entry.
  public init(number: Int, milestoneNumber: Int?, isOpen: Bool) {
    self.number = number
    self.milestoneNumber = milestoneNumber
    self.isOpen = isOpen
  }
}
