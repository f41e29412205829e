import Foundation

/// What a pull request's auto-merge depends on, as GraphQL has it (REST does not say whether
/// auto-merge is on).
package struct AutoMergeState: Hashable, Sendable {
  /// Where the pull request stands.
  package enum State: String, Hashable, Sendable, Decodable {
    case open = "OPEN"
    case closed = "CLOSED"
    case merged = "MERGED"
  }

  /// The pull request's GraphQL node id (what `enablePullRequestAutoMerge` takes).
  package var nodeID: String
  /// Open, closed or merged.
  package var state: State
  /// The head commit now.
  package var headSHA: String
  /// Whether auto-merge is on, and how it will merge: GitHub's method as it names it
  /// (`MERGE`, `SQUASH`, `REBASE`, or one this client does not know); `nil` when it is off.
  package var autoMergeMethod: String?
}

extension GitHubClient {
  /// Whether pull request `number` will be merged by itself, and what that depends on.
  package func autoMergeState(
    ofPullRequest number: Int, in repository: RepositoryName
  ) async throws(GitHubError) -> AutoMergeState {
    let answer = try await graphQL(
      Self.autoMergeQuery, operationName: "AutoMergeState",
      variables: [
        "owner": .string(repository.owner), "name": .string(repository.name),
        "number": .int(number),
      ], as: AutoMergePayload.self)
    guard answer.errors.isEmpty, let pull = answer.data?.repository?.pullRequest else {
      throw pullRequestReadFailure(answer.errors, what: "auto-merge of \(repository)#\(number)")
    }
    return AutoMergeState(
      nodeID: pull.id, state: pull.state, headSHA: pull.headRefOid,
      autoMergeMethod: pull.autoMergeRequest.map(\.mergeMethod))
  }

  /// Why a pull request's GraphQL read gave no pull request: not found (GitHub's `NOT_FOUND`,
  /// or no errors and no pull request), else invalid, with GitHub's first words.
  func pullRequestReadFailure(_ errors: [GraphQLError], what: String) -> GitHubError {
    let notFound = errors.isEmpty || errors.contains { $0.type == "NOT_FOUND" }
    let message = errors.first?.message ?? "no pull request in the answer"
    return GitHubError(
      notFound ? .notFound : .validation, method: "POST", url: host.graphQLURL.absoluteString,
      detail: "\(what): \(String(message.prefix(300)))", sentToken: isAuthenticated)
  }

  /// Turns auto-merge on for the pull request with node id `nodeID`: GitHub merges it with
  /// `merge`'s method once its requirements are met, if its head is still `merge.headSHA`.
  ///
  /// A mutation: sent once, never retried here (the outbox settles it). GitHub's refusal (the
  /// pull request could be merged now, auto-merge not allowed in the repository, the head
  /// moved) is a `.validation` error with GitHub's words.
  package func enableAutoMerge(
    ofPullRequest nodeID: String, _ merge: PullRequestMerge
  ) async throws(GitHubError) {
    var variables: [String: GraphQLValue] = [
      "pull": .string(nodeID), "method": .string(merge.method.rawValue.uppercased()),
      "head": .string(merge.headSHA),
    ]
    variables["subject"] = merge.subject.map { .string($0) } ?? .null
    variables["body"] = merge.body.map { .string($0) } ?? .null
    let answer = try await graphQL(
      Self.enableAutoMergeMutation, operationName: "EnableAutoMerge", variables: variables,
      as: EnableAutoMergePayload.self, changes: true)
    guard answer.errors.isEmpty, answer.data?.enablePullRequestAutoMerge != nil else {
      throw answer.mutationFailure(
        "enablePullRequestAutoMerge", url: host.graphQLURL.absoluteString,
        sentToken: isAuthenticated)
    }
  }

  static let autoMergeQuery = """
    query AutoMergeState($owner: String!, $name: String!, $number: Int!) {
      repository(owner: $owner, name: $name) {
        pullRequest(number: $number) {
          id state headRefOid autoMergeRequest { mergeMethod }
        }
      }
    }
    """

  static let enableAutoMergeMutation = """
    mutation EnableAutoMerge($pull: ID!, $method: PullRequestMergeMethod!, $head: GitObjectID!, \
    $subject: String, $body: String) {
      enablePullRequestAutoMerge(input: {pullRequestId: $pull, mergeMethod: $method, \
    expectedHeadOid: $head, commitHeadline: $subject, commitBody: $body}) {
        pullRequest { id }
      }
    }
    """
}

private struct AutoMergePayload: Decodable, Sendable {
  struct Repository: Decodable, Sendable { var pullRequest: PullRequest? }
  struct PullRequest: Decodable, Sendable {
    var id: String
    var state: AutoMergeState.State
    var headRefOid: String
    var autoMergeRequest: Request?
  }
  struct Request: Decodable, Sendable { var mergeMethod: String }
  var repository: Repository?
}

private struct EnableAutoMergePayload: Decodable, Sendable {
  struct Result: Decodable, Sendable { var pullRequest: Pull? }
  struct Pull: Decodable, Sendable { var id: String }
  var enablePullRequestAutoMerge: Result?
}
