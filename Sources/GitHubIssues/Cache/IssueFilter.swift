/// Which cached issues to show and in what order: what the milestone chips, the state toggle, the
/// label filter and the search field select.
public struct IssueFilter: Hashable, Sendable {
  /// Which milestone.
  public enum Milestone: Hashable, Sendable {
    /// Every issue ("All").
    case all
    /// Issues in no milestone ("No milestone").
    case none
    /// Issues in the milestone with this number.
    case number(Int)
  }

  /// Which state.
  public enum State: Hashable, Sendable, CaseIterable {
    /// Open issues.
    case open
    /// Closed issues.
    case closed
    /// Both.
    case all
  }

  /// Issues, pull requests, or both: pull requests are kept apart unless asked for.
  public enum Kind: Hashable, Sendable {
    /// Issues only.
    case issues
    /// Pull requests only.
    case pullRequests
    /// Both.
    case both
  }

  /// The order, always descending.
  public enum Sort: Hashable, Sendable, CaseIterable {
    /// Most recently updated first.
    case updated
    /// Most recently created first.
    case created
    /// Most commented first.
    case comments
  }

  /// Which milestone.
  public var milestone: Milestone
  /// Which state.
  public var state: State
  /// Issues, pull requests or both.
  public var kind: Kind
  /// Only issues with this label.
  public var label: String?
  /// Only issues whose title or body contain all these words (prefix match).
  public var text: String?
  /// The order.
  public var sort: Sort
  /// At most this many results.
  public var limit: Int?

  /// Creates a filter; by default every open issue, most recently updated first.
  public init(
    milestone: Milestone = .all, state: State = .open, kind: Kind = .issues, label: String? = nil,
    text: String? = nil, sort: Sort = .updated, limit: Int? = nil
  ) {
    self.milestone = milestone
    self.state = state
    self.kind = kind
    self.label = label
    self.text = text
    self.sort = sort
    self.limit = limit
  }
}
