import FlyingFox
import FlyingSocks
import Foundation
import GitHubIssues

/// A GitHub for tests: an HTTP server on 127.0.0.1 that serves recorded API responses with their
/// `link`, `etag` and rate-limit headers, answers `If-None-Match` with 304, honours `since`, and
/// injects faults on demand.
///
/// Requests are routed by path and `page` parameter, so the client's own query (state, sort,
/// per_page) reaches the recorded first page; `link` URLs are rewritten to point here.
package actor LocalGitHub {
  struct Route {
    var status: Int
    var headers: [String: String]
    var body: Data
  }

  /// A failure to inject into matching requests, a given number of times.
  package enum Fault: Sendable {
    /// Answer with this status and a GitHub-style error body.
    case status(Int)
    /// Answer after this many seconds (longer than the client's timeout).
    case stall(seconds: Double)
    /// Answers as usual, after a pause: a slow network.
    case delayed(seconds: Double)
    /// Answers every page of a list with its first page and a `next` link to the page after: a
    /// list that never ends, with no URL repeated.
    case endlessPages
    /// Answer 200 with the body cut in half.
    case truncatedJSON
    /// Answer 403 with no quota left until `reset`.
    case rateLimit(reset: Date)
    /// Answer 429 with `retry-after`.
    case retryAfter(seconds: Int)
    /// Answer 422 Validation Failed.
    case validation
    /// Answer as usual, but with `rel="next"` pointing to this URL (another host, say).
    case nextLink(String)
    /// Answer as usual, but with `rel="next"` pointing back to the first page: a loop.
    case loopToFirstPage
    /// Answer as usual, but without a `link` header: the listing looks finished early.
    case noLinks
    /// Answer with this redirect status and `location`.
    case redirect(status: Int, location: String)
    /// Send the status line, the headers and half the body, then close the connection.
    case dropConnection
    /// Answer 403 "You have exceeded a secondary rate limit" with `retry-after`, quota left.
    case secondaryRateLimit(retryAfter: Int)
    /// Answer 403 as GitHub does to a classic token without a scope the request needs:
    /// `x-oauth-scopes` lists what it has, `x-accepted-oauth-scopes` what would do.
    case missingScope(has: String, accepted: String)
    /// Make the change (a write), then answer with this status: it landed, and the client was
    /// told it failed.
    case failAfterApplying(status: Int)
    /// Make the change (a write), then send nothing for this many seconds: it landed, and the
    /// answer never came (the client is killed or times out first).
    case stallAfterApplying(seconds: Double)
    /// A GraphQL mutation applied, then answered as GitHub answers one that ran into trouble:
    /// HTTP 200, its field `null`, and the generic error that says nothing of whether it was
    /// applied ("Something went wrong while executing your query. This may be the result of a
    /// timeout…", no `type`).
    case genericGraphQLErrorAfterApplying
  }

  struct FaultRule {
    var path: String
    /// The method it applies to, or any when `nil`.
    var method: String?
    var page: Int?
    var fault: Fault
    var remaining: Int
    /// Matching requests to let through before the fault applies.
    var skip = 0
  }

  var routes: [String: Route] = [:]
  /// The template files served per repository, to take down when they are served again.
  var servedTemplateFiles: [RepositoryName: [String]] = [:]
  /// Issue listings served page by page from items in `updated_at` order, by path.
  var listings: [String: Listing] = [:]
  /// How many items to edit after serving each page of a listing, by listing path.
  var listingEdits: [String: Int] = [:]
  /// How many more served pages of a listing get edits, by listing path.
  var listingEditPages: [String: Int] = [:]
  /// How many more served pages of a listing are followed by a deletion and a new item.
  var listingChurnPages: [String: Int] = [:]
  /// How many more served pages of a listing are followed by the deletion of an item they served.
  var listingServedDeletions: [String: Int] = [:]
  /// Pages of a listing (counted from its first request) on which one item is edited while the
  /// page is served: it shows its new `updated_at` at its old place.
  var listingEditsInPlace: [String: Set<Int>] = [:]
  /// Requests served per listing path, for ``listingEditsInPlace``.
  package var listingRequests: [String: Int] = [:]
  /// Listings whose items sharing an `updated_at` come in a new order on every request, from
  /// this generator's state.
  var reshuffledTies: [String: UInt64] = [:]
  /// Per listing: how many replicas answer it, each with its own order of ties, and the state of
  /// the generator that picks one per request.
  var tieReplicas: [String: (count: Int, state: UInt64)] = [:]
  /// Per listing: after which request two tied items exchange places.
  package var tieExchanges: [String: (afterRequest: Int, first: Int, second: Int)] = [:]

  struct Listing {
    /// Each item's JSON and `updated_at`, oldest update first.
    var items: [(number: Int, updatedAt: Date, json: Data)]
    var perPage: Int
    /// The order of items with one `updated_at`, which keyset cursors follow too.
    var ties = TieOrder.ascendingNumber

    /// Whether an item comes after the key (`updatedAt`, `number`) in this listing's order.
    func isAfter(
      _ item: (number: Int, updatedAt: Date, json: Data), _ updatedAt: Date, _ number: Int
    )
      -> Bool
    {
      guard item.updatedAt == updatedAt else { return item.updatedAt > updatedAt }
      return ties == .ascendingNumber ? item.number > number : item.number < number
    }
  }
  private var faults: [FaultRule] = []
  /// The token writes must carry, when set.
  var writeToken: String?
  /// Who posts comments here.
  var viewerLogin = "octocat"
  /// What a listing by creation time reads of an item, per number, for the version it read.
  struct CreatedOrderFacts {
    var updatedAt: Date
    var state: String
    var login: String
    var created: Date
    var milestone: Int?
    var hasAssignee: Bool
  }
  var createdOrderFacts: [String: CreatedOrderFacts] = [:]
  /// Listings in created order served so far: the order of their ties changes with each.
  var createdOrderRequests = 0
  /// The highest number an issue filed here got, per listing: never given again.
  var highestFiled: [String: Int] = [:]
  /// The numbers of the issues filed through `POST …/issues`, in order.
  package internal(set) var filedIssues: [Int] = []
  /// The parent of each issue made a sub-issue through `POST …/sub_issues`, by the child's
  /// path (`/repos/o/r/issues/N`).
  var subIssueParents: [String: Int] = [:]
  /// Pull requests' files, by the pull request's path (`/repos/o/r/pulls/N`).
  var servedPullFiles: [String: ServedPullRequestFiles] = [:]
  /// Why merges of a pull request are refused (405), by its path.
  var mergeRefusals: [String: String] = [:]
  var deletedRefs: [String] = []
  /// Pull requests whose head is in a fork, by pull request path: the fork's `owner/name`.
  var pullHeadRepositories: [String: String] = [:]
  /// Head branch names set by ``serveHeadFromFork(_:ofPullRequest:in:branch:)``, by pull path.
  var pullHeadBranches: [String: String] = [:]
  /// Branches pushed to here, by `/repos/OWNER/NAME:BRANCH`: the commit each points at.
  var branchHeads: [String: String] = [:]
  var protectedRefs: Set<String> = []
  /// The reviews submitted through `POST …/pulls/N/reviews`, by the pull request's path.
  var postedReviews: [String: [PostedReview]] = [:]
  /// The last review's identifier: reviews get growing ones.
  var lastReviewID = 800_000
  /// The review threads resolved, by their node id; and every resolve or unresolve applied.
  var resolvedThreads: Set<String> = []
  package internal(set) var threadResolutions: [(thread: String, resolved: Bool)] = []
  /// How many review threads a page of GraphQL's `reviewThreads` holds at most.
  var reviewThreadPageSize = 100
  /// Threads deleted (with their comments) as the web deletes a thread's first comment.
  var deletedThreads: Set<String> = []
  /// Pages of `reviewThreads` after which the page's first thread is deleted, as someone
  /// deleting a comment while the listing is read; cursors are offsets, so later ones shift.
  var threadDeletionsWhileListing = 0
  /// A `reviewThreads` page whose first thread is `null`, with an error naming it: a partial
  /// answer, as GitHub gives when a field fails.
  var reviewThreadsPartly = false
  /// A `reviewThreads` listing whose cursor never moves and that always says more follow.
  var reviewThreadsNeverEnd = false
  /// How many line comments a page of `…/pulls/N/comments` holds at most, whatever
  /// `per_page` asked (`nil`: as asked).
  var lineCommentPageSize: Int?
  /// Pages of `…/pulls/N/comments` after which the page's first comment is deleted (one
  /// written here), as someone deleting a comment while the listing is read.
  var lineCommentDeletionsWhileListing = 0
  /// Pull requests with auto-merge on, by path: the method (`MERGE`, `SQUASH`, `REBASE`).
  var autoMerges: [String: String] = [:]
  /// How long a test's client waits for data from the local GitHub before it gives up.
  ///
  /// Long, because the tests run side by side on a pool of two threads, where the server can
  /// wait its turn for seconds after a burst. A test about timeouts sets a short one of its own.
  package static let patientTimeout: TimeInterval = 30

  /// The merge methods each repository allows, by its path, when set.
  var allowedMergeMethods: [String: Set<String>] = [:]
  /// Pull requests, by path, that could be merged now whatever their checks say.
  var mergeableNow: Set<String> = []
  /// How many times `enablePullRequestAutoMerge` turned auto-merge on.
  package internal(set) var autoMergesEnabled = 0
  /// Repositories, by path, whose branches merge through a merge queue.
  var mergeQueues: Set<String> = []
  /// The merge queue's pull requests, by repository path, first to merge first.
  package internal(set) var mergeQueueEntries: [String: [Int]] = [:]
  /// How many times `enqueuePullRequest` added a pull request to a queue.
  package internal(set) var enqueued = 0
  /// The pull requests merged through `PUT …/merge`, in order.
  package internal(set) var mergedPulls: [Int] = []
  var nextCommentID = 50_000
  /// The last issue event's identifier: events, like comments, get growing ones.
  var lastEventID = 7_000_000
  /// Every write that changed something, in order: what copies reached the server.
  var writeLog: [AppliedWrite] = []
  /// Connections dropped at random, when set.
  var chaos: Chaos?
  /// The notification threads served, by id.
  var threads: [String: NotificationThread] = [:]
  /// Items each listing leaves out while single reads still serve them.
  var hiddenFromListings: [String: Set<Int>] = [:]
  /// The threads marked done, kept so that later activity can bring them back.
  var doneThreads: [String: NotificationThread] = [:]
  /// When the inbox last changed: its `Last-Modified`.
  var inboxModified = Date(timeIntervalSince1970: 1_700_000_000)
  /// The `X-Poll-Interval` the inbox asks for.
  var pollInterval = 60
  /// How the inbox's listings were answered: 200s and 304s.
  var inboxAnswers: (full: Int, notModified: Int) = (0, 0)
  /// The GraphQL side: its budget, its faults, what it charged.
  var graphQL = GraphQLState()
  /// A pause before every answer, REST and GraphQL: the network's round trip.
  package private(set) var latency: Duration?
  /// Every request received: path with query, and headers (lower-cased names).
  package private(set) var requests: [(target: String, headers: [String: String])] = []
  /// Every request that is not a read, as `METHOD /path` (escapes kept), whether it applied or
  /// not: what copies of a write left the client.
  package private(set) var writeAttempts: [String] = []
  private var server: HTTPServer?
  private var task: Task<Void, any Error>?
  package private(set) var baseURL = URL(fileURLWithPath: "/")

  /// Starts a server on a free port.
  package static func start() async throws -> LocalGitHub {
    let github = LocalGitHub()
    try await github.run()
    return github
  }

  private func run() async throws {
    let server = HTTPServer(
      address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30,
      pool: NoDelaySocketPool(base: HTTPServer.defaultPool()), logger: .disabled)
    self.server = server
    await server.appendRoute("*") { [weak self] request in
      guard let self else { return FlyingFox.HTTPResponse(statusCode: .notFound) }
      return try await self.handle(request)
    }
    task = Task { try await server.run() }
    try await server.waitUntilListening()
    guard case .ip4(_, let port)? = await server.listeningAddress,
      let url = URL(string: "http://127.0.0.1:\(port)")
    else {
      throw URLError(.cannotConnectToHost)
    }
    baseURL = url
  }

  package func stop() async {
    await server?.stop(timeout: 0)
    task?.cancel()
  }

  /// The host to give a client.
  package var host: GitHubHost {
    GitHubHost(name: "github.com", apiBaseURL: baseURL, isEnterprise: false)
  }

  /// Serves every exchange of a recording (the shared "exchange" format).
  package func load(recording name: String) throws {
    let data = try Fixtures.data(name)
    guard let exchanges = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      return
    }
    for exchange in exchanges {
      guard let request = exchange["request"] as? [String: Any],
        let urlString = request["url"] as? String,
        let url = URLComponents(string: urlString),
        let response = exchange["response"] as? [String: Any]
      else { continue }
      let status = response["status"] as? Int ?? 200
      var headers: [String: String] = [:]
      for (name, value) in response["headers"] as? [String: Any] ?? [:] {
        headers[name] = "\(value)"
      }
      let body = try response["body"].map {
        try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed])
      }
      let page = url.queryItems?.first { $0.name == "page" }?.value.flatMap(Int.init)
      // The repository itself, for a recording of its issues.
      let parts = url.path.split(separator: "/")
      if parts.count == 4, parts[0] == "repos", parts[3] == "issues" {
        let body = #"{"id": 1, "full_name": "\#(parts[1])/\#(parts[2])", "private": false}"#
        routes["/repos/\(parts[1])/\(parts[2])"] = Route(
          status: 200, headers: [:], body: Data(body.utf8))
      }
      routes[Self.key(path: url.path, page: page)] = Route(
        status: status, headers: headers, body: body ?? Data())
    }
  }

  /// Serves betamaxpy/betamax: its recorded issues (150, 19 in milestones) and its milestones
  /// (derived from those issues).
  package func serveBetamax() throws {
    try load(recording: "github3py__betamax_issues_state_all.json")
    let derived = try JSONSerialization.jsonObject(
      with: Fixtures.data("github3py__betamax_milestones_DERIVED.json"))
    let milestones = try JSONSerialization.data(
      withJSONObject: (derived as? [String: Any])?["milestones"] ?? [])
    serve("/repos/betamaxpy/betamax/milestones", body: milestones)
  }

  /// Serves a JSON body at a path, with a stable entity tag.
  package func serve(_ path: String, body: Data, etag: String? = nil) {
    var headers = ["content-type": "application/json; charset=utf-8"]
    headers["etag"] = etag ?? "W/\"\(body.count)-\(body.hashValue & 0xFFFF)\""
    routes[Self.key(path: path, page: nil)] = Route(status: 200, headers: headers, body: body)
  }

  /// Serves a synthetic repository as GitHub would: the repository, its milestones, and its issues
  /// in pages of `perPage` (oldest update first, as a sync asks) with `link` headers that carry
  /// `next` and `last`, honouring `since`.
  package func serve(
    synthetic: SyntheticRepository, as repository: RepositoryName, perPage: Int = 100
  ) throws {
    let update = synthetic.make()
    let encoder = GitHubJSON.encoder
    // Pages on GitHub name the repository they are served as.
    let issues = update.issues.map { issue -> GitHubIssue in
      var issue = issue
      // As GitHub answers: a pull request's page is under `/pull/`, even from `/issues/N`.
      issue.htmlURL =
        "https://github.com/\(repository)/\(issue.isPullRequest ? "pull" : "issues")/\(issue.number)"
      // No comments are served until some are posted: the counts say so.
      issue.comments = 0
      // GitHub's REST objects always carry their GraphQL node ids.
      issue.nodeID = issue.nodeID ?? (issue.isPullRequest ? "PR_kw" : "I_kw") + "\(issue.id)"
      issue.user.nodeID = issue.user.nodeID ?? "U_kg\(issue.user.id)"
      for index in issue.assignees.indices {
        issue.assignees[index].nodeID =
          issue.assignees[index].nodeID ?? "U_kg\(issue.assignees[index].id)"
      }
      return issue
    }
    let items = try issues.sorted { ($0.updatedAt, $0.number) < ($1.updatedAt, $1.number) }
      .map { (number: $0.number, updatedAt: $0.updatedAt, json: try encoder.encode($0)) }
    let open = update.issues.count { $0.state == .open }
    let path = "/repos/\(repository.owner)/\(repository.name)"
    serve(
      path,
      body: Data(
        #"{"id": 7, "full_name": "\#(repository)", "private": false, "open_issues_count": \#(open)}"#
          .utf8))
    serve(path + "/milestones", body: try encoder.encode(update.milestones ?? []))
    listings[path + "/issues"] = Listing(items: items, perPage: perPage)
    for (parent, children) in SyntheticRepository.subIssues(
      of: issues, spacing: synthetic.parentSpacing)
    {
      serve(
        path + "/issues/\(parent)/sub_issues",
        body: try encoder.encode(children.map { issues[$0 - 1] }))
    }
  }

  /// Replaces the JSON of one served item (to serve a `null` user, say).
  package func replaceItem(number: Int, in repository: RepositoryName, json: String) {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    guard let index = listings[path]?.items.firstIndex(where: { $0.number == number }) else {
      return
    }
    listings[path]?.items[index].json = Data(json.utf8)
  }

  /// The JSON of one served item.
  package func itemJSON(number: Int, in repository: RepositoryName) -> String? {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    return listings[path]?.items.first { $0.number == number }.map {
      String(decoding: $0.json, as: UTF8.self)
    }
  }

  /// Leaves items out of the repository's listings while `GET …/issues/N` still answers for
  /// them: a listing that misses items GitHub still has (an index lagging behind, an item edited
  /// past the walk).
  package func hideFromListings(numbers: Set<Int>, in repository: RepositoryName) {
    hiddenFromListings["/repos/\(repository.owner)/\(repository.name)/issues", default: []]
      .formUnion(numbers)
  }

  /// Removes served items, as if deleted on GitHub.
  package func removeItems(numbers: Set<Int>, in repository: RepositoryName) {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    listings[path]?.items.removeAll { numbers.contains($0.number) }
  }

  /// The requests received so far whose path starts with a prefix.
  package func requestCount(pathPrefix: String) -> Int {
    requests.count { $0.target.hasPrefix(pathPrefix) }
  }

  /// Injects a fault into the next `times` requests for a path (and page, if given), after
  /// letting `after` of them through.
  ///
  /// A sync lists by key (each request a first page from a later `since`), so "the twelfth
  /// page of the listing" is `after: 11`, not `page: 12`.
  package func inject(
    _ fault: Fault, path: String, page: Int? = nil, method: String? = nil, times: Int = 1,
    after: Int = 0
  ) {
    faults.append(
      FaultRule(
        path: path, method: method, page: page, fault: fault, remaining: times, skip: after))
  }

  /// Edits `count` items of every page of an issue listing but the last, right after serving it.
  ///
  /// Each moves to the end of the `updated_at` order with a later `updated_at` (a second
  /// apart), so a listing by page number would miss as many items of the next page. Zero stops
  /// it.
  package func editWhileListing(_ repository: RepositoryName, count: Int, pages: Int = .max) {
    listingEdits["/repos/\(repository.owner)/\(repository.name)/issues"] = count
    listingEditPages["/repos/\(repository.owner)/\(repository.name)/issues"] = pages
  }

  /// Edits `count` comments of every page of the repository's comment listing right after
  /// serving it, as ``editWhileListing(_:count:)`` does for issues.
  package func editCommentsWhileListing(_ repository: RepositoryName, count: Int) {
    listingEdits["/repos/\(repository.owner)/\(repository.name)/issues/comments"] = count
  }

  /// Gives served items a later `updated_at`, as an edit on GitHub does.
  package func touch(numbers: [Int], in repository: RepositoryName) {
    editServed(numbers, "/repos/\(repository.owner)/\(repository.name)/issues")
  }

  /// Whether an item's JSON is a pull request's (REST lists them with a `pull_request` key).
  static func isPullRequest(_ json: Data) -> Bool {
    json.range(of: Data("\"pull_request\"".utf8)) != nil
  }

  /// Serves the items of a repository's listing that share an `updated_at` in a new order on
  /// every request (from `seed`): GitHub does not document the order of ties, nor that it
  /// stays the same from one request to the next.
  package func reshuffleTiesOnEveryRequest(in repository: RepositoryName, seed: UInt64) {
    reshuffledTies["/repos/\(repository.owner)/\(repository.name)/issues"] = seed
  }

  /// Serves a repository's listing in one order again after ``reshuffleTiesOnEveryRequest(in:seed:)``
  /// or ``serveTiesFromReplicas(in:count:seed:)``.
  package func keepTieOrder(in repository: RepositoryName) {
    reshuffledTies["/repos/\(repository.owner)/\(repository.name)/issues"] = nil
    tieReplicas["/repos/\(repository.owner)/\(repository.name)/issues"] = nil
  }

  /// Answers each request from one of `count` replicas, picked at random (from `seed`), each
  /// with an order of its own among items that share an `updated_at`: what a load-balanced API
  /// plausibly does.
  package func serveTiesFromReplicas(in repository: RepositoryName, count: Int, seed: UInt64) {
    tieReplicas["/repos/\(repository.owner)/\(repository.name)/issues"] = (max(1, count), seed)
  }

  /// After the `request`th request of a repository's listing, two items that share an
  /// `updated_at` exchange places in its order (nothing about them changes).
  package func exchangeTies(
    _ first: Int, _ second: Int, afterRequest request: Int, in repository: RepositoryName
  ) {
    tieExchanges["/repos/\(repository.owner)/\(repository.name)/issues"] = (
      request, first, second
    )
  }

  /// The items with each run of equal `updated_at`s in the order of replica `replica`.
  static func replicaOrder(
    _ items: ArraySlice<(number: Int, updatedAt: Date, json: Data)>, replica: UInt64
  ) -> [(number: Int, updatedAt: Date, json: Data)] {
    func rank(_ number: Int) -> UInt64 {
      var mixed = UInt64(truncatingIfNeeded: number) &+ replica &* 0x9E37_79B9_7F4A_7C15
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }
    return items.sorted { ($0.updatedAt, rank($0.number)) < ($1.updatedAt, rank($1.number)) }
  }

  /// The items with each run of equal `updated_at`s shuffled (SplitMix64 from `state`).
  static func shuffledTies(
    _ items: ArraySlice<(number: Int, updatedAt: Date, json: Data)>, state: inout UInt64
  ) -> [(number: Int, updatedAt: Date, json: Data)] {
    var result = Array(items)
    var start = 0
    while start < result.count {
      var end = start + 1
      while end < result.count, result[end].updatedAt == result[start].updatedAt { end += 1 }
      // Fisher–Yates over the run.
      for index in stride(from: end - 1, to: start, by: -1) {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        result.swapAt(index, start + Int(z % UInt64(index - start + 1)))
      }
      start = end
    }
    return result
  }

  /// The order a listing serves items that share an `updated_at` in: GitHub does not document
  /// one, so a listing must be right under either.
  package enum TieOrder: Sendable {
    case ascendingNumber
    case descendingNumber
  }

  /// Gives served items one later `updated_at`, the same second for all, as a bulk edit on
  /// GitHub does: more of them than a page holds share a second.
  package func touchAtOnce(
    numbers: [Int], in repository: RepositoryName, ties: TieOrder = .ascendingNumber
  ) {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    guard var listing = listings[path] else { return }
    let updated = Self.nextUpdate(after: listing)
    for number in numbers {
      guard let index = listing.items.firstIndex(where: { $0.number == number }),
        var object = try? JSONSerialization.jsonObject(with: listing.items[index].json)
          as? [String: Any]
      else { continue }
      object["updated_at"] = Self.timestamp(updated)
      guard let json = try? JSONSerialization.data(withJSONObject: object) else { continue }
      listing.items.remove(at: index)
      listing.items.append((number: number, updatedAt: updated, json: json))
    }
    // In the listing's order: by `updated_at`, then by number as `ties` says.
    listing.ties = ties
    listing.items.sort {
      guard $0.updatedAt == $1.updatedAt else { return $0.updatedAt < $1.updatedAt }
      return ties == .ascendingNumber ? $0.number < $1.number : $0.number > $1.number
    }
    listings[path] = listing
  }

  /// Every served item of a listing: number and `updated_at` as its JSON says, by number.
  package func servedItems(in repository: RepositoryName) -> [(number: Int, updatedAt: String)] {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    return (listings[path]?.items ?? []).compactMap { item in
      guard let object = try? JSONSerialization.jsonObject(with: item.json) as? [String: Any]
      else { return nil }
      return (item.number, object["updated_at"] as? String ?? "")
    }.sorted { $0.number < $1.number }
  }

  /// Removes every fault.
  package func clearFaults() { faults = [] }

  static func key(path: String, page: Int?) -> String {
    page.map { "\(path)#\($0)" } ?? path
  }

  /// Makes every answer wait `latency` first, as a real network does (`nil`: none).
  package func setLatency(_ latency: Duration?) { self.latency = latency }

  private func handle(_ request: FlyingFox.HTTPRequest) async throws -> FlyingFox.HTTPResponse {
    if let latency { try await Task.sleep(for: latency) }
    var headers: [String: String] = [:]
    for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
    let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    // The path as sent, escapes kept.
    let sent = request.target.path(percentEncoded: true)
    requests.append((sent + (query.isEmpty ? "" : "?\(query)"), headers))
    let page = request.query.first { $0.name == "page" }.flatMap { Int($0.value) }

    let method = request.method.rawValue.uppercased()
    if method != "GET", request.path != "/graphql" { writeAttempts.append("\(method) \(sent)") }
    if method == "GET", request.path != "/graphql", rollChaos(\.dropRead) {
      return droppedResponse()
    }
    let matches = { (rule: FaultRule) in
      rule.remaining > 0 && rule.path == request.path
        && (rule.page == nil || rule.page == (page ?? 1))
        && (rule.method == nil || rule.method == method)
    }
    var passes = false
    if let index = faults.firstIndex(where: matches), faults[index].skip > 0 {
      faults[index].skip -= 1
      passes = true
    }
    if !passes, let index = faults.firstIndex(where: matches) {
      faults[index].remaining -= 1
      let fault = faults[index].fault
      if request.path == "/graphql" { return try await handleGraphQL(request, fault: fault) }
      if request.path.hasPrefix("/notifications"), method != "GET" {
        // A refusal (a 4xx: a token without the notifications scope, a refused token, a
        // secondary limit) applies nothing; a delay applies it late; any other fault applies
        // the triage, then loses its answer.
        switch fault {
        case .status(let status) where (400..<500).contains(status):
          return response(
            Route(status: status, headers: [:], body: Data(#"{"message":"Refused"}"#.utf8)))
        case .validation:
          return response(Route(status: 422, headers: [:], body: try Fixtures.errorBody422()))
        case .secondaryRateLimit:
          return try await respond(with: fault, path: request.path, page: nil)
        case .delayed(let seconds):
          // GitHub takes its time, and applies the triage whether or not the client still waits.
          try await Task.sleep(for: .seconds(seconds))
          return response(
            notifications(
              request, method: method, headers: headers, body: try await request.bodyData))
        default: break
        }
        _ = notifications(
          request, method: method, headers: headers, body: try await request.bodyData)
        if case .failAfterApplying(let status) = fault {
          return response(Route(status: status, headers: [:], body: Data()))
        }
        return droppedResponse()
      }
      if method != "GET" {
        return try await handleWrite(request, method: method, fault: fault)
      }
      switch fault {
      case .nextLink, .loopToFirstPage, .dropConnection, .noLinks:
        var route =
          try repositoryComments(request) ?? self.route(for: request, headers: headers, page: page)
        return try alter(&route, with: fault, request: request)
      case .delayed(let seconds):
        try await Task.sleep(for: .seconds(seconds))
        return response(try readRoute(request, headers: headers, page: page))
      case .endlessPages:
        guard var route = routes[Self.key(path: request.path, page: nil)] else {
          return response(Route(status: 404, headers: [:], body: Data()))
        }
        route.headers["etag"] = nil
        route.headers["link"] =
          "<\(baseURL.absoluteString)\(request.path)?per_page=100&page=\((page ?? 1) + 1)>; rel=\"next\""
        return response(route)
      default:
        return try await respond(with: fault, path: request.path, page: page)
      }
    }
    if request.path == "/graphql" { return try await handleGraphQL(request, fault: nil) }
    if request.path.hasPrefix("/notifications") {
      if method != "GET", rollChaos(\.dropBeforeWrite) { return droppedResponse() }
      let route = notifications(
        request, method: method, headers: headers,
        body: method == "GET" ? nil : try await request.bodyData)
      if method != "GET", rollChaos(\.dropAfterWrite) { return droppedResponse() }
      if method != "GET", rollChaos(\.failAfterWrite) {
        return response(Route(status: 502, headers: [:], body: Data()))
      }
      return response(route)
    }
    if method != "GET" {
      return try await handleWrite(request, method: method, fault: nil)
    }
    return response(try readRoute(request, headers: headers, page: page))
  }

  /// The answer to a read, from the routes that compute one (the viewer, one issue, one pull
  /// request, comments) before the recorded ones.
  private func readRoute(
    _ request: FlyingFox.HTTPRequest, headers: [String: String], page: Int?
  ) throws -> Route {
    if request.path == "/user", routes["/user"] == nil {
      return authenticatedUser(headers: headers)
    }
    if let issue = try singleIssue(at: request.path) { return issue }
    if let parent = try parentIssue(at: request.path) { return parent }
    if let files = try pullRequestFilesRoute(request, headers: headers) { return files }
    if let reviews = try reviewsRoute(request) { return reviews }
    if let pull = try pullRequestRoute(at: request.path) { return pull }
    if let comments = try repositoryComments(request) { return comments }
    if let comment = try singleComment(at: request.path) { return comment }
    return try route(for: request, headers: headers, page: page)
  }

  /// The answer to a request when no fault applies.
  private func route(
    for request: FlyingFox.HTTPRequest, headers: [String: String], page: Int?
  ) throws -> Route {
    if let listing = listings[request.path] {
      return listingPage(listing, request: request, page: page ?? 1)
    }
    // Lists that were not recorded are empty, with an entity tag like any other.
    let empty = Route(status: 200, headers: ["etag": "\"empty\""], body: Data("[]".utf8))
    let isList =
      request.path.hasSuffix("/milestones") || request.path.hasSuffix("/labels")
      || ((request.path.hasSuffix("/comments") || request.path.hasSuffix("/timeline"))
        && listedIssue(at: request.path))
    let found =
      routes[Self.key(path: request.path, page: page)] ?? (page == 1 ? routes[request.path] : nil)
    guard var route = found ?? (isList ? empty : nil) else {
      return Route(status: 404, headers: [:], body: Data(#"{"message":"Not Found"}"#.utf8))
    }
    if let etag = route.headers["etag"], headers["if-none-match"] == etag {
      return Route(status: 304, headers: ["etag": etag], body: Data())
    }
    if let since = request.query.first(where: { $0.name == "since" })?.value,
      let date = ISO8601DateFormatter().date(from: since),
      let items = try JSONSerialization.jsonObject(with: route.body) as? [[String: Any]]
    {
      let formatter = ISO8601DateFormatter()
      let kept = items.filter { item in
        (item["updated_at"] as? String).flatMap { formatter.date(from: $0) }.map { $0 >= date }
          ?? true
      }
      route.body = try JSONSerialization.data(withJSONObject: kept)
    }
    // GitHub keeps the query's filters in its `link` URLs; the recordings were made without `since`.
    if let since = request.query.first(where: { $0.name == "since" })?.value,
      let link = route.headers["link"]
    {
      let encoded = since.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? since
      route.headers["link"] = link.replacingOccurrences(of: ">;", with: "&since=\(encoded)>;")
    }
    return route
  }

  /// One page of a listing, with `next` and `last` links as GitHub sends them.
  ///
  /// Page numbers past 100 are refused as GitHub refuses them on large listings (from what size
  /// is not known, so here on any).
  private func listingPage(_ listing: Listing, request: FlyingFox.HTTPRequest, page: Int) -> Route {
    guard page <= 100 else {
      return Route(
        status: 422, headers: ["content-type": "application/json; charset=utf-8"],
        body: Data(
          #"{"message":"Pagination with the page parameter is not supported for large datasets, please use cursor based pagination (after/before)","documentation_url":"https://docs.github.com/rest/issues/issues#list-repository-issues","status":"422"}"#
            .utf8))
    }
    var items = listing.items[...]
    if let hidden = hiddenFromListings[request.path], !hidden.isEmpty {
      items = listing.items.filter { !hidden.contains($0.number) }[...]
    }
    if let since = request.query.first(where: { $0.name == "since" })?.value,
      let date = ISO8601DateFormatter().date(from: since)
    {
      items = items.drop { $0.updatedAt < date }
    }
    if request.query.first(where: { $0.name == "sort" })?.value != "created" {
      items = filtered(items, in: request.path, request.query.map { ($0.name, $0.value) })
    }
    if var state = reshuffledTies[request.path] {
      items = Self.shuffledTies(items, state: &state)[...]
      reshuffledTies[request.path] = state
    }
    if var replicas = tieReplicas[request.path] {
      replicas.state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = replicas.state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      let replica = (mixed ^ (mixed >> 31)) % UInt64(replicas.count)
      tieReplicas[request.path] = replicas
      items = Self.replicaOrder(items, replica: replica)[...]
    }
    if request.query.first(where: { $0.name == "sort" })?.value == "created" {
      items = createdOrder(items, in: request.path, request.query.map { ($0.name, $0.value) })[...]
    }
    // `per_page` as asked, up to the listing's largest page (GitHub's is 100).
    let asked = request.query.first { $0.name == "per_page" }.flatMap { Int($0.value) }
    let perPage = max(1, min(listing.perPage, asked ?? listing.perPage))
    let pageCount = max(1, (items.count + perPage - 1) / perPage)
    let start = items.startIndex + min(items.count, (page - 1) * perPage)
    var slice = Array(items[start..<min(items.endIndex, start + perPage)])
    listingRequests[request.path, default: 0] += 1
    if let exchange = tieExchanges[request.path],
      exchange.afterRequest == listingRequests[request.path, default: 0],
      var listing = listings[request.path],
      let first = listing.items.firstIndex(where: { $0.number == exchange.first }),
      let second = listing.items.firstIndex(where: { $0.number == exchange.second }),
      listing.items[first].updatedAt == listing.items[second].updatedAt
    {
      // After this answer: the page being served is read from the order before.
      listing.items.swapAt(first, second)
      listings[request.path] = listing
      tieExchanges[request.path] = nil
    }
    if listingEditsInPlace[request.path]?.remove(listingRequests[request.path, default: 0]) != nil,
      slice.count > 2
    {
      // Edited while the page is read: the page shows the new version at the old place.
      let middle = slice.count / 2
      editServed([slice[middle].number], request.path)
      if let edited = listings[request.path]?.items.last { slice[middle] = edited }
    }
    var body = Data("[".utf8)
    // Edits while the listing runs: after a page that has another after it.
    defer {
      if page < pageCount, listingEditPages[request.path, default: .max] > 0 {
        listingEditPages[request.path, default: .max] -= 1
        editServed(slice.prefix(listingEdits[request.path] ?? 0).map(\.number), request.path)
      }
      // An issue: pull requests cannot be transferred, and only GitHub's staff delete them.
      if page < pageCount, listingServedDeletions[request.path, default: 0] > 0,
        let first = slice.first(where: { !Self.isPullRequest($0.json) })
      {
        listingServedDeletions[request.path, default: 0] -= 1
        listings[request.path]?.items.removeAll { $0.number == first.number }
      }
      if page < pageCount, listingChurnPages[request.path, default: 0] > 0 {
        listingChurnPages[request.path, default: 0] -= 1
        churn(after: start + slice.count, request.path)
      }
    }
    for (offset, item) in slice.enumerated() {
      if offset > 0 { body.append(contentsOf: ",".utf8) }
      body.append(item.json)
    }
    body.append(contentsOf: "]".utf8)
    var headers = ["content-type": "application/json; charset=utf-8"]
    func link(_ page: Int) -> String {
      let query = request.query.filter { $0.name != "page" }
        .map {
          "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.value)"
        }
      return
        "<\(baseURL.absoluteString)\(request.path)?\((query + ["page=\(page)"]).joined(separator: "&"))>"
    }
    if page < pageCount {
      headers["link"] = "\(link(page + 1)); rel=\"next\", \(link(pageCount)); rel=\"last\""
    }
    return Route(status: 200, headers: headers, body: body)
  }

  /// A listing `sort=created` asks for: the `creator`'s items (anyone's without it) in the
  /// `state` asked (open by default, as GitHub's), by creation time, newest first unless
  /// `direction=asc`.
  ///
  /// How GitHub orders items created in the same second is not documented: here ties come in
  /// an order that changes with every request, so that two pages of one walk may disagree.
  func createdOrder(
    _ items: ArraySlice<(number: Int, updatedAt: Date, json: Data)>, in path: String,
    _ query: [(String, String)]
  ) -> [(number: Int, updatedAt: Date, json: Data)] {
    func value(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
    let state = value("state") ?? "open"
    let creator = value("creator")?.lowercased()
    var kept: [(item: (number: Int, updatedAt: Date, json: Data), created: Date)] = []
    for item in items {
      guard let facts = facts(of: item, in: path) else { continue }
      if state != "all", facts.state != state { continue }
      if let creator, facts.login != creator { continue }
      kept.append((item, facts.created))
    }
    createdOrderRequests += 1
    let salt = UInt64(createdOrderRequests) &* 0x9E37_79B9_7F4A_7C15
    func tie(_ number: Int) -> UInt64 {
      var mixed = UInt64(truncatingIfNeeded: number) ^ salt
      mixed = (mixed ^ (mixed >> 31)) &* 0xBF58_476D_1CE4_E5B9
      return mixed ^ (mixed >> 29)
    }
    kept.sort { ($0.created, tie($0.item.number)) < ($1.created, tie($1.item.number)) }
    if value("direction") != "asc" { kept.reverse() }
    return kept.map(\.item)
  }

  /// What the filters of a listing read of an item, once per version of it (an edit moves its
  /// `updated_at`).
  func facts(of item: (number: Int, updatedAt: Date, json: Data), in path: String)
    -> CreatedOrderFacts?
  {
    let id = "\(path)/\(item.number)"
    if let known = createdOrderFacts[id], known.updatedAt == item.updatedAt { return known }
    guard let object = try? JSONSerialization.jsonObject(with: item.json) as? [String: Any]
    else { return nil }
    let formatter = ISO8601DateFormatter()
    let assignees = object["assignees"] as? [Any] ?? []
    let facts = CreatedOrderFacts(
      updatedAt: item.updatedAt, state: object["state"] as? String ?? "",
      login: ((object["user"] as? [String: Any])?["login"] as? String)?.lowercased() ?? "",
      created: (object["created_at"] as? String).flatMap(formatter.date(from:)) ?? .distantPast,
      milestone: (object["milestone"] as? [String: Any])?["number"] as? Int,
      hasAssignee: !assignees.isEmpty || object["assignee"] is [String: Any])
    createdOrderFacts[id] = facts
    return facts
  }

  /// The items a listing's `state`, `milestone` and `assignee` filters keep, as GitHub reads
  /// them (`none` and `*` for the last two, or a milestone's number).
  func filtered(
    _ items: ArraySlice<(number: Int, updatedAt: Date, json: Data)>, in path: String,
    _ query: [(String, String)]
  ) -> ArraySlice<(number: Int, updatedAt: Date, json: Data)> {
    func value(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
    let state = value("state")
    let milestone = value("milestone")
    let assignee = value("assignee")
    // The recorded listings were made with `state=all` and no other filter.
    guard state != nil && state != "all" || milestone != nil || assignee != nil else {
      return items
    }
    return items.filter { item in
      guard let facts = facts(of: item, in: path) else { return true }
      if let state, state != "all", facts.state != state { return false }
      switch milestone {
      case nil: break
      case "none": if facts.milestone != nil { return false }
      case "*": if facts.milestone == nil { return false }
      case let number?: if facts.milestone.map(String.init) != number { return false }
      }
      switch assignee {
      case "none": if facts.hasAssignee { return false }
      case "*": if !facts.hasAssignee { return false }
      default: break
      }
      return true
    }[...]
  }

  /// Deletes an item the listing has not served yet (the fifth after `position`) and opens a
  /// new issue (the next number, updated now), as people do on GitHub while a sync runs.
  func churn(after position: Int, _ path: String) {
    guard var listing = listings[path], let template = listing.items.first,
      var object = try? JSONSerialization.jsonObject(with: template.json) as? [String: Any]
    else { return }
    var openChange = 0
    if position + 5 < listing.items.count {
      let removed = listing.items.remove(at: position + 5)
      if (try? JSONSerialization.jsonObject(with: removed.json) as? [String: Any])?["state"]
        as? String == "open"
      {
        openChange -= 1
      }
    }
    if object["state"] as? String == "open" { openChange += 1 }
    // The repository's open count follows, as GitHub's does.
    let repositoryPath = String(path.dropLast("/issues".count))
    if openChange != 0, let route = routes[repositoryPath],
      let repository = try? JSONSerialization.jsonObject(with: route.body) as? [String: Any],
      let open = repository["open_issues_count"] as? Int,
      let body = try? JSONSerialization.data(
        withJSONObject: repository.merging(["open_issues_count": open + openChange]) { $1 })
    {
      routes[repositoryPath]?.body = body
    }
    let number = (listing.items.map(\.number).max() ?? 0) + 1
    let updated = Self.nextUpdate(after: listing)
    object["number"] = number
    object["id"] = 10_000_000 + number
    object["title"] = "Opened while the listing ran (\(number))"
    object["updated_at"] = Self.timestamp(updated)
    object["created_at"] = Self.timestamp(updated)
    if let url = object["html_url"] as? String, let slash = url.lastIndex(of: "/") {
      object["html_url"] = url[...slash] + "\(number)"
    }
    guard let json = try? JSONSerialization.data(withJSONObject: object) else { return }
    listing.items.append((number: number, updatedAt: updated, json: json))
    listings[path] = listing
  }

  /// On the given requests of an issue listing (1 is its first), edits the middle item of the
  /// page while serving it: the page shows the edited version, with its new `updated_at`, at the
  /// item's old place, out of order.
  package func editWhileServing(_ repository: RepositoryName, requests: Set<Int>) {
    let path = "/repos/\(repository.owner)/\(repository.name)/issues"
    listingEditsInPlace[path] = requests
    listingRequests[path] = 0
  }

  /// After each of the next `pages` pages of an issue listing (but the last), deletes the first
  /// issue (not pull request) it served, as someone deleting or transferring an issue while a
  /// sync walks: every later item shifts a place earlier.
  package func deleteServedWhileListing(_ repository: RepositoryName, pages: Int) {
    listingServedDeletions["/repos/\(repository.owner)/\(repository.name)/issues"] = pages
  }

  /// After each of the next `pages` pages of an issue listing (but the last), deletes an item
  /// the listing has not reached and opens a new issue.
  package func churnWhileListing(_ repository: RepositoryName, pages: Int) {
    listingChurnPages["/repos/\(repository.owner)/\(repository.name)/issues"] = pages
  }

  /// The `updated_at` of the next change to a listing: now, or a second after its latest item
  /// if that is later, in whole seconds as GitHub writes them.
  static func nextUpdate(after listing: Listing) -> Date {
    let latest = listing.items.last?.updatedAt ?? Date()
    return Date(
      timeIntervalSince1970: max(Date(), latest.addingTimeInterval(1)).timeIntervalSince1970
        .rounded(.down))
  }

  /// Edits served items of a listing: each gets a later `updated_at` (a second after the
  /// listing's latest) and moves to the end.
  func editServed(_ numbers: [Int], _ path: String) {
    guard !numbers.isEmpty, var listing = listings[path] else { return }
    for number in numbers {
      guard let index = listing.items.firstIndex(where: { $0.number == number }),
        var object = try? JSONSerialization.jsonObject(with: listing.items[index].json)
          as? [String: Any]
      else { continue }
      let updated = Self.nextUpdate(after: listing)
      object["updated_at"] = Self.timestamp(updated)
      object["title"] = "\(object["title"] as? String ?? "") (edited)"
      guard let json = try? JSONSerialization.data(withJSONObject: object) else { continue }
      listing.items.remove(at: index)
      listing.items.append((number: number, updatedAt: updated, json: json))
    }
    listings[path] = listing
  }

  /// A usual answer, altered by a fault.
  private func alter(
    _ route: inout Route, with fault: Fault, request: FlyingFox.HTTPRequest
  ) throws -> FlyingFox.HTTPResponse {
    switch fault {
    case .nextLink(let url):
      route.headers["link"] = "<\(url)>; rel=\"next\""
    case .loopToFirstPage:
      let first = request.query.filter { $0.name != "page" }
        .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
      route.headers["link"] =
        "<\(baseURL.absoluteString)\(request.path)?\(first)&page=1>; rel=\"next\", "
        + "<\(baseURL.absoluteString)\(request.path)?\(first)&page=100>; rel=\"last\""
    case .noLinks:
      route.headers["link"] = nil
    case .dropConnection:
      let usual = response(route)
      return FlyingFox.HTTPResponse(
        statusCode: usual.statusCode, headers: usual.headers,
        body: HTTPBodySequence(
          from: DroppedBody(bytes: Array(route.body.prefix(route.body.count / 2))),
          count: route.body.count))
    default:
      break
    }
    return response(route)
  }

  func respond(with fault: Fault, path: String, page: Int?) async throws
    -> FlyingFox.HTTPResponse
  {
    switch fault {
    case .status(let status):
      return response(
        Route(status: status, headers: [:], body: Data(#"{"message":"Server Error"}"#.utf8)))
    case .stall(let seconds):
      try await Task.sleep(for: .seconds(seconds))
      return response(Route(status: 503, headers: [:], body: Data()))
    case .truncatedJSON:
      let route = routes[Self.key(path: path, page: page)] ?? routes[path]
      let body = route?.body ?? Data("[{\"id\": 1}]".utf8)
      return response(
        Route(status: 200, headers: route?.headers ?? [:], body: body.prefix(body.count / 2)))
    case .rateLimit(let reset):
      return response(
        Route(
          status: 403,
          headers: [
            "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": String(Int(reset.timeIntervalSince1970)),
            "x-ratelimit-resource": "core",
          ],
          body: Data(#"{"message":"API rate limit exceeded for 127.0.0.1."}"#.utf8)))
    case .retryAfter(let seconds):
      return response(
        Route(
          status: 429, headers: ["retry-after": String(seconds)],
          body: Data(#"{"message":"You have exceeded a secondary rate limit."}"#.utf8)))
    case .validation:
      return response(Route(status: 422, headers: [:], body: try Fixtures.errorBody422()))
    case .redirect(let status, let location):
      return response(
        Route(status: status, headers: ["location": location], body: Data()))
    case .secondaryRateLimit(let retryAfter):
      return response(
        Route(
          status: 403,
          headers: [
            "retry-after": String(retryAfter), "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": "4990", "x-ratelimit-resource": "core",
          ],
          body: Data(#"{"message":"You have exceeded a secondary rate limit."}"#.utf8)))
    case .missingScope(let has, let accepted):
      return response(
        Route(
          status: 403,
          headers: ["x-oauth-scopes": has, "x-accepted-oauth-scopes": accepted],
          body: Data(#"{"message":"Resource not accessible by personal access token"}"#.utf8)))
    case .nextLink, .loopToFirstPage, .dropConnection, .noLinks, .delayed, .endlessPages,
      .failAfterApplying, .stallAfterApplying, .genericGraphQLErrorAfterApplying:
      return response(Route(status: 500, headers: [:], body: Data()))
    }
  }

  func response(_ route: Route) -> FlyingFox.HTTPResponse {
    var headers = HTTPHeaders()
    for (name, value) in route.headers {
      guard
        !["content-length", "transfer-encoding", "connection", "content-encoding"].contains(name)
      else { continue }
      let rewritten =
        name == "link"
        ? value.replacingOccurrences(of: "https://api.github.com", with: baseURL.absoluteString)
        : value
      headers[HTTPHeader(name)] = rewritten
    }
    return FlyingFox.HTTPResponse(
      statusCode: HTTPStatusCode(route.status, phrase: route.status == 200 ? "OK" : "Status"),
      headers: headers,
      body: route.body)
  }
}

/// The recorded responses in the test bundle.
package enum Fixtures {
  package static func url(_ name: String) throws -> URL {
    guard
      let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")
    else {
      throw CocoaError(.fileNoSuchFile)
    }
    return url
  }

  package static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

  /// The response bodies of a recording's exchanges, in order.
  package static func bodies(_ name: String) throws -> [Data] {
    guard let exchanges = try JSONSerialization.jsonObject(with: data(name)) as? [[String: Any]]
    else { return [] }
    return try exchanges.compactMap { exchange in
      guard let body = (exchange["response"] as? [String: Any])?["body"] else { return nil }
      return try JSONSerialization.data(withJSONObject: body, options: [.fragmentsAllowed])
    }
  }

  /// The recorded `.github/ISSUE_TEMPLATE/` folders, by repository (`OWNER__NAME`): each file's
  /// name and text, bytes as published (`Fixtures/issueforms/README.md` says where each is from).
  package static func issueTemplateFolders() throws -> [String: [(name: String, text: String)]] {
    let root = try url("issueforms")
    var folders: [String: [(name: String, text: String)]] = [:]
    let manager = FileManager.default
    for repository in try manager.contentsOfDirectory(atPath: root.path).sorted() {
      let folder = root.appendingPathComponent(repository)
      var isFolder: ObjCBool = false
      guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue
      else { continue }
      folders[repository] = try manager.contentsOfDirectory(atPath: folder.path).sorted().map {
        ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
      }
    }
    return folders
  }

  package static func errorBody422() throws -> Data {
    try bodies("octokit_fixtures__errors_422.json").first ?? Data()
  }
}

/// A body that sends its bytes and then fails, so that the server drops the connection before
/// the announced length.
struct DroppedBody: AsyncBufferedSequence, Sendable {
  typealias Element = UInt8
  let bytes: [UInt8]

  func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes) }

  struct Iterator: AsyncBufferedIteratorProtocol {
    var bytes: [UInt8]
    var sent = false

    mutating func next() async throws -> UInt8? {
      try await nextBuffer(suggested: 1)?.first
    }

    mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
      guard !sent else { throw URLError(.networkConnectionLost) }
      sent = true
      return bytes
    }
  }
}
