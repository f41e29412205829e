/// The GraphQL queries the mirror sends, and what GitHub charges for them.
///
/// GitHub prices a query by the requests its connections would take: one for each top-level
/// connection, and for a nested one, one per node of its parent (`first` of each parent
/// multiplied together); the sum divided by 100, rounded, at least 1. Connections asked only for
/// `totalCount` and lists that are not connections (`reactionGroups`) are not counted. So a page
/// of issues costs about the same whatever the size of its nested connections, and the page
/// size that gives the most items a point is the one that stays just under a rounding step.
///
/// <https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api>
enum MirrorQuery {
  /// The timeline entries a reader shows: comments and the events it writes a line for.
  static let timelineTypes = """
    [ISSUE_COMMENT, CLOSED_EVENT, REOPENED_EVENT, MILESTONED_EVENT, DEMILESTONED_EVENT, \
    LABELED_EVENT, UNLABELED_EVENT, ASSIGNED_EVENT, UNASSIGNED_EVENT, RENAMED_TITLE_EVENT, \
    CROSS_REFERENCED_EVENT]
    """

  static let timelineFragment = """
    fragment MirrorTimelineItem on IssueTimelineItems {
      __typename
      ... on IssueComment {
        id databaseId body createdAt updatedAt url authorAssociation
        author { login __typename ... on User { databaseId id } ... on Bot { databaseId id } }
        reactionGroups { content reactors { totalCount } }
      }
      ... on ClosedEvent { createdAt stateReason actor { login } }
      ... on ReopenedEvent { createdAt actor { login } }
      ... on MilestonedEvent { createdAt milestoneTitle actor { login } }
      ... on DemilestonedEvent { createdAt milestoneTitle actor { login } }
      ... on LabeledEvent { createdAt label { name } actor { login } }
      ... on UnlabeledEvent { createdAt label { name } actor { login } }
      ... on AssignedEvent { createdAt actor { login } assignee { ... on User { login } ... on Bot { login } } }
      ... on UnassignedEvent { createdAt actor { login } assignee { ... on User { login } ... on Bot { login } } }
      ... on RenamedTitleEvent { createdAt previousTitle currentTitle actor { login } }
      ... on CrossReferencedEvent {
        createdAt actor { login }
        source {
          ... on Issue { number title repository { nameWithOwner } }
          ... on PullRequest { number title repository { nameWithOwner } }
        }
      }
    }
    """

  static let timelineConnection = """
    totalCount pageInfo { hasNextPage endCursor } nodes { ...MirrorTimelineItem }
    """

  /// The fields of a row, issue or pull request; a pull request's id is read through
  /// `fullDatabaseId` where the host has it (`databaseId` is deprecated on pull requests).
  static func rowFields(pullRequest: Bool = false, _ features: SchemaFeatures = .all) -> String {
    let id =
      pullRequest && features.pullRequestFullDatabaseId
      ? "databaseId: fullDatabaseId" : "databaseId"
    return """
      id \(id) number title body state locked createdAt updatedAt closedAt url
      author { login __typename ... on User { databaseId id } ... on Bot { databaseId id } }
      milestone { number title }
      labels(first: 100) { totalCount nodes { id name color description } }
      assignees(first: 10) { totalCount nodes { login databaseId id __typename } }
      comments { totalCount }
      """
  }

  static let rateLimit = "rateLimit { cost remaining limit resetAt }"

  /// A page of issues with their conversations' first entries, oldest update first; only the
  /// fields the host's schema has.
  static func issues(_ features: SchemaFeatures) -> String {
    """
    query MirrorIssues($owner: String!, $name: String!, $first: Int!, $after: String, \
    $since: DateTime, $timeline: Int!) {
      \(rateLimit)
      repository(owner: $owner, name: $name) {
        issues(first: $first, after: $after, orderBy: {field: UPDATED_AT, direction: ASC}, \
    filterBy: {since: $since}) {
          totalCount
          pageInfo { hasNextPage endCursor }
          edges { cursor }
          nodes {
            \(rowFields())
            stateReason
            \(features.issueTypes ? "issueType { name }" : "")
            \(features.subIssues
              ? "parent { number repository { nameWithOwner } } subIssuesSummary { total completed }"
              : "")
            timelineItems(first: $timeline, itemTypes: \(timelineTypes)) { \(timelineConnection) }
          }
        }
      }
    }
    \(timelineFragment)
    """
  }

  /// How many issues (not pull requests) were updated at or after `since`, and how many pull
  /// requests the repository has: one point, to tell whether the cache holds items GitHub no
  /// longer has.
  static let issueCount = """
    query MirrorIssueCount($owner: String!, $name: String!, $since: DateTime) {
      \(rateLimit)
      repository(owner: $owner, name: $name) {
        issues(first: 1, filterBy: {since: $since}) { totalCount }
        pullRequests(first: 1) { totalCount }
      }
    }
    """

  /// A page of the repository's pull-request numbers, oldest created first (an order edits do
  /// not change): one point a page, walked only when GitHub counts fewer pull requests than the
  /// cache holds.
  static let pullRequestNumbers = """
    query MirrorPullRequestNumbers($owner: String!, $name: String!, $first: Int!, $after: String) {
      \(rateLimit)
      repository(owner: $owner, name: $name) {
        pullRequests(first: $first, after: $after, orderBy: {field: CREATED_AT, direction: ASC}) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes { number }
        }
      }
    }
    """

  /// A page of pull requests as rows (their conversations are read when opened).
  static func pullRequests(_ features: SchemaFeatures) -> String {
    """
    query MirrorPullRequests($owner: String!, $name: String!, $first: Int!, $after: String) {
      \(rateLimit)
      repository(owner: $owner, name: $name) {
        pullRequests(first: $first, after: $after, orderBy: {field: UPDATED_AT, direction: ASC}) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes { \(rowFields(pullRequest: true, features)) isDraft mergedAt }
        }
      }
    }
    """
  }

  /// The connections a pull request's details open: requested reviewers, latest reviews, the
  /// head commit.
  static let pullRequestDetailRequests = 10 + 10 + 1

  /// Several pull requests' details, one alias (`p0`, `p1`…) each.
  static func pullRequestDetails(count: Int) -> String {
    let variables = (0..<count).map { ", $n\($0): Int!" }.joined()
    let aliases = (0..<count).map { "    p\($0): pullRequest(number: $n\($0)) { ...Details }" }
      .joined(separator: "\n")
    return """
      query MirrorPullRequestDetails($owner: String!, $name: String!\(variables)) {
        \(rateLimit)
        repository(owner: $owner, name: $name) {
      \(aliases)
        }
      }
      fragment Details on PullRequest {
        number updatedAt isDraft mergedAt reviewDecision mergeable headRefName baseRefName
        additions deletions
        reviewRequests(first: 10) {
          nodes {
            requestedReviewer {
              __typename ... on User { login } ... on Bot { login } ... on Mannequin { login }
              ... on Team { combinedSlug name }
            }
          }
        }
        latestReviews(first: 10) {
          nodes { author { login } authorAssociation submittedAt body state }
        }
        commits(last: 1) { nodes { commit { statusCheckRollup { state } } } }
      }
      """
  }

  /// The next entries of several issues' timelines, one alias (`i0`, `i1`…) an issue.
  static func timelines(count: Int) -> String {
    let variables = (0..<count).map { ", $n\($0): Int!, $a\($0): String" }.joined()
    let aliases = (0..<count).map {
      """
          i\($0): issue(number: $n\($0)) {
            number updatedAt
            timelineItems(first: $timeline, after: $a\($0), itemTypes: \(timelineTypes)) { \
      \(timelineConnection) }
          }
      """
    }.joined(separator: "\n")
    return """
      query MirrorTimelines($owner: String!, $name: String!, $timeline: Int!\(variables)) {
        \(rateLimit)
        repository(owner: $owner, name: $name) {
      \(aliases)
        }
      }
      \(timelineFragment)
      """
  }

  /// The sub-issues of several parents, in their order, one alias a parent.
  static func subIssues(count: Int) -> String {
    let variables = (0..<count).map { ", $n\($0): Int!" }.joined()
    let aliases = (0..<count).map {
      """
          i\($0): issue(number: $n\($0)) {
            number
            subIssues(first: 100) { totalCount pageInfo { hasNextPage endCursor } \
      nodes { number repository { nameWithOwner } } }
          }
      """
    }.joined(separator: "\n")
    return """
      query MirrorSubIssues($owner: String!, $name: String!\(variables)) {
        \(rateLimit)
        repository(owner: $owner, name: $name) {
      \(aliases)
        }
      }
      """
  }

  /// Which of some nodes (comments, by node id) still exist: a deleted one is `null`.
  static let nodes = """
    query MirrorNodes($ids: [ID!]!) {
      \(rateLimit)
      nodes(ids: $ids) { id }
    }
    """

  /// GitHub's price of a query: `requests` connection requests, divided by 100 and rounded,
  /// at least 1.
  static func points(requests: Int) -> Int {
    max(1, Int((Double(requests) / 100).rounded()))
  }

  /// The page size, at most `limit`, that brings the most items a point when every item opens
  /// `nested` connections (and the page itself is `fixed` requests), with the larger size among
  /// equals.
  static func bestPageSize(nested: Int, fixed: Int = 1, limit: Int) -> Int {
    var best = 1
    var bestRate = 0.0
    for size in 1...max(1, limit) {
      let rate = Double(size) / Double(points(requests: fixed + size * nested))
      if rate >= bestRate {
        best = size
        bestRate = rate
      }
    }
    return best
  }
}
