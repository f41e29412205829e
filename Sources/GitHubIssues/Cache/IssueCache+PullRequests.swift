import Foundation
import GRDB

// Pull requests' details: review, checks, branches, size — from GraphQL (or REST when it does
// not answer), for open pull requests and a budget of closed and merged ones each sync.

extension IssueCache {
  /// How many closed or merged pull requests a sync asks details of at most (about 50 points
  /// through GraphQL).
  package static let closedDetailsPerSync = 350

  /// How recently a pull request must have closed for a sync to ask its details when the
  /// repository's backlog of closed ones never read is larger than a sync asks.
  package static let recentlyClosed: TimeInterval = 30 * 86_400

  /// The pull requests whose details are missing or older than the pull request: what a sync
  /// asks GraphQL for.
  ///
  /// Every open one, newest first, then at most `closedLimit` closed or merged ones, newest
  /// first: those whose kept details are older than they are (merged or closed since, say),
  /// and those never read — all of them when they fit in `closedLimit`, else only those closed
  /// in the last ``recentlyClosed``. A large repository's backlog of old closed pull requests
  /// is not worked through sync after sync (a quiet re-sync of a mirror would spend 50 points
  /// on it, a dozen times): a command that prints one reads its details then.
  package func pullRequestsNeedingDetails(
    closedLimit: Int = closedDetailsPerSync, now: Date = Date()
  ) throws -> [Int] {
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
      let kept = "EXISTS (SELECT 1 FROM pullRequest WHERE pullRequest.number = issue.number)"
      let neverRead =
        try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM issue
            WHERE state = 'closed' AND isPullRequest = 1 AND NOT \(kept)
            """) ?? 0
      let backlog =
        neverRead <= closedLimit
        ? "NOT \(kept)" : "NOT \(kept) AND closedAt >= ?"
      let arguments: StatementArguments =
        neverRead <= closedLimit
        ? [closedLimit] : [now.addingTimeInterval(-Self.recentlyClosed), closedLimit]
      let closed = try Int.fetchAll(
        db,
        sql: """
          SELECT number FROM issue WHERE state = 'closed' AND \(stale)
            AND (\(kept) OR (\(backlog)))
          ORDER BY updatedAt DESC, number DESC LIMIT ?
          """, arguments: arguments)
      return open + closed
    }
  }

  /// Which of `numbers` have no details in the cache (or are not pull requests it holds).
  package func pullRequestsWithoutDetails(_ numbers: [Int]) throws -> [Int] {
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
  package func writePullRequestDetails(_ details: [PullRequestDetails]) throws {
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
        var seen: Set<String> = []
        for reviewer in pull.requestedReviewers where seen.insert(reviewer).inserted {
          try db.execute(
            sql: """
              INSERT INTO pullRequestReviewer(number, reviewer, position, name) VALUES (?, ?, ?, ?)
              """,
            arguments: [
              pull.number, Self.storable(reviewer), seen.count,
              pull.teamNames[reviewer].map(Self.storable),
            ])
        }
        try db.execute(
          sql: "DELETE FROM pullRequestReview WHERE number = ?", arguments: [pull.number])
        for (position, review) in pull.reviews.enumerated() {
          try db.execute(
            sql: """
              INSERT INTO pullRequestReview(number, author, state, position, authorAssociation,
                body, submittedAt)
              VALUES (?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT(number, author) DO UPDATE SET state = excluded.state,
                position = excluded.position, authorAssociation = excluded.authorAssociation,
                body = excluded.body, submittedAt = excluded.submittedAt
              """,
            arguments: [
              pull.number, Self.storable(review.author), review.state, position,
              Self.storable(review.authorAssociation), Self.storable(review.body),
              review.submittedAt,
            ])
        }
      }
    }
  }

  /// A pull request's details, if they were fetched.
  package func pullRequestDetails(number: Int) throws -> PullRequestDetails? {
    try writer.read { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT * FROM pullRequest WHERE number = ?", arguments: [number])
      else { return nil }
      let reviewerRows = try Row.fetchAll(
        db,
        sql: """
          SELECT reviewer, name FROM pullRequestReviewer WHERE number = ?
          ORDER BY position, reviewer
          """,
        arguments: [number])
      let reviewers = reviewerRows.map { $0["reviewer"] as String }
      var teamNames: [String: String] = [:]
      for row in reviewerRows {
        if let name = row["name"] as String? { teamNames[row["reviewer"]] = name }
      }
      let reviews = try Row.fetchAll(
        db,
        sql: """
          SELECT author, state, authorAssociation, body, submittedAt FROM pullRequestReview
          WHERE number = ? ORDER BY position, author
          """,
        arguments: [number]
      ).map {
        PullRequestDetails.Review(
          author: $0["author"], state: $0["state"], authorAssociation: $0["authorAssociation"],
          body: $0["body"], submittedAt: $0["submittedAt"])
      }
      return PullRequestDetails(
        number: number, updatedAt: row["updatedAt"],
        reviewDecision: (row["reviewDecision"] as String?).flatMap(
          PullRequestDetails.ReviewDecision.init(rawValue:)),
        checks: (row["checks"] as String?).flatMap(PullRequestDetails.Checks.init(rawValue:)),
        mergeable: PullRequestDetails.Mergeable(rawValue: row["mergeable"]) ?? .unknown,
        headRef: row["headRef"], baseRef: row["baseRef"], additions: row["additions"],
        deletions: row["deletions"], requestedReviewers: reviewers, teamNames: teamNames,
        reviews: reviews)
    }
  }
}
