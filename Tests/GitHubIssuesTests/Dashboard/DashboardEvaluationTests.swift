import Foundation
import GitHubIssues
import Testing
import TrellisTestSupport

/// Dashboard queries answered from several caches against a model that evaluates the same
/// terms over the items in memory.
@Suite struct DashboardEvaluationTests {
  static let base = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13:20 UTC

  /// An item as the model sees it.
  struct Item {
    var source: Int
    var issue: GitHubIssue
    var commenters: [String]
    var commentBodies: [String]
    /// An open pull request's details, as a sync through GraphQL writes them.
    var details: PullRequestDetails?
  }

  static let sources = [
    DashboardSource(host: .github, repository: RepositoryName(owner: "acme", name: "tracker")),
    DashboardSource(host: .github, repository: RepositoryName(owner: "octo", name: "web")),
    DashboardSource(
      host: .enterprise("ghe.example.com"),
      repository: RepositoryName(owner: "acme", name: "tracker")),
  ]
  /// `@me` on each source: known on github.com, unknown on the Enterprise host.
  static let me: [String?] = ["alice", "alice", nil]

  static let logins = ["alice", "Bob", "carol", "dependabot[bot]"]
  static let labelNames = ["bug", "UI", "good first issue"]
  static let words = ["crash", "launch", "dark", "mode", "memory", "scroll"]
  static let milestones = [
    GitHubMilestone(id: 1, number: 1, title: "1.0", state: .open),
    GitHubMilestone(id: 2, number: 2, title: "Next Release", state: .open),
  ]
  /// Query instants and the spans they cover, worked out by hand.
  static let instants: [(String, Date, Date)] = [
    (
      "2023-11-14", Date(timeIntervalSince1970: 1_699_920_000),
      Date(timeIntervalSince1970: 1_700_006_400)
    ),
    (
      "2023-11-15", Date(timeIntervalSince1970: 1_700_006_400),
      Date(timeIntervalSince1970: 1_700_092_800)
    ),
    (
      "2023-11-16T06:00:00Z", Date(timeIntervalSince1970: 1_700_114_400),
      Date(timeIntervalSince1970: 1_700_114_401)
    ),
  ]

  static func makeItems(_ random: inout SplitMix64) -> [Item] {
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    var items: [Item] = []
    for source in sources.indices {
      for number in 1...40 {
        let created = base.addingTimeInterval(Double(random.next() % 4_000) * 60)
        let updated = created.addingTimeInterval(Double(random.next() % 500) * 60)
        let closed = chance(40)
        var body = (0..<3).map { _ in pick(words) }.joined(separator: " ")
        if chance(30) { body += " cc @\(pick(logins)). " }
        if chance(10) { body += " mail x@\(pick(logins)).org " }
        let commenters = (0..<Int(random.next() % 3)).map { _ in pick(logins) }
        let commentBodies = commenters.map { _ in chance(30) ? "thanks @\(pick(logins))" : "ok" }
        let issue = GitHubIssue(
          id: Int64(source * 1000 + number), number: number,
          title: "\(pick(words)) \(pick(words))", state: closed ? .closed : .open,
          user: GitHubUser(login: pick(logins), id: 1),
          labels: labelNames.filter { _ in chance(30) }.map { GitHubLabel(name: $0) },
          milestone: chance(60) ? pick(milestones) : nil,
          assignees: logins.filter { _ in chance(20) }.map { GitHubUser(login: $0, id: 2) },
          comments: Int(random.next() % 12), createdAt: created, updatedAt: updated,
          closedAt: closed ? updated : nil, body: body, isPullRequest: chance(30))
        var item = Item(
          source: source, issue: issue, commenters: commenters, commentBodies: commentBodies)
        if issue.isPullRequest {
          item.issue.isDraft = !closed && chance(30)
          item.issue.mergedAt = closed && chance(60) ? updated : nil
          if !closed {
            item.details = PullRequestDetails(
              number: number, updatedAt: updated,
              reviewDecision: pick([nil] + PullRequestDetails.ReviewDecision.allCases),
              checks: pick([nil] + PullRequestDetails.Checks.allCases),
              mergeable: .mergeable, headRef: pick(["feature/x", "fix"]),
              baseRef: pick(["main", "release/1.0"]), additions: 1, deletions: 1,
              requestedReviewers: (logins + ["acme/core"]).filter { _ in chance(25) },
              reviews: logins.filter { _ in chance(20) }.map {
                PullRequestDetails.Review(author: $0, state: pick(["APPROVED", "COMMENTED"]))
              })
          }
        }
        items.append(item)
      }
    }
    return items
  }

  static func randomQuery(_ random: inout SplitMix64) -> SearchQuery {
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    let actors = [QueryActor.me, .login("alice"), .login("BOB"), .login("dependabot[bot]")]
    func instant() -> QueryInstant { SearchQueryTests.instant(pick(instants).0) }
    func dates() -> QueryInterval<QueryInstant> {
      switch random.next() % 6 {
      case 0: .equal(instant())
      case 1: .greater(than: instant())
      case 2: .atLeast(instant())
      case 3: .less(than: instant())
      case 4: .atMost(instant())
      default: .between(instant(), instant())
      }
    }
    func condition() -> QueryCondition {
      switch random.next() % 30 {
      case 29: .phrase(pick(["dark mode", "crash launch", "mode dark", "memory scroll crash"]))
      case 20: .draft(pick([true, false]))
      case 21: .merged(pick([true, false]))
      case 22: .mergedAt(dates())
      case 23: .reviewRequested(pick(["@me", "Bob", "acme/core"]))
      case 24: .reviewedBy(pick(actors))
      case 25: .review(pick(QueryReview.allCases))
      case 26: .status(pick(PullRequestDetails.Checks.allCases))
      case 27: .base(pick(["main", "release/1.0"]))
      case 28: .head(pick(["feature/x", "fix"]))
      case 0: .state(pick([.open, .closed]))
      case 1: .kind(pick([.issue, .pullRequest]))
      case 2: .label(anyOf: pick([["Bug"], ["ui", "good first issue"], ["nothing"]]))
      case 3: .milestone(pick(["1.0", "next release", "2.0"]))
      case 4: .missing(pick(QueryField.allCases))
      case 5:
        .repository(
          RepositoryName(owner: "acme", name: "tracker"), host: pick([nil, "ghe.example.com"]))
      case 6: .owner(pick(["acme", "octo"]))
      case 7: .host("github.com")
      case 8: .author(pick(actors))
      case 9: .assignee(pick(actors))
      case 10: .mentions(pick(actors))
      case 11: .commenter(pick(actors))
      case 12: .involves(pick(actors))
      case 13:
        .comments(pick([.equal(3), .greater(than: 5), .atMost(2), .between(4, 8), .less(than: 1)]))
      case 14: .created(dates())
      case 15: .updated(dates())
      case 16: .closed(dates())
      case 17: .issueType("Bug")
      default: .text(pick(words + ["cra", "memo"]))
      }
    }
    let terms = (0..<Int(random.next() % 5)).map { _ in
      QueryTerm(condition(), random.next() % 4 == 0 ? .exclude : .include)
    }
    return SearchQuery(
      terms: terms, sort: QuerySort(pick(QuerySort.Key.allCases), pick([.descending, .ascending])))
  }

  // MARK: The model

  static func mentions(_ text: String, _ login: String) -> Bool {
    let text = Array(text.lowercased())
    let at = Array("@" + login.lowercased())
    guard text.count >= at.count else { return false }
    for start in 0...(text.count - at.count) where Array(text[start..<(start + at.count)]) == at {
      let before = start == 0 ? nil : text[start - 1]
      let after = start + at.count < text.count ? text[start + at.count] : nil
      let beforeOK = before.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
      let afterOK = after.map { !($0.isLetter || $0.isNumber || $0 == "-") } ?? true
      if beforeOK && afterOK { return true }
    }
    return false
  }

  static func holds(_ condition: QueryCondition, _ item: Item) -> Bool {
    let issue = item.issue
    let source = sources[item.source]
    func login(_ actor: QueryActor) -> String? {
      switch actor {
      case .me: me[item.source]
      case .login(let login): login
      }
    }
    func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
    func within(_ date: Date?, _ interval: QueryInterval<QueryInstant>) -> Bool {
      guard let date else { return false }
      func span(_ instant: QueryInstant) -> (Date, Date) {
        guard let found = instants.first(where: { $0.0 == instant.queryText }) else {
          preconditionFailure("no span for \(instant.queryText)")
        }
        return (found.1, found.2)
      }
      switch interval {
      case .equal(let i): return date >= span(i).0 && date < span(i).1
      case .greater(let i): return date >= span(i).1
      case .atLeast(let i): return date >= span(i).0
      case .less(let i): return date < span(i).0
      case .atMost(let i): return date < span(i).1
      case .between(let a, let b): return date >= span(a).0 && date < span(b).1
      }
    }
    switch condition {
    case .state(let state): return issue.state == state
    case .kind(let kind): return issue.isPullRequest == (kind == .pullRequest)
    case .issueType: return false
    case .label(let names):
      return issue.labels.contains { label in names.contains { same($0, label.name) } }
    case .milestone(let title): return issue.milestone.map { same($0.title, title) } ?? false
    case .missing(.label): return issue.labels.isEmpty
    case .missing(.milestone): return issue.milestone == nil
    case .missing(.assignee): return issue.assignees.isEmpty
    case .repository(let name, let host):
      // Without a host, github.com's copy when one is read (GitHub's search knows one host).
      let onGitHub = sources.contains {
        $0.host == .github && same($0.repository.description, name.description)
      }
      let host = host ?? (onGitHub ? "github.com" : nil)
      return same(name.description, source.repository.description)
        && (host.map { same($0, source.host.name) } ?? true)
    case .owner(let owner): return same(owner, source.repository.owner)
    case .host(let host): return same(host, source.host.name)
    case .author(let actor): return login(actor).map { same($0, issue.user.login) } ?? false
    case .assignee(let actor):
      return login(actor).map { login in issue.assignees.contains { same($0.login, login) } }
        ?? false
    case .mentions(let actor):
      return login(actor).map { login in
        mentions(issue.body ?? "", login) || item.commentBodies.contains { mentions($0, login) }
      } ?? false
    case .commenter(let actor):
      return login(actor).map { login in item.commenters.contains { same($0, login) } } ?? false
    case .involves(let actor):
      return [QueryCondition.author(actor), .assignee(actor), .mentions(actor), .commenter(actor)]
        .contains { holds($0, item) }
    case .comments(let interval):
      let count = issue.comments
      switch interval {
      case .equal(let n): return count == n
      case .greater(let n): return count > n
      case .atLeast(let n): return count >= n
      case .less(let n): return count < n
      case .atMost(let n): return count <= n
      case .between(let a, let b): return count >= a && count <= b
      }
    case .created(let interval): return within(issue.createdAt, interval)
    case .updated(let interval): return within(issue.updatedAt, interval)
    case .closed(let interval): return within(issue.closedAt, interval)
    case .draft(let isDraft): return issue.isPullRequest && issue.isDraft == isDraft
    case .merged(let isMerged): return issue.isPullRequest && (issue.mergedAt != nil) == isMerged
    case .mergedAt(let interval): return within(issue.mergedAt, interval)
    case .reviewRequested(let reviewer):
      let name = reviewer == "@me" ? me[item.source] : reviewer
      return name.map { name in
        item.details?.requestedReviewers.contains { same($0, name) } ?? false
      } ?? false
    case .reviewedBy(let actor):
      return login(actor).map { login in
        item.details?.reviews.contains { same($0.author, login) } ?? false
      } ?? false
    case .review(let review):
      switch review {
      case .approved: return item.details?.reviewDecision == .approved
      case .changesRequested: return item.details?.reviewDecision == .changesRequested
      case .required: return item.details?.reviewDecision == .reviewRequired
      case .none: return issue.isPullRequest && item.details?.reviewDecision == nil
      }
    case .status(let checks): return item.details?.checks == checks
    case .base(let branch): return item.details?.baseRef == branch
    case .head(let branch): return item.details?.headRef == branch
    case .phrase(let phrase):
      // Whole words next to each other, in the title or in the body.
      let words = phrase.lowercased().split(separator: " ")
      return [issue.title, issue.body ?? ""].contains { field in
        let tokens = field.lowercased().split { !($0.isLetter || $0.isNumber) }
        guard tokens.count >= words.count else { return false }
        return (0...(tokens.count - words.count)).contains { start in
          zip(tokens[start...], words).allSatisfy { $0 == $1 }
        }
      }
    case .text(let text):
      let tokens = (issue.title + " " + (issue.body ?? "")).lowercased()
        .split { !($0.isLetter || $0.isNumber) }
      return text.lowercased().split(separator: " ").allSatisfy { word in
        tokens.contains { $0.hasPrefix(word) }
      }
    }
  }

  static func modelAnswer(_ query: SearchQuery, _ items: [Item]) -> [(Int, Int)] {
    var scope = query.scopeTerms.filter { $0.polarity == .include }
    if scope.isEmpty { scope = [] }
    let selected = items.filter { item in
      let inScope =
        scope.isEmpty || scope.contains { holds($0.condition, item) }
      let excluded = query.scopeTerms.contains {
        $0.polarity == .exclude && holds($0.condition, item)
      }
      return inScope && !excluded
        && query.itemTerms.allSatisfy { holds($0.condition, item) == ($0.polarity == .include) }
    }
    let descending = query.sort.direction == .descending
    let sorted = selected.sorted { a, b in
      func keys(_ item: Item) -> (Double, Double) {
        switch query.sort.key {
        case .updated: (item.issue.updatedAt.timeIntervalSince1970, 0)
        case .created: (item.issue.createdAt.timeIntervalSince1970, 0)
        case .comments: (Double(item.issue.comments), item.issue.updatedAt.timeIntervalSince1970)
        }
      }
      let (ka, kb) = (keys(a), keys(b))
      if ka.0 != kb.0 { return descending ? ka.0 > kb.0 : ka.0 < kb.0 }
      if ka.1 != kb.1 { return descending ? ka.1 > kb.1 : ka.1 < kb.1 }
      if a.issue.number != b.issue.number {
        return descending ? a.issue.number > b.issue.number : a.issue.number < b.issue.number
      }
      return a.source < b.source
    }
    return sorted.map { ($0.source, $0.issue.number) }
  }

  // MARK: Tests

  func dashboard(_ items: [Item]) throws -> Dashboard {
    var repositories: [Dashboard.Repository] = []
    for (index, source) in Self.sources.enumerated() {
      let cache = try IssueCache()
      let mine = items.filter { $0.source == index }
      try cache.apply(
        CacheUpdate(
          issues: mine.map(\.issue), isComplete: true, milestones: Self.milestones,
          labels: Self.labelNames.map { GitHubLabel(name: $0) }, syncedAt: Self.base))
      for item in mine where !item.commenters.isEmpty {
        let comments = zip(item.commenters, item.commentBodies).enumerated().map { offset, pair in
          GitHubComment(
            id: Int64(index * 100_000 + item.issue.number * 10 + offset),
            user: GitHubUser(login: pair.0, id: 3), body: pair.1, createdAt: Self.base,
            updatedAt: Self.base)
        }
        try cache.writeComments(comments, of: item.issue.number, completeAsOf: nil)
      }
      try cache.writePullRequestDetails(mine.compactMap(\.details))
      repositories.append(Dashboard.Repository(source: source, cache: cache, me: Self.me[index]))
    }
    return Dashboard(repositories: repositories)
  }

  @Test func randomQueriesAgreeWithTheModel() throws {
    let seed: UInt64 = 0x5EC7_1075
    print("DashboardEvaluationTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    let items = Self.makeItems(&random)
    let dashboard = try dashboard(items)
    var nonEmpty = 0
    for round in 0..<600 {
      let query = Self.randomQuery(&random)
      let answer = try dashboard.entries(query)
      let expected = Self.modelAnswer(query, items)
      if !expected.isEmpty { nonEmpty += 1 }
      #expect(
        answer.map { "\($0.source)#\($0.number)" } == expected.map { "\($0.0)#\($0.1)" },
        "round \(round): \(query.text)")
      // The read-back rows are the same items, with their repository.
      let rows = try dashboard.items(answer.prefix(7))
      #expect(rows.map(\.issue.number) == answer.prefix(7).map(\.number))
      #expect(rows.map(\.source) == answer.prefix(7).map { Self.sources[$0.source] })
    }
    // The queries are not all empty: the comparison says something.
    #expect(nonEmpty > 300)
  }

  @Test func meIsEachHostsOwnAccount() throws {
    var random = SplitMix64(seed: 11)
    let items = Self.makeItems(&random)
    let dashboard = try dashboard(items)
    let mine = try dashboard.entries(SearchQuery(parsing: "author:@me"))
    #expect(!mine.isEmpty)
    // The Enterprise host's @me is not known: none of its items are anybody's "mine".
    #expect(mine.allSatisfy { $0.source != 2 })
    let notMine = try dashboard.entries(
      SearchQuery(parsing: "-author:@me repo:ghe.example.com/acme/tracker"))
    #expect(notMine.count == 40)
  }
}
