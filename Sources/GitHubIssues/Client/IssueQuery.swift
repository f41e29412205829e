import Foundation

/// The filters of `GET /repos/{owner}/{repo}/issues`: what GitHub can select on its side.
///
/// Apart from ``IssueFilter`` (what the cache selects) because the two sides can do different
/// things: GitHub filters by assignee and author, by `since`, pages its results and sorts either
/// way, but has no full-text search in this endpoint and lists pull requests with issues; the
/// cache searches text and tells pull requests apart. They share ``IssueStateFilter``,
/// ``MilestoneFilter`` and ``IssueSort``.
///
/// Related GitHub documentation: <https://docs.github.com/rest/issues/issues#list-repository-issues>
package struct IssueQuery: Hashable, Sendable {
  /// Which issues by state.
  package var state: IssueStateFilter = .open
  /// Which milestone.
  package var milestone: MilestoneFilter = .all
  /// Only issues with all these labels.
  package var labels: [String] = []
  /// Only issues assigned to this login (`none`, `*` allowed).
  package var assignee: String?
  /// Only issues opened by this login.
  package var creator: String?
  /// Only issues updated at or after this time.
  package var since: Date?
  /// The order.
  package var sort: IssueSort = .created
  /// Ascending or descending.
  package var ascending = false
  /// Items per page, at most 100.
  package var perPage = 100

  /// Creates a query; by default open issues, newest first, 100 a page.
  package init(
    state: IssueStateFilter = .open, milestone: MilestoneFilter = .all, labels: [String] = [],
    assignee: String? = nil,
    creator: String? = nil, since: Date? = nil, sort: IssueSort = .created, ascending: Bool = false,
    perPage: Int = 100
  ) {
    self.state = state
    self.milestone = milestone
    self.labels = labels
    self.assignee = assignee
    self.creator = creator
    self.since = since
    self.sort = sort
    self.ascending = ascending
    self.perPage = perPage
  }

  /// The query items, in a stable order.
  var queryItems: [URLQueryItem] {
    var items = [URLQueryItem(name: "state", value: state.rawValue)]
    switch milestone {
    case .all: break
    case .withMilestone: items.append(URLQueryItem(name: "milestone", value: "*"))
    case .withoutMilestone: items.append(URLQueryItem(name: "milestone", value: "none"))
    case .number(let number): items.append(URLQueryItem(name: "milestone", value: String(number)))
    }
    if !labels.isEmpty {
      items.append(URLQueryItem(name: "labels", value: labels.joined(separator: ",")))
    }
    if let assignee { items.append(URLQueryItem(name: "assignee", value: assignee)) }
    if let creator { items.append(URLQueryItem(name: "creator", value: creator)) }
    if let since {
      items.append(URLQueryItem(name: "since", value: GitHubDate.iso8601(since)))
    }
    items.append(URLQueryItem(name: "sort", value: sort.rawValue))
    items.append(URLQueryItem(name: "direction", value: ascending ? "asc" : "desc"))
    items.append(URLQueryItem(name: "per_page", value: String(min(100, max(1, perPage)))))
    return items
  }
}
