import Foundation
import GRDB
@testable import GitHubIssues
import Testing

/// Rows are keyed by the cache: GitHub's id and number are facts about a row, and what points
/// at a row (the list, the queue, the search index, label and assignee links) holds its key.
@Suite struct IssueKeyTests {
  typealias Fixture = IssueCacheTests

  @Test func aRowKeepsItsKeyWhateverGitHubWritesOverIt() throws {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: [Fixture.issue(1, "one", labels: ["bug"]), Fixture.issue(2, "two")],
        isComplete: true, syncedAt: Fixture.base))
    let key = try #require(try cache.issue(number: 1)).key
    #expect(try cache.listEntries(IssueFilter(state: .all)).map(\.key).contains(key))
    // GitHub's next version of the issue: a new title, labels and state.
    var edited = Fixture.issue(1, "one, renamed", state: .closed, labels: ["ui"], minutes: 5)
    edited.assignees = [GitHubUser(login: "ana", id: 9)]
    try cache.writePage([edited], advancingMarks: true)
    let row = try #require(try cache.issue(number: 1))
    #expect(row.key == key)
    #expect(row.title == "one, renamed")
    #expect(row.labels == ["ui"])
    #expect(row.assignees == ["ana"])
    // The links and the search index follow the key: filters find the row by them.
    #expect(try cache.issues(IssueFilter(state: .all, labels: ["ui"])).map(\.key) == [key])
    #expect(try cache.issues(IssueFilter(state: .all, labels: ["bug"])).isEmpty)
    #expect(try cache.issues(IssueFilter(state: .all, text: "renamed")).map(\.key) == [key])
    #expect(try cache.issues(IssueFilter(state: .all, assignee: "ana")).map(\.key) == [key])
  }

  @Test func aKeyIsNeverGivenTwice() throws {
    let cache = try IssueCache()
    try cache.apply(
      CacheUpdate(
        issues: (1...3).map { Fixture.issue($0, "issue \($0)") }, isComplete: true,
        syncedAt: Fixture.base))
    let before = try cache.listEntries(IssueFilter(state: .all)).map(\.key)
    let newest = try #require(before.max())
    // The newest row leaves (GitHub deleted it: a complete listing without it), then a new
    // issue arrives: it gets a key of its own, not the one that left.
    try cache.apply(
      CacheUpdate(
        issues: (1...3).filter { try! cache.issue(number: $0)?.key != newest }.map {
          Fixture.issue($0, "issue \($0)")
        },
        isComplete: true, syncedAt: Fixture.base))
    try cache.writePage([Fixture.issue(4, "issue 4", minutes: 3)], advancingMarks: true)
    let fresh = try #require(try cache.issue(number: 4)).key
    #expect(!before.contains(fresh))
    #expect(fresh > newest)
  }

  @Test func aNumberGivenToAnotherItemIsAnotherRow() throws {
    let cache = try IssueCache()
    try cache.writePage([Fixture.issue(7, "first")], advancingMarks: true)
    let first = try #require(try cache.issue(number: 7)).key
    // GitHub's item #7 is now another one (another id: the first was transferred and the
    // number reused by a fake that takes the inconvenient side): a new row, a new key.
    var other = Fixture.issue(7, "second", minutes: 2)
    other.id = 99_999
    try cache.writePage([other], advancingMarks: true)
    let row = try #require(try cache.issue(number: 7))
    #expect(row.key != first)
    #expect(row.id == 99_999)
    #expect(try cache.listEntries(IssueFilter(state: .all)).count == 1)
  }

  @Test func aQueuedActionFollowsItsRow() throws {
    let cache = try IssueCache()
    try cache.writePage([Fixture.issue(3, "three")], advancingMarks: true)
    let key = try #require(try cache.issue(number: 3)).key
    let action = try cache.enqueue(.comment("+1"), onIssue: 3)
    #expect(action.issueKey == key)
    try cache.writePage([Fixture.issue(3, "three, edited", minutes: 4)], advancingMarks: true)
    #expect(try cache.queuedActions().map(\.issueKey) == [key])
  }

  @Test func aCacheFromBeforeKeysKeepsEveryRowLinkAndQueuedAction() throws {
    // The cache as the previous release left it: migrated up to v13, with issues, labels,
    // assignees, the search index and a queued action.
    let path = try Fixture.cacheFromAnOlderRelease(
      upTo: "v13: a mirror's walk through one second, to resume inside",
      sql: """
        INSERT INTO issue(id, number, title, body, state, author, comments, createdAt,
          updatedAt, isPullRequest, labelNames)
        VALUES (5001, 1, 'Crash on launch', 'stack trace', 'open', 'a', 0, '2020-01-01',
          '2020-01-01', 0, 'bug'),
          (5002, 2, 'Dark mode', NULL, 'closed', 'b', 0, '2020-01-01', '2020-01-02', 0, '');
        INSERT INTO label(name) VALUES ('bug');
        INSERT INTO issueLabel(issueId, labelName) VALUES (5001, 'bug');
        INSERT INTO issueAssignee(issueId, login) VALUES (5002, 'ana');
        INSERT INTO queuedAction(issueNumber, operation, status, queuedAt)
          VALUES (2, '{"comment":{"_0":"+1"}}', 'pending', '2020-01-03');
        """)
    defer { Fixture.removeFolder(of: path) }
    let cache = try IssueCache(path: path)
    let rows = try cache.issues(IssueFilter(state: .all)).sorted { $0.number < $1.number }
    #expect(rows.map(\.key.rawValue) == [5001, 5002], "rows keep their rowid as their key")
    #expect(rows.map(\.id) == [5001, 5002])
    #expect(try cache.issues(IssueFilter(state: .all, labels: ["bug"])).map(\.number) == [1])
    #expect(try cache.issues(IssueFilter(state: .all, assignee: "ana")).map(\.number) == [2])
    #expect(try cache.issues(IssueFilter(state: .all, text: "stack")).map(\.number) == [1])
    #expect(try cache.queuedActions().map(\.issueKey) == [IssueKey(rawValue: 5002)])
    let violations = try cache.writer.write { db in
      try db.execute(sql: "INSERT INTO issueSearch(issueSearch) VALUES ('integrity-check')")
      return try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
    }
    #expect(violations.isEmpty)
    // A new row's key is above every key the old rows had.
    try cache.writePage([Fixture.issue(3, "new")], advancingMarks: true)
    #expect(try #require(try cache.issue(number: 3)).key.rawValue > 5002)
    // Deleting a row still takes its links with it.
    try cache.apply(
      CacheUpdate(issues: [Fixture.issue(3, "new")], isComplete: true, syncedAt: Fixture.base))
    let links = try cache.writer.read { db in
      try Int.fetchOne(
        db, sql: "SELECT (SELECT count(*) FROM issueLabel) + (SELECT count(*) FROM issueAssignee)")
    }
    #expect(links == 0)
  }

  /// An import into an empty cache writes without the unique indexes: repeated ids and numbers in
  /// what it is given still leave what writing the items one by one leaves.
  @Test func anImportWithRepeatedItemsLeavesWhatWritingThemInOrderLeaves() throws {
    var issues = (1...1_200).map { Fixture.issue($0, "issue \($0)", minutes: $0 % 50) }
    // The same item again, newer; again, older; another item under a number already listed.
    issues.append(Fixture.issue(10, "issue 10, newer", minutes: 99))
    issues.append(Fixture.issue(11, "issue 11, older", minutes: -5))
    var other = Fixture.issue(12, "another #12", minutes: 3)
    other.id = 77_777
    issues.append(other)
    let imported = try IssueCache()
    try imported.apply(CacheUpdate(issues: issues, isComplete: true, syncedAt: Fixture.base))
    let written = try IssueCache()
    for start in stride(from: 0, to: issues.count, by: 100) {
      try written.writePage(
        Array(issues[start..<min(start + 100, issues.count)]), advancingMarks: false)
    }
    func rows(_ cache: IssueCache) throws -> [String] {
      try cache.issues(IssueFilter(state: .all)).map { "\($0.number) \($0.id) \($0.title)" }
    }
    #expect(try rows(imported) == rows(written))
    #expect(try imported.issue(number: 10)?.title == "issue 10, newer")
    #expect(try imported.issue(number: 11)?.title == "issue 11")
    #expect(try imported.issue(number: 12)?.id == 77_777)
    #expect(try imported.issues(IssueFilter(state: .all)).count == 1_200)
  }
}
