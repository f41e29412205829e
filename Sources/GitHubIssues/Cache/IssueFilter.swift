/// Which cached issues to read and in what order.
///
/// Apart from ``IssueQuery`` (what GitHub's list endpoint selects) because the cache can search
/// the text of titles and bodies, find mentions in bodies and tell pull requests from issues,
/// which that endpoint cannot; the two share ``IssueStateFilter``, ``MilestoneFilter`` and
/// ``IssueSort``. Every condition set must hold: labels, assignee, author, mention, text, and
/// the search terms (``SearchQuery/applied(to:me:)`` puts a search's terms here).
public struct IssueFilter: Hashable, Sendable {
  /// Issues, pull requests, or both: pull requests are kept apart unless asked for.
  public enum Kind: Hashable, Sendable {
    /// Issues only.
    case issues
    /// Pull requests only.
    case pullRequests
    /// Both.
    case both
  }

  /// Which milestone.
  public var milestone: MilestoneFilter
  /// Which state.
  public var state: IssueStateFilter
  /// Issues, pull requests or both.
  public var kind: Kind
  /// Only issues with every one of these labels (none: any labels).
  public var labels: [String]
  /// Only issues assigned to this login (compared without case, as GitHub does).
  public var assignee: String?
  /// Only issues opened by this login.
  public var author: String?
  /// Only issues whose body, or one of whose cached comments, mentions `@login`, as GitHub's
  /// `mentions:` does (comments are cached once an issue is opened, or by `issues sync
  /// --comments`).
  public var mention: String?
  /// Only issues whose title or body contain all these words (prefix match); `nil` or only
  /// white space: no text filter.
  public var text: String?
  /// Search terms that must hold too, answered by the same SQL as every search (`@me`
  /// already resolved: a term still naming it matches nothing).
  public var terms: [QueryTerm]
  /// The order.
  public var sort: IssueSort
  /// Which way: newest or largest first unless a search writes `-asc`.
  package var direction: QuerySort.Direction
  /// At most this many results.
  public var limit: Int?

  /// Creates a filter; by default every open issue, most recently updated first.
  public init(
    milestone: MilestoneFilter = .all, state: IssueStateFilter = .open, kind: Kind = .issues,
    labels: [String] = [], assignee: String? = nil, author: String? = nil,
    mention: String? = nil, text: String? = nil, terms: [QueryTerm] = [],
    sort: IssueSort = .updated, direction: QuerySort.Direction = .descending, limit: Int? = nil
  ) {
    self.milestone = milestone
    self.state = state
    self.kind = kind
    self.labels = labels
    self.assignee = assignee
    self.author = author
    self.mention = mention
    self.text = text
    self.terms = terms
    self.sort = sort
    self.direction = direction
    self.limit = limit
  }
}
