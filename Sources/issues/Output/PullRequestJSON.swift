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

    /// The fields an issue has too, filled as `issues list` fills them.
    var issueField: IssueJSON.Field? { IssueJSON.Field(rawValue: rawValue) }
  }

  /// gh's fields the cache cannot fill, and why: asked for, they are an error.
  static let unavailable: [String: String] = [
    "statusCheckRollup": "only the rolled-up state is cached (status: in a dashboard query)",
    "commits": "commits are not cached", "files": "files are not cached",
    "reviews": "only each reviewer's latest review is cached (latestReviews)",
    "comments": "`issues view N --comments` prints the conversation",
    "projectCards": "projects are not cached", "projectItems": "projects are not cached",
    "reactionGroups": "reactions are not cached", "autoMergeRequest": "not cached",
    "changedFiles": "not cached", "headRepository": "not cached",
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
    context: IssueJSON.Context
  ) -> IssueJSON.Value {
    var members: IssueJSON.Object = [:]
    for field in fields {
      members[field.rawValue] = value(of: field, pull, details: details, context: context)
    }
    return .object(members.sortedByKey())
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
          reviewer.contains("/")
            ? .object(["__typename": .string("Team"), "name": .string(reviewer)])
            : .object(["__typename": .string("User"), "login": .string(reviewer)])
        })
    case .latestReviews:
      return .array(
        (details?.reviews ?? []).map { review in
          .object([
            "author": .object(["login": .string(review.author)]),
            "state": .string(review.state),
          ])
        })
    default:
      guard let shared = field.issueField else { return .null }
      return IssueJSON.value(of: shared, pull, context: context)
    }
  }
}
