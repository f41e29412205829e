import Foundation

/// A pull request as `GET /repos/{owner}/{repo}/pulls/{number}` returns it, the parts the
/// reader and the dashboard keep: branches, head commit, size, mergeability, requested
/// reviewers, and how many review comments it announces.
///
/// It is how details reach the cache without GraphQL (a token without it, or none): REST says
/// everything ``PullRequestDetails`` holds but the review decision, which
/// ``details(reviews:checks:cached:repositoryOwner:)`` works out from the reviews.
package struct GitHubPullRequest: Decodable, Hashable, Sendable {
  /// The number.
  package var number: Int
  /// When it last changed.
  package var updatedAt: Date
  /// The branch it brings.
  package var headRef: String
  /// The repository that branch is in (`owner/name`), or `nil` once GitHub no longer says.
  ///
  /// The base repository's own, a fork's, or unknown (a deleted fork). Only the base
  /// repository's own branch is ever deleted after a merge.
  package var headRepository: String?
  /// The commit at the head of that branch, in lowercase hexadecimal: whose checks it shows.
  package var headSHA: String
  /// The branch it goes into.
  package var baseRef: String
  /// The commit of that branch GitHub compares the head with, when it said: a retarget (GitHub
  /// retargets a stacked pull request by itself when the one below merges) or a push to the
  /// base changes it.
  package var baseSHA: String?
  /// Lines added, when GitHub said.
  package var additions: Int
  /// Lines removed, when GitHub said.
  package var deletions: Int
  /// Whether it merges cleanly: `nil` while GitHub works it out.
  package var mergeable: Bool?
  /// How many review comments (on lines of the diff) it has.
  package var reviewComments: Int
  /// Who is asked to review: logins.
  package var requestedReviewers: [String]
  /// Teams asked to review, by slug.
  package var requestedTeams: [String]
  /// The display names of ``requestedTeams``, by slug.
  package var teamNames: [String: String]

  /// Creates one.
  package init(
    number: Int, updatedAt: Date, headRef: String, headRepository: String? = nil,
    headSHA: String, baseRef: String, baseSHA: String? = nil,
    additions: Int = 0, deletions: Int = 0, mergeable: Bool? = nil, reviewComments: Int = 0,
    requestedReviewers: [String] = [], requestedTeams: [String] = [],
    teamNames: [String: String] = [:]
  ) {
    self.number = number
    self.updatedAt = updatedAt
    self.headRef = headRef
    self.headRepository = headRepository
    self.headSHA = headSHA
    self.baseRef = baseRef
    self.baseSHA = baseSHA
    self.additions = additions
    self.deletions = deletions
    self.mergeable = mergeable
    self.reviewComments = reviewComments
    self.requestedReviewers = requestedReviewers
    self.requestedTeams = requestedTeams
    self.teamNames = teamNames
  }

  /// Whether `text` is a commit SHA as GitHub writes one: 7 to 64 lowercase hexadecimal digits.
  static func isCommitSHA(_ text: String) -> Bool {
    (7...64).contains(text.utf8.count)
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// Whether its head branch is `repository`'s own (not a fork's, and still known).
  package func headIsOwned(by repository: RepositoryName) -> Bool {
    headRepository?.caseInsensitiveCompare(repository.description) == .orderedSame
  }

  /// How many files it changes, when GitHub said: what a listing of its files must reach
  /// (GitHub lists 3,000 at most).
  package var changedFiles: Int?

  enum CodingKeys: String, CodingKey {
    case number, head, base, additions, deletions, mergeable
    case changedFiles = "changed_files"
    case updatedAt = "updated_at"
    case reviewComments = "review_comments"
    case requestedReviewers = "requested_reviewers"
    case requestedTeams = "requested_teams"
  }

  struct Branch: Decodable {
    var ref: String?
    var sha: String?
    var repo: Repository?
  }
  struct Repository: Decodable {
    var fullName: String?
    enum CodingKeys: String, CodingKey { case fullName = "full_name" }
  }
  struct Named: Decodable { var login: String?; var slug: String?; var name: String? }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    number = try container.decode(Int.self, forKey: .number)
    updatedAt = try container.decode(Date.self, forKey: .updatedAt)
    let head = try container.decode(Branch.self, forKey: .head)
    // The commit goes into request paths: only a hexadecimal SHA is taken.
    guard let sha = head.sha, Self.isCommitSHA(sha) else {
      throw DecodingError.dataCorruptedError(
        forKey: .head, in: container, debugDescription: "the head has no commit SHA")
    }
    headSHA = sha
    headRef = head.ref ?? ""
    headRepository = head.repo?.fullName
    let base = try? container.decodeIfPresent(Branch.self, forKey: .base)
    baseRef = base?.ref ?? ""
    baseSHA = base?.sha.flatMap { Self.isCommitSHA($0) ? $0 : nil }
    additions = max(0, (try? container.decodeIfPresent(Int.self, forKey: .additions)) ?? 0)
    deletions = max(0, (try? container.decodeIfPresent(Int.self, forKey: .deletions)) ?? 0)
    mergeable = try? container.decodeIfPresent(Bool.self, forKey: .mergeable)
    changedFiles = (try? container.decodeIfPresent(Int.self, forKey: .changedFiles))?
      .map { max(0, $0) }
    reviewComments = max(
      0, (try? container.decodeIfPresent(Int.self, forKey: .reviewComments)) ?? 0)
    let reviewers = (try? container.decodeIfPresent([Named?].self, forKey: .requestedReviewers))
    requestedReviewers = (reviewers ?? []).compactMap { $0?.login }
    let teams = (try? container.decodeIfPresent([Named?].self, forKey: .requestedTeams))
    requestedTeams = (teams ?? []).compactMap { $0?.slug }
    teamNames = Dictionary(
      (teams ?? []).compactMap { team in team?.slug.map { ($0, team?.name ?? $0) } },
      uniquingKeysWith: { first, _ in first })
  }

  /// The details the cache keeps, from this answer, the pull request's reviews and checks.
  ///
  /// The review decision is worked out as GitHub does where REST lets it: changes requested
  /// when a reviewer's latest review requests them, approved when one approves and none
  /// requests changes, otherwise "review required" when reviewers are asked or GraphQL said so
  /// before (REST cannot see branch protection).
  ///
  /// - Parameters:
  ///   - reviews: The submitted reviews, oldest first.
  ///   - checks: The head commit's checks, when they could be read (else the cached rollup
  ///     stays).
  ///   - cached: The details kept before, if any.
  ///   - repositoryOwner: The organization requested teams belong to.
  /// - Returns: The details to store, current as of ``updatedAt``.
  package func details(
    reviews: [PullRequestReview], checks: [PullRequestCheck]?, cached: PullRequestDetails?,
    repositoryOwner: String
  ) -> PullRequestDetails {
    var latest: [String: PullRequestReview] = [:]
    for review in reviews where review.state != "COMMENTED" && review.state != "PENDING" {
      latest[review.author] = review
    }
    let states = Set(latest.values.map(\.state))
    let requested = requestedReviewers + requestedTeams.map { "\(repositoryOwner)/\($0)" }
    let decision: PullRequestDetails.ReviewDecision? =
      if states.contains("CHANGES_REQUESTED") {
        .changesRequested
      } else if states.contains("APPROVED") {
        .approved
      } else if !requested.isEmpty || cached?.reviewDecision != nil {
        .reviewRequired
      } else {
        nil
      }
    // Each reviewer's latest review, in the order they were submitted.
    var latestOfEach: [String: (position: Int, review: PullRequestReview)] = [:]
    for (position, review) in reviews.enumerated() where review.state != "PENDING" {
      latestOfEach[review.author] = (position, review)
    }
    return PullRequestDetails(
      number: number, updatedAt: updatedAt, reviewDecision: decision,
      checks: checks.map(PullRequestCheck.rollup) ?? cached?.checks,
      mergeable: mergeable.map { $0 ? .mergeable : .conflicting } ?? .unknown,
      headRef: headRef, baseRef: baseRef, additions: additions, deletions: deletions,
      requestedReviewers: requested,
      teamNames: Dictionary(
        requestedTeams.map { ("\(repositoryOwner)/\($0)", teamNames[$0] ?? $0) },
        uniquingKeysWith: { first, _ in first }),
      reviews: latestOfEach.values.sorted { $0.position < $1.position }.map { latest in
        PullRequestDetails.Review(
          author: latest.review.author, state: latest.review.state,
          authorAssociation: latest.review.authorAssociation ?? "NONE", body: latest.review.body,
          submittedAt: latest.review.submittedAt)
      })
  }
}
