import Foundation

/// An issue or a pull request, as the issues endpoint returns both.
///
/// Decoding follows GitHub's published OpenAPI description and tolerates every API era: only
/// `id`, `number`, `title`, `state`, `created_at` and `updated_at` are required. Everything the
/// description marks nullable or optional decodes as such: a `null` user (a deleted account) is
/// ``GitHubUser/ghost``, as GitHub's web shows it; `labels` may be missing, and its elements may
/// be bare names, as the description allows. Unknown keys are ignored. A pull request is marked by
/// the presence of `pull_request`.
public struct GitHubIssue: Codable, Hashable, Sendable, Identifiable {
  /// Whether an issue is open or closed.
  public enum State: String, Codable, Hashable, Sendable {
    /// Open.
    case open
    /// Closed.
    case closed
  }

  /// The numeric identifier.
  public var id: Int64
  /// The number within the repository, as in `#123`.
  public var number: Int
  /// The title.
  public var title: String
  /// Open or closed.
  public var state: State
  /// Why it was closed (`completed`, `not_planned`, `reopened`), where the API says.
  package var stateReason: String?
  /// Who opened it; ``GitHubUser/ghost`` when the account was deleted.
  public var user: GitHubUser
  /// Its labels.
  public var labels: [GitHubLabel]
  /// Its milestone, if any.
  public var milestone: GitHubMilestone?
  /// Who it is assigned to.
  public var assignees: [GitHubUser]
  /// The number of comments.
  public var comments: Int
  /// When it was opened.
  public var createdAt: Date
  /// When it last changed.
  public var updatedAt: Date
  /// When it was closed.
  package var closedAt: Date?
  /// The body, in Markdown.
  public var body: String?
  /// Its page on GitHub.
  package var htmlURL: String?
  /// Whether this is a pull request rather than an issue.
  public var isPullRequest: Bool
  /// Whether the conversation is locked.
  package var locked: Bool
  /// How many sub-issues it has and how many of them are done, when GitHub says.
  package var subIssues: SubIssueSummary?
  /// The GraphQL node identifier (`node_id`), what gh prints as its `id`.
  package var nodeID: String?
  /// Its issue type (`Bug`, `Feature`…), when the organisation uses them.
  package var issueType: String?
  /// A pull request's draft state (`draft`); `false` for an issue.
  package var isDraft = false
  /// When a pull request was merged (`pull_request.merged_at`); `nil` for an issue, or a pull
  /// request closed without merging or still open.
  package var mergedAt: Date?

  enum CodingKeys: String, CodingKey {
    case id, number, title, state, user, labels, milestone, assignees, assignee, comments, body,
      locked
    case stateReason = "state_reason"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case closedAt = "closed_at"
    case htmlURL = "html_url"
    case pullRequest = "pull_request"
    case subIssues = "sub_issues_summary"
    case nodeID = "node_id"
    case issueType = "type"
    case draft
  }

  /// The `pull_request` object of a REST issue: what it says of the merge.
  private struct PullRequestObject: Codable {
    var url: String?
    var mergedAt: Date?

    enum CodingKeys: String, CodingKey {
      case url
      case mergedAt = "merged_at"
    }
  }

  /// The `type` object of a REST issue: only its name is kept.
  private struct TypeObject: Codable { var name: String }

  /// Creates an issue.
  public init(
    id: Int64, number: Int, title: String, state: State, stateReason: String? = nil,
    user: GitHubUser,
    labels: [GitHubLabel] = [], milestone: GitHubMilestone? = nil, assignees: [GitHubUser] = [],
    comments: Int = 0, createdAt: Date, updatedAt: Date, closedAt: Date? = nil, body: String? = nil,
    htmlURL: String? = nil, isPullRequest: Bool = false, locked: Bool = false,
    subIssues: SubIssueSummary? = nil
  ) {
    self.id = id
    self.number = number
    self.title = title
    self.state = state
    self.stateReason = stateReason
    self.user = user
    self.labels = labels
    self.milestone = milestone
    self.assignees = assignees
    self.comments = comments
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.closedAt = closedAt
    self.body = body
    self.htmlURL = htmlURL
    self.isPullRequest = isPullRequest
    self.locked = locked
    self.subIssues = subIssues
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    number = try container.decode(Int.self, forKey: .number)
    title = try container.decode(String.self, forKey: .title)
    state = try container.decode(State.self, forKey: .state)
    stateReason = try container.decodeIfPresent(String.self, forKey: .stateReason)
    user = try container.decodeIfPresent(GitHubUser.self, forKey: .user) ?? .ghost
    labels =
      try container.decodeIfPresent([IssueLabel].self, forKey: .labels)?.compactMap(\.label)
      ?? []
    milestone = try container.decodeIfPresent(GitHubMilestone.self, forKey: .milestone)
    if let assignees = try container.decodeIfPresent([GitHubUser?].self, forKey: .assignees) {
      self.assignees = assignees.compactMap { $0 }
    } else {
      assignees =
        try container.decodeIfPresent(GitHubUser.self, forKey: .assignee).map { [$0] } ?? []
    }
    comments = try container.decodeIfPresent(Int.self, forKey: .comments) ?? 0
    createdAt = try container.decode(Date.self, forKey: .createdAt)
    updatedAt = try container.decode(Date.self, forKey: .updatedAt)
    closedAt = try container.decodeIfPresent(Date.self, forKey: .closedAt)
    body = try container.decodeIfPresent(String.self, forKey: .body)
    htmlURL = try container.decodeIfPresent(String.self, forKey: .htmlURL)
    if container.contains(.pullRequest) {
      isPullRequest = try !container.decodeNil(forKey: .pullRequest)
    } else {
      isPullRequest = false
    }
    if isPullRequest {
      // What cannot be read of the merge is not known, not an error: the row still counts.
      mergedAt =
        (try? container.decodeIfPresent(PullRequestObject.self, forKey: .pullRequest))??.mergedAt
      isDraft = (try? container.decodeIfPresent(Bool.self, forKey: .draft)) ?? nil ?? false
    }
    locked = try container.decodeIfPresent(Bool.self, forKey: .locked) ?? false
    // A summary GitHub did not send, or one that cannot be read, is no summary.
    subIssues = (try? container.decodeIfPresent(SubIssueSummary.self, forKey: .subIssues)) ?? nil
    nodeID = try? container.decodeIfPresent(String.self, forKey: .nodeID)
    issueType = (try? container.decodeIfPresent(TypeObject.self, forKey: .issueType))??.name
  }

  /// An element of `labels`: an object, or (as the OpenAPI description allows) a bare name; an
  /// object without a name is dropped.
  private struct IssueLabel: Decodable {
    var label: GitHubLabel?

    init(from decoder: any Decoder) throws {
      if let name = try? decoder.singleValueContainer().decode(String.self) {
        label = GitHubLabel(name: name)
      } else {
        let object = try GitHubLabel.Lenient(from: decoder)
        label = object.name.map {
          GitHubLabel(
            id: object.id, name: $0, color: object.color, description: object.description,
            nodeID: object.nodeID)
        }
      }
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(number, forKey: .number)
    try container.encode(title, forKey: .title)
    try container.encode(state, forKey: .state)
    try container.encodeIfPresent(stateReason, forKey: .stateReason)
    try container.encode(user, forKey: .user)
    try container.encode(labels, forKey: .labels)
    try container.encodeIfPresent(milestone, forKey: .milestone)
    try container.encode(assignees, forKey: .assignees)
    try container.encode(comments, forKey: .comments)
    try container.encode(createdAt, forKey: .createdAt)
    try container.encode(updatedAt, forKey: .updatedAt)
    try container.encodeIfPresent(closedAt, forKey: .closedAt)
    try container.encodeIfPresent(body, forKey: .body)
    try container.encodeIfPresent(htmlURL, forKey: .htmlURL)
    if isPullRequest {
      try container.encode(
        PullRequestObject(url: htmlURL ?? "", mergedAt: mergedAt), forKey: .pullRequest)
      try container.encode(isDraft, forKey: .draft)
    }
    try container.encode(locked, forKey: .locked)
    try container.encodeIfPresent(subIssues, forKey: .subIssues)
    try container.encodeIfPresent(nodeID, forKey: .nodeID)
    try container.encodeIfPresent(issueType.map(TypeObject.init), forKey: .issueType)
  }
}
