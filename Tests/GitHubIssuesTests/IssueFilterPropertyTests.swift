import Foundation
import GRDB
@testable import GitHubIssues
import Testing
import TrellisTestSupport

/// Every filter of the cache agrees with a brute-force filter over the issues it was given.
@Suite struct IssueFilterPropertyTests {
  static let logins = ["ana", "Bob", "cy-d", "anab", "dee"]
  static let labels = ["bug", "ui", "docs"]
  static let words = ["hello", "@ana", "@ANA,", "x@ana", "@anab", "(@bob)", "@cy-d", "@cy", "ok"]

  static func issues(_ rng: inout SplitMix64) -> [GitHubIssue] {
    (1...300).map { number in
      let assignees = logins.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }.map {
        // Any case: logins compare without it.
        GitHubUser(login: Bool.random(using: &rng) ? $0 : $0.uppercased(), id: 1)
      }
      let body = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
        words[Int.random(in: 0..<words.count, using: &rng)]
      }.joined(separator: " ")
      return GitHubIssue(
        id: Int64(number), number: number, title: "Issue \(number)",
        state: Bool.random(using: &rng) ? .open : .closed,
        user: GitHubUser(login: logins[Int.random(in: 0..<logins.count, using: &rng)], id: 2),
        labels: labels.filter { _ in Bool.random(using: &rng) }.map {
          GitHubLabel(name: $0, color: "ff0000")
        }, assignees: assignees,
        createdAt: Date(timeIntervalSince1970: Double(number)),
        updatedAt: Date(timeIntervalSince1970: Double(number * 7 % 300)),
        body: body.isEmpty ? nil : body)
    }
  }

  /// Whether a body mentions `@login` as GitHub reads a mention.
  static func mentions(_ body: String?, _ login: String) -> Bool {
    let text = Array((body ?? "").lowercased())
    let at = Array("@" + login.lowercased())
    guard text.count >= at.count else { return false }
    for start in 0...(text.count - at.count) where Array(text[start..<start + at.count]) == at {
      let before = start == 0 ? nil : text[start - 1]
      let after = start + at.count == text.count ? nil : text[start + at.count]
      let wordBefore = before.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      let loginAfter = after.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
      if wordBefore != true && loginAfter != true { return true }
    }
    return false
  }

  @Test func filtersAgreeWithBruteForce() throws {
    let seed: UInt64 = 1_414
    var rng = SplitMix64(seed: seed)
    let issues = Self.issues(&rng)
    let cache = try IssueCache()
    try cache.apply(CacheUpdate(issues: issues, isComplete: true, milestones: [], labels: []))
    for round in 0..<200 {
      var filter = IssueFilter(state: IssueStateFilter.allCases[Int.random(in: 0..<3, using: &rng)])
      filter.labels = Self.labels.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
      if Bool.random(using: &rng) { filter.assignee = Self.logins.randomElement(using: &rng) }
      if Bool.random(using: &rng) {
        filter.author = Self.logins.randomElement(using: &rng)?.uppercased()
      }
      if Int.random(in: 0..<3, using: &rng) == 0 {
        filter.mention = ["ana", "bob", "cy-d", "cy", "anab"].randomElement(using: &rng)
      }
      let expected = issues.filter { issue in
        (filter.state == .all || (filter.state == .open) == (issue.state == .open))
          && filter.labels.allSatisfy { label in issue.labels.contains { $0.name == label } }
          && filter.assignee.map { login in
            issue.assignees.contains { $0.login.lowercased() == login.lowercased() }
          } ?? true
          && filter.author.map { issue.user.login.lowercased() == $0.lowercased() } ?? true
          && filter.mention.map { Self.mentions(issue.body, $0) } ?? true
      }.map(\.number).sorted()
      let found = try cache.issues(filter).map(\.number).sorted()
      #expect(found == expected, "seed \(seed), round \(round): \(filter)")
    }
  }

  @Test func assigneesAreReadBackSortedAndOncePerLogin() throws {
    let cache = try IssueCache()
    let issue = GitHubIssue(
      id: 1, number: 1, title: "t", state: .open, user: GitHubUser(login: "a", id: 1),
      assignees: [
        GitHubUser(login: "zed", id: 1), GitHubUser(login: "Amy", id: 2),
        GitHubUser(login: "AMY", id: 2),
      ], createdAt: Date(), updatedAt: Date())
    try cache.apply(CacheUpdate(issues: [issue]))
    #expect(try cache.issue(number: 1)?.assignees == ["Amy", "zed"])
    // A window of list rows reads them in a query of its own: the same answer.
    #expect(try cache.issues(numbers: [1]).first?.assignees == ["Amy", "zed"])
    #expect(try cache.issues(IssueFilter()).first?.assignees == ["Amy", "zed"])
    var unassigned = issue
    unassigned.assignees = []
    try cache.apply(CacheUpdate(issues: [unassigned]))
    #expect(try cache.issue(number: 1)?.assignees == [])
    #expect(try cache.issues(IssueFilter(assignee: "amy")).isEmpty)
  }

  @Test func theViewerIsRememberedPerToken() throws {
    let cache = try IssueCache()
    #expect(try cache.viewerLogin(token: "one") == nil)
    try cache.setViewerLogin("octocat", token: "one")
    #expect(try cache.viewerLogin(token: "one") == "octocat")
    #expect(try cache.viewerLogin(token: "two") == nil)
    try cache.setViewerLogin("hubot", token: "two")
    #expect(try cache.viewerLogin(token: "one") == nil)
    #expect(try cache.viewerLogin(token: "two") == "hubot")
  }

  @Test func aLoginWithGlobCharactersMatchesOnlyItself() throws {
    let cache = try IssueCache()
    let issue = GitHubIssue(
      id: 1, number: 1, title: "t", state: .open, user: GitHubUser(login: "a", id: 1),
      createdAt: Date(), updatedAt: Date(), body: "hi @abc")
    try cache.apply(CacheUpdate(issues: [issue]))
    #expect(try cache.issues(IssueFilter(mention: "a*")).isEmpty)
    #expect(try cache.issues(IssueFilter(mention: "a?c")).isEmpty)
    #expect(try cache.issues(IssueFilter(mention: "[a]bc")).isEmpty)
    #expect(try cache.issues(IssueFilter(mention: "ABC")).map(\.number) == [1])
  }

  @Test func aMentionInACachedCommentCounts() throws {
    let cache = try IssueCache()
    let issues = (1...3).map { number in
      GitHubIssue(
        id: Int64(number), number: number, title: "t", state: .open,
        user: GitHubUser(login: "a", id: 1), createdAt: Date(), updatedAt: Date(), body: "no one")
    }
    try cache.apply(CacheUpdate(issues: issues))
    let comment = GitHubComment(
      id: 77, user: GitHubUser(login: "b", id: 2), body: "cc @Ana, and mail ana@example.com",
      createdAt: Date(), updatedAt: Date())
    let email = GitHubComment(
      id: 78, user: GitHubUser(login: "b", id: 2), body: "write to bob@ana.dev or @anabel",
      createdAt: Date(), updatedAt: Date())
    try cache.writeComments([comment], of: 2, completeAsOf: nil)
    try cache.writeComments([email], of: 3, completeAsOf: nil)
    #expect(try cache.issues(IssueFilter(mention: "ana")).map(\.number) == [2])
    #expect(try cache.listEntries(IssueFilter(mention: "ana")).map(\.number) == [2])
    #expect(try cache.issues(IssueFilter(mention: "anabel")).map(\.number) == [3])
  }

  @Test func hostileCommentBodiesNeitherBreakNorFoolTheMentionFilter() throws {
    let cache = try IssueCache()
    let issues = (1...4).map { number in
      GitHubIssue(
        id: Int64(number), number: number, title: "t", state: .open,
        user: GitHubUser(login: "a", id: 1), createdAt: Date(), updatedAt: Date(), body: nil)
    }
    try cache.apply(CacheUpdate(issues: issues))
    let bodies = [
      // Control characters and an escape sequence around a real mention.
      2: "\u{1B}[31m\t@ana\u{7}\r\n",
      // A megabyte of text, the mention at its very end.
      3: String(repeating: "x ", count: 500_000) + "@ana",
      // Look-alikes only, and a NUL: an e-mail address, a longer login.
      4: "mail@ana.dev @anab\u{0}tail",
    ]
    for (number, body) in bodies {
      let comment = GitHubComment(
        id: Int64(100 + number), user: GitHubUser(login: "b", id: 2), body: body,
        createdAt: Date(), updatedAt: Date())
      try cache.writeComments([comment], of: number, completeAsOf: nil)
    }
    let found = try cache.issues(IssueFilter(mention: "ana")).map(\.number).sorted()
    #expect(found == [2, 3], "\(found)")
    #expect(try cache.listEntries(IssueFilter(mention: "ana")).count == 2)
  }
}

/// A cache from before assignees were stored relists everything once, so that they arrive.
@Suite struct AssigneeMigrationTests {
  @Test func aCacheFromBeforeAssigneesListsEverythingOnItsNextSync() throws {
    // The cache as the previous release left it: migrated up to v3, synced, with issues.
    let path = try IssueCacheTests.cacheFromAnOlderRelease(
      upTo: "v3: sub-issues; the browser's collapsed sections",
      sql: """
        INSERT INTO issue(id, number, title, state, author, comments, createdAt, updatedAt,
          isPullRequest) VALUES (1, 1, 't', 'open', 'a', 0, '2020-01-01', '2020-01-01', 0);
        INSERT INTO syncState(id, lastSyncedAt, highWaterMark) VALUES (1, '2020-01-02', '2020-01-01');
        INSERT INTO fullListingSeen(id) VALUES (99);
        """)
    defer { IssueCacheTests.removeFolder(of: path) }
    let cache = try IssueCache(path: path)
    let state = try cache.syncState()
    #expect(state.pendingFullListing != nil)
    #expect(state.pendingFullListing?.resumeAfter == nil, "the listing starts from the beginning")
    #expect(try cache.issue(number: 1)?.assignees == [])

    // An empty cache has nothing to relist: its first sync lists everything anyway.
    let fresh = try IssueCache()
    #expect(try fresh.syncState().pendingFullListing == nil)
  }
}
