import GitHubIssues

/// What the browser shows: the selected chip and the filters applied to the list.
public struct BrowserFilter: Hashable, Sendable {
  /// The selected milestone chip.
  public var chip: MilestoneChip = .all
  /// Open, closed or both.
  public var state: IssueFilter.State = .open
  /// Issues only, or pull requests too.
  public var kind: IssueFilter.Kind = .issues
  /// Only items with this label.
  public var label: String?
  /// Only items matching this text (title and body, by word prefix).
  public var search: String = ""
  /// The order within each section.
  public var sort: IssueFilter.Sort = .updated

  /// Creates the default filter: open issues of every milestone, most recently updated first.
  public init() {}

  /// The cache query for the list.
  public var issueFilter: IssueFilter {
    let milestone: IssueFilter.Milestone =
      switch chip {
      case .all: .all
      case .noMilestone: .none
      case .milestone(let number): .number(number)
      }
    return IssueFilter(
      milestone: milestone, state: state, kind: kind, label: label,
      text: search.isEmpty ? nil : search, sort: sort)
  }
}

extension IssueFilter.State {
  /// The next state in the open → closed → all cycle.
  var next: IssueFilter.State {
    switch self {
    case .open: .closed
    case .closed: .all
    case .all: .open
    }
  }

  var name: String {
    switch self {
    case .open: "open"
    case .closed: "closed"
    case .all: "open + closed"
    }
  }
}

extension IssueFilter.Sort {
  /// The next order in the updated → created → comments cycle.
  var next: IssueFilter.Sort {
    switch self {
    case .updated: .created
    case .created: .comments
    case .comments: .updated
    }
  }

  var name: String {
    switch self {
    case .updated: "recently updated"
    case .created: "newest"
    case .comments: "most commented"
    }
  }
}
