import Foundation

/// A pull request review through the outbox: one write with every line comment, and a landed
/// check that reads the pull request's reviews before anything is sent twice.
struct ReviewOperation: OutboxOperation {
  let outbox: ActionReplayer
  /// The verdict, the summary, the commit and the line comments.
  var review: ReviewSubmission

  var needsViewer: Bool { true }

  /// The most pages of reviews, or of one review's line comments, read for a landed check:
  /// beyond them whether a review landed is not known, and nothing is sent.
  static let pageLimit = 30

  /// What a landed check found.
  enum ReviewSearch {
    /// The review the lost send made.
    case found(Int64)
    /// Not on GitHub: the newest review listed (0 for none).
    case absent(newest: Int64)
  }

  /// Submits the review, or settles one sent without an answer.
  ///
  /// A send whose answer was lost is found among the pull request's reviews, listed whole: by
  /// the viewer recorded at the first send, newer than every review then, with the verdict, the
  /// summary and the commit, not claimed by another action — and with exactly the line comments
  /// sent (paths and texts, read from the review itself). No clock is trusted.
  func send(_ action: QueuedAction, on issue: GitHubIssue?, _ pass: ActionReplayer.Pass) async
    -> ActionReplayer.Outcome
  {
    let number = read(issue).number
    let marks = marks(of: action)
    var newest: Int64?
    if wasSent(action) {
      switch await findReview(
        onPullRequest: number, viewer: marks.viewer ?? pass.viewer,
        known: marks.knownReviewID ?? 0)
      {
      case .failure(let error): return .stop(error)
      case .success(.found(let id)):
        do {
          try cache.markReviewed(action.id, review: id, onPullRequest: number, now: now())
        } catch {
          return .stop(cacheFailure())
        }
        return .foundLanded(nil)
      case .success(.absent(let listed)): newest = listed
      }
    }
    guard case .sendAndSettle = pass.sending else { return .held }
    guard let viewer = pass.viewer else {
      return .stop(
        unknownViewer("reviews of \(repository)#\(number)", "a lost answer could not be checked"))
    }
    if newest == nil {
      switch await reviews(ofPullRequest: number) {
      case .success(let reviews): newest = reviews.map(\.id).max() ?? 0
      case .failure(let error): return .stop(error)
      }
    }
    do {
      guard
        try cache.markSending(
          action.id, viewer: viewer, knownCommentID: nil, knownEventID: nil,
          knownReviewID: newest, sending: .review(review), now: now())
      else { return .cancelledMeanwhile }
    } catch {
      return .stop(cacheFailure())
    }
    do {
      let made = try await client.submitReview(review, onPullRequest: number, in: repository)
      do {
        try cache.markReviewed(action.id, review: made.id, onPullRequest: number, now: now())
      } catch {
        return .stop(cacheFailure())
      }
      return .sent(nil)
    } catch {
      return failed(action, error, refusal: Self.reviewRefusal(error, number))
    }
  }

  /// GitHub's refusal of a review, said for the person.
  private static func reviewRefusal(_ error: GitHubError, _ number: Int) -> String? {
    switch error.code {
    case .validation:
      "GitHub refused the review of #\(number) (a line not in the diff, or a verdict it does "
        + "not take from you): \(error.summary())"
    case .notFound, .gone: "#\(number) is no longer on GitHub: \(error.summary())"
    default: OutboxLedger.refusal(error)
    }
  }

  /// Looks for the review an unanswered send may have made, as the type says.
  private func findReview(
    onPullRequest number: Int, viewer: String?, known: Int64
  ) async -> Result<ReviewSearch, GitHubError> {
    guard let viewer else {
      return .failure(
        unknownViewer(
          "reviews of \(repository)#\(number)", "whether the review landed is not known"))
    }
    let listed: [PullRequestReview]
    switch await reviews(ofPullRequest: number) {
    case .success(let reviews): listed = reviews
    case .failure(let error): return .failure(error)
    }
    let claimed: Set<Int64>
    do {
      claimed = try cache.claimedReviewIDs(onPullRequest: number)
    } catch {
      return .failure(cacheFailure())
    }
    let summary = Self.normalized(review.body)
    let candidates = listed.filter { candidate in
      candidate.id > known && !claimed.contains(candidate.id)
        && candidate.author.lowercased() == viewer.lowercased()
        && review.verdict.landedStates.contains(candidate.state)
        && Self.normalized(candidate.body) == summary
        && Self.sameCommit(candidate.commitID, review.commitID)
    }
    let wanted = Self.lineComments(review.comments.map { ($0.path, $0.body) })
    for candidate in candidates {
      let made: [ReviewComment]
      switch await Self.whole(
        client.reviewCommentPages(of: repository, pullRequest: number, review: candidate.id),
        what: "comments of review \(candidate.id)")
      {
      case .success(let comments): made = comments
      case .failure(let error): return .failure(error)
      }
      if Self.lineComments(made.map { ($0.path, $0.body) }) == wanted {
        return .success(.found(candidate.id))
      }
    }
    return .success(.absent(newest: listed.map(\.id).max() ?? 0))
  }

  /// Whether a review read back is of the commit sent (any, when either is not said).
  private static func sameCommit(_ read: String?, _ sent: String?) -> Bool {
    guard let read, let sent else { return true }
    return read.lowercased() == sent.lowercased()
  }

  /// Line comments as compared: how many of each path and text (normalized).
  private static func lineComments(_ comments: [(path: String, body: String)]) -> [String: Int] {
    var counts: [String: Int] = [:]
    for comment in comments {
      counts[comment.path + "\u{0}" + normalized(comment.body), default: 0] += 1
    }
    return counts
  }

  /// Every review of the pull request, in the order submitted; a listing longer than the
  /// limit, or an item that cannot be read, is a failure (nothing is judged on part of it).
  private func reviews(ofPullRequest number: Int) async -> Result<[PullRequestReview], GitHubError>
  {
    await Self.whole(
      client.reviewPages(of: repository, pullRequest: number),
      what: "reviews of \(repository)#\(number)")
  }

  /// Every item of a listing, following its pages; one its pages do not prove whole
  /// (``ListingProof``: more than ``pageLimit`` pages, an item that cannot be read, a page
  /// missing) is a failure: a landed check judges nothing on part of one.
  static func whole<Item: Decodable & Sendable>(
    _ pages: PageSequence<Item>, what: String
  ) async -> Result<[Item], GitHubError> {
    do {
      let (items, proof) = try await ListingProof.collect(pages, pageLimit: pageLimit)
      if let gap = proof.gap {
        return .failure(GitHubError(.incompleteListing, url: what, detail: gap))
      }
      return .success(items)
    } catch {
      return .failure(error)
    }
  }
}
