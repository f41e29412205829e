import FlyingFox
import Foundation
import GitHubIssues

/// The GraphQL side of the local GitHub: its budget, its faults, and what it charged.
///
/// It answers the operations the mirror sends (`MirrorIssues`, `MirrorPullRequests`,
/// `MirrorTimelines`, `MirrorSubIssues`, `MirrorNodes`) by name and variables, from the same
/// items, comments, timelines and sub-issue lists the REST side serves: a hand-written
/// resolver rather than a schema-driven server, because the point is to control exactly what
/// each answer holds (cursors, partial errors, limits) and to price each query by GitHub's
/// documented rule, computed here from the request on its own.
package struct GraphQLState: Sendable {
  /// How cursors point into a connection.
  package enum Cursors: Sendable {
    /// After an item's (`updatedAt`, number): an item edited meanwhile moves behind the cursor
    /// and no other shifts, as on GitHub.
    case keyset
    /// After a position: an item edited meanwhile shifts every later one a place earlier, so
    /// one is never served to a client that only follows cursors.
    case offset
  }

  /// Points an hour.
  package var limit = 5_000
  /// Points left until ``resetAt``.
  package var remaining = 5_000
  /// When the points come back.
  package var resetAt = Date().addingTimeInterval(3_600)
  /// Points charged so far.
  package internal(set) var spent = 0
  /// Queries answered (charged or not), by operation name.
  package internal(set) var queries: [String: Int] = [:]
  /// How cursors work.
  package var cursors = Cursors.keyset
  /// A page query asking for more items than this answers 502, as GitHub does to a query that
  /// runs past its 10 seconds.
  package var largestPage: Int?
  /// A query asking for more nodes than this answers `MAX_NODE_LIMIT_EXCEEDED` (GitHub's limit
  /// is 500,000).
  package var nodeLimit: Int?
  /// More points than this within a minute answers 403 with `retry-after` (a secondary limit).
  package var pointsPerMinute: Int?
  /// Issues whose timeline answers `null` with an error beside the rest of the data, the given
  /// number of times each.
  package var brokenTimelines: [Int: Int] = [:]
  /// Issues whose node answers `null` as GitHub's null propagation makes it (an error in one of
  /// its non-null fields nulls the whole node), with an error naming the node's path, the given
  /// number of times each.
  package var nulledIssueNodes: [Int: Int] = [:]
  /// Issues whose nullable `milestone` answers `null` with an error beside it (GitHub could not
  /// resolve it), the given number of times each.
  package var erroredMilestones: [Int: Int] = [:]
  /// With offset cursors, items sharing an `updatedAt` come in a new order on every query, from
  /// this generator state (`nil`: one order): GitHub documents no order among ties, nor that it
  /// stays the same from one query to the next.
  package var reshuffledTies: UInt64?
  /// How many queries for issues or pull requests that carry an `after` cursor are refused as
  /// GitHub refuses an expired cursor (`data: null`, `INVALID_CURSOR_ARGUMENTS`).
  package var expiredCursorAnswers = 0
  /// Every so many queries for issues, pull requests or timelines that carry a cursor, one is
  /// refused the same way (`0`: none): a flaky server that drops cursors at a steady rate,
  /// whatever the cursor.
  package var expiredCursorEvery = 0
  /// Queries that carried a cursor, counted for ``expiredCursorEvery``.
  package var cursorQueries = 0
  /// Fields this server's schema lacks, as `Type.field` (`Issue.issueType`: GitHub Enterprise
  /// Server before issue types): a query that names one is refused whole, as GitHub refuses it
  /// (`undefinedField`, no data), and introspection does not list it.
  package var missingFields: Set<String> = []
  /// Issues edited right after each issue page that has a page after it, and for how many
  /// pages.
  package var editsPerPage = 0
  package var editPages = Int.max
  /// How many more pages of issues (with another after them) are followed by the deletion of
  /// the first item they served, as someone deleting or transferring an issue mid-listing.
  package var servedDeletionPages = 0
  /// A lying server: every page of issues or pull requests says another follows, with a new
  /// cursor, past the end too.
  package var endlessPages = false
  var endlessCursor = 0
  /// Whether a query without a token is refused, as on GitHub.
  package var requiresToken = true
  var recent: [(at: Date, points: Int)] = []
  var pullRequestNumbers: [String: Set<Int>] = [:]

  package init() {}

  /// All queries answered.
  package var totalQueries: Int { queries.values.reduce(0, +) }
}

extension LocalGitHub {
  /// Changes the GraphQL side's settings.
  package func configureGraphQL(_ change: @Sendable (inout GraphQLState) -> Void) {
    change(&graphQL)
  }

  /// The GraphQL side's state: what it charged, what is left.
  package var graphQLState: GraphQLState { graphQL }

  /// Serves an issue's timeline events (REST's shape: `event`, `actor`, `created_at`, and the
  /// event's own fields) at `…/issues/N/timeline` and in GraphQL's `timelineItems`.
  package func setTimeline(
    _ events: [[String: Any]], of number: Int, in repository: RepositoryName
  ) throws {
    serve(
      "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/timeline",
      body: try JSONSerialization.data(withJSONObject: events))
  }

  /// Serves an issue's timeline events from ready JSON (an array).
  package func setTimeline(json: Data, of number: Int, in repository: RepositoryName) {
    serve("/repos/\(repository.owner)/\(repository.name)/issues/\(number)/timeline", body: json)
  }

  /// Serves an issue's comments from ready JSON (an array, REST's shape), and counts them on it.
  package func setComments(json: Data, count: Int, of number: Int, in repository: RepositoryName) {
    serve("/repos/\(repository.owner)/\(repository.name)/issues/\(number)/comments", body: json)
  }

  /// Removes a served comment, as if deleted on GitHub; its issue's `updated_at` does not move.
  package func deleteComment(_ id: Int, on number: Int, in repository: RepositoryName) throws {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues/\(number)/comments"
    guard let route = routes[path],
      let comments = try JSONSerialization.jsonObject(with: route.body) as? [[String: Any]]
    else { return }
    serve(
      path,
      body: try JSONSerialization.data(
        withJSONObject: comments.filter { ($0["id"] as? Int) != id }))
  }

  // MARK: Answering

  func handleGraphQL(
    _ request: FlyingFox.HTTPRequest, fault: Fault?
  ) async throws -> FlyingFox.HTTPResponse {
    if graphQL.requiresToken, request.headers[HTTPHeader("Authorization")] == nil {
      return response(
        Route(
          status: 401, headers: [:],
          body: Data(#"{"message":"This endpoint requires you to be authenticated."}"#.utf8)))
    }
    if let fault {
      // A mutation applied whose answer is lost, as a write's can be.
      if case .failAfterApplying(let status) = fault {
        _ = try await handleGraphQL(request, fault: nil)
        return response(Route(status: status, headers: [:], body: Data()))
      }
      if case .stallAfterApplying(let seconds) = fault {
        let answer = try await handleGraphQL(request, fault: nil)
        try await Task.sleep(for: .seconds(seconds))
        return answer
      }
      if case .genericGraphQLErrorAfterApplying = fault {
        _ = try await handleGraphQL(request, fault: nil)
        return graphQLAnswer(
          data: nil,
          errors: [
            [
              "message":
                "Something went wrong while executing your query. This may be the result of a "
                + "timeout, or it could be a GitHub bug. Please include `0400:3F2B:1C0E5A:2A1F3B:"
                + "6761A2B4` when reporting this issue."
            ]
          ])
      }
      return try await respond(with: fault, path: "/graphql", page: nil)
    }
    let body = try await request.bodyData
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let name = object["operationName"] as? String
    else {
      return graphQLAnswer(data: nil, errors: [["message": "A query attribute must be specified"]])
    }
    let variables = object["variables"] as? [String: Any] ?? [:]
    graphQL.queries[name, default: 0] += 1
    if name == "SchemaFeatures" {
      // The fields of the two types the mirror asks about, less what this schema lacks.
      func fields(_ type: String, _ names: [String]) -> [String: Any] {
        [
          "fields": names.filter { !graphQL.missingFields.contains("\(type).\($0)") }.map {
            ["name": $0]
          }
        ]
      }
      let shared = [
        "id", "databaseId", "number", "title", "body", "state", "createdAt", "updatedAt",
      ]
      return graphQLAnswer(
        data: [
          "issue": fields(
            "Issue",
            shared + ["issueType", "parent", "subIssues", "subIssuesSummary", "stateReason"]),
          "pullRequest": fields("PullRequest", shared + ["fullDatabaseId", "isDraft", "mergedAt"]),
        ], errors: [])
    }
    let text = object["query"] as? String ?? ""
    for missing in graphQL.missingFields.sorted() {
      let parts = missing.split(separator: ".").map(String.init)
      guard parts.count == 2,
        text.range(of: "\\b\(parts[1])\\b", options: .regularExpression) != nil
      else { continue }
      return graphQLAnswer(
        data: nil,
        errors: [
          [
            "path": ["query \(name)"],
            "extensions": ["code": "undefinedField", "typeName": parts[0], "fieldName": parts[1]],
            "message": "Field '\(parts[1])' doesn't exist on type '\(parts[0])'",
          ]
        ])
    }
    let aliases = variables.keys.filter { $0.hasPrefix("n") && Int($0.dropFirst()) != nil }.count
    let first = variables["first"] as? Int ?? 0
    let timeline = variables["timeline"] as? Int ?? 0
    // GitHub's price: requests of each connection (nested ones once per parent node) / 100.
    let requests: Int
    let nodes: Int
    switch name {
    case "MirrorIssues":
      requests = 1 + first * 3
      nodes = first * (1 + 100 + 10 + timeline)
    case "MirrorPullRequests":
      requests = 1 + first * 2
      nodes = first * (1 + 100 + 10)
    case "MirrorTimelines":
      requests = aliases
      nodes = aliases * timeline
    case "MirrorSubIssues":
      requests = aliases
      nodes = aliases * 100
    case "MirrorPullRequestDetails":
      requests = aliases * 21
      nodes = aliases * 21
    default:
      requests = 1
      nodes = (variables["ids"] as? [Any])?.count ?? 1
    }
    let cost = max(1, Int((Double(requests) / 100).rounded()))
    if let nodeLimit = graphQL.nodeLimit, nodes > nodeLimit {
      return graphQLAnswer(
        data: nil,
        errors: [
          [
            "type": "MAX_NODE_LIMIT_EXCEEDED",
            "message":
              "This query requests up to \(nodes) possible nodes which exceeds the maximum limit of \(nodeLimit).",
          ]
        ])
    }
    if let largest = graphQL.largestPage,
      max(first, aliases) > largest
    {
      return response(
        Route(
          status: 502, headers: [:],
          body: Data(#"{"message":"We couldn't respond to your request in time."}"#.utf8)))
    }
    let now = Date()
    graphQL.recent.removeAll { now.timeIntervalSince($0.at) >= 60 }
    if let perMinute = graphQL.pointsPerMinute,
      graphQL.recent.reduce(0, { $0 + $1.points }) + cost > perMinute
    {
      let wait = max(1, Int(60 - now.timeIntervalSince(graphQL.recent.first?.at ?? now)))
      return response(
        Route(
          status: 403, headers: ["retry-after": String(wait)],
          body: Data(#"{"message":"You have exceeded a secondary rate limit."}"#.utf8)))
    }
    guard graphQL.remaining >= cost else {
      return graphQLAnswer(
        data: nil,
        errors: [["type": "RATE_LIMITED", "message": "API rate limit already exceeded."]])
    }
    graphQL.remaining -= cost
    graphQL.spent += cost
    graphQL.recent.append((now, cost))
    var errors: [[String: Any]] = []
    var data: [String: Any] = [:]
    switch name {
    case "ResolveReviewThread", "UnresolveReviewThread":
      let resolving = name == "ResolveReviewThread"
      let field = resolving ? "resolveReviewThread" : "unresolveReviewThread"
      guard let thread = variables["thread"] as? String, threadExists(thread) else {
        data[field] = NSNull()
        errors.append([
          "type": "NOT_FOUND", "path": [field],
          "message":
            "Could not resolve to a node with the global id of '\(variables["thread"] ?? "")'",
        ])
        break
      }
      if resolving { resolvedThreads.insert(thread) } else { resolvedThreads.remove(thread) }
      threadResolutions.append((thread, resolving))
      data[field] = ["thread": ["id": thread, "isResolved": resolving]]
    case "EnableAutoMerge":
      data["enablePullRequestAutoMerge"] = enableAutoMerge(variables, errors: &errors)
    case "EnqueuePullRequest":
      data["enqueuePullRequest"] = enqueuePullRequest(variables, errors: &errors)
    case "MirrorNodes":
      data["nodes"] = commentNodes(variables["ids"] as? [String] ?? [], errors: &errors)
    default:
      let owner = variables["owner"] as? String ?? ""
      let repositoryName = variables["name"] as? String ?? ""
      let path = "/repos/\(owner)/\(repositoryName)/issues"
      guard listings[path] != nil else {
        data["repository"] = NSNull()
        errors.append([
          "type": "NOT_FOUND", "path": ["repository"],
          "message":
            "Could not resolve to a Repository with the name '\(owner)/\(repositoryName)'.",
        ])
        break
      }
      if let cursor = Self.cursor(in: name, variables),
        graphQL.expiredCursorAnswers > 0 || refusesCursorAtRate()
      {
        if graphQL.expiredCursorAnswers > 0 { graphQL.expiredCursorAnswers -= 1 }
        return graphQLAnswer(
          data: nil,
          errors: [
            [
              "type": "INVALID_CURSOR_ARGUMENTS",
              "path": [
                "repository",
                name == "MirrorPullRequests"
                  ? "pullRequests" : name == "ReviewThreads" ? "pullRequest" : "issues",
              ],
              "message": "`\(cursor)` does not appear to be a valid cursor.",
            ]
          ])
      }
      data["repository"] = resolveRepository(
        name, path: path, variables: variables, errors: &errors)
    }
    data["rateLimit"] = [
      "cost": cost, "remaining": graphQL.remaining, "limit": graphQL.limit,
      "resetAt": Self.timestamp(graphQL.resetAt),
    ]
    return graphQLAnswer(data: data, errors: errors)
  }

  /// The cursor a listing query carries: `after` of issues or pull requests, or the first
  /// alias's of a timelines query.
  private static func cursor(in operation: String, _ variables: [String: Any]) -> String? {
    switch operation {
    case "MirrorIssues", "MirrorPullRequests", "ReviewThreads": variables["after"] as? String
    case "MirrorTimelines":
      variables.keys.filter { $0.hasPrefix("a") && Int($0.dropFirst()) != nil }.sorted()
        .lazy.compactMap { variables[$0] as? String }.first
    default: nil
    }
  }

  /// Whether this query with a cursor is the one in ``GraphQLState/expiredCursorEvery`` refused.
  private func refusesCursorAtRate() -> Bool {
    guard graphQL.expiredCursorEvery > 0 else { return false }
    graphQL.cursorQueries += 1
    return graphQL.cursorQueries % graphQL.expiredCursorEvery == 0
  }

  private func graphQLAnswer(data: [String: Any]?, errors: [[String: Any]])
    -> FlyingFox.HTTPResponse
  {
    var object: [String: Any] = ["data": data ?? NSNull()]
    if !errors.isEmpty { object["errors"] = errors }
    let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    return response(
      Route(
        status: 200,
        headers: [
          "content-type": "application/json; charset=utf-8",
          "x-ratelimit-limit": String(graphQL.limit),
          "x-ratelimit-remaining": String(graphQL.remaining),
          "x-ratelimit-reset": String(Int(graphQL.resetAt.timeIntervalSince1970)),
          "x-ratelimit-resource": "graphql",
        ], body: body))
  }

  private func resolveRepository(
    _ operation: String, path: String, variables: [String: Any], errors: inout [[String: Any]]
  ) -> [String: Any] {
    switch operation {
    case "AutoMergeState", "MergeQueueState":
      let number = variables["number"] as? Int ?? 0
      let owner = variables["owner"] as? String ?? ""
      let name = variables["name"] as? String ?? ""
      guard let pull = pullRequestState(owner, name, number) else {
        errors.append([
          "type": "NOT_FOUND", "path": ["repository", "pullRequest"],
          "message": "Could not resolve to a PullRequest with the number of \(number).",
        ])
        return ["pullRequest": NSNull()]
      }
      var fields: [String: Any] = ["id": pull.node, "state": pull.state, "headRefOid": pull.head]
      if operation == "AutoMergeState" {
        fields["autoMergeRequest"] =
          autoMerges[pull.path].map { ["mergeMethod": $0] as Any } ?? NSNull()
      } else {
        let repository = "/repos/\(owner)/\(name)"
        let position = mergeQueueEntries[repository]?.firstIndex(of: number)
        fields["isMergeQueueEnabled"] = mergeQueues.contains(repository)
        fields["mergeQueueEntry"] =
          position.map { ["position": $0 + 1, "state": "QUEUED"] as Any } ?? NSNull()
      }
      return ["pullRequest": fields]
    case "ReviewThreads":
      let number = variables["number"] as? Int ?? 0
      let repository = RepositoryName(
        owner: variables["owner"] as? String ?? "", name: variables["name"] as? String ?? "")
      guard issue(number: number, in: repository)?.isPullRequest == true else {
        errors.append([
          "type": "NOT_FOUND", "path": ["repository", "pullRequest"],
          "message": "Could not resolve to a PullRequest with the number of \(number).",
        ])
        return ["pullRequest": NSNull()]
      }
      let threads = reviewThreads(of: number, in: repository)
      let start =
        reviewThreadsNeverEnd
        ? 0 : (variables["after"] as? String).flatMap { Int($0.dropFirst("cursor".count)) } ?? 0
      let end = min(threads.count, start + reviewThreadPageSize)
      if threadDeletionsWhileListing > 0, end < threads.count, start < end {
        threadDeletionsWhileListing -= 1
        deletedThreads.insert(threads[start].node)
      }
      var nodes: [Any] = threads[min(start, end)..<end].map { thread -> [String: Any] in
        [
          "id": thread.node, "isResolved": resolvedThreads.contains(thread.node),
          "comments": ["nodes": [["databaseId": thread.root]]],
        ]
      }
      if reviewThreadsPartly, !nodes.isEmpty {
        nodes[0] = NSNull()
        errors.append([
          "path": ["repository", "pullRequest", "reviewThreads", "nodes", 0],
          "message": "Something went wrong while executing your query.",
        ])
      }
      return [
        "pullRequest": [
          "reviewThreads": [
            "totalCount": threads.count,
            "pageInfo": [
              "hasNextPage": reviewThreadsNeverEnd || end < threads.count,
              "endCursor": reviewThreadsNeverEnd ? "cursor0" : "cursor\(end)",
            ],
            "nodes": nodes,
          ]
        ]
      ]
    case "MirrorIssues", "MirrorPullRequests":
      let isIssues = operation == "MirrorIssues"
      let key = isIssues ? "issues" : "pullRequests"
      return [key: connection(path, issues: isIssues, variables: variables, errors: &errors)]
    case "MirrorIssueCount":
      // Issues (not pull requests) updated at or after `since`, as `totalCount` counts them.
      guard let listing = listings[path] else { return [:] }
      let pulls = pullRequestNumbers(path)
      let since = (variables["since"] as? String).flatMap {
        ISO8601DateFormatter().date(from: $0)
      }
      let total = listing.items.count {
        !pulls.contains($0.number) && $0.updatedAt >= (since ?? .distantPast)
      }
      return [
        "issues": ["totalCount": total],
        "pullRequests": ["totalCount": listing.items.count { pulls.contains($0.number) }],
      ]
    case "MirrorPullRequestNumbers":
      // Pull requests oldest first (creation order is number order here), numbers only; the
      // cursor counts positions or keys on the number, as the state's cursors say.
      guard let listing = listings[path] else { return [:] }
      let pulls = pullRequestNumbers(path)
      let numbers = listing.items.map(\.number).filter { pulls.contains($0) }.sorted()
      let first = max(0, min(100, variables["first"] as? Int ?? 0))
      var start = 0
      if let cursor = variables["after"] as? String, let decoded = Self.decodeCursor(cursor) {
        switch decoded {
        case .key(_, let number): start = numbers.partitioningIndex { $0 > number }
        case .offset(let offset): start = min(numbers.count, offset)
        }
      }
      let served = Array(numbers[start..<min(numbers.count, start + first)])
      let end: Cursor? =
        served.last.map { last in
          graphQL.cursors == .offset
            ? .offset(start + served.count) : .key(Date(timeIntervalSince1970: 0), last)
        }
      return [
        "pullRequests": [
          "totalCount": numbers.count,
          "pageInfo": [
            "hasNextPage": start + served.count < numbers.count,
            "endCursor": end.map { Self.encodeCursor($0) as Any } ?? NSNull(),
          ],
          "nodes": served.map { ["number": $0] },
        ]
      ]
    case "MirrorTimelines", "MirrorSubIssues":
      var repository: [String: Any] = [:]
      var index = 0
      while let number = variables["n\(index)"] as? Int {
        let alias = "i\(index)"
        defer { index += 1 }
        guard let object = item(number, path: path) else {
          repository[alias] = NSNull()
          errors.append([
            "type": "NOT_FOUND", "path": ["repository", alias],
            "message": "Could not resolve to an Issue with the number of \(number).",
          ])
          continue
        }
        var node: [String: Any] = [
          "number": number, "updatedAt": object["updated_at"] ?? NSNull(),
        ]
        if operation == "MirrorTimelines" {
          node["timelineItems"] = timelineConnection(
            number, path: path, first: variables["timeline"] as? Int ?? 100,
            after: variables["a\(index)"] as? String, errorPath: ["repository", alias],
            errors: &errors)
        } else {
          node["subIssues"] = subIssueConnection(number, path: path)
        }
        repository[alias] = node
      }
      return repository
    case "MirrorPullRequestDetails":
      var repository: [String: Any] = [:]
      var index = 0
      while let number = variables["n\(index)"] as? Int {
        let alias = "p\(index)"
        defer { index += 1 }
        guard let object = item(number, path: path), object["pull_request"] != nil else {
          repository[alias] = NSNull()
          errors.append([
            "type": "NOT_FOUND", "path": ["repository", alias],
            "message": "Could not resolve to a PullRequest with the number of \(number).",
          ])
          continue
        }
        repository[alias] = Self.pullRequestDetails(object)
      }
      return repository
    default:
      errors.append(["message": "Unknown operation \(operation)"])
      return [:]
    }
  }

  /// A pull request's review, checks and branches, made up from its number (the same every
  /// time): a quarter approved, a quarter with changes requested, a quarter waiting for review;
  /// checks passing, failing or pending in turn; reviewers asked of every other one.
  package static func pullRequestDetails(_ object: [String: Any]) -> [String: Any] {
    let number = object["number"] as? Int ?? 0
    let decisions: [Any] = ["APPROVED", "CHANGES_REQUESTED", "REVIEW_REQUIRED", NSNull()]
    let rollups = ["SUCCESS", "FAILURE", "PENDING"]
    let pull = object["pull_request"] as? [String: Any] ?? [:]
    let reviewers: [[String: Any]] =
      number % 2 == 0
      ? [
        [
          "requestedReviewer": [
            "__typename": "User", "login": number % 4 == 0 ? "octocat" : "mona",
          ]
        ]
      ]
        + (number % 3 == 0
          ? [
            [
              "requestedReviewer": [
                "__typename": "Team", "combinedSlug": "acme/core", "name": "Core maintainers",
              ]
            ]
          ] : [])
      : []
    // Each reviewer's latest review of the timeline's, in the order they were submitted.
    var latest: [String: [String: Any]] = [:]
    var authors: [String] = []
    for review in Self.reviews(of: number) {
      guard let login = (review["user"] as? [String: Any])?["login"] as? String else { continue }
      if latest[login] == nil { authors.append(login) }
      latest[login] = [
        "author": ["login": login], "state": (review["state"] as? String ?? "").uppercased(),
        "authorAssociation": review["author_association"] ?? "NONE",
        "body": review["body"] ?? "", "submittedAt": review["submitted_at"] ?? NSNull(),
      ]
    }
    let reviews = authors.compactMap { latest[$0] }
    return [
      "number": number, "updatedAt": object["updated_at"] ?? NSNull(),
      "isDraft": object["draft"] ?? false, "mergedAt": pull["merged_at"] ?? NSNull(),
      "reviewDecision": decisions[number % 4],
      "mergeable": number % 7 == 0 ? "CONFLICTING" : "MERGEABLE",
      "headRefName": "feature/\(number)", "baseRefName": "main",
      "additions": (number * 37) % 500, "deletions": (number * 11) % 120,
      "reviewRequests": ["nodes": reviewers],
      "latestReviews": ["nodes": reviews],
      "commits": [
        "nodes": [["commit": ["statusCheckRollup": ["state": rollups[number % 3]]]]]
      ],
    ]
  }

  /// A page of issues or pull requests from the listing the REST side serves.
  private func connection(
    _ path: String, issues: Bool, variables: [String: Any], errors: inout [[String: Any]]
  ) -> [String: Any] {
    guard var listing = listings[path] else { return [:] }
    if var state = graphQL.reshuffledTies, graphQL.cursors == .offset {
      listing.items = Self.shuffledTies(listing.items[...], state: &state)
      graphQL.reshuffledTies = state
    }
    let pulls = pullRequestNumbers(path)
    let first = max(0, min(100, variables["first"] as? Int ?? 0))
    let since = (variables["since"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
    // The listing's order is GitHub's: `updated_at`, then number.
    var start =
      since.map { date in
        listing.items.partitioningIndex { $0.updatedAt >= date }
      } ?? 0
    let matches = { (number: Int) in pulls.contains(number) != issues }
    var skip = 0
    if let cursor = variables["after"] as? String, let decoded = Self.decodeCursor(cursor) {
      switch decoded {
      case .key(let updatedAt, let number):
        start = max(
          start,
          listing.items.partitioningIndex { listing.isAfter($0, updatedAt, number) })
      case .offset(let offset):
        skip = offset
      }
    }
    var served: [(index: Int, object: [String: Any])] = []
    var index = start
    var hasNext = false
    while index < listing.items.count {
      let item = listing.items[index]
      defer { index += 1 }
      guard matches(item.number) else { continue }
      if skip > 0 {
        skip -= 1
        continue
      }
      if served.count == first {
        hasNext = true
        break
      }
      guard let object = try? JSONSerialization.jsonObject(with: item.json) as? [String: Any]
      else { continue }
      served.append((index, object))
    }
    let total: Int = {
      let from = since.map { date in listing.items.partitioningIndex { $0.updatedAt >= date } } ?? 0
      let pullsAfter = listing.items[from...].count { pulls.contains($0.number) }
      return issues ? listing.items.count - from - pullsAfter : pullsAfter
    }()
    var nodes: [Any] = []
    for (position, entry) in served.enumerated() {
      var node = Self.row(entry.object)
      if issues {
        let number = entry.object["number"] as? Int ?? 0
        node["stateReason"] = (entry.object["state_reason"] as? String)?.uppercased() ?? NSNull()
        node["issueType"] =
          ((entry.object["type"] as? [String: Any])?["name"]).map { ["name": $0] } ?? NSNull()
        node["parent"] = NSNull()
        let summary = entry.object["sub_issues_summary"] as? [String: Any]
        node["subIssuesSummary"] = [
          "total": summary?["total"] as? Int ?? 0, "completed": summary?["completed"] as? Int ?? 0,
        ]
        node["timelineItems"] = timelineConnection(
          number, path: path, first: variables["timeline"] as? Int ?? 100, after: nil,
          errorPath: ["repository", "issues", "nodes", position], errors: &errors)
        if let times = graphQL.erroredMilestones[number], times > 0 {
          graphQL.erroredMilestones[number] = times - 1
          node["milestone"] = NSNull()
          errors.append([
            "message": "Something went wrong while resolving the milestone.",
            "path": ["repository", "issues", "nodes", position, "milestone"],
          ])
        }
        if let times = graphQL.nulledIssueNodes[number], times > 0 {
          graphQL.nulledIssueNodes[number] = times - 1
          errors.append([
            "message": "Something went wrong while executing your query (issue \(number)).",
            "path": ["repository", "issues", "nodes", position, "timelineItems"],
          ])
          nodes.append(NSNull())
          continue
        }
      }
      nodes.append(node)
    }
    // Each node's cursor, as `edges { cursor }` gives it.
    let consumedBefore =
      (variables["after"] as? String).flatMap(Self.decodeCursor).flatMap {
        if case .offset(let offset) = $0 { offset } else { nil }
      } ?? 0
    let edges: [Any] = served.enumerated().map { position, entry in
      switch graphQL.cursors {
      case .keyset:
        let item = listing.items[entry.index]
        return ["cursor": Self.encodeCursor(.key(item.updatedAt, item.number))]
      case .offset:
        return ["cursor": Self.encodeCursor(.offset(consumedBefore + position + 1))]
      }
    }
    let endCursor: Any
    if let last = served.last {
      let updatedAt = listing.items[last.index].updatedAt
      switch graphQL.cursors {
      case .keyset:
        endCursor = Self.encodeCursor(.key(updatedAt, listing.items[last.index].number))
      case .offset:
        let consumed =
          (variables["after"] as? String).flatMap(Self.decodeCursor).flatMap {
            if case .offset(let offset) = $0 { offset } else { nil }
          } ?? 0
        endCursor = Self.encodeCursor(.offset(consumed + served.count))
      }
    } else {
      endCursor = NSNull()
    }
    var hasNextPage = hasNext
    var nextCursor = endCursor
    if graphQL.endlessPages {
      graphQL.endlessCursor += 1
      hasNextPage = true
      nextCursor = Self.encodeCursor(.offset(graphQL.endlessCursor * max(1, first)))
    }
    // Edits while the listing runs, after a page that has another after it.
    if issues, hasNext, graphQL.servedDeletionPages > 0,
      let first = served.first.flatMap({ $0.object["number"] as? Int })
    {
      graphQL.servedDeletionPages -= 1
      listings[path]?.items.removeAll { $0.number == first }
    }
    if issues, hasNext, graphQL.editsPerPage > 0, graphQL.editPages > 0 {
      graphQL.editPages -= 1
      editServed(
        served.prefix(graphQL.editsPerPage).compactMap { $0.object["number"] as? Int }, path)
    }
    return [
      "totalCount": total,
      "pageInfo": ["hasNextPage": hasNextPage, "endCursor": nextCursor],
      "edges": edges,
      "nodes": nodes,
    ]
  }

  /// The numbers of a listing's pull requests.
  private func pullRequestNumbers(_ path: String) -> Set<Int> {
    guard let listing = listings[path] else { return [] }
    // Known while the listing holds as many items (edits do not make an issue a pull request).
    if let known = graphQL.pullRequestNumbers[path],
      graphQL.pullRequestNumbers["\(path)#count"]?.first == listing.items.count
    {
      return known
    }
    let marker = Data("\"pull_request\"".utf8)
    var numbers: Set<Int> = []
    for item in listing.items where item.json.range(of: marker) != nil {
      if let object = try? JSONSerialization.jsonObject(with: item.json) as? [String: Any],
        let value = object["pull_request"], !(value is NSNull)
      {
        numbers.insert(item.number)
      }
    }
    graphQL.pullRequestNumbers[path] = numbers
    graphQL.pullRequestNumbers["\(path)#count"] = [listing.items.count]
    return numbers
  }

  private func item(_ number: Int, path: String) -> [String: Any]? {
    guard let entry = listings[path]?.items.first(where: { $0.number == number }) else {
      return nil
    }
    return try? JSONSerialization.jsonObject(with: entry.json) as? [String: Any]
  }

  /// The fields of a row, issue or pull request, from its REST JSON.
  static func row(_ object: [String: Any]) -> [String: Any] {
    func account(_ value: Any?) -> Any {
      guard let user = value as? [String: Any], let login = user["login"] as? String else {
        return NSNull()
      }
      let type = user["type"] as? String ?? (login.hasSuffix("[bot]") ? "Bot" : "User")
      return [
        "login": login, "__typename": type, "databaseId": user["id"] ?? NSNull(),
        "id": user["node_id"] ?? "U_\(user["id"] ?? 0)",
      ]
    }
    let labels = (object["labels"] as? [[String: Any]] ?? []).map {
      [
        "id": $0["node_id"] ?? "LA_\($0["id"] ?? 0)", "name": $0["name"] ?? "",
        "color": $0["color"] ?? NSNull(), "description": $0["description"] ?? NSNull(),
      ]
    }
    let assignees = (object["assignees"] as? [Any] ?? []).map { account($0) }
    let milestone = object["milestone"] as? [String: Any]
    return [
      "id": object["node_id"] ?? "I_\(object["id"] ?? 0)", "databaseId": object["id"] ?? NSNull(),
      "number": object["number"] ?? 0, "title": object["title"] ?? "",
      "body": object["body"] ?? NSNull(),
      "state": (object["state"] as? String == "open") ? "OPEN" : "CLOSED",
      "locked": object["locked"] ?? false, "createdAt": object["created_at"] ?? NSNull(),
      "updatedAt": object["updated_at"] ?? NSNull(), "closedAt": object["closed_at"] ?? NSNull(),
      "url": object["html_url"] ?? NSNull(), "author": account(object["user"]),
      "milestone": milestone.map { ["number": $0["number"] ?? 0, "title": $0["title"] ?? ""] }
        ?? NSNull(),
      "labels": ["totalCount": labels.count, "nodes": labels],
      "assignees": ["totalCount": assignees.count, "nodes": assignees],
      "comments": ["totalCount": object["comments"] ?? 0],
      "isDraft": object["draft"] ?? false,
      "mergedAt": (object["pull_request"] as? [String: Any])?["merged_at"] ?? NSNull(),
    ]
  }

  /// A page of an issue's timeline: its comments and events, oldest first.
  private func timelineConnection(
    _ number: Int, path: String, first: Int, after: String?, errorPath: [Any],
    errors: inout [[String: Any]]
  ) -> Any {
    if let times = graphQL.brokenTimelines[number], times > 0 {
      graphQL.brokenTimelines[number] = times - 1
      errors.append([
        "message": "Something went wrong while executing your query.",
        "path": errorPath + ["timelineItems"],
      ])
      return NSNull()
    }
    let entries = timelineEntries(number, path: path)
    var start = 0
    if let after, case .offset(let offset)? = Self.decodeCursor(after) { start = offset }
    start = min(start, entries.count)
    let end = min(entries.count, start + max(0, min(100, first)))
    return [
      "totalCount": entries.count,
      "pageInfo": [
        "hasNextPage": end < entries.count,
        "endCursor": end > start ? Self.encodeCursor(.offset(end)) : NSNull(),
      ] as [String: Any],
      "nodes": Array(entries[start..<end]),
    ]
  }

  /// An issue's comments and events as GraphQL timeline items, oldest first.
  private func timelineEntries(_ number: Int, path: String) -> [[String: Any]] {
    func list(_ suffix: String) -> [[String: Any]] {
      routes["\(path)/\(number)/\(suffix)"].flatMap {
        try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]]
      } ?? []
    }
    func actor(_ value: Any?) -> Any {
      (value as? [String: Any])?["login"].map { ["login": $0] } ?? NSNull()
    }
    var entries: [(at: String, order: Int, item: [String: Any])] = []
    for (offset, comment) in list("comments").enumerated() {
      let id = comment["id"] as? Int ?? 0
      let user = comment["user"] as? [String: Any]
      var reactions: [[String: Any]] = []
      for (content, name) in [
        ("THUMBS_UP", "+1"), ("THUMBS_DOWN", "-1"), ("LAUGH", "laugh"), ("HOORAY", "hooray"),
        ("CONFUSED", "confused"), ("HEART", "heart"), ("ROCKET", "rocket"), ("EYES", "eyes"),
      ] {
        let count = (comment["reactions"] as? [String: Any])?[name] as? Int ?? 0
        reactions.append(["content": content, "reactors": ["totalCount": count]])
      }
      let item: [String: Any] = [
        "__typename": "IssueComment", "id": comment["node_id"] ?? "IC_\(id)", "databaseId": id,
        "body": comment["body"] ?? "", "createdAt": comment["created_at"] ?? NSNull(),
        "updatedAt": comment["updated_at"] ?? NSNull(), "url": comment["html_url"] ?? NSNull(),
        "authorAssociation": comment["author_association"] ?? "NONE",
        "author": user.map {
          ["login": $0["login"] ?? "", "__typename": "User", "databaseId": $0["id"] ?? 0]
        } ?? NSNull(),
        "reactionGroups": reactions,
      ]
      entries.append((comment["created_at"] as? String ?? "", offset, item))
    }
    for (offset, event) in list("timeline").enumerated() {
      var item: [String: Any] = [
        "createdAt": event["created_at"] ?? NSNull(), "actor": actor(event["actor"]),
      ]
      switch event["event"] as? String {
      case "closed":
        item["__typename"] = "ClosedEvent"
        item["stateReason"] = (event["state_reason"] as? String)?.uppercased() ?? NSNull()
      case "reopened": item["__typename"] = "ReopenedEvent"
      case "labeled", "unlabeled":
        item["__typename"] =
          event["event"] as? String == "labeled" ? "LabeledEvent" : "UnlabeledEvent"
        item["label"] = ["name": (event["label"] as? [String: Any])?["name"] ?? ""]
      case "milestoned", "demilestoned":
        item["__typename"] =
          event["event"] as? String == "milestoned" ? "MilestonedEvent" : "DemilestonedEvent"
        item["milestoneTitle"] = (event["milestone"] as? [String: Any])?["title"] ?? ""
      case "assigned", "unassigned":
        item["__typename"] =
          event["event"] as? String == "assigned" ? "AssignedEvent" : "UnassignedEvent"
        item["assignee"] = actor(event["assignee"])
      case "renamed":
        item["__typename"] = "RenamedTitleEvent"
        let rename = event["rename"] as? [String: Any]
        item["previousTitle"] = rename?["from"] ?? ""
        item["currentTitle"] = rename?["to"] ?? ""
      default: continue
      }
      entries.append((event["created_at"] as? String ?? "", 1_000_000 + offset, item))
    }
    return entries.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map(\.item)
  }

  private func subIssueConnection(_ number: Int, path: String) -> [String: Any] {
    let children =
      routes["\(path)/\(number)/sub_issues"].flatMap {
        try? JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]]
      } ?? []
    let nodes = children.map { child -> [String: Any] in
      let url = child["html_url"] as? String ?? ""
      let parts = url.split(separator: "/")
      let name = parts.count >= 4 ? "\(parts[parts.count - 4])/\(parts[parts.count - 3])" : ""
      return ["number": child["number"] ?? 0, "repository": ["nameWithOwner": name]]
    }
    return [
      "totalCount": nodes.count,
      "pageInfo": ["hasNextPage": false, "endCursor": NSNull()] as [String: Any],
      "nodes": nodes,
    ]
  }

  /// `nodes(ids:)` for comments: each still served, or `null` with `NOT_FOUND`.
  private func commentNodes(_ ids: [String], errors: inout [[String: Any]]) -> [Any] {
    var existing: Set<String> = []
    for (key, route) in routes where key.hasSuffix("/comments") {
      guard let comments = try? JSONSerialization.jsonObject(with: route.body) as? [[String: Any]]
      else { continue }
      for comment in comments {
        existing.insert(comment["node_id"] as? String ?? "IC_\(comment["id"] ?? 0)")
      }
    }
    return ids.enumerated().map { index, id in
      if existing.contains(id) { return ["id": id] }
      errors.append([
        "type": "NOT_FOUND", "path": ["nodes", index],
        "message": "Could not resolve to a node with the global id of '\(id)'",
      ])
      return NSNull()
    }
  }

  enum Cursor {
    case key(Date, Int)
    case offset(Int)
  }

  static func encodeCursor(_ cursor: Cursor) -> String {
    let text =
      switch cursor {
      case .key(let date, let number): "k:\(date.timeIntervalSince1970):\(number)"
      case .offset(let offset): "o:\(offset)"
      }
    return Data(text.utf8).base64EncodedString()
  }

  static func decodeCursor(_ text: String) -> Cursor? {
    guard let data = Data(base64Encoded: text) else { return nil }
    let parts = String(decoding: data, as: UTF8.self).split(separator: ":")
    switch parts.first {
    case "k":
      guard parts.count == 3, let seconds = Double(parts[1]), let number = Int(parts[2]) else {
        return nil
      }
      return .key(Date(timeIntervalSince1970: seconds), number)
    case "o":
      return parts.count == 2 ? Int(parts[1]).map { .offset($0) } : nil
    default: return nil
    }
  }
}

extension Array {
  /// The first index whose element satisfies a predicate that is false and then true along the
  /// array.
  func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if belongs(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}

extension LocalGitHub {
  /// A pull request's review threads, oldest first: one per line comment that answers none
  /// (served or posted), its node id made from the pull request and that comment.
  package func reviewThreads(of number: Int, in repository: RepositoryName) -> [(
    node: String, root: Int
  )] {
    let pull = "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"
    let comments = Self.reviewComments(of: number) + (postedReviews[pull] ?? []).flatMap(\.comments)
    return comments.compactMap { comment in
      guard comment["in_reply_to_id"] == nil, let id = comment["id"] as? Int else { return nil }
      let node = Self.threadNode(repository, number, root: id)
      return deletedThreads.contains(node) ? nil : (node, id)
    }
  }

  /// The node id of the thread that starts with line comment `root` (GitHub's are opaque).
  package static func threadNode(_ repository: RepositoryName, _ number: Int, root: Int) -> String {
    "PRRT:\(repository.owner)/\(repository.name)#\(number):\(root)"
  }

  /// Whether a thread with this node id is on one of the served pull requests.
  func threadExists(_ node: String) -> Bool {
    guard node.hasPrefix("PRRT:"), let hash = node.lastIndex(of: "#"),
      let colon = node.lastIndex(of: ":"), hash < colon,
      let number = Int(node[node.index(after: hash)..<colon])
    else { return false }
    let slug = node[node.index(node.startIndex, offsetBy: 5)..<hash].split(separator: "/")
    guard slug.count == 2 else { return false }
    let repository = RepositoryName(owner: String(slug[0]), name: String(slug[1]))
    return reviewThreads(of: number, in: repository).contains { $0.node == node }
  }

  /// Review threads a page holds at most (GitHub's is 100; smaller pages make walks longer).
  package func setReviewThreadPageSize(_ size: Int) { reviewThreadPageSize = size }

  /// Deletes the first thread of each of the next `pages` pages of `reviewThreads` served
  /// (when more follow): every later thread shifts back one under the offset cursors.
  package func deleteThreadsWhileListing(pages: Int) { threadDeletionsWhileListing = pages }

  /// Makes `reviewThreads` pages answer their first thread `null`, with an error naming it.
  package func setReviewThreadsPartly(_ partly: Bool) { reviewThreadsPartly = partly }

  /// Makes `reviewThreads` say more follow forever, its cursor never moving.
  package func setReviewThreadsNeverEnd(_ never: Bool) { reviewThreadsNeverEnd = never }

  /// Resolves or unresolves a thread as someone on the web would.
  package func setThread(_ node: String, resolved: Bool) {
    if resolved { resolvedThreads.insert(node) } else { resolvedThreads.remove(node) }
  }

  /// Whether the thread is resolved now.
  package func isThreadResolved(_ node: String) -> Bool { resolvedThreads.contains(node) }

  /// The pull request a node id (`PR_owner/name#number`) names: its state, number and
  /// repository path (`/repos/owner/name`).
  private func pullRequest(atNode node: String) -> (
    (node: String, state: String, head: String, path: String), Int, String
  )? {
    let parts = node.dropFirst("PR_".count).split(separator: "#")
    let names = parts.first?.split(separator: "/") ?? []
    guard node.hasPrefix("PR_"), parts.count == 2, names.count == 2, let number = Int(parts[1]),
      let pull = pullRequestState(String(names[0]), String(names[1]), number)
    else { return nil }
    return (pull, number, "/repos/\(names[0])/\(names[1])")
  }

  /// A pull request's node id, state (`OPEN`, `CLOSED`, `MERGED`), head and path.
  private func pullRequestState(_ owner: String, _ name: String, _ number: Int) -> (
    node: String, state: String, head: String, path: String
  )? {
    guard let target = IssuePath("/repos/\(owner)/\(name)/issues/\(number)"),
      let json = listings[target.listing]?.items.first(where: { $0.number == number })?.json,
      let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any],
      let pullRequest = object["pull_request"] as? [String: Any]
    else { return nil }
    let path = "/repos/\(owner)/\(name)/pulls/\(number)"
    let merged = pullRequest["merged_at"].map { !($0 is NSNull) } ?? false
    let state = merged ? "MERGED" : object["state"] as? String == "open" ? "OPEN" : "CLOSED"
    let head = servedPullFiles[path]?.head ?? Self.headSHA(of: number)
    return ("PR_\(owner)/\(name)#\(number)", state, head, path)
  }

  /// `enablePullRequestAutoMerge`, refused as GitHub refuses it: a pull request that is not
  /// open, a head that moved, auto-merge already on, and one that could be merged now ("clean
  /// status", see ``setMergeableNow(_:in:_:)``: GitHub merges those directly, not later).
  private func enableAutoMerge(
    _ variables: [String: Any], errors: inout [[String: Any]]
  ) -> Any {
    func refuse(_ type: String, _ message: String) -> Any {
      errors.append(["type": type, "path": ["enablePullRequestAutoMerge"], "message": message])
      return NSNull()
    }
    let node = variables["pull"] as? String ?? ""
    guard let (pull, _, _) = pullRequest(atNode: node) else {
      return refuse("NOT_FOUND", "Could not resolve to a node with the global id of '\(node)'")
    }
    guard pull.state == "OPEN" else {
      return refuse("UNPROCESSABLE", "Pull request is not open")
    }
    guard autoMerges[pull.path] == nil else {
      return refuse("UNPROCESSABLE", "Pull request is already in auto merge state")
    }
    if let head = variables["head"] as? String, head != pull.head {
      return refuse("UNPROCESSABLE", "Head branch was modified. Review and try the merge again.")
    }
    if mergeableNow.contains(pull.path), mergeRefusals[pull.path] == nil {
      return refuse("UNPROCESSABLE", "Pull request Pull request is in clean status")
    }
    autoMerges[pull.path] = variables["method"] as? String ?? "MERGE"
    autoMergesEnabled += 1
    return ["pullRequest": ["id": pull.node]]
  }

  /// `enqueuePullRequest`, refused as GitHub refuses it: a pull request that is not open, a
  /// branch without a merge queue, a head that moved, one already in the queue.
  private func enqueuePullRequest(
    _ variables: [String: Any], errors: inout [[String: Any]]
  ) -> Any {
    func refuse(_ type: String, _ message: String) -> Any {
      errors.append(["type": type, "path": ["enqueuePullRequest"], "message": message])
      return NSNull()
    }
    let node = variables["pull"] as? String ?? ""
    guard let (pull, number, repository) = pullRequest(atNode: node) else {
      return refuse("NOT_FOUND", "Could not resolve to a node with the global id of '\(node)'")
    }
    guard pull.state == "OPEN" else { return refuse("UNPROCESSABLE", "Pull request is not open") }
    guard mergeQueues.contains(repository) else {
      return refuse("UNPROCESSABLE", "Merge queue is not enabled for the base branch")
    }
    guard mergeQueueEntries[repository]?.contains(number) != true else {
      return refuse("UNPROCESSABLE", "Pull request is already in the merge queue")
    }
    if let head = variables["head"] as? String, head != pull.head {
      return refuse("UNPROCESSABLE", "Head branch was modified. Review and try the merge again.")
    }
    mergeQueueEntries[repository, default: []].append(number)
    enqueued += 1
    return ["mergeQueueEntry": ["id": "MQE_\(number)"]]
  }

  /// Makes the repository's branches merge through a merge queue (or not): REST's merge is
  /// refused with GitHub's 405, and `enqueuePullRequest` is the way in.
  package func useMergeQueue(_ enabled: Bool = true, in repository: RepositoryName) {
    let path = "/repos/\(repository.owner)/\(repository.name)"
    if enabled { mergeQueues.insert(path) } else { mergeQueues.remove(path) }
  }

  /// Takes pull request `number` out of the merge queue, as someone on the web (or a failing
  /// check) would.
  package func dequeue(_ number: Int, in repository: RepositoryName) {
    mergeQueueEntries["/repos/\(repository.owner)/\(repository.name)"]?.removeAll {
      $0 == number
    }
  }

  /// Makes pull request `number` one that could be merged now (GitHub's "clean status": its
  /// checks and reviews allow it), or one that waits for them.
  package func setMergeableNow(
    _ number: Int, in repository: RepositoryName, _ mergeable: Bool = true
  ) {
    let path = "/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"
    if mergeable { mergeableNow.insert(path) } else { mergeableNow.remove(path) }
  }

  /// Turns auto-merge on (with GitHub's name of a method, even one no client knows) or off, as
  /// someone on the web would.
  package func setAutoMerge(_ method: String?, of number: Int, in repository: RepositoryName) {
    autoMerges["/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"] = method
  }

  /// Whether pull request `number` has auto-merge on, and how.
  package func autoMergeMethod(of number: Int, in repository: RepositoryName) -> String? {
    autoMerges["/repos/\(repository.owner)/\(repository.name)/pulls/\(number)"]
  }
}
