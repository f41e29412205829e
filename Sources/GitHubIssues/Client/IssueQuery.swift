import Foundation

/// The filters of `GET /repos/{owner}/{repo}/issues`.
///
/// Related GitHub documentation: <https://docs.github.com/rest/issues/issues#list-repository-issues>
public struct IssueQuery: Hashable, Sendable {
  /// Which issues by state.
  public enum State: String, Hashable, Sendable {
    /// Open only (GitHub's default).
    case open
    /// Closed only.
    case closed
    /// Both.
    case all
  }

  /// Which milestone.
  public enum Milestone: Hashable, Sendable {
    /// Any milestone or none (no filter).
    case any
    /// Issues in some milestone (`*`).
    case some
    /// Issues in no milestone (`none`).
    case none
    /// Issues in the milestone with this number.
    case number(Int)
  }

  /// The order of results.
  public enum Sort: String, Hashable, Sendable {
    /// By creation time.
    case created
    /// By last update.
    case updated
    /// By number of comments.
    case comments
  }

  /// Which issues by state.
  public var state: State = .open
  /// Which milestone.
  public var milestone: Milestone = .any
  /// Only issues with all these labels.
  public var labels: [String] = []
  /// Only issues assigned to this login (`none`, `*` allowed).
  public var assignee: String?
  /// Only issues opened by this login.
  public var creator: String?
  /// Only issues updated at or after this time.
  public var since: Date?
  /// The order.
  public var sort: Sort = .created
  /// Ascending or descending.
  public var ascending = false
  /// Items per page, at most 100.
  public var perPage = 100

  /// Creates a query; by default open issues, newest first, 100 a page.
  public init(
    state: State = .open, milestone: Milestone = .any, labels: [String] = [],
    assignee: String? = nil,
    creator: String? = nil, since: Date? = nil, sort: Sort = .created, ascending: Bool = false,
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
    case .any: break
    case .some: items.append(URLQueryItem(name: "milestone", value: "*"))
    case .none: items.append(URLQueryItem(name: "milestone", value: "none"))
    case .number(let number): items.append(URLQueryItem(name: "milestone", value: String(number)))
    }
    if !labels.isEmpty {
      items.append(URLQueryItem(name: "labels", value: labels.joined(separator: ",")))
    }
    if let assignee { items.append(URLQueryItem(name: "assignee", value: assignee)) }
    if let creator { items.append(URLQueryItem(name: "creator", value: creator)) }
    if let since {
      items.append(URLQueryItem(name: "since", value: ISO8601DateFormatter().string(from: since)))
    }
    items.append(URLQueryItem(name: "sort", value: sort.rawValue))
    items.append(URLQueryItem(name: "direction", value: ascending ? "asc" : "desc"))
    items.append(URLQueryItem(name: "per_page", value: String(min(100, max(1, perPage)))))
    return items
  }
}
