import Foundation

/// A submitted review of a pull request: its verdict and what the reviewer wrote, with the
/// threads of line comments it started.
///
/// Reviews reach the cache from the pull request's timeline (`reviewed` events); their line
/// comments from `GET /repos/{owner}/{repo}/pulls/{number}/comments`, threaded by
/// ``threaded(_:comments:)``.
package struct PullRequestReview: Decodable, Hashable, Sendable, Identifiable {
  /// The review's numeric identifier.
  package var id: Int64
  /// Who reviewed.
  package var author: String
  /// `APPROVED`, `CHANGES_REQUESTED`, `COMMENTED` or `DISMISSED`.
  package var state: String
  /// What the reviewer wrote as the review's summary, in Markdown (often empty).
  package var body: String
  /// When it was submitted, when GitHub said.
  package var submittedAt: Date?
  /// The reviewer's relation to the repository (`OWNER`, `MEMBER`…), when GitHub said.
  package var authorAssociation: String?
  /// The line-comment threads this review started, in the order they were written.
  package var threads: [ReviewThread]
  /// GitHub's node identifier (`PRR_…`), what gh prints as the review's `id`; `nil` when it
  /// was not read.
  package var nodeID: String?
  /// The commit the review was written on, in hexadecimal, when GitHub said.
  package var commitID: String?

  /// Creates a review.
  package init(
    id: Int64, author: String, state: String, body: String, submittedAt: Date?,
    authorAssociation: String? = nil, threads: [ReviewThread] = [], nodeID: String? = nil,
    commitID: String? = nil
  ) {
    self.id = id
    self.nodeID = nodeID
    self.commitID = commitID
    self.author = author
    self.state = state
    self.body = body
    self.submittedAt = submittedAt
    self.authorAssociation = authorAssociation
    self.threads = threads
  }

  enum CodingKeys: String, CodingKey {
    case id, user, state, body
    case submittedAt = "submitted_at"
    case authorAssociation = "author_association"
    case nodeID = "node_id"
    case commitID = "commit_id"
  }

  /// Decodes a review as `GET /repos/{owner}/{repo}/pulls/{number}/reviews` lists it (the
  /// state in capitals there, in lowercase in the timeline: kept in capitals).
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    state = try container.decode(String.self, forKey: .state).uppercased()
    author = ((try? container.decodeIfPresent(GitHubUser.self, forKey: .user)) ?? .ghost).login
    body = (try? container.decodeIfPresent(String.self, forKey: .body)) ?? ""
    submittedAt = try? container.decodeIfPresent(Date.self, forKey: .submittedAt)
    authorAssociation = try? container.decodeIfPresent(String.self, forKey: .authorAssociation)
    threads = []
    nodeID = try? container.decodeIfPresent(String.self, forKey: .nodeID)
    commitID = try? container.decodeIfPresent(String.self, forKey: .commitID)
  }

  /// "approved", "changes requested", "commented", "dismissed": the verdict in gh's words, for
  /// a header.
  package var verdict: String {
    switch state {
    case "APPROVED": "approved"
    case "CHANGES_REQUESTED": "changes requested"
    case "DISMISSED": "dismissed"
    default: "commented"
    }
  }

  /// Reviews with their threads, in the order a reader shows them.
  ///
  /// A reply belongs to the thread of the comment it answers (GitHub files each reply under a
  /// review of its own, usually empty: such a review is left out when it says nothing else). A
  /// thread whose review is not among `reviews` (the timeline was not read) gets one made from
  /// its first comment, so no comment is lost.
  package static func threaded(
    _ reviews: [PullRequestReview], comments: [ReviewComment]
  ) -> [PullRequestReview] {
    let byID = Dictionary(comments.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    // The root of each comment: the end of its reply chain, bounded against cycles.
    func root(of comment: ReviewComment) -> ReviewComment {
      var current = comment
      var steps = 0
      while let parent = current.inReplyTo.flatMap({ byID[$0] }), steps < comments.count {
        current = parent
        steps += 1
      }
      return current
    }
    var threads: [Int64: ReviewThread] = [:]
    var roots: [ReviewComment] = []
    for comment in comments.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) {
      let first = root(of: comment)
      if threads[first.id] == nil {
        threads[first.id] = ReviewThread(comments: [])
        roots.append(first)
      }
      threads[first.id]?.comments.append(comment)
    }
    var result = reviews
    var index = Dictionary(
      result.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    for first in roots {
      guard let thread = threads[first.id] else { continue }
      if let position = first.reviewID.flatMap({ index[$0] }) {
        result[position].threads.append(thread)
      } else {
        let made = PullRequestReview(
          id: first.reviewID ?? -first.id, author: first.author, state: "COMMENTED", body: "",
          submittedAt: first.createdAt, authorAssociation: first.authorAssociation,
          threads: [thread])
        index[made.id] = result.count
        result.append(made)
      }
    }
    return
      result
      .filter { !$0.threads.isEmpty || !$0.body.isEmpty || $0.state != "COMMENTED" }
      .sorted {
        ($0.submittedAt ?? .distantFuture, $0.id) < ($1.submittedAt ?? .distantFuture, $1.id)
      }
  }
}

/// A thread of line comments: the first, on a line of the diff, then its replies in order.
package struct ReviewThread: Hashable, Sendable {
  /// The comments, the first one first.
  package var comments: [ReviewComment]
  /// Whether the thread is resolved, as last read (GraphQL) with the resolutions waiting in
  /// the queue applied; `false` when never read.
  package var isResolved: Bool

  /// Creates a thread.
  package init(comments: [ReviewComment], isResolved: Bool = false) {
    self.comments = comments
    self.isResolved = isResolved
  }
}

/// A comment on a line of a pull request's diff, as
/// `GET /repos/{owner}/{repo}/pulls/{number}/comments` returns it.
package struct ReviewComment: Decodable, Hashable, Sendable, Identifiable {
  /// The numeric identifier.
  package var id: Int64
  /// The review it belongs to, when GitHub said.
  package var reviewID: Int64?
  /// The comment it answers, for a reply.
  package var inReplyTo: Int64?
  /// Who wrote it.
  package var author: String
  /// The text, in Markdown.
  package var body: String
  /// The file it is on.
  package var path: String
  /// The line of the file it is on: `nil` once the line is gone from the diff (outdated).
  package var line: Int?
  /// The version of the file ``line`` counts in: the base's (a removed line) or the head's.
  package var side: DraftLineComment.Side
  /// The end of the diff hunk it points at.
  package var diffHunk: String
  /// When it was written.
  package var createdAt: Date
  /// The writer's relation to the repository, when GitHub said.
  package var authorAssociation: String?

  /// Creates one.
  package init(
    id: Int64, reviewID: Int64?, inReplyTo: Int64? = nil, author: String, body: String,
    path: String, line: Int?, side: DraftLineComment.Side = .right, diffHunk: String = "",
    createdAt: Date, authorAssociation: String? = nil
  ) {
    self.id = id
    self.reviewID = reviewID
    self.inReplyTo = inReplyTo
    self.author = author
    self.body = body
    self.path = path
    self.line = line
    self.side = side
    self.diffHunk = diffHunk
    self.createdAt = createdAt
    self.authorAssociation = authorAssociation
  }

  enum CodingKeys: String, CodingKey {
    case id, user, body, path, line, side
    case reviewID = "pull_request_review_id"
    case inReplyTo = "in_reply_to_id"
    case diffHunk = "diff_hunk"
    case createdAt = "created_at"
    case authorAssociation = "author_association"
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    createdAt = try container.decode(Date.self, forKey: .createdAt)
    reviewID = try? container.decodeIfPresent(Int64.self, forKey: .reviewID)
    inReplyTo = try? container.decodeIfPresent(Int64.self, forKey: .inReplyTo)
    author = ((try? container.decodeIfPresent(GitHubUser.self, forKey: .user)) ?? .ghost).login
    body = (try? container.decodeIfPresent(String.self, forKey: .body)) ?? ""
    path = (try? container.decodeIfPresent(String.self, forKey: .path)) ?? ""
    line = try? container.decodeIfPresent(Int.self, forKey: .line)
    // GitHub writes `LEFT` or `RIGHT`; anything else is the head's, as it is for most comments.
    side =
      (try? container.decodeIfPresent(String.self, forKey: .side))
      .flatMap { DraftLineComment.Side(rawValue: $0.uppercased()) } ?? .right
    diffHunk = (try? container.decodeIfPresent(String.self, forKey: .diffHunk)) ?? ""
    authorAssociation = try? container.decodeIfPresent(String.self, forKey: .authorAssociation)
  }

  /// Whether the line it was written on is gone from the diff.
  package var isOutdated: Bool { line == nil }
}
