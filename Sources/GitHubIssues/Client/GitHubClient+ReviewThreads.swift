import Foundation

/// A pull request's thread of line comments as GraphQL has it: the node GitHub resolves, the
/// REST id of its first comment, and whether it is resolved.
package struct ReviewThreadState: Hashable, Sendable {
  /// The thread's GraphQL node id (what `resolveReviewThread` takes).
  package var nodeID: String
  /// Its first comment's REST id; `nil` when GitHub gave none (a comment deleted).
  package var firstCommentID: Int64?
  /// Whether the thread is resolved.
  package var isResolved: Bool
}

extension GitHubClient {
  /// The most pages of threads read for one pull request (100 each).
  package static let mostThreadPages = 30

  /// Every review thread of pull request `number`, oldest first, read through GraphQL (REST
  /// does not say whether a thread is resolved).
  ///
  /// The walk is bounded by what GitHub announced: no more than 100 threads beyond its
  /// `totalCount`, and ``mostThreadPages`` pages; a cursor that does not move, an empty page
  /// that says more follow, an answer without the pull request, or a page with errors is a
  /// failure, never a shorter list. A cursor GitHub refuses (it expired) is asked with again,
  /// then an earlier one, then the walk starts over (``CursorRefusals``); a thread seen twice
  /// is listed once.
  package func reviewThreads(
    ofPullRequest number: Int, in repository: RepositoryName
  ) async throws(GitHubError) -> [ReviewThreadState] {
    let what = "review threads of \(repository)#\(number)"
    var threads: [ReviewThreadState] = []
    var seen = Set<String>()
    var cursor: String?
    var pages = 0
    var refusals = CursorRefusals()
    while true {
      pages += 1
      var variables: [String: GraphQLValue] = [
        "owner": .string(repository.owner), "name": .string(repository.name),
        "number": .int(number),
      ]
      variables["after"] = cursor.map { .string($0) } ?? .null
      let answer = try await graphQL(
        Self.reviewThreadsQuery, operationName: "ReviewThreads", variables: variables,
        as: ReviewThreadsPayload.self)
      guard answer.errors.isEmpty,
        let connection = answer.data?.repository?.pullRequest?.reviewThreads
      else {
        let message = answer.errors.first?.message ?? "no pull request in the answer"
        let notFound =
          answer.errors.contains { $0.type == "NOT_FOUND" }
          || (answer.errors.isEmpty && answer.data?.repository?.pullRequest == nil)
        let error = GitHubError(
          notFound ? .notFound : .validation, method: "POST", url: host.graphQLURL.absoluteString,
          detail: "\(what): \(String(message.prefix(300)))", sentToken: isAuthenticated)
        guard cursor != nil,
          answer.errors.contains(where: { $0.type == "INVALID_CURSOR_ARGUMENTS" })
        else { throw error }
        // Nothing was answered: not a page of the walk's.
        pages -= 1
        switch try refusals.refused(error, cursor: cursor) {
        case .sameCursor: break
        case .cursor(let earlier): cursor = earlier
        case .start:
          cursor = nil
          threads = []
          seen = []
          pages = 0
        }
        continue
      }
      for node in connection.nodes where seen.insert(node.id).inserted {
        threads.append(
          ReviewThreadState(
            nodeID: node.id, firstCommentID: node.comments.nodes.first?.databaseId,
            isResolved: node.isResolved))
      }
      refusals.answered(askedWith: cursor, moved: connection.pageInfo.hasNextPage)
      guard connection.pageInfo.hasNextPage else { return threads }
      // Each page moves on and brings threads, never many more than announced (some may be
      // added while it is read), and the walk ends within the pages allowed.
      guard let next = connection.pageInfo.endCursor, next != cursor, !connection.nodes.isEmpty,
        threads.count <= max(0, connection.totalCount) + 100, pages < Self.mostThreadPages
      else {
        throw GitHubError(
          .pagination, method: "POST", url: host.graphQLURL.absoluteString,
          detail: "\(what): the listing did not end after \(pages) pages and \(threads.count) "
            + "threads (\(connection.totalCount) announced)", sentToken: isAuthenticated)
      }
      cursor = next
    }
  }

  /// Resolves or unresolves the thread with GraphQL node id `nodeID`.
  ///
  /// Returns whether GitHub now has it resolved. A mutation: sent once, never retried here (the
  /// outbox settles it).
  package func apply(
    _ change: ThreadResolution.Change, toThread nodeID: String
  ) async throws(GitHubError) -> Bool {
    let field = change == .resolve ? "resolveReviewThread" : "unresolveReviewThread"
    let answer = try await graphQL(
      "mutation \(change == .resolve ? "ResolveReviewThread" : "UnresolveReviewThread")"
        + "($thread: ID!) { \(field)(input: {threadId: $thread}) { thread { id isResolved } } }",
      operationName: change == .resolve ? "ResolveReviewThread" : "UnresolveReviewThread",
      variables: ["thread": .string(nodeID)], as: ThreadMutationPayload.self, changes: true)
    guard
      let thread = answer.data?.resolveReviewThread?.thread
        ?? answer.data?.unresolveReviewThread?.thread
    else {
      throw answer.mutationFailure(
        field, url: host.graphQLURL.absoluteString, sentToken: isAuthenticated)
    }
    return thread.isResolved
  }

  static let reviewThreadsQuery = """
    query ReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {
      repository(owner: $owner, name: $name) {
        pullRequest(number: $number) {
          reviewThreads(first: 100, after: $after) {
            totalCount
            pageInfo { hasNextPage endCursor }
            nodes { id isResolved comments(first: 1) { nodes { databaseId } } }
          }
        }
      }
    }
    """
}

private struct ReviewThreadsPayload: Decodable, Sendable {
  struct Repository: Decodable, Sendable { var pullRequest: PullRequest? }
  struct PullRequest: Decodable, Sendable { var reviewThreads: Connection }
  struct Connection: Decodable, Sendable {
    var totalCount: Int
    var pageInfo: PageInfo
    var nodes: [Thread]
  }
  struct PageInfo: Decodable, Sendable {
    var hasNextPage: Bool
    var endCursor: String?
  }
  struct Thread: Decodable, Sendable {
    var id: String
    var isResolved: Bool
    var comments: Comments
  }
  struct Comments: Decodable, Sendable { var nodes: [Comment] }
  struct Comment: Decodable, Sendable { var databaseId: Int64? }
  var repository: Repository?
}

private struct ThreadMutationPayload: Decodable, Sendable {
  struct Result: Decodable, Sendable { var thread: Thread? }
  struct Thread: Decodable, Sendable {
    var id: String
    var isResolved: Bool
  }
  var resolveReviewThread: Result?
  var unresolveReviewThread: Result?
}
