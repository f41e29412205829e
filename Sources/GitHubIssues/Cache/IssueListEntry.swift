/// One item of a list, as much as grouping it into sections needs.
public struct IssueListEntry: Hashable, Sendable {
  /// The row's key in the cache: the item's identity, whatever GitHub numbers it.
  public var key: IssueKey
  /// The issue or pull request number.
  public var number: Int
  /// The number of its milestone, if any.
  package var milestoneNumber: Int?
  /// Whether it is open.
  package var isOpen: Bool

  /// Creates an entry.
  public init(key: IssueKey, number: Int, milestoneNumber: Int?, isOpen: Bool) {
    self.key = key
    self.number = number
    self.milestoneNumber = milestoneNumber
    self.isOpen = isOpen
  }
}
