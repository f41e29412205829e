import Foundation
import Synchronization

/// An issue or pull request as a mirror page lists it: GitHub's node, and the issue it stands for.
struct MirrorItem: UpdateOrdered {
  var node: MirrorNode.Item
  var issue: GitHubIssue
  var id: Int64 { issue.id }
  var updatedAt: Date { issue.updatedAt }
}

/// What a page query answers.
struct MirrorPagePayload: RateLimitedPayload {
  struct Repository: Decodable, Sendable {
    var issues: MirrorNode.Connection<MirrorNode.Item>?
    var pullRequests: MirrorNode.Connection<MirrorNode.Item>?
  }
  var rateLimit: GraphQLRateLimit?
  var repository: Repository?
}

/// The pages of a repository's issues (from a `since`) or pull requests, oldest update first,
/// through their GraphQL cursors, for an ``UpdatedOrderListing``.
struct MirrorPages: ListingPages {
  enum Kind: Sendable {
    /// Issues, with the first entries of their timelines.
    case issues
    /// Pull requests, as rows.
    case pullRequests
  }

  let kind: Kind
  let session: MirrorSession
  let repository: RepositoryName
  let since: Date?
  /// Where the pages go on from: updated with each page's end cursor, for a caller that stores
  /// it beside what it wrote.
  let position: CursorPosition
  private var after: String?
  /// Where this query's pages started, to start again when GitHub no longer takes a cursor.
  private let startCursor: String?
  /// What this query does when GitHub refuses its cursor.
  private var refusals = CursorRefusals()
  private var ended = false
  /// Items served so far by this query's pages.
  private var served = 0

  /// Pages from `since` (issues), or after the cursor `after` (a resumed listing), reporting
  /// each page's end cursor to `position`.
  init(
    kind: Kind, session: MirrorSession, repository: RepositoryName, since: Date?,
    after: String? = nil, position: CursorPosition = CursorPosition(nil)
  ) {
    self.kind = kind
    self.session = session
    self.repository = repository
    self.since = since
    self.position = position
    self.after = after
    self.startCursor = after
  }

  /// The page size that brings the most items a point.
  var plannedPageSize: Int {
    switch kind {
    // Labels, assignees, timeline: 49 issues for 148 requests, 1 point.
    case .issues: MirrorQuery.bestPageSize(nested: 3, limit: 100)
    // Labels, assignees: 74 for 149 requests, 1 point.
    case .pullRequests: MirrorQuery.bestPageSize(nested: 2, limit: 100)
    }
  }

  mutating func next() async throws(GitHubError) -> ListingPage<MirrorItem>? {
    guard !ended else { return nil }
    let planned = plannedPageSize
    let kind = self.kind
    let nested = kind == .issues ? 3 : 2
    var variables: [String: GraphQLValue] = [
      "owner": .string(repository.owner), "name": .string(repository.name),
      "after": after.map(GraphQLValue.string) ?? .null,
    ]
    if kind == .issues {
      variables["since"] = since.map { .string(GitHubDate.iso8601($0)) } ?? .null
    }
    let response: GraphQLResponse<MirrorPagePayload>
    while true {
      do {
        response = try await send(variables: variables, planned: planned, nested: nested)
        break
      } catch let error where error.isRefusedCursor && after != nil {
        // A cursor GitHub did not take: asked with again, then an earlier one, then the
        // query's start (``CursorRefusals``); the listing de-duplicates what it saw twice.
        switch try refusals.refused(error, cursor: after, start: startCursor) {
        case .sameCursor: continue
        case .cursor(let previous): after = previous
        case .start:
          after = startCursor
          served = 0
        }
        variables["after"] = after.map(GraphQLValue.string) ?? .null
      }
    }
    let asked = after
    let page = try page(from: response, planned: planned)
    refusals.answered(askedWith: asked, moved: after != asked)
    return page
  }

  /// Sends one page's query at the session's current sizes.
  private func send(variables: [String: GraphQLValue], planned: Int, nested: Int)
    async throws(GitHubError) -> GraphQLResponse<MirrorPagePayload>
  {
    let kind = self.kind
    let features = session.features
    return try await session.send(
      kind == .issues ? "MirrorIssues" : "MirrorPullRequests", as: MirrorPagePayload.self
    ) { sizes in
      let first = sizes.page(planned)
      var variables = variables
      variables["first"] = .int(first)
      if kind == .issues { variables["timeline"] = .int(sizes.timeline) }
      return (
        kind == .issues ? MirrorQuery.issues(features) : MirrorQuery.pullRequests(features),
        variables,
        MirrorQuery.points(requests: 1 + first * nested)
      )
    }
  }

  /// The page an answer holds, and where the next one starts.
  private mutating func page(
    from response: GraphQLResponse<MirrorPagePayload>, planned: Int
  ) throws(GitHubError) -> ListingPage<MirrorItem> {
    let source = "\(kind == .issues ? "issues" : "pull requests") of \(repository) (GraphQL)"
    let connection =
      kind == .issues ? response.data?.repository?.issues : response.data?.repository?.pullRequests
    guard let connection else {
      let message = response.errors.first?.message ?? "no repository in the answer"
      let missing = response.errors.contains { $0.type == "NOT_FOUND" }
      throw GitHubError(
        missing ? .notFound : .decoding, method: "POST", url: source,
        detail: String(message.prefix(300)))
    }
    var items: [MirrorItem] = []
    var cursors: [String] = []
    var skipped: [SkippedItem] = []
    let edges = connection.edges ?? []
    for (index, element) in connection.nodes.enumerated() {
      switch element {
      case .decoded(let node):
        // GitHub's count; a server without it, the comments on the page.
        let comments =
          node.comments?.totalCount
          ?? (node.timelineItems?.nodes ?? []).filter { $0.node?.__typename == "IssueComment" }
          .count
        guard let issue = node.issue(isPullRequest: kind == .pullRequests, comments: comments)
        else {
          skipped.append(
            SkippedItem(id: nil, number: node.number, reason: "field `databaseId`: missing"))
          continue
        }
        // A nullable field that came with an error reads as null, but is not: the item is not
        // written (the cache keeps what it had), and is named, so that the mark stays before
        // it and the next run reads it again. Its timeline has a path of its own (completed
        // after the listing).
        if let error = Self.fieldError(ofNode: index, in: response.errors) {
          skipped.append(
            SkippedItem(
              id: nil, number: node.number,
              reason: "GitHub could not read it (\(String(error.message.prefix(300))))"))
          continue
        }
        items.append(MirrorItem(node: node, issue: issue))
        if let cursor = edges.indices.contains(index) ? edges[index]?.cursor : nil {
          cursors.append(cursor)
        }
      case .null:
        let reason = response.errors.first { $0.indexes.first == index }?.message ?? "null"
        skipped.append(
          SkippedItem(
            id: nil, number: nil,
            reason: "skipped an item GitHub could not read (\(String(reason.prefix(300))))"))
      case .failed(let failure):
        skipped.append(failure)
      }
    }
    let hasNext = connection.pageInfo?.hasNextPage ?? false
    served += connection.nodes.count
    // A server that keeps saying more follow is stopped by what it announced: an empty page
    // with a next one, or twice the items its count said (edits move a few items behind the
    // cursor, never that many).
    if hasNext, connection.nodes.isEmpty || served > max(0, connection.totalCount) * 2 + planned {
      throw GitHubError(
        .pagination, method: "POST", url: source,
        detail: connection.nodes.isEmpty
          ? "an empty page that says another follows"
          : "more than the \(connection.totalCount) items it announced, twice over")
    }
    if hasNext {
      guard let cursor = connection.pageInfo?.endCursor, cursor != after else {
        throw GitHubError(
          .pagination, method: "POST", url: source,
          detail: "a next page without a new cursor")
      }
      after = cursor
      position.cursor = cursor
    } else {
      ended = true
    }
    // Bounded by what the server announced, at the smallest page size.
    let smallest = max(1, planned / MirrorSession.Sizes.smallest)
    return ListingPage(
      items: items, skipped: skipped, hasNext: hasNext,
      announcedPages: (max(0, connection.totalCount) + smallest - 1) / smallest + 1,
      source: source, cursors: cursors.count == items.count ? cursors : [])
  }
}

extension MirrorPages {
  /// An error on a field of the connection's node at `index` (`….nodes[index].milestone`),
  /// other than in its timeline, if the answer has one.
  static func fieldError(ofNode index: Int, in errors: [GraphQLError]) -> GraphQLError? {
    errors.first { error in
      guard let at = error.path.firstIndex(of: .index(index)), at > 0,
        error.path[at - 1] == .field("nodes"), at + 1 < error.path.count
      else { return false }
      return error.path[at + 1] != .field("timelineItems")
    }
  }
}

/// The cursor a listing of GraphQL pages has reached, shared with whoever writes its pages.
final class CursorPosition: Sendable {
  private let value: Mutex<String?>

  init(_ cursor: String?) { value = Mutex(cursor) }

  /// The end cursor of the last page fetched (or where the listing started).
  var cursor: String? {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}
