/// What one term of a ``SearchQuery`` tests, in GitHub's search vocabulary (each qualifier of
/// ``SearchQualifier/all`` reads its value as one of these).
///
/// Scope conditions (``repository(_:host:)``, ``owner(_:)``, ``host(_:)``) choose which cached
/// repositories a query reads; the others test each item in them.
public enum QueryCondition: Hashable, Sendable {
  /// `is:open`, `is:closed`, `state:open`.
  case state(GitHubIssue.State)
  /// `is:issue`, `is:pr`, `type:issue`, `type:pr`.
  case kind(QueryItemKind)
  /// `type:Bug`: the issue type's name (GitHub's issue types; mirrored caches hold them).
  case issueType(String)
  /// `label:bug`, or `label:bug,crash` for any one of several.
  case label(anyOf: [String])
  /// `milestone:"1.0"`, by title.
  case milestone(String)
  /// `no:label`, `no:milestone`, `no:assignee`.
  case missing(QueryField)
  /// `repo:OWNER/REPO`, or `repo:HOST/OWNER/REPO` for one host's copy.
  case repository(RepositoryName, host: String?)
  /// `org:acme` or `user:octocat`: every configured repository of that owner.
  case owner(String)
  /// `host:ghe.example.com`: every configured repository on that host (not GitHub's syntax,
  /// which knows one host at a time).
  case host(String)
  /// `author:octocat`.
  case author(QueryActor)
  /// `assignee:octocat`.
  case assignee(QueryActor)
  /// `mentions:octocat`: `@octocat` in the body or a cached comment.
  case mentions(QueryActor)
  /// `commenter:octocat`: wrote one of the cached comments.
  case commenter(QueryActor)
  /// `involves:octocat`: author, assignee, mentioned or commenter.
  case involves(QueryActor)
  /// `comments:>10`, `comments:5..20`.
  case comments(QueryInterval<Int>)
  /// `created:>=2026-01-01`.
  case created(QueryInterval<QueryInstant>)
  /// `updated:<2026-06-01`.
  case updated(QueryInterval<QueryInstant>)
  /// `closed:2026-11-01..2026-11-30`.
  case closed(QueryInterval<QueryInstant>)
  /// A word, searched for in titles and bodies as the start of a word (`crash` finds
  /// "crashes").
  case text(String)
  /// A `"quoted phrase"` of several words: those words, whole and in that order.
  case phrase(String)
  /// `is:draft` (`true`) or `draft:false`: a pull request that is (not) a draft.
  case draft(Bool)
  /// `is:merged` (`true`) or `is:unmerged`: a pull request merged, or open or closed unmerged.
  case merged(Bool)
  /// `merged:>=2026-01-01`: when a pull request was merged.
  case mergedAt(QueryInterval<QueryInstant>)
  /// `review-requested:octocat`: a pull request asking this account (or `org/team`) to review.
  case reviewRequested(String)
  /// `reviewed-by:octocat`: a pull request this account reviewed.
  case reviewedBy(QueryActor)
  /// `review:approved`, `review:changes_requested`, `review:required`, `review:none`.
  case review(QueryReview)
  /// `status:success`, `status:failure`, `status:pending`: the head commit's checks.
  case status(PullRequestDetails.Checks)
  /// `base:main`: the branch a pull request goes into.
  case base(String)
  /// `head:feature/x`: the branch it brings.
  case head(String)

  /// Whether the condition chooses repositories rather than testing items.
  package var isScope: Bool {
    switch self {
    case .repository, .owner, .host: true
    default: false
    }
  }

  /// The condition as written in a query.
  public var text: String {
    switch self {
    case .state(let state): "is:\(state.rawValue)"
    case .kind(let kind): "is:\(kind.rawValue)"
    case .issueType(let name): "type:\(QuerySyntax.quotedIfNeeded(name))"
    case .label(let names): "label:" + names.map(QuerySyntax.quotedIfNeeded).joined(separator: ",")
    case .milestone(let title): "milestone:\(QuerySyntax.quotedIfNeeded(title))"
    case .missing(let field): "no:\(field.rawValue)"
    case .repository(let name, let host): "repo:" + (host.map { "\($0)/" } ?? "") + "\(name)"
    case .owner(let owner): "user:\(owner)"
    case .host(let host): "host:\(host)"
    case .author(let actor): "author:\(actor.text)"
    case .assignee(let actor): "assignee:\(actor.text)"
    case .mentions(let actor): "mentions:\(actor.text)"
    case .commenter(let actor): "commenter:\(actor.text)"
    case .involves(let actor): "involves:\(actor.text)"
    case .comments(let interval): "comments:\(interval.text)"
    case .created(let interval): "created:\(interval.text)"
    case .updated(let interval): "updated:\(interval.text)"
    case .closed(let interval): "closed:\(interval.text)"
    case .text(let word): QuerySyntax.quotedIfNeeded(word)
    case .phrase(let words): "\"\(words)\""
    case .draft(let isDraft): isDraft ? "is:draft" : "draft:false"
    case .merged(let isMerged): isMerged ? "is:merged" : "is:unmerged"
    case .mergedAt(let interval): "merged:\(interval.text)"
    case .reviewRequested(let reviewer): "review-requested:\(reviewer)"
    case .reviewedBy(let actor): "reviewed-by:\(actor.text)"
    case .review(let review): "review:\(review.rawValue)"
    case .status(let checks): "status:\(QueryCondition.statusNames[checks] ?? "")"
    case .base(let branch): "base:\(QuerySyntax.quotedIfNeeded(branch))"
    case .head(let branch): "head:\(QuerySyntax.quotedIfNeeded(branch))"
    }
  }
}

extension QueryCondition {
  /// `status:`'s words for the check states.
  static let statusNames: [PullRequestDetails.Checks: String] = [
    .passing: "success", .failing: "failure", .pending: "pending",
  ]
}

/// What `review:` asks of a pull request's reviews.
public enum QueryReview: String, Hashable, Sendable, CaseIterable {
  /// Approved.
  case approved
  /// Changes requested.
  case changesRequested = "changes_requested"
  /// A review is required.
  case required
  /// No review decision (none required, or its details not fetched).
  case none
}
