import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// The diff screen as a value: files as sections under pinned headers, lines numbered in both
/// files with changed words marked, threads and drafts at their lines, viewed marks, and a push
/// shown in place with the focused line kept.
@MainActor
@Suite struct DiffScreenTests {
  static let head = String(repeating: "a", count: 40)
  static let pushed = String(repeating: "b", count: 40)
  static let acme = RepositoryName(owner: "acme", name: "tracker")

  static func diff(head: String = head, extraLine: Bool = false) -> PullRequestDiff {
    let parser =
      "@@ -1,4 +1,4 @@ struct Parser {\n let input: String\n-var index = 0\n+var index = 1\n"
      + " func parse() {\n }\n"
    let grown =
      "@@ -1,4 +1,5 @@ struct Parser {\n+// Reads input.\n let input: String\n-var index = 0\n"
      + "+var index = 1\n func parse() {\n }\n"
    return PullRequestDiff(
      headSHA: head,
      files: [
        FileDiff(
          path: "Sources/Parser.swift", status: "modified", additions: extraLine ? 2 : 1,
          deletions: 1, content: .patch(extraLine ? grown : parser)),
        FileDiff(path: "logo.png", status: "added", additions: 0, deletions: 0, content: .binary),
        FileDiff(
          path: "New.swift", previousPath: "Old.swift", status: "renamed", additions: 0,
          deletions: 0, content: .noTextChanges),
        FileDiff(
          path: "Sources/Lexer.swift", status: "added", additions: 30, deletions: 0,
          content: .patch(
            "@@ -0,0 +1,30 @@\n" + (1...30).map { "+token \($0)" }.joined(separator: "\n"))),
      ], announcedFiles: 4)
  }

  static func thread(
    line: Int?, side: DraftLineComment.Side = .right, body: String, id: Int64 = 501,
    path: String = "Sources/Parser.swift"
  ) -> ReviewThread {
    ReviewThread(comments: [
      ReviewComment(
        id: id, reviewID: 50, author: "mona", body: body, path: path, line: line, side: side,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    ])
  }

  /// A thread on the base's side (`LEFT`) sits after the base's line of that number — a
  /// removed line, or context by its old number — never among the head's lines, and a thread
  /// on a deleted file's line is not outdated.
  @Test func baseSideThreadsSitOnBaseLines() throws {
    var diff = Self.diff()
    diff.files.append(
      FileDiff(
        path: "Gone.swift", status: "removed", additions: 0, deletions: 2,
        content: .patch("@@ -1,2 +0,0 @@\n-first\n-second")))
    let model = DiffModel(
      diff: diff,
      threads: [
        // Base line 2 is the removed `var index = 0`; head line 2 is the added one.
        Self.thread(line: 2, side: .left, body: "Why was it 0?"),
        Self.thread(line: 1, side: .left, body: "Keep it?", id: 502, path: "Gone.swift"),
      ])
    let parser = try #require(model.files.first)
    // Hunk, `let input` (1 1), removed (2 -), the thread, added (- 2), the rest.
    #expect(parser.rows.map(\.kind) == [.hunk, .line, .line, .thread, .line, .line, .line])
    let gone = try #require(model.files.last)
    #expect(gone.rows.map(\.kind) == [.hunk, .line, .thread, .line])
    let lines = Self.screen(model, rows: 80).render().lines
    let said = try #require(lines.firstIndex { $0.contains("💬 mona: Why was it 0?") })
    #expect(lines[said - 1].hasPrefix(" 2    -var index = 0"), "\(lines)")
    #expect(lines.contains { $0.contains("💬 mona: Keep it?") }, "\(lines)")
    #expect(!lines.contains { $0.contains("outdated") }, "\(lines)")
  }

  static func screen(_ model: DiffModel, rows: Int = 14) -> DiffScreen {
    DiffScreen(
      repository: acme, number: 7, title: "Parse faster", model: model,
      size: TerminalSize(columns: 70, rows: rows), now: { Date(timeIntervalSince1970: 0) })
  }

  @Test func filesAreSectionsWithNumberedLinesThreadsAndNotes() throws {
    let model = DiffModel(
      diff: Self.diff(), threads: [Self.thread(line: 2, body: "Why 1?")])
    let parser = try #require(model.files.first)
    // Hunk header, five lines, and the thread after new line 2 (the added one).
    #expect(parser.rows.map(\.kind) == [.hunk, .line, .line, .line, .thread, .line, .line])
    #expect(
      model.files[1].rows.map(\.kind) == [.note] && model.files[2].rows.map(\.kind) == [.note])
    #expect(model.numberWidth == 2)
    let lines = Self.screen(model).render().lines
    #expect(lines[0].contains("#7 · 4 files +31 −1 · 0/4 viewed"), "\(lines[0])")
    #expect(
      lines[1].contains("M Sources/Parser.swift") && lines[1].contains("+1 −1"), "\(lines[1])")
    #expect(lines[2].contains("@@ -1,4 +1,4 @@ struct Parser {"), "\(lines[2])")
    #expect(lines[3].hasPrefix(" 1  1  let input: String"), "\(lines[3])")
    #expect(lines[4].hasPrefix(" 2    -var index = 0"), "\(lines[4])")
    #expect(lines[5].hasPrefix("    2 +var index = 1"), "\(lines[5])")
    #expect(lines[6].contains("💬 mona: Why 1?"), "\(lines[6])")
    #expect(lines.contains { $0.contains("A binary file") })
    #expect(lines.contains { $0.contains("R Old.swift → New.swift") })
  }

  /// `z` on a thread asks to resolve it, or to unresolve a resolved one (drawn folded: one
  /// dim row said resolved); elsewhere it says where to go.
  @Test func zResolvesTheFocusedThreadAndAResolvedOneIsFolded() throws {
    var thread = Self.thread(line: 2, body: "Why 1?")
    let screen = Self.screen(DiffModel(diff: Self.diff(), threads: [thread]))
    #expect(screen.perform(.toggleResolved).isEmpty)
    #expect(screen.render().lines.last?.contains("move to one") == true)
    for _ in 0..<4 { _ = screen.perform(.moveInList(.down)) }
    #expect(
      screen.focusDescription?.contains("a thread by mona") == true,
      "\(screen.focusDescription ?? "")")
    #expect(
      screen.perform(.toggleResolved)
        == [.resolveThread(ThreadResolution(commentID: 501, change: .resolve))])
    // Resolved (read, or waiting in the queue): folded, and `z` opens it again.
    thread.isResolved = true
    screen.show(DiffModel(diff: Self.diff(), threads: [thread], previous: screen.model))
    let buffer = screen.render()
    let row = try #require(buffer.lines.firstIndex { $0.contains("✓ resolved · mona: Why 1?") })
    #expect(!buffer.lines.dropLast().contains { $0.contains("💬") })
    #expect(buffer[8, row].style == Theme.row(Theme.dim, on: Theme.focus))
    #expect(screen.focusDescription?.contains("a resolved thread by mona") == true)
    #expect(
      screen.perform(.toggleResolved)
        == [.resolveThread(ThreadResolution(commentID: 501, change: .unresolve))])
  }

  @Test func changedWordsAreMarkedWithinARewrittenLine() throws {
    let screen = Self.screen(DiffModel(diff: Self.diff()))
    let buffer = screen.render()
    // Row 4 is "-var index = 0": only "0" is marked (bold, underlined), not "var index = ".
    let row = 4
    let text = buffer.lines[row]
    let zero = try #require(text.firstIndex(of: "0"))
    let column = text.distance(from: text.startIndex, to: zero)
    #expect(buffer[column, row].style.attributes.contains(.underline))
    let v = text.distance(from: text.startIndex, to: try #require(text.firstIndex(of: "v")))
    #expect(!buffer[v, row].style.attributes.contains(.underline))
  }

  @Test func theHeaderStaysPinnedAndFilesAreJumpedTo() throws {
    let screen = Self.screen(DiffModel(diff: Self.diff()), rows: 10)
    _ = screen.perform(.nextFile)
    _ = screen.perform(.nextFile)
    _ = screen.perform(.nextFile)
    #expect(screen.focusedFileIndex == 3)
    for _ in 0..<12 { _ = screen.perform(.moveInList(.down)) }
    let lines = screen.render().lines
    // Deep in the Lexer's lines, its header is still on top.
    #expect(lines[1].contains("A Sources/Lexer.swift"), "\(lines[1])")
    #expect(lines[2...].contains { $0.contains("+token 1 ") } == false)
    _ = screen.perform(.previousFile)
    #expect(screen.focusedFileIndex == 2)
    // The file list jumps too.
    _ = screen.perform(.fileTree)
    _ = screen.handle(.key(KeyEvent(.up)))
    _ = screen.handle(.key(KeyEvent(.up)))
    _ = screen.handle(.key(KeyEvent(.enter)))
    #expect(screen.focusedFileIndex == 0 && screen.tree == nil)
  }

  @Test func viewedMarksFollowTheFilesContentAcrossPushes() throws {
    let screen = Self.screen(DiffModel(diff: Self.diff()))
    let effects = screen.perform(.toggleViewed)
    let parser = Self.diff().files[0]
    #expect(
      effects == [
        .setViewed(
          path: "Sources/Parser.swift",
          ViewedFile(headSHA: Self.head, content: parser.fingerprint))
      ])
    #expect(screen.focusedFileIndex == 1, "on to the next file")
    #expect(screen.render().lines[0].contains("1/4 viewed"))
    // A push that leaves the lexer as it was and changes the parser.
    let marks = [
      "Sources/Parser.swift": ViewedFile(headSHA: Self.head, content: parser.fingerprint),
      "Sources/Lexer.swift": ViewedFile(
        headSHA: Self.head, content: Self.diff().files[3].fingerprint),
    ]
    let after = DiffModel(
      diff: Self.diff(head: Self.pushed, extraLine: true), viewed: marks, previous: screen.model)
    #expect(after.files[0].viewed == .changedSince && after.files[3].viewed == .yes)
  }

  /// A push that adds a line above the focused one: the same line stays focused, drawn from
  /// the new version, whether it is a line of the base (its identity does not move) or one the
  /// pull request adds (found again by its text); one the push removed gives way to the
  /// nearest line that survived.
  @Test func aPushIsAStagedUpdateThatKeepsTheFocusedLine() throws {
    let screen = Self.screen(DiffModel(diff: Self.diff()))
    for _ in 0..<3 { _ = screen.perform(.moveInList(.down)) }
    #expect(screen.focusDescription?.contains("line 2, added: var index = 1") == true)
    screen.show(
      DiffModel(diff: Self.diff(head: Self.pushed, extraLine: true), previous: screen.model))
    #expect(screen.focusDescription?.contains("line 3, added: var index = 1") == true)
    #expect(screen.render().lines.last?.contains("Pushed: now at bbbbbbb") == true)
    // A line of the base, moved down by the push and back.
    _ = screen.perform(.moveInList(.first))
    _ = screen.perform(.moveInList(.down))
    _ = screen.perform(.moveInList(.down))
    #expect(screen.focusedRow.flatMap { screen.model.line(of: $0) }?.text == "let input: String")
    screen.show(DiffModel(diff: Self.diff(head: Self.head), previous: screen.model))
    #expect(screen.focusedRow.flatMap { screen.model.line(of: $0) }?.text == "let input: String")
    #expect(screen.focusDescription?.contains("line 1, unchanged") == true)
    // The added comment line, focused, then pushed away: the nearest line that survived.
    screen.show(
      DiffModel(diff: Self.diff(head: Self.pushed, extraLine: true), previous: screen.model))
    _ = screen.perform(.moveInList(.first))
    _ = screen.perform(.moveInList(.down))
    #expect(screen.focusedRow.flatMap { screen.model.line(of: $0) }?.text == "// Reads input.")
    screen.show(DiffModel(diff: Self.diff(head: Self.head), previous: screen.model))
    #expect(screen.focusedRow.flatMap { screen.model.line(of: $0) }?.text == "let input: String")
  }

  @Test func commentsGoOnLinesAndDraftsShowAtTheirLines() throws {
    let draft = PendingLineComment(
      id: 3, pullRequest: 7, commitID: Self.head,
      comment: DraftLineComment(path: "Sources/Parser.swift", line: 2, side: .left, body: "Why?"),
      draftedAt: Date(timeIntervalSince1970: 0))
    let screen = Self.screen(DiffModel(diff: Self.diff(), drafts: [draft]))
    #expect(screen.perform(.comment).isEmpty, "a hunk header takes no comment")
    _ = screen.perform(.moveInList(.down))
    #expect(
      screen.perform(.comment) == [
        .draft(
          DraftLineComment(path: "Sources/Parser.swift", line: 1, side: .right, body: ""),
          headSHA: Self.head)
      ])
    _ = screen.perform(.moveInList(.down))
    #expect(
      screen.perform(.comment) == [
        .draft(
          DraftLineComment(path: "Sources/Parser.swift", line: 2, side: .left, body: ""),
          headSHA: Self.head)
      ])
    _ = screen.perform(.moveInList(.down))
    #expect(screen.perform(.discardDraft) == [.discardDraft(3)])
    #expect(screen.render().lines[5].contains("⇡ draft on Sources/Parser.swift:L2: Why?"))
  }

  /// A comment drafted on the parser's new line 1 through line 2 of `side`.
  static func parserRange(to side: DraftLineComment.Side) -> DiffEffect {
    .draft(
      DraftLineComment(
        path: "Sources/Parser.swift", line: 2, side: side, startLine: 1, startSide: .right,
        body: ""),
      headSHA: head)
  }

  /// `V` marks where a range starts; the lines from there to the focused one (either way, in
  /// one hunk) are marked `┃` and `c` drafts one comment on all of them, from the base's side
  /// to the head's where the range spans both; a range across hunks is refused, said.
  @Test func aRangeOfLinesTakesOneComment() throws {
    let screen = Self.screen(DiffModel(diff: Self.diff()))
    _ = screen.perform(.moveInList(.down))
    #expect(screen.perform(.markRange).isEmpty)
    #expect(screen.rangeAnchor != nil)
    #expect(screen.render().lines.contains { $0.contains("Range from Sources/Parser.swift:1") })
    _ = screen.perform(.moveInList(.down))
    _ = screen.perform(.moveInList(.down))
    let marked = screen.render().lines.filter { $0.contains("┃") }
    #expect(marked.count == 3, "\(marked)")
    #expect(screen.perform(.comment) == [Self.parserRange(to: .right)])
    #expect(screen.rangeAnchor == nil, "the range is used")
    #expect(!screen.render().lines.contains { $0.contains("┃") })

    // Marked from the bottom up, starting on a removed line: base side to head side.
    _ = screen.perform(.moveInList(.up))
    #expect(screen.perform(.markRange).isEmpty)
    _ = screen.perform(.moveInList(.up))
    #expect(screen.perform(.comment) == [Self.parserRange(to: .left)])

    // V twice clears it; a range into another file is refused and kept.
    _ = screen.perform(.markRange)
    _ = screen.perform(.markRange)
    #expect(screen.rangeAnchor == nil)
    _ = screen.perform(.markRange)
    _ = screen.perform(.nextFile)
    _ = screen.perform(.nextFile)
    _ = screen.perform(.nextFile)
    #expect(screen.perform(.comment).isEmpty)
    #expect(screen.render().lines.contains { $0.contains("A range is lines of one hunk") })
    #expect(screen.rangeAnchor != nil)
  }

  /// `M` says what a merge depends on — read again from GitHub first, the cache's said as
  /// last read meanwhile — and asks how; m, s or r answers with the merge at the head shown,
  /// any other key cancels it.
  @Test func mergeAsksHowAfterSayingTheChecksAndReview() {
    let screen = Self.screen(DiffModel(diff: Self.diff()))
    screen.mergeState = "review approved, checks passing"
    #expect(screen.perform(.merge) == [.readMergeState])
    #expect(
      screen.mergePrompt?.question
        == "Merge #7 at aaaaaaa: reading its checks and review… (last read: review approved, "
        + "checks passing)")
    var lines = screen.render().lines
    #expect(lines[lines.count - 2].contains("Merge #7 at aaaaaaa: reading"), "\(lines)")
    // GitHub says otherwise now: the question says what it says.
    screen.showMergeState("review approved, checks failing", freshness: .current)
    lines = screen.render().lines
    #expect(
      lines[lines.count - 2].contains("Merge #7 at aaaaaaa: review approved, checks failing."),
      "\(lines)")
    screen.showMergeState(
      "review approved, checks failing", freshness: .asLastRead("GitHub did not answer"))
    #expect(
      screen.mergePrompt?.question.hasSuffix(
        "checks failing when last read (GitHub did not answer).") == true)
    #expect(
      lines[lines.count - 1].contains(
        "m merge commit · s squash · r rebase · any other key cancels"), "\(lines)")
    #expect(screen.handle(.key(KeyEvent(.character("s")))) == [.merge(.squash)])
    #expect(screen.mergePrompt == nil)
    _ = screen.perform(.merge)
    #expect(screen.handle(.key(KeyEvent(.character("j")))).isEmpty)
    #expect(screen.render().lines.last?.contains("Not merged.") == true)
    #expect(
      screen.handle(.key(KeyEvent(.character("M")))) == [.readMergeState],
      "M asks; it does not merge")
    #expect(screen.handle(.key(KeyEvent(.character("r")))) == [.merge(.rebase)])

    // The repository allows merge commits alone: only those are offered, others refused.
    screen.mergeMethods = [.merge]
    _ = screen.perform(.merge)
    let offered = screen.render().lines.last ?? ""
    #expect(offered.contains("m merge commit · any other key") && !offered.contains("squash"))
    #expect(screen.handle(.key(KeyEvent(.character("s")))).isEmpty)
    #expect(
      screen.render().lines.last?.contains("does not allow squash merges: not merged") == true)
  }
}
