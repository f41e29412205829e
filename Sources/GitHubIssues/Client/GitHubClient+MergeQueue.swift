import Foundation

/// Where a pull request stands with its base branch's merge queue, as GraphQL has it (REST
/// knows no merge queue: its merge endpoint refuses such a branch with a 405).
package struct MergeQueueState: Hashable, Sendable {
  /// A pull request's place in the queue.
  package struct Entry: Hashable, Sendable {
    /// Its position, the first to merge being 1, when GitHub gave one.
    package var position: Int?
    /// GitHub's word for it: `QUEUED`, `AWAITING_CHECKS`, `MERGEABLE`, `UNMERGEABLE`, `LOCKED`.
    package var state: String
  }

  /// The pull request's GraphQL node id (what `enqueuePullRequest` takes).
  package var nodeID: String
  /// Open, closed or merged.
  package var state: AutoMergeState.State
  /// The head commit now.
  package var headSHA: String
  /// Whether its base branch merges through a merge queue.
  package var queueEnabled: Bool
  /// Its place in the queue, when it is in it.
  package var entry: Entry?
}

extension GitHubClient {
  /// Whether pull request `number`'s base branch merges through a merge queue, and where the
  /// pull request stands in it.
  ///
  /// - Returns: `nil` when the host's schema has no merge queues (an older Enterprise server):
  ///   its merges go through REST as ever.
  package func mergeQueueState(
    ofPullRequest number: Int, in repository: RepositoryName
  ) async throws(GitHubError) -> MergeQueueState? {
    let answer = try await graphQL(
      Self.mergeQueueQuery, operationName: "MergeQueueState",
      variables: [
        "owner": .string(repository.owner), "name": .string(repository.name),
        "number": .int(number),
      ], as: MergeQueuePayload.self)
    // A schema without the fields refuses the query as a whole, naming them.
    if answer.data == nil,
      answer.errors.contains(where: {
        $0.message.contains("doesn't exist on type") || $0.type == "undefinedField"
      })
    {
      return nil
    }
    guard answer.errors.isEmpty, let pull = answer.data?.repository?.pullRequest else {
      throw pullRequestReadFailure(answer.errors, what: "merge queue of \(repository)#\(number)")
    }
    return MergeQueueState(
      nodeID: pull.id, state: pull.state, headSHA: pull.headRefOid,
      queueEnabled: pull.isMergeQueueEnabled,
      entry: pull.mergeQueueEntry.map {
        MergeQueueState.Entry(position: $0.position, state: String($0.state.prefix(40)))
      })
  }

  /// Adds the pull request with node id `nodeID` to its base branch's merge queue, if its head
  /// is still `headSHA`.
  ///
  /// A mutation: sent once, never retried here (the outbox settles it). GitHub's refusal (not
  /// open, no merge queue, the head moved, already queued) is a `.validation` error with its
  /// words.
  package func enqueue(pullRequest nodeID: String, headSHA: String) async throws(GitHubError) {
    let answer = try await graphQL(
      Self.enqueueMutation, operationName: "EnqueuePullRequest",
      variables: ["pull": .string(nodeID), "head": .string(headSHA)],
      as: EnqueuePayload.self, changes: true)
    guard answer.errors.isEmpty, answer.data?.enqueuePullRequest != nil else {
      throw answer.mutationFailure(
        "enqueuePullRequest", url: host.graphQLURL.absoluteString, sentToken: isAuthenticated)
    }
  }

  static let mergeQueueQuery = """
    query MergeQueueState($owner: String!, $name: String!, $number: Int!) {
      repository(owner: $owner, name: $name) {
        pullRequest(number: $number) {
          id state headRefOid isMergeQueueEnabled mergeQueueEntry { position state }
        }
      }
    }
    """

  static let enqueueMutation = """
    mutation EnqueuePullRequest($pull: ID!, $head: GitObjectID!) {
      enqueuePullRequest(input: {pullRequestId: $pull, expectedHeadOid: $head}) {
        mergeQueueEntry { id }
      }
    }
    """
}

private struct MergeQueuePayload: Decodable, Sendable {
  struct Repository: Decodable, Sendable { var pullRequest: PullRequest? }
  struct PullRequest: Decodable, Sendable {
    var id: String
    var state: AutoMergeState.State
    var headRefOid: String
    var isMergeQueueEnabled: Bool
    var mergeQueueEntry: Entry?
  }
  struct Entry: Decodable, Sendable {
    var position: Int?
    var state: String
  }
  var repository: Repository?
}

private struct EnqueuePayload: Decodable, Sendable {
  struct Result: Decodable, Sendable { var mergeQueueEntry: Entry? }
  struct Entry: Decodable, Sendable { var id: String }
  var enqueuePullRequest: Result?
}
