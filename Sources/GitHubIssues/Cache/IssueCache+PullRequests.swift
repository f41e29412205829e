import Foundation
import GRDB

// Pull requests' details: review, checks, branches, size — from GraphQL (or REST when it does
// not answer), for open pull requests and a budget of closed and merged ones each sync.

extension IssueCache {
  /// How many closed or merged pull requests a sync asks details of at most (about 50 points
  /// through GraphQL): a repository's backlog of old ones is worked through over several syncs
  /// rather than spending an hour's points on the first.
  public static let closedDetailsPerSync = 350

  /// The pull requests whose details are missing or older than the pull request: what a sync
  /// asks GraphQL for.
  ///
  /// Every open one, newest first, then at most `closedLimit` closed or merged ones, newest
  /// first.
  public func pullRequestsNeedingDetails(closedLimit: Int = closedDetailsPerSync) throws -> [Int] {
    try writer.read { db in
      let stale = """
        isPullRequest = 1 AND NOT EXISTS (
          SELECT 1 FROM pullRequest
          WHERE pullRequest.number = issue.number AND pullRequest.updatedAt >= issue.updatedAt)
        """
      let open = try Int.fetchAll(
        db,
        sql: """
          SELECT number FROM issue WHERE state = 'open' AND \(stale)
          ORDER BY updatedAt DESC, number DESC
          """)
      guard closedLimit > 0 else { return open }
      let closed = try Int.fetchAll(
        db,
        sql: """
          SELECT number FROM issue WHERE state = 'closed' AND \(stale)
          ORDER BY updatedAt DESC, number DESC LIMIT ?
          """, arguments: [closedLimit])
      return open + closed
    }
  }

  /// Which of `numbers` have no details in the cache (or are not pull requests it holds).
  public func pullRequestsWithoutDetails(_ numbers: [Int]) throws -> [Int] {
    guard !numbers.isEmpty else { return [] }
    let known = try writer.read { db in
      Set(
        try Int.fetchAll(
          db,
          sql: "SELECT number FROM pullRequest WHERE number IN ("
            + Array(repeating: "?", count: numbers.count).joined(separator: ",") + ")",
          arguments: StatementArguments(numbers)))
    }
    return numbers.filter { !known.contains($0) }
  }

  /// Stores pull requests' details in one transaction, replacing what was kept of each (its
  /// reviewers and reviews too).
  public func writePullRequestDetails(_ details: [PullRequestDetails]) throws {
    guard !details.isEmpty else { return }
    try writer.write { db in
      for pull in details {
        try db.execute(
          sql: """
            INSERT INTO pullRequest(number, updatedAt, reviewDecision, checks, mergeable, headRef,
              baseRef, additions, deletions)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(number) DO UPDATE SET updatedAt = excluded.updatedAt,
              reviewDecision = excluded.reviewDecision, checks = excluded.checks,
              mergeable = excluded.mergeable, headRef = excluded.headRef,
              baseRef = excluded.baseRef, additions = excluded.additions,
              deletions = excluded.deletions
            """,
          arguments: [
            pull.number, GitHubDate.databaseText(pull.updatedAt), pull.reviewDecision?.rawValue,
            pull.checks?.rawValue, pull.mergeable.rawValue, Self.storable(pull.headRef),
            Self.storable(pull.baseRef), pull.additions, pull.deletions,
          ])
        try db.execute(
          sql: "DELETE FROM pullRequestReviewer WHERE number = ?", arguments: [pull.number])
        for reviewer in Set(pull.requestedReviewers) {
          try db.execute(
            sql: "INSERT INTO pullRequestReviewer(number, reviewer) VALUES (?, ?)",
            arguments: [pull.number, Self.storable(reviewer)])
        }
        try db.execute(
          sql: "DELETE FROM pullRequestReview WHERE number = ?", arguments: [pull.number])
        for review in pull.reviews {
          try db.execute(
            sql: """
              INSERT INTO pullRequestReview(number, author, state) VALUES (?, ?, ?)
              ON CONFLICT(number, author) DO UPDATE SET state = excluded.state
              """, arguments: [pull.number, Self.storable(review.author), review.state])
        }
      }
    }
  }

  /// A pull request's details, if they were fetched.
  public func pullRequestDetails(number: Int) throws -> PullRequestDetails? {
    try writer.read { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT * FROM pullRequest WHERE number = ?", arguments: [number])
      else { return nil }
      let reviewers = try String.fetchAll(
        db, sql: "SELECT reviewer FROM pullRequestReviewer WHERE number = ? ORDER BY reviewer",
        arguments: [number])
      let reviews = try Row.fetchAll(
        db, sql: "SELECT author, state FROM pullRequestReview WHERE number = ? ORDER BY author",
        arguments: [number]
      ).map { PullRequestDetails.Review(author: $0[0], state: $0[1]) }
      return PullRequestDetails(
        number: number, updatedAt: row["updatedAt"],
        reviewDecision: (row["reviewDecision"] as String?).flatMap(
          PullRequestDetails.ReviewDecision.init(rawValue:)),
        checks: (row["checks"] as String?).flatMap(PullRequestDetails.Checks.init(rawValue:)),
        mergeable: PullRequestDetails.Mergeable(rawValue: row["mergeable"]) ?? .unknown,
        headRef: row["headRef"], baseRef: row["baseRef"], additions: row["additions"],
        deletions: row["deletions"], requestedReviewers: reviewers, reviews: reviews)
    }
  }
}
