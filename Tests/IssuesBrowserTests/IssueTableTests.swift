import Foundation
import GitHubIssues
import IssuesBrowser
@testable import issues
import Testing
import TrellisTerminal
import TrellisTestSupport

@Suite struct IssueTableTests {
  private func issues() throws -> ([CachedIssue], [Int: GitHubMilestone]) {
    let cache = try IssueCache()
    try cache.apply(BundledDataset.load())
    let milestones = Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    return (try cache.issues(IssueFilter(state: .all)), milestones)
  }

  /// Property: at any width from 50 to 200 columns, every line fits and the columns line up.
  @Test func everyLineFitsTheTerminal() throws {
    let (issues, milestones) = try issues()
    let seed: UInt64 = 11
    var rng = SplitMix64(seed: seed)
    for _ in 0..<40 {
      let width = Int.random(in: 50...200, using: &rng)
      let table = IssueTable.table(issues, milestones: milestones, width: width, now: Date())
      let lines = table.split(separator: "\n").map(String.init)
      #expect(lines.count == issues.count + 1)
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "seed \(seed), width \(width)")
      #expect(lines[0].hasPrefix("NUMBER  TITLE"))
      // The title column starts at the same display column on every line.
      let titleColumn = DisplayWidth.of(String(lines[0].prefix { $0 != "T" }))
      #expect(
        lines.dropFirst().allSatisfy { line in
          DisplayWidth.of(String(line.prefix(titleColumn))) == titleColumn
        })
    }
  }

  @Test func tabSeparatedHasOneLinePerIssueInGhsColumns() throws {
    let (issues, _) = try issues()
    let tsv = IssueTable.tabSeparated(issues)
    let lines = tsv.split(separator: "\n")
    #expect(lines.count == issues.count)
    for (line, issue) in zip(lines, issues) {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      // gh issue list, piped: number, state, title, labels, updated (RFC 3339, UTC).
      #expect(fields.count == 5)
      #expect(fields[0] == String(issue.number))
      #expect(fields[1] == (issue.state == .open ? "OPEN" : "CLOSED"))
      #expect(fields[3] == issue.labels.joined(separator: ", "))
      #expect(fields[4].hasSuffix("Z") && fields[4].count == 20, "\(fields[4])")
    }
  }

  @Test func theProgressBarFitsItsWidth() {
    let line = ProgressLine.line(
      SyncProgress(phase: .issues, pages: 3, items: 300), expected: 600, width: 60)
    #expect(DisplayWidth.of(line) <= 60)
    #expect(line.contains("3 pages · 300 items"))
  }
}

/// Titles are written by anyone: no control character from one ever reaches the terminal or
/// splits a record.
@Suite struct HostileTitleTests {
  /// Every C0 and C1 control, DEL, an OSC 52 clipboard write, an OSC 8 link and a bidi override.
  static let hostileTitle: String = {
    var title = "Title "
    for value in UInt8(0)...0x1F { title.unicodeScalars.append(Unicode.Scalar(value)) }
    title += "\u{7F}"
    for value in UInt8(0x80)...0x9F { title.unicodeScalars.append(Unicode.Scalar(value)) }
    title +=
      " \u{1B}]52;c;aGVsbG8=\u{07} \u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\"
    title += " \u{202E}desrever end"
    return title
  }()

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x202E
  }

  private func issue() throws -> (CachedIssue, [Int: GitHubMilestone]) {
    let cache = try IssueCache()
    let milestone = GitHubMilestone(id: 9, number: 1, title: "v1\u{1B}[2J", state: .open)
    try cache.apply(
      CacheUpdate(
        issues: [
          GitHubIssue(
            id: 1, number: 1, title: Self.hostileTitle, state: .open,
            user: GitHubUser(login: "mallory\u{07}", id: 2),
            labels: [GitHubLabel(name: "bug\n\tfix")], milestone: milestone,
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        ], milestones: [milestone]))
    let milestones = Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    return (try #require(try cache.issues(IssueFilter(state: .all)).first), milestones)
  }

  @Test func theTableShowsControlsAndInterpretsNone() throws {
    let (issue, milestones) = try issue()
    let table = IssueTable.table([issue], milestones: milestones, width: 400, now: Date())
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3)  // header, the issue, and the final line feed
    #expect(!table.unicodeScalars.contains { $0 != "\n" && Self.isControl($0) })
    #expect(table.contains("␛]52;c;aGVsbG8=␇"))
  }

  @Test func tabSeparatedValuesKeepOneRecordPerLine() throws {
    let (issue, _) = try issue()
    let tsv = IssueTable.tabSeparated([issue])
    #expect(tsv.split(separator: "\n").count == 1)
    let fields = tsv.dropLast().split(separator: "\t", omittingEmptySubsequences: false)
    #expect(fields.count == 5)
    #expect(!fields.joined().unicodeScalars.contains { Self.isControl($0) })
  }

  @Test(arguments: [true, false]) func jsonEscapesInsteadOfShowing(pretty: Bool) throws {
    let (issue, milestones) = try issue()
    var writer = IssueJSON.ArrayWriter(pretty: pretty)
    let json =
      writer.element(
        IssueJSON.object(
          issue, fields: [.title, .number],
          context: IssueJSON.Context(milestones: milestones, labels: [:]))) + writer.end()
    #expect(!json.unicodeScalars.contains { $0 != "\n" && Self.isControl($0) })
    let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
    // All of it, as GitHub sent it, a NUL included (escaped in the JSON, never shown raw).
    #expect(decoded?.first?["title"] as? String == Self.hostileTitle)
  }

  /// gh's shapes: `author` with the node id, `is_bot`, `login` and `name` (a bot as `app/NAME`),
  /// assignees and labels with their node ids, comments with theirs; from what a sync stored.
  @Test func jsonAccountsLabelsAndCommentsAsGhShapesThem() throws {
    let json = Data(
      #"""
      [{"id": 1, "number": 7, "title": "t", "state": "open", "comments": 1,
        "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-02T00:00:00Z",
        "user": {"login": "octo", "id": 5, "node_id": "MDQ6VXNlcjU=", "type": "User"},
        "assignees": [{"login": "hubot", "id": 6, "node_id": "MDQ6VXNlcjY="}],
        "labels": [{"id": 9, "node_id": "LA_kwDO", "name": "bug", "color": "d73a4a",
          "description": "Broken"}]},
       {"id": 2, "number": 8, "title": "u", "state": "open", "comments": 0,
        "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-02T00:00:00Z",
        "user": {"login": "dependabot[bot]", "id": 49699333, "node_id": "MDM6Qm90", "type": "Bot"}}]
      """#.utf8)
    let decoded = try GitHubJSON.decoder.decode([GitHubIssue].self, from: json)
    let cache = try IssueCache()
    try cache.apply(CacheUpdate(issues: decoded, isComplete: true, labels: decoded[0].labels))
    let comment = try GitHubJSON.decoder.decode(
      GitHubComment.self,
      from: Data(
        #"""
        {"id": 3, "node_id": "IC_kwDO", "body": "hi", "created_at": "2024-01-03T00:00:00Z",
         "updated_at": "2024-01-03T00:00:00Z", "user": {"login": "octo", "id": 5}}
        """#.utf8))
    try cache.writeComments([comment], of: 7, completeAsOf: nil)
    let labels = Dictionary(try cache.labels().map { ($0.name, $0) }) { first, _ in first }
    let context = IssueJSON.Context(milestones: [:], labels: labels)
    let issues = Dictionary(
      try cache.issues(IssueFilter(state: .all)).map { ($0.number, $0) }
    ) { first, _ in first }
    let seven = try #require(issues[7])
    #expect(
      IssueJSON.value(of: .author, seven, context: context)
        == .object([
          "id": .string("MDQ6VXNlcjU="), "is_bot": .bool(false), "login": .string("octo"),
          "name": .string(""),
        ]))
    #expect(
      IssueJSON.value(of: .assignees, seven, context: context)
        == .array([
          .object(["id": .string("MDQ6VXNlcjY="), "login": .string("hubot"), "name": .string("")])
        ]))
    #expect(
      IssueJSON.value(of: .labels, seven, context: context)
        == .array([
          .object([
            "id": .string("LA_kwDO"), "name": .string("bug"), "description": .string("Broken"),
            "color": .string("d73a4a"),
          ])
        ]))
    #expect(
      IssueJSON.value(of: .author, try #require(issues[8]), context: context)
        == .object(["is_bot": .bool(true), "login": .string("app/dependabot")]))
    let cached = try #require(try cache.comments(of: 7).first)
    guard case .object(let members) = IssueJSON.comment(cached, viewer: "OCTO") else {
      Issue.record("an object")
      return
    }
    #expect(members["id"] == .string("IC_kwDO"))
    // In gh's order (its struct's fields); an empty URL left out, as gh's `omitempty` does.
    #expect(
      members.members.map(\.key) == [
        "id", "author", "authorAssociation", "body", "createdAt", "includesCreatedEdit",
        "isMinimized", "minimizedReason", "reactionGroups", "viewerDidAuthor",
      ])
    #expect(members["viewerDidAuthor"] == .bool(true))
    #expect(members["isMinimized"] == .bool(false) && members["minimizedReason"] == .string(""))
  }

  /// The bytes gh writes: a map's keys sorted, a struct's in field order, `"key": value` and
  /// two spaces a level for a terminal, one line for a pipe, and no escaped slash.
  @Test func jsonIsWrittenByteForByteAsGhWritesIt() {
    let value = IssueJSON.Value.object(
      IssueJSON.Object([
        (
          "labels",
          .array([
            .object([
              "id": .string("LA_1"), "name": .string("bug"), "description": .string(""),
              "color": .string("d73a4a"),
            ])
          ])
        ),
        (
          "milestone",
          .object([
            "number": .int(2), "title": .string("1.0"), "description": .string(""),
            "dueOn": .null,
          ])
        ),
        ("title", .string("a \"b\" \\ c\u{1B}[31m\u{85}")),
        ("url", .string("https://github.com/o/r/issues/1")),
        ("closed", .bool(false)), ("assignees", .array([])),
      ]).sortedByKey())
    #expect(
      IssueJSON.single(value, pretty: false)
        == #"{"assignees":[],"closed":false,"labels":[{"id":"LA_1","name":"bug","description":"","color":"d73a4a"}],"milestone":{"number":2,"title":"1.0","description":"","dueOn":null},"title":"a \"b\" \\ c\u001b[31m\u0085","url":"https://github.com/o/r/issues/1"}"#
        + "\n")
    #expect(
      IssueJSON.single(.object(["number": .int(1), "labels": .array([.int(1)])]), pretty: true)
        == """
        {
          "number": 1,
          "labels": [
            1
          ]
        }

        """)
  }
}
