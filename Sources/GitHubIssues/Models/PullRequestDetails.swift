import Foundation

/// What a pull request is beyond its row: review, checks, branches and size, as GraphQL gives
/// them (REST's issue listing says only whether it is a draft and when it was merged).
public struct PullRequestDetails: Hashable, Sendable {
  /// What the reviews decided, as GitHub sums them up.
  public enum ReviewDecision: String, Hashable, Sendable, CaseIterable {
    /// Approved.
    case approved = "APPROVED"
    /// Changes were requested.
    case changesRequested = "CHANGES_REQUESTED"
    /// A review is required and none approved yet.
    case reviewRequired = "REVIEW_REQUIRED"
  }

  /// The state of the head commit's checks and statuses, rolled up.
  public enum Checks: String, Hashable, Sendable, CaseIterable {
    /// Every check passed.
    case passing = "SUCCESS"
    /// A check failed or errored.
    case failing = "FAILURE"
    /// Checks are running or expected.
    case pending = "PENDING"

    /// GitHub's rollup state, folded into three: `ERROR` fails, `EXPECTED` waits.
    public init?(rollup: String) {
      switch rollup {
      case "SUCCESS": self = .passing
      case "FAILURE", "ERROR": self = .failing
      case "PENDING", "EXPECTED": self = .pending
      default: return nil
      }
    }
  }

  /// Whether it can be merged as it is.
  public enum Mergeable: String, Hashable, Sendable {
    /// It merges cleanly.
    case mergeable = "MERGEABLE"
    /// It conflicts with its base.
    case conflicting = "CONFLICTING"
    /// GitHub has not worked it out yet.
    case unknown = "UNKNOWN"
  }

  /// A review, the latest of its author: what gh's `latestReviews` prints.
  public struct Review: Hashable, Sendable {
    /// Who reviewed.
    public var author: String
    /// `APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`, `DISMISSED`.
    public var state: String
    /// The reviewer's relation to the repository (`MEMBER`, `NONE`…).
    public var authorAssociation: String
    /// What the reviewer wrote as the review's summary (often empty).
    public var body: String
    /// When it was submitted, when GitHub said.
    package var submittedAt: Date?

    /// A review.
    public init(
      author: String, state: String, authorAssociation: String = "NONE", body: String = "",
      submittedAt: Date? = nil
    ) {
      self.author = author
      self.state = state
      self.authorAssociation = authorAssociation
      self.body = body
      self.submittedAt = submittedAt
    }
  }

  /// The pull request's number.
  public var number: Int
  /// When it last changed, as these details were read (they are current while it stays so).
  public var updatedAt: Date
  /// What the reviews decided; `nil` when no review is required.
  package var reviewDecision: ReviewDecision?
  /// Its checks; `nil` when it has none.
  package var checks: Checks?
  /// Whether it merges.
  package var mergeable: Mergeable
  /// The branch it brings (`feature/x`).
  package var headRef: String
  /// The branch it goes into (`main`).
  package var baseRef: String
  /// Lines added.
  package var additions: Int
  /// Lines removed.
  package var deletions: Int
  /// Who is asked to review: logins, and teams as `org/team`.
  package var requestedReviewers: [String]
  /// The display names of the teams among ``requestedReviewers``, by their `org/team` slug.
  package var teamNames: [String: String]
  /// The latest review of each reviewer, in GitHub's order.
  package var reviews: [Review]

  /// Details of a pull request.
  public init(
    number: Int, updatedAt: Date, reviewDecision: ReviewDecision?, checks: Checks?,
    mergeable: Mergeable, headRef: String, baseRef: String, additions: Int, deletions: Int,
    requestedReviewers: [String], teamNames: [String: String] = [:], reviews: [Review]
  ) {
    self.number = number
    self.updatedAt = updatedAt
    self.reviewDecision = reviewDecision
    self.checks = checks
    self.mergeable = mergeable
    self.headRef = headRef
    self.baseRef = baseRef
    self.additions = additions
    self.deletions = deletions
    self.requestedReviewers = requestedReviewers
    self.teamNames = teamNames
    self.reviews = reviews
  }

  /// What a merge depends on, as said before one: "review approved, checks passing" (`nil`
  /// when neither is known).
  package var mergeSummary: String? {
    let review: String? =
      switch reviewDecision {
      case .approved: "review approved"
      case .changesRequested: "changes requested"
      case .reviewRequired: "review required"
      case nil: nil
      }
    let checks: String? =
      switch checks {
      case .passing: "checks passing"
      case .failing: "checks failing"
      case .pending: "checks pending"
      case nil: nil
      }
    let parts = [review, checks].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }
}
