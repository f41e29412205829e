import Foundation

/// A pull request as an aliased details query (`p0`, `p1`…) answers it.
struct AliasedPullRequest: Decodable, Sendable {
  struct Reviewer: Decodable, Sendable {
    var __typename: String
    var login: String?
    var combinedSlug: String?
    var name: String?
  }
  struct ReviewRequest: Decodable, Sendable { var requestedReviewer: Reviewer? }
  struct Review: Decodable, Sendable {
    struct Author: Decodable, Sendable { var login: String }
    var author: Author?
    var state: String
    var authorAssociation: String?
    var body: String?
    var submittedAt: Date?
  }
  struct Rollup: Decodable, Sendable { var state: String }
  struct Commit: Decodable, Sendable { var statusCheckRollup: Rollup? }
  struct CommitNode: Decodable, Sendable { var commit: Commit }
  struct Nodes<Node: Decodable & Sendable>: Decodable, Sendable { var nodes: [Node?] }

  var number: Int
  var updatedAt: Date
  var isDraft: Bool?
  var mergedAt: Date?
  var reviewDecision: String?
  var mergeable: String?
  var headRefName: String
  var baseRefName: String
  var additions: Int
  var deletions: Int
  var reviewRequests: Nodes<ReviewRequest>?
  var latestReviews: Nodes<Review>?
  var commits: Nodes<CommitNode>?

  /// The details as the cache keeps them.
  var details: PullRequestDetails {
    PullRequestDetails(
      number: number, updatedAt: updatedAt,
      reviewDecision: reviewDecision.flatMap(PullRequestDetails.ReviewDecision.init(rawValue:)),
      checks: commits?.nodes.last??.commit.statusCheckRollup.flatMap {
        PullRequestDetails.Checks(rollup: $0.state)
      },
      mergeable: mergeable.flatMap(PullRequestDetails.Mergeable.init(rawValue:)) ?? .unknown,
      headRef: headRefName, baseRef: baseRefName, additions: additions, deletions: deletions,
      requestedReviewers: (reviewRequests?.nodes ?? []).compactMap { request in
        request?.requestedReviewer.flatMap { $0.login ?? $0.combinedSlug }
      },
      teamNames: Dictionary(
        (reviewRequests?.nodes ?? []).compactMap { request in
          request?.requestedReviewer.flatMap { reviewer in
            reviewer.combinedSlug.map { ($0, reviewer.name ?? $0) }
          }
        }, uniquingKeysWith: { first, _ in first }),
      reviews: (latestReviews?.nodes ?? []).compactMap { review in
        guard let review, let author = review.author?.login else { return nil }
        return PullRequestDetails.Review(
          author: author, state: review.state,
          authorAssociation: review.authorAssociation ?? "NONE", body: review.body ?? "",
          submittedAt: review.submittedAt)
      })
  }
}

/// What a query of aliased pull requests (`p0`, `p1`…) answers.
typealias AliasedPullRequests = AliasedEntries<AliasedPullRequest>
