import Foundation
import GRDB

// A pull request's conversation beyond its comments: reviews, their line comments, and the
// head commit's checks.

extension IssueCache {
  /// A pull request's reviews with their line-comment threads, in the order they were
  /// submitted (see ``PullRequestReview/threaded(_:comments:)``); with `threaded` false, every
  /// submitted review as GitHub lists them, replies' own reviews included, without threads.
  package func reviews(of number: Int, threaded: Bool = true) throws -> [PullRequestReview] {
    try writer.read { db in
      let reviews = try Row.fetchAll(
        db,
        sql: """
          SELECT id, author, state, body, submittedAt, authorAssociation, nodeID, commitID
          FROM review WHERE issueNumber = ? ORDER BY submittedAt, id
          """, arguments: [number]
      ).map {
        PullRequestReview(
          id: $0["id"], author: $0["author"], state: $0["state"], body: $0["body"],
          submittedAt: $0["submittedAt"], authorAssociation: $0["authorAssociation"],
          nodeID: $0["nodeID"], commitID: $0["commitID"])
      }
      guard threaded else { return reviews }
      let comments = try Row.fetchAll(
        db,
        sql: """
          SELECT id, reviewID, inReplyTo, author, body, path, line, side, diffHunk, createdAt,
            authorAssociation
          FROM reviewComment WHERE issueNumber = ? ORDER BY createdAt, id
          """, arguments: [number]
      ).map {
        ReviewComment(
          id: $0["id"], reviewID: $0["reviewID"], inReplyTo: $0["inReplyTo"],
          author: $0["author"], body: $0["body"], path: $0["path"], line: $0["line"],
          side: ($0["side"] as String?).flatMap(DraftLineComment.Side.init(rawValue:)) ?? .right,
          diffHunk: $0["diffHunk"], createdAt: $0["createdAt"],
          authorAssociation: $0["authorAssociation"])
      }
      return PullRequestReview.threaded(reviews, comments: comments)
    }
  }

  static func replaceReviews(
    of number: Int, with reviews: [PullRequestReview], _ db: Database
  ) throws {
    try db.cachedStatement(sql: "DELETE FROM review WHERE issueNumber = ?")
      .execute(arguments: [number])
    let insert = try db.cachedStatement(
      sql: """
        INSERT INTO review(id, issueNumber, author, state, body, submittedAt, authorAssociation,
          nodeID, commitID)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET issueNumber = excluded.issueNumber,
          author = excluded.author, state = excluded.state, body = excluded.body,
          submittedAt = excluded.submittedAt, authorAssociation = excluded.authorAssociation,
          nodeID = excluded.nodeID, commitID = excluded.commitID
        """)
    for review in reviews {
      try insert.execute(arguments: [
        review.id, number, storable(review.author), storable(review.state),
        storable(review.body), review.submittedAt, review.authorAssociation.map(storable),
        review.nodeID.map(storable), review.commitID.map(storable),
      ])
    }
  }

  /// Stores a pull request's line comments.
  ///
  /// With `complete` (the listing proved it saw them all), the cached ones it did not list are
  /// deleted: GitHub no longer has them. Otherwise those listed are added or updated and the rest
  /// kept.
  package func writeReviewComments(
    _ comments: [ReviewComment], of number: Int, complete: Bool
  ) throws {
    try writer.write { db in
      if complete {
        try db.execute(sql: "DELETE FROM reviewComment WHERE issueNumber = ?", arguments: [number])
      }
      let insert = try db.cachedStatement(
        sql: """
          INSERT INTO reviewComment(id, issueNumber, reviewID, inReplyTo, author, body, path,
            line, side, diffHunk, createdAt, authorAssociation)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET issueNumber = excluded.issueNumber,
            reviewID = excluded.reviewID, inReplyTo = excluded.inReplyTo,
            author = excluded.author, body = excluded.body, path = excluded.path,
            line = excluded.line, side = excluded.side, diffHunk = excluded.diffHunk, createdAt = excluded.createdAt,
            authorAssociation = excluded.authorAssociation
          """)
      for comment in comments {
        try insert.execute(arguments: [
          comment.id, number, comment.reviewID, comment.inReplyTo, Self.storable(comment.author),
          Self.storable(comment.body), Self.storable(comment.path), comment.line,
          comment.side.rawValue, Self.storable(comment.diffHunk), comment.createdAt,
          comment.authorAssociation.map(Self.storable),
        ])
      }
    }
  }

  /// A pull request's checks as last read, with how many GitHub announced; `nil` when never read.
  ///
  /// GitHub may announce more than a page holds: the reader says how many more there are.
  package func checks(of number: Int) throws -> (checks: [PullRequestCheck], announced: Int)? {
    try writer.read { db in
      guard
        let announced = try Int.fetchOne(
          db, sql: "SELECT announced FROM pullRequestCheckListing WHERE number = ?",
          arguments: [number])
      else { return nil }
      let checks = try Row.fetchAll(
        db,
        sql: """
          SELECT name, state, url, kind, conclusion, startedAt, completedAt, detailsURL,
            workflowName
          FROM pullRequestCheck WHERE number = ? ORDER BY position
          """,
        arguments: [number]
      ).map {
        PullRequestCheck(
          name: $0["name"], state: PullRequestCheck.State(rawValue: $0["state"]) ?? .pending,
          url: $0["url"], kind: PullRequestCheck.Kind(rawValue: $0["kind"]) ?? .checkRun,
          conclusion: $0["conclusion"], startedAt: $0["startedAt"],
          completedAt: $0["completedAt"], detailsURL: $0["detailsURL"],
          workflowName: $0["workflowName"])
      }
      return (checks, announced)
    }
  }

  /// Replaces a pull request's checks with those read for its head commit.
  package func replaceChecks(
    of number: Int, with checks: [PullRequestCheck], announced: Int, headSHA: String
  ) throws {
    try writer.write { db in
      try db.execute(sql: "DELETE FROM pullRequestCheck WHERE number = ?", arguments: [number])
      for (position, check) in checks.enumerated() {
        try db.execute(
          sql: """
            INSERT INTO pullRequestCheck(number, position, name, state, url, kind, conclusion,
              startedAt, completedAt, detailsURL, workflowName)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            number, position, Self.storable(check.name), check.state.rawValue,
            check.url.map(Self.storable), check.kind.rawValue, Self.storable(check.conclusion),
            check.startedAt, check.completedAt, check.detailsURL.map(Self.storable),
            Self.storable(check.workflowName),
          ])
      }
      try db.execute(
        sql: """
          INSERT INTO pullRequestCheckListing(number, headSHA, announced) VALUES (?, ?, ?)
          ON CONFLICT(number) DO UPDATE SET headSHA = excluded.headSHA,
            announced = excluded.announced
          """, arguments: [number, Self.storable(headSHA), max(announced, checks.count)])
    }
  }

  /// Whether an issue's timeline was listed completely since it last changed.
  package func timelineIsCurrent(of number: Int) throws -> Bool {
    try writer.read { db in
      try Bool.fetchOne(
        db,
        sql: """
          SELECT listing.issueUpdatedAt >= issue.updatedAt FROM timelineListing AS listing
          JOIN issue ON issue.number = listing.issueNumber WHERE listing.issueNumber = ?
          """, arguments: [number]) ?? false
    }
  }
}
