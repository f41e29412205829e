import Foundation
import GitHubIssues
import TrellisTerminal

/// `pr list --json` and `pr view --json`: gh's pull-request fields and shapes, for the fields
/// the cache holds.
enum PullRequestJSON {
  /// A field gh's `pr --json` knows, and that the cache can fill truthfully.
  enum Field: String, CaseIterable, Sendable {
    case additions, assignees, author, baseRefName, body, closed, closedAt, createdAt, deletions
    case headRefName, id, isDraft, labels, latestReviews, mergeable, mergedAt, milestone, number
    case reviewDecision, reviewRequests, state, title, updatedAt, url
    case comments, reviews, statusCheckRollup, reviewThreads
    case files, changedFiles

    /// The fields an issue has too, filled as `issues list` fills them.
    var issueField: IssueJSON.Field? { IssueJSON.Field(rawValue: rawValue) }

    /// Whether the field comes from the pull request's conversation, fetched for the pull
    /// requests printed.
    var isConversation: Bool {
      [.comments, .reviews, .statusCheckRollup, .reviewThreads].contains(self)
    }

    /// Whether the field comes from the pull request's files, read for the pull requests
    /// printed.
    var isDiff: Bool { [.files, .changedFiles].contains(self) }
  }

  /// What was read of a pull request's conversation and files, for the fields that need them.
  struct Conversation {
    var comments: [CachedComment]
    var reviews: [PullRequestReview]
    /// The line-comment threads, in the order their reviews were submitted.
    var threads: [ReviewThread] = []
    /// Whether each thread is resolved, by first comment, where that is known.
    var threadStates: [Int64: Bool] = [:]
    var checks: [PullRequestCheck]
    /// The login behind the token, when known.
    var viewer: String?
    /// Its files, when a field asks for them.
    var diff: PullRequestDiff?
  }

  /// gh's fields the cache cannot fill, and why: asked for, they are an error.
  static let unavailable: [String: String] = [
    "commits": "commits are not cached",
    "projectCards": "projects are not cached", "projectItems": "projects are not cached",
    "reactionGroups": "reactions are not cached", "autoMergeRequest": "not cached",
    "headRepository": "not cached", "headRefOid": "the head commit is not cached",
    "baseRefOid": "the base commit is not cached",
    "headRepositoryOwner": "not cached", "isCrossRepository": "not cached",
    "maintainerCanModify": "not cached", "mergeCommit": "not cached", "mergedBy": "not cached",
    "potentialMergeCommit": "not cached", "mergeStateStatus": "not cached",
  ]

  /// The fields of `--json a,b,c`, each once; an unknown or unavailable one is an error that
  /// lists what is available.
  static func fields(_ text: String) throws -> [Field] {
    let list = Field.allCases.map(\.rawValue).joined(separator: "\n  ")
    var fields: [Field] = []
    for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !name.isEmpty {
      guard let field = Field(rawValue: name) else {
        let reason = unavailable[name].map { " (\($0))" } ?? ""
        throw CommandFailure(
          "Unknown JSON field “\(ControlCharacters.visible(name))”\(reason). Available fields:\n  "
            + list)
      }
      if !fields.contains(field) { fields.append(field) }
    }
    guard !fields.isEmpty else {
      throw CommandFailure("Specify one or more comma-separated fields for --json:\n  " + list)
    }
    return fields
  }

  /// gh's state of a pull request: `OPEN`, `CLOSED` or `MERGED`.
  static func state(_ pull: CachedIssue) -> String {
    pull.state == .open ? "OPEN" : pull.mergedAt != nil ? "MERGED" : "CLOSED"
  }

  /// A pull request as gh's `--json` shapes it, keys sorted as Go writes a map.
  static func object(
    _ pull: CachedIssue, details: PullRequestDetails?, fields: [Field],
    context: IssueJSON.Context, conversation: Conversation? = nil
  ) -> IssueJSON.Value {
    var members: IssueJSON.Object = [:]
    for field in fields {
      members[field.rawValue] =
        field.isConversation || field.isDiff
        ? value(of: field, conversation: conversation)
        : value(of: field, pull, details: details, context: context)
    }
    return .object(members.sortedByKey())
  }

  /// A conversation field, in gh's shapes: comments as `issue view` gives them, reviews as
  /// gh's `PullRequestReview`, checks as GraphQL's `CheckRun` and `StatusContext`.
  static func value(of field: Field, conversation: Conversation?) -> IssueJSON.Value {
    guard let conversation else { return .array([]) }
    func object(_ members: IssueJSON.Object) -> IssueJSON.Value { .object(members.sortedByKey()) }
    switch field {
    case .files:
      // gh's shape: each file's path and its counts.
      return .array(
        (conversation.diff?.files ?? []).map { file in
          object([
            "path": .string(file.path), "additions": .int(file.additions),
            "deletions": .int(file.deletions),
          ])
        })
    case .changedFiles: return .int(conversation.diff?.announcedFiles ?? 0)
    case .comments:
      return .array(
        conversation.comments.map { IssueJSON.comment($0, viewer: conversation.viewer) })
    case .reviews:
      return .array(
        conversation.reviews.filter { $0.submittedAt != nil }.map { review in
          Self.review(
            id: review.nodeID ?? "", author: review.author,
            authorAssociation: review.authorAssociation ?? "NONE", body: review.body,
            submittedAt: review.submittedAt, state: review.state, commit: review.commitID ?? "")
        })
    case .reviewThreads:
      // GraphQL's PullRequestReviewThread: where, whether outdated, the comments in order, and
      // whether it is resolved when that was read (GraphQL only) — left out, never guessed,
      // when it was not.
      return .array(
        conversation.threads.compactMap { thread in
          guard let first = thread.comments.first else { return nil }
          var fields: IssueJSON.Object = [
            "path": .string(first.path), "line": first.line.map { .int($0) } ?? .null,
            "isOutdated": .bool(first.isOutdated),
            "comments": .array(
              thread.comments.map { comment in
                object([
                  "id": .int(Int(comment.id)), "author": object(["login": .string(comment.author)]),
                  "body": .string(comment.body), "createdAt": goTime(comment.createdAt),
                ])
              }),
          ]
          if let resolved = conversation.threadStates[first.id] {
            fields["isResolved"] = .bool(resolved)
          }
          return object(fields)
        })
    case .statusCheckRollup:
      return .array(
        conversation.checks.map { check in
          let word = check.conclusion.uppercased()
          switch check.kind {
          case .checkRun:
            let done = check.state != .pending
            return object(
              [
                "__typename": .string("CheckRun"), "name": .string(check.name),
                "workflowName": .string(check.workflowName),
                "status": .string(done ? "COMPLETED" : word),
                "conclusion": .string(done ? word : ""),
                "startedAt": goTime(check.startedAt), "completedAt": goTime(check.completedAt),
                "detailsUrl": .string(check.detailsURL ?? ""),
              ])
          case .status:
            return object(
              [
                "__typename": .string("StatusContext"), "context": .string(check.name),
                "state": .string(word), "targetUrl": .string(check.url ?? ""),
                "startedAt": goTime(check.startedAt),
              ])
          }
        })
    default: return .null
    }
  }

  /// A review as gh prints its `PullRequestReview`: its members in gh's order, with the edit
  /// flag and reactions gh's REST-less query fills and the cache does not keep (see
  /// `issues help scripts`).
  static func review(
    id: String, author: String, authorAssociation: String, body: String, submittedAt: Date?,
    state: String, commit: String
  ) -> IssueJSON.Value {
    .object([
      "id": .string(id), "author": .object(["login": .string(author)]),
      "authorAssociation": .string(authorAssociation), "body": .string(body),
      "submittedAt": submittedAt.map { .string(IssueJSON.timestamp($0)) } ?? .null,
      "includesCreatedEdit": .bool(false), "reactionGroups": .array([]),
      "state": .string(state), "commit": .object(["oid": .string(commit)]),
    ])
  }

  /// A time as Go writes a `time.Time`: gh prints a check's missing time as the zero time.
  static func goTime(_ date: Date?) -> IssueJSON.Value {
    .string(date.map(IssueJSON.timestamp) ?? "0001-01-01T00:00:00Z")
  }

  static func value(
    of field: Field, _ pull: CachedIssue, details: PullRequestDetails?,
    context: IssueJSON.Context
  ) -> IssueJSON.Value {
    switch field {
    case .additions: return .int(details?.additions ?? 0)
    case .deletions: return .int(details?.deletions ?? 0)
    case .baseRefName: return .string(details?.baseRef ?? "")
    case .headRefName: return .string(details?.headRef ?? "")
    case .isDraft: return .bool(pull.isDraft)
    case .mergeable: return .string(details?.mergeable.rawValue ?? "UNKNOWN")
    case .mergedAt: return pull.mergedAt.map { .string(IssueJSON.timestamp($0)) } ?? .null
    case .reviewDecision: return .string(pull.reviewDecision?.rawValue ?? "")
    case .state: return .string(state(pull))
    case .reviewRequests:
      return .array(
        (details?.requestedReviewers ?? []).map { reviewer in
          // gh's `slug` of a team is `ORG/TEAM`, as the details keep it.
          reviewer.contains("/")
            ? .object([
              "__typename": .string("Team"),
              "name": .string(details?.teamNames[reviewer] ?? reviewer),
              "slug": .string(reviewer),
            ])
            : .object(["__typename": .string("User"), "login": .string(reviewer)])
        })
    case .latestReviews:
      // gh asks GraphQL's `latestReviews` for neither the id nor the commit, and prints them
      // empty: so does this.
      return .array(
        (details?.reviews ?? []).map { review in
          Self.review(
            id: "", author: review.author, authorAssociation: review.authorAssociation,
            body: review.body, submittedAt: review.submittedAt, state: review.state, commit: "")
        })
    default:
      guard let shared = field.issueField else { return .null }
      return IssueJSON.value(of: shared, pull, context: context)
    }
  }
}
