import Foundation

/// Brings a pull request's own parts into the cache through REST: its details (branches, size,
/// mergeability, reviewers, reviews, and a review decision worked out from them), its head
/// commit's checks, and when asked its line comments.
///
/// It is what the reader asks when a pull request is opened, and what a sync falls back on
/// when GraphQL does not answer for a pull request's details. Each part that cannot be read
/// keeps what the cache held of it. Every listing is bounded by what GitHub announced: line
/// comments by the pull request's count, reviews, check runs and the workflow runs that name
/// them by one page of 100 (the reader says how many more checks there are).
package struct PullRequestFetcher: Sendable {
  /// The client requests go through.
  package var client: GitHubClient
  /// Where the details are kept.
  package var cache: IssueCache
  /// The repository of the pull requests.
  package var repository: RepositoryName

  /// How many line comments beyond the announced count a listing may bring.
  package static let lineCommentMargin = 1_000

  /// A fetcher for a repository's pull requests.
  package init(client: GitHubClient, cache: IssueCache, repository: RepositoryName) {
    self.client = client
    self.cache = cache
    self.repository = repository
  }

  /// Fetches pull request `number`'s details and checks, and with `lineComments` its line
  /// comments.
  ///
  /// - Parameters:
  ///   - number: The pull request.
  ///   - reviews: Its submitted reviews when known (the timeline brings them); `nil` lists
  ///     them (`pulls/{number}/reviews`, one page of 100).
  ///   - lineComments: Whether to list its line comments too.
  /// - Returns: Whether the details were fetched and written.
  package func fetch(
    _ number: Int, reviews: [PullRequestReview]?, lineComments: Bool
  ) async -> Bool {
    guard let pull = try? await client.pullRequest(number, of: repository), pull.number == number
    else { return false }
    if lineComments { await fetchLineComments(of: pull) }
    var reviews = reviews
    if reviews == nil {
      reviews = try? await client.reviews(of: repository, pullRequest: number)
        .filter { $0.state != "PENDING" && $0.submittedAt != nil }
    }
    var checks: [PullRequestCheck]?
    var announced = 0
    if let runs = try? await client.checkRuns(of: repository, commit: pull.headSHA),
      let statuses = try? await client.combinedStatus(of: repository, commit: pull.headSHA),
      let workflows = await workflowNames(of: runs, commit: pull.headSHA)
    {
      checks = runs.named(by: workflows) + statuses.checks
      announced = runs.totalCount + statuses.totalCount
    }
    let cached = (try? cache.pullRequestDetails(number: number)) ?? nil
    guard let reviews else {
      // Without the reviews the decision cannot be worked out: only the checks are kept.
      if let checks {
        try? cache.replaceChecks(
          of: number, with: checks, announced: announced, headSHA: pull.headSHA)
      }
      return false
    }
    let details = pull.details(
      reviews: reviews, checks: checks, cached: cached, repositoryOwner: repository.owner)
    do {
      try cache.writePullRequestDetails([details])
      if let checks {
        try cache.replaceChecks(
          of: number, with: checks, announced: announced, headSHA: pull.headSHA)
      }
      return true
    } catch {
      return false
    }
  }

  /// The workflow names of the commit's GitHub Actions runs; `nil` when GitHub did not answer.
  ///
  /// A token that may not read Actions (a fine-grained token without it, Actions turned off
  /// for the repository) is refused the runs (403, 404) though it reads the checks: they are
  /// kept, with no workflow name, rather than not at all.
  private func workflowNames(of runs: CheckRunList, commit sha: String) async -> [Int64: String]? {
    guard !runs.actionsSuites.isEmpty else { return [:] }
    do {
      return try await client.workflowNames(of: repository, commit: sha)
    } catch {
      return [.forbidden, .notFound].contains(error.code) ? [:] : nil
    }
  }

  /// How many pull requests a sync's fallback brings details for at most (four requests each, five when GitHub Actions ran).
  package static let fallbackLimit = 15

  /// Fetches through REST, newest first, the details of open pull requests that lack current
  /// ones: a sync's fallback when GraphQL did not answer.
  ///
  /// It stops at the first that cannot be read (offline, limited) and at `limit`: the rest
  /// wait for the next sync or their reading.
  ///
  /// - Returns: How many were fetched, and how many are left without current details.
  package func fetchMissingDetails(limit: Int = Self.fallbackLimit) async -> (
    fetched: Int, left: Int
  ) {
    let missing = (try? cache.pullRequestsNeedingDetails()) ?? []
    var fetched = 0
    for number in missing.prefix(limit) {
      guard await fetch(number, reviews: nil, lineComments: false) else { break }
      fetched += 1
    }
    return (fetched, missing.count - fetched)
  }

  /// Lists the pull request's line comments; a complete listing replaces the cached ones, an
  /// incomplete one only adds.
  private func fetchLineComments(of pull: GitHubPullRequest) async {
    let comments: [ReviewComment]
    let proof: ListingProof
    do {
      (comments, proof) = try await ListingProof.collect(
        client.reviewCommentPages(of: repository, pullRequest: pull.number),
        announced: max(0, pull.reviewComments),
        itemLimit: max(0, pull.reviewComments) + Self.lineCommentMargin)
    } catch {
      return
    }
    guard proof.cutShort == nil else { return }
    try? cache.writeReviewComments(comments, of: pull.number, complete: proof.gap == nil)
  }
}
