import Foundation

/// An issue as the cache returns it: what a list row and its preview need.
public struct CachedIssue: Hashable, Sendable, Identifiable {
  /// The cache's key for the row: what the list, the reader and the outbox hold on to.
  public var key: IssueKey
  /// GitHub's numeric identifier; for an issue not filed yet (``isProvisional``), its key
  /// negated.
  public var id: Int64
  /// The number, as in `#123`; for an issue filed offline that GitHub has not numbered yet,
  /// its key negated (GitHub's numbers start at 1): see ``isProvisional``.
  public var number: Int

  /// Whether the issue waits in the outbox to be filed: it has no GitHub number yet.
  package var isProvisional: Bool { number <= 0 }
  /// "#12", or "new" for an issue not filed yet: what rows and tables show for its number.
  package var numberLabel: String { isProvisional ? "new" : "#\(number)" }
  /// The title.
  public var title: String
  /// Open or closed.
  public var state: GitHubIssue.State
  /// The author's login.
  public var author: String
  /// The milestone's number, if any.
  package var milestoneNumber: Int?
  /// The label names, sorted.
  public var labels: [String]
  /// The number of comments.
  public var comments: Int
  /// When it was opened.
  public var createdAt: Date
  /// When it last changed.
  public var updatedAt: Date
  /// When it was closed.
  package var closedAt: Date?
  /// Whether it is a pull request.
  public var isPullRequest: Bool
  /// Its page on GitHub.
  package var htmlURL: String?
  /// The body, in Markdown; loaded only for a single issue.
  public var body: String?
  /// Its sub-issues, done and in all, when it has some.
  package var subIssues: SubIssueSummary?
  /// The logins it is assigned to, sorted.
  public var assignees: [String]
  /// The issue's GraphQL node id (what gh prints as its `id`), when the cache has it (read with
  /// whole issues, not rows).
  package var nodeID: String?
  /// The author's GraphQL node id, when the cache has it (read with whole issues, not rows).
  package var authorNodeID: String?
  /// Whether the author is a bot.
  package var authorIsBot = false
  /// The assignees' GraphQL node ids by login, where the cache has them (as ``authorNodeID``).
  package var assigneeNodeIDs: [String: String] = [:]
  /// Whether a pull request is a draft.
  package var isDraft = false
  /// When a pull request was merged.
  package var mergedAt: Date?
  /// What a pull request's reviews decided, when its details were fetched.
  package var reviewDecision: PullRequestDetails.ReviewDecision?
  /// Its checks, when its details were fetched and it has some.
  package var checks: PullRequestDetails.Checks?

  /// Creates an item as the cache stores it.
  public init(
    key: IssueKey, id: Int64, number: Int, title: String, state: GitHubIssue.State, author: String,
    milestoneNumber: Int?, labels: [String], comments: Int, createdAt: Date, updatedAt: Date,
    closedAt: Date?, isPullRequest: Bool, htmlURL: String?, body: String?,
    subIssues: SubIssueSummary? = nil, assignees: [String] = []
  ) {
    self.subIssues = subIssues
    self.assignees = assignees
    self.key = key
    self.id = id
    self.number = number
    self.title = title
    self.state = state
    self.author = author
    self.milestoneNumber = milestoneNumber
    self.labels = labels
    self.comments = comments
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.closedAt = closedAt
    self.isPullRequest = isPullRequest
    self.htmlURL = htmlURL
    self.body = body
  }
}
