/// A repository, as `GET /repos/{owner}/{repo}` describes it.
public struct GitHubRepository: Codable, Hashable, Sendable {
  /// The numeric identifier.
  public var id: Int64
  /// `owner/name`.
  package var fullName: String
  /// Whether only some people can see it.
  package var isPrivate: Bool
  /// Its page on GitHub.
  package var htmlURL: String?
  /// The description.
  public var description: String?
  /// Open issues and pull requests, as GitHub counts them.
  package var openIssuesCount: Int?
  /// Whether pull requests may be merged with a merge commit, squashed, rebased; `nil` when
  /// GitHub did not say (it says only to those who can push).
  package var allowsMergeCommit: Bool?
  package var allowsSquashMerge: Bool?
  package var allowsRebaseMerge: Bool?

  /// How its pull requests may be merged, when GitHub said.
  package var mergeMethods: Set<PullRequestMerge.Method>? {
    guard let allowsMergeCommit, let allowsSquashMerge, let allowsRebaseMerge else { return nil }
    let allowed: [(Bool, PullRequestMerge.Method)] = [
      (allowsMergeCommit, .merge), (allowsSquashMerge, .squash), (allowsRebaseMerge, .rebase),
    ]
    return Set(allowed.compactMap { $0.0 ? $0.1 : nil })
  }

  enum CodingKeys: String, CodingKey {
    case id, description
    case fullName = "full_name"
    case isPrivate = "private"
    case htmlURL = "html_url"
    case openIssuesCount = "open_issues_count"
    case allowsMergeCommit = "allow_merge_commit"
    case allowsSquashMerge = "allow_squash_merge"
    case allowsRebaseMerge = "allow_rebase_merge"
  }

  /// Creates a repository description.
  public init(
    id: Int64, fullName: String, isPrivate: Bool = false, htmlURL: String? = nil,
    description: String? = nil,
    openIssuesCount: Int? = nil
  ) {
    self.id = id
    self.fullName = fullName
    self.isPrivate = isPrivate
    self.htmlURL = htmlURL
    self.description = description
    self.openIssuesCount = openIssuesCount
  }
}
