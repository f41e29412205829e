import Foundation
import GRDB
@testable import GitHubIssues
import Testing

@Suite struct IssueCacheTests {
  static let base = Date(timeIntervalSince1970: 1_700_000_000)

  static func issue(
    _ number: Int, _ title: String, state: GitHubIssue.State = .open,
    milestone: GitHubMilestone? = nil,
    labels: [String] = [], body: String? = nil, minutes: Int = 0, comments: Int = 0,
    pullRequest: Bool = false
  ) -> GitHubIssue {
    GitHubIssue(
      id: Int64(1000 + number), number: number, title: title, state: state,
      user: GitHubUser(login: "u\(number)", id: 1),
      labels: labels.map { GitHubLabel(name: $0) }, milestone: milestone, comments: comments,
      createdAt: base.addingTimeInterval(Double(number) * 60),
      updatedAt: base.addingTimeInterval(Double(minutes) * 60),
      body: body, isPullRequest: pullRequest)
  }

  static let v1 = GitHubMilestone(
    id: 1, number: 1, title: "v1.0", state: .open, dueOn: base.addingTimeInterval(86_400 * 30))
  static let v2 = GitHubMilestone(
    id: 2, number: 2, title: "v2.0", state: .open, dueOn: base.addingTimeInterval(86_400 * 10))
  static let later = GitHubMilestone(id: 3, number: 3, title: "someday", state: .open)
  static let old = GitHubMilestone(id: 4, number: 4, title: "v0.9", state: .closed, dueOn: base)

  /// A cache file's path in a new folder of its own.
  static func temporaryCachePath() -> String {
    NSTemporaryDirectory() + "trellis-\(UUID().uuidString)/r.sqlite"
  }

  /// A cache file as an older release left it: migrated up to `migration`, then `sql` run.
  ///
  /// Its path is in a folder of its own, for ``removeFolder(of:)``.
  static func cacheFromAnOlderRelease(upTo migration: String, sql: String) throws -> String {
    let path = temporaryCachePath()
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
      withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try IssueCache.migrator.migrate(queue, upTo: migration)
    try queue.write { db in try db.execute(sql: sql) }
    return path
  }

  static func removeFolder(of path: String) {
    try? FileManager.default.removeItem(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
  }

  func filled() throws -> IssueCache {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: [
          Self.issue(
            1, "Crash on launch", milestone: Self.v1, labels: ["bug"], body: "stack trace",
            minutes: 5),
          Self.issue(2, "전체선택 버튼이 동작하지 않음", milestone: Self.v1, labels: ["bug", "ui"], minutes: 9),
          Self.issue(3, "新版本的问题", state: .closed, milestone: Self.v2, minutes: 1),
          Self.issue(
            4, "Add dark mode 😃", labels: ["feature"], body: "please", minutes: 7, comments: 12),
          Self.issue(5, "Bump version", milestone: Self.v1, minutes: 8, pullRequest: true),
          Self.issue(6, "마일스톤 없는 이슈", minutes: 3),
        ],
        isComplete: true, milestones: [Self.v1, Self.v2, Self.later, Self.old], syncedAt: Self.base)
    )
    return cache
  }

  /// Milestones GraphQL knows by number alone stand in until REST lists them: the REST list
  /// replaces them without taking the milestone off any issue, and one REST no longer lists
  /// leaves its issues.
  @Test func aMilestoneKnownByNumberAloneIsReplacedNotLost() throws {
    let cache = try IssueCache()
    let byNumber = { (number: Int) in
      GitHubMilestone(id: 0, number: number, title: "v\(number)", state: .open)
    }
    try cache.writePage(
      [
        Self.issue(1, "one", milestone: byNumber(1)), Self.issue(2, "two", milestone: byNumber(2)),
        Self.issue(3, "three", milestone: byNumber(1)),
      ], advancingMarks: true)
    #expect(try cache.milestones().map(\.number).sorted() == [1, 2])
    try cache.writeMetadata(
      repository: nil,
      milestones: [GitHubMilestone(id: 501, number: 1, title: "v1 (renamed)", state: .open)],
      labels: nil, etags: [:])
    #expect(try cache.milestones().map(\.id) == [501])
    #expect(try cache.issue(number: 1)?.milestoneNumber == 1)
    #expect(try cache.issue(number: 3)?.milestoneNumber == 1)
    #expect(try cache.issue(number: 2)?.milestoneNumber == nil, "milestone 2 is gone on GitHub")
    // A GraphQL page afterwards refreshes the title and keeps the REST row.
    try cache.writePage(
      [Self.issue(1, "one", milestone: byNumber(1), minutes: 1)], advancingMarks: true)
    #expect(try cache.milestones().map(\.id) == [501])
    #expect(try cache.milestones().first?.title == "v1")
  }

  @Test func aBulkImportIsSearchableAndLaterIssuesAreIndexedAsTheyCome() throws {
    let cache = try IssueCache()
    let update = SyntheticRepository(itemCount: 2_000, milestoneCount: 5, seed: 4).make()
    try cache.apply(update)
    // Every word of a few titles finds exactly the issues whose title or body holds it.
    let all = try cache.issues(IssueFilter(state: .all, kind: .both)).count
    #expect(all == 2_000)
    let word = try #require(
      update.issues.first?.title.split(separator: " ").first { $0.count > 3 }.map(String.init))
    let found = try cache.issues(IssueFilter(state: .all, kind: .both, text: word)).count
    #expect(found > 0 && found < all)
    // The index trigger is back: a new issue is found by its own word.
    try cache.writePage(
      [Self.issue(9_999, "zyxwvutsrq appears once", minutes: 9)], advancingMarks: false)
    #expect(
      try cache.issues(IssueFilter(state: .all, kind: .both, text: "zyxwvutsrq")).map(\.number)
        == [9_999])
  }

  @Test func aBulkImportPutsBackEveryIndexItSetAside() throws {
    let cache = try IssueCache()
    let schema = "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger')"
    let before = try cache.writer.read { try Row.fetchAll($0, sql: schema) }
    try cache.apply(SyntheticRepository(itemCount: 1_500, milestoneCount: 4, seed: 9).make())
    let after = try cache.writer.read { try Row.fetchAll($0, sql: schema) }
    #expect(Set(after.map { "\($0)" }) == Set(before.map { "\($0)" }))
    #expect(before.count >= 8)
    let check = try cache.writer.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
    #expect(check == ["ok"])
  }

  /// A list's entries (number, milestone, state) come from an index alone for every sort and
  /// chip: reading the 26k open entries of a 100k cache walks no table rows.
  @Test func listEntriesAreReadFromACoveringIndex() throws {
    let cache = try IssueCache()
    let filters = IssueSort.allCases.flatMap { sort in
      [MilestoneFilter.all, .number(3), .withoutMilestone].map {
        IssueFilter(milestone: $0, sort: sort)
      }
    }
    for filter in filters where filter.sort != .comments {
      let (sql, arguments) = IssueCache.selectSQL(
        filter, columns: "number, milestoneNumber, state")
      let plan = try cache.writer.read {
        try Row.fetchAll(
          $0, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(arguments))
      }
      let details = plan.map { $0["detail"] as String }.joined(separator: "; ")
      #expect(details.contains("COVERING INDEX"), "\(filter.sort) \(filter.milestone): \(details)")
      #expect(!details.contains("TEMP B-TREE"), "\(filter.sort) \(filter.milestone): \(details)")
    }
  }

  @Test func aDeferredSearchIndexIsBuiltWhenTheCacheIsOpenedAgain() throws {
    let path = Self.temporaryCachePath()
    defer { Self.removeFolder(of: path) }
    do {
      // A first sync killed after writing pages with indexing deferred.
      let cache = try IssueCache(path: path)
      try cache.deferSearchIndex()
      try cache.writePage(
        [Self.issue(1, "quixotic crash"), Self.issue(2, "other")], advancingMarks: true)
      // Updated and deleted while deferred: nothing is taken out of the index it never held.
      try cache.writePage([Self.issue(2, "quixotic too", minutes: 3)], advancingMarks: true)
      #expect(try cache.issues(IssueFilter(text: "quixotic")).isEmpty)
    }
    let reopened = try IssueCache(path: path)
    #expect(try reopened.issues(IssueFilter(text: "quixotic")).map(\.number).sorted() == [1, 2])
    // The triggers are back: later writes are indexed as they come.
    try reopened.writePage([Self.issue(3, "quixotic three", minutes: 4)], advancingMarks: true)
    #expect(try reopened.issues(IssueFilter(text: "quixotic")).count == 3)
    #expect(try reopened.rebuildDeferredSearchIndex() == false)
    // FTS5 checks its index against the rows, and fails if they differ.
    try reopened.writer.write {
      try $0.execute(sql: "INSERT INTO issueSearch(issueSearch) VALUES ('integrity-check')")
    }
  }

  @Test func textIsKeptAsGitHubSentItNulsAndEscapesIncluded() throws {
    let cache = try IssueCache()
    let texts = [
      "a\u{0}b", "\u{E000}0 is not a NUL", "\u{0}\u{E000}\u{E000}e\u{0}", "plain", "\u{E000}",
    ]
    for (offset, text) in texts.enumerated() {
      try cache.writePage(
        [Self.issue(offset + 1, "title " + text, body: text + " body")], advancingMarks: false)
      try cache.writeComments(
        [
          GitHubComment(
            id: Int64(offset + 1), user: GitHubUser(login: "a", id: 1), body: text,
            createdAt: Self.base, updatedAt: Self.base)
        ], of: offset + 1, completeAsOf: nil)
    }
    for (offset, text) in texts.enumerated() {
      let issue = try #require(try cache.issue(number: offset + 1))
      #expect(issue.title == "title " + text)
      #expect(issue.body == text + " body")
      #expect(try cache.comments(of: offset + 1).map(\.body) == [text])
    }
  }

  @Test func milestoneFiltersSelectAllNoneOrOne() throws {
    let cache = try filled()
    #expect(
      try cache.issues(IssueFilter(milestone: .all, state: .all)).map(\.number) == [2, 4, 1, 6, 3])
    #expect(
      try cache.issues(IssueFilter(milestone: .withoutMilestone, state: .all)).map(\.number) == [
        4, 6,
      ])
    #expect(try cache.issues(IssueFilter(milestone: .number(1))).map(\.number) == [2, 1])
    #expect(try cache.issues(IssueFilter(milestone: .number(2))).isEmpty)
    #expect(
      try cache.issues(IssueFilter(milestone: .number(2), state: .closed)).map(\.number) == [3])
    #expect(
      try cache.issues(IssueFilter(milestone: .withMilestone, state: .all)).map(\.number)
        == [2, 1, 3])
  }

  /// The cache's SQL and `MilestoneFilter.matches` agree on every milestone filter and state.
  @Test func milestoneFilterMatchesWhatTheCacheSelects() throws {
    let cache = try filled()
    let everything = try cache.issues(IssueFilter(state: .all, kind: .both))
    let filters: [MilestoneFilter] =
      [.all, .withMilestone, .withoutMilestone] + (1...5).map { .number($0) }
    for milestone in filters {
      for state in IssueStateFilter.allCases {
        let selected = try cache.issues(
          IssueFilter(milestone: milestone, state: state, kind: .both))
        let expected = everything.filter {
          milestone.matches(milestoneNumber: $0.milestoneNumber)
            && (state == .all || $0.state.rawValue == state.rawValue)
        }
        #expect(selected == expected, "\(milestone) \(state)")
      }
    }
  }

  @Test func pullRequestsAreKeptApart() throws {
    let cache = try filled()
    #expect(try cache.issues(IssueFilter(kind: .pullRequests)).map(\.number) == [5])
    #expect(
      try cache.issues(IssueFilter(milestone: .number(1), kind: .both)).map(\.number) == [2, 5, 1])
  }

  @Test func labelsAndSortOrders() throws {
    let cache = try filled()
    #expect(try cache.issues(IssueFilter(labels: ["bug"])).map(\.number) == [2, 1])
    #expect(try cache.issues(IssueFilter(labels: ["ui"])).first?.labels == ["bug", "ui"])
    #expect(try cache.issues(IssueFilter(sort: .comments)).first?.number == 4)
    #expect(try cache.issues(IssueFilter(sort: .created)).map(\.number) == [6, 4, 2, 1])
    #expect(try cache.issues(IssueFilter(limit: 2)).count == 2)
  }

  @Test func textSearchMatchesWordPrefixesInTitleAndBodyInAnyScript() throws {
    let cache = try filled()
    #expect(try cache.issues(IssueFilter(state: .all, text: "crash")).map(\.number) == [1])
    #expect(try cache.issues(IssueFilter(state: .all, text: "stack tra")).map(\.number) == [1])
    #expect(try cache.issues(IssueFilter(state: .all, text: "전체선택")).map(\.number) == [2])
    #expect(try cache.issues(IssueFilter(state: .all, text: "마일스")).map(\.number) == [6])
    #expect(try cache.issues(IssueFilter(state: .all, text: "新版本的问题")).map(\.number) == [3])
    #expect(try cache.issues(IssueFilter(state: .all, text: "\"dark")).map(\.number) == [4])
    #expect(try cache.issues(IssueFilter(state: .all, text: "   ")).count == 5)
    #expect(try cache.issues(IssueFilter(state: .all, text: "nothing-like-this")).isEmpty)
  }

  @Test func countsPerMilestoneAndMilestoneOrder() throws {
    let cache = try filled()
    let milestones = try cache.milestones()
    #expect(milestones.map(\.title) == ["v2.0", "v1.0", "someday", "v0.9"])
    let open = EntryCounts(try cache.listEntries(IssueFilter(state: .open)))
    #expect(open.all == 4)
    #expect(open.noMilestone == 2)
    #expect(milestones.map { open.byMilestone[$0.number, default: 0] } == [0, 2, 0, 0])
    let all = EntryCounts(try cache.listEntries(IssueFilter(state: .all)))
    #expect(milestones.map { all.byMilestone[$0.number, default: 0] } == [1, 2, 0, 0])
  }

  /// Labels are stored twice (`issueLabel` rows and the row's `labelNames`); hostile names —
  /// repeated, or holding the separator of `labelNames` — keep the two copies equal.
  @Test func bothCopiesOfTheLabelsAgreeWhateverTheNames() throws {
    let cache = try filled()
    try cache.apply(
      CacheUpdate(issues: [
        Self.issue(20, "Repeated", labels: ["bug", "bug", "ui"], minutes: 40),
        Self.issue(21, "Separator", labels: ["a\u{1F}b", "c"], minutes: 41),
        Self.issue(22, "No labels", minutes: 42),
      ]))
    // Relabel one (a newer version): the old links go.
    try cache.apply(
      CacheUpdate(issues: [Self.issue(1, "Crash on launch", labels: ["ui"], minutes: 6)]))
    #expect(try cache.writer.read { try IssueCache.labelCopyMismatches($0) }.isEmpty)
    #expect(try cache.issue(number: 20)?.labels == ["bug", "ui"])
    #expect(try cache.issue(number: 21)?.labels == ["a\u{241F}b", "c"])
    #expect(try cache.issue(number: 1)?.labels == ["ui"])
    #expect(
      try cache.issues(IssueFilter(state: .all, labels: ["a\u{1F}b"])).map(\.number) == [21])
    #expect(try cache.issues(IssueFilter(state: .all, labels: ["bug"])).map(\.number) == [20, 2])
    // The check sees a copy that disagrees.
    try cache.writer.write { db in
      try db.execute(sql: "UPDATE issue SET labelNames = 'bug' WHERE number = 22")
    }
    #expect(try cache.writer.read { try IssueCache.labelCopyMismatches($0) } == [22])
  }

  @Test func anIssueWithItsBody() throws {
    let cache = try filled()
    let issue = try #require(try cache.issue(number: 4))
    #expect(issue.body == "please")
    #expect(issue.title == "Add dark mode 😃")
    #expect(try cache.issue(number: 99) == nil)
  }

  @Test func updatesReplaceAndACompleteUpdateRemovesWhatIsGone() throws {
    let cache = try filled()
    try cache.apply(
      CacheUpdate(issues: [Self.issue(1, "Crash on launch (fixed)", state: .closed, minutes: 20)]))
    #expect(try cache.issue(number: 1)?.state == .closed)
    #expect(try cache.issues(IssueFilter(state: .all, text: "fixed")).map(\.number) == [1])
    #expect(try cache.issues(IssueFilter(milestone: .number(1), state: .all)).map(\.number) == [2])
    try cache.apply(
      CacheUpdate(issues: [Self.issue(6, "마일스톤 없는 이슈", minutes: 3)], isComplete: true))
    #expect(try cache.syncState().itemCount == 1)
    #expect(try cache.issues(IssueFilter(state: .all, text: "crash")).isEmpty)
  }

  @Test func theHighWaterMarkIsTheLatestUpdate() throws {
    let cache = try filled()
    #expect(try cache.syncState().highWaterMark == Self.base.addingTimeInterval(9 * 60))
    #expect(try cache.syncState().lastSyncedAt == Self.base)
    #expect(try cache.lastSyncedAt() == Self.base, "read alone, as a screen reads it at launch")
    #expect(try IssueCache().lastSyncedAt() == nil, "never synced")
  }

  @Test func aLastSyncDateThatIsNotADateIsAnErrorNotACrash() throws {
    let cache = try filled()
    try cache.writer.write { db in
      try db.execute(
        sql: "UPDATE syncState SET lastSyncedAt = ? WHERE id = 1",
        arguments: ["not a date\u{0}\u{1B}["])
    }
    #expect(throws: (any Error).self) { try cache.lastSyncedAt() }
  }

  @Test func observationEmitsWhenTheDataChanges() async throws {
    let cache = try filled()
    // An observed list spans every milestone: the chip bar counts them all.
    var lists = cache.observeList(IssueFilter(milestone: .number(1))).makeAsyncIterator()
    #expect(try await lists.next()?.entries.map(\.number) == [2, 4, 1, 6])
    try cache.apply(
      CacheUpdate(issues: [Self.issue(7, "New one", milestone: Self.v1, minutes: 30)]))
    #expect(try await lists.next()?.entries.map(\.number) == [7, 2, 4, 1, 6])
  }

  @Test func theDefaultLocationFollowsXDG() {
    let repo = RepositoryName(owner: "o", name: "r")
    #expect(
      IssueCache.defaultURL(for: repo, environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]).path
        == "/x/trellis-issues/github.com/o/r.sqlite")
    #expect(
      IssueCache.defaultURL(for: repo, environment: ["HOME": "/h"]).path
        == "/h/.cache/trellis-issues/github.com/o/r.sqlite")
  }

  @Test func aCacheOnDiskKeepsItsDataAcrossOpens() throws {
    let path = Self.temporaryCachePath()
    defer { Self.removeFolder(of: path) }
    do {
      let cache = try IssueCache(path: path)
      try cache.apply(CacheUpdate(issues: [Self.issue(1, "kept")]))
    }
    #expect(try IssueCache(path: path).issues(IssueFilter()).map(\.title) == ["kept"])
  }
}

@Suite struct EmojiSearchTests {
  @Test func emojiAndSymbolsAreFoundAsTheyAre() throws {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(issues: [
        IssueCacheTests.issue(1, "🐛 crash on launch"),
        IssueCacheTests.issue(2, "Crash when saving", body: "it burns 🔥"),
        IssueCacheTests.issue(3, "Family 👨‍👩‍👧 emoji"),
      ]))
    #expect(try cache.issues(IssueFilter(state: .all, text: "🐛")).map(\.number) == [1])
    #expect(try cache.issues(IssueFilter(state: .all, text: "🔥 crash")).map(\.number) == [2])
    #expect(try cache.issues(IssueFilter(state: .all, text: "👨‍👩‍👧")).map(\.number) == [3])
    #expect(try cache.issues(IssueFilter(state: .all, text: "crash")).count == 2)
  }
}
