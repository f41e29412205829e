import GitHubIssues

// What the `s` and `o` keys step through, and how the status line names each step.

extension IssueStateFilter {
  /// The next state in the open → closed → all cycle.
  var next: IssueStateFilter {
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

extension IssueSort {
  /// The next order in the updated → created → comments cycle.
  var next: IssueSort {
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
