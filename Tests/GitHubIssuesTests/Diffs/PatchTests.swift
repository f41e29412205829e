@testable import GitHubIssues
import Testing
import TrellisTestSupport

/// Patches as GitHub gives them: hunks read with every line numbered in its file, refused with
/// the place when they do not add up, and changed words found within rewritten lines.
@Suite struct PatchTests {
  /// A pull request file's `patch`, as GitHub serves it (two hunks, a line with no newline).
  static let served = """
    @@ -1,4 +1,5 @@
     import Foundation
    -let timeout = 10
    +let timeout = 30
    +let retries = 3
     
     func run() {
    @@ -20,3 +21,2 @@ func run() {
       print("done")
    -  exit(0)
     }
    \\ No newline at end of file
    """

  @Test func aServedPatchIsReadWithEveryLineNumbered() throws {
    let patch = try Patch(parsing: Self.served)
    #expect(patch.hunks.count == 2)
    let first = patch.hunks[0]
    #expect(first.header == "@@ -1,4 +1,5 @@")
    #expect(first.lines.map(\.kind) == [.context, .removed, .added, .added, .context, .context])
    #expect(first.lines.map(\.oldNumber) == [1, 2, nil, nil, 3, 4])
    #expect(first.lines.map(\.newNumber) == [1, nil, 2, 3, 4, 5])
    // A context line some tools trim to nothing is an empty context line.
    #expect(first.lines[4].text == "")
    let second = patch.hunks[1]
    #expect(second.section == "func run() {")
    #expect(second.lines.map(\.oldNumber) == [20, 21, 22, nil])
    #expect(second.lines.map(\.newNumber) == [21, nil, 22, nil])
    #expect(second.lines.last?.kind == .noNewline)
    #expect(patch.changeCount == (additions: 2, deletions: 2))
    // Written back, it reads the same.
    #expect(try Patch(parsing: patch.text) == patch)
    // What comes before the first hunk (a file header) is not a line.
    let withHeader = "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n" + Self.served
    #expect(try Patch(parsing: withHeader) == patch)
  }

  /// A line comment's `diff_hunk` ends at the line commented on, short of its header's counts.
  @Test func aCommentsHunkMayEndAtItsLine() throws {
    let hunk = "@@ -10,6 +10,7 @@ struct A {\n   let a: Int\n+  let b: Int"
    #expect(throws: PatchError.self) { try Patch(parsing: hunk) }
    let patch = try Patch(parsing: hunk, lastHunkMayEndEarly: true)
    #expect(patch.hunks.first?.lines.last?.newNumber == 11)
  }

  @Test(arguments: [
    ("@@ -1,2 +1,2 @@\n a\n", 3, "ends 1 old and 1 new lines short"),
    ("@@ -1 +1 @@\n a\n b\n", 3, "past the end of its hunk"),
    ("@@ -1 +1 @@\n-a\n-b\n+c\n", 3, "removed line past the end"),
    ("@@ -1,a +1 @@\n", 1, "is not a hunk header"),
    ("@@ -1,+2 +1 @@\n", 1, "is not a hunk header"),
    ("@@ -1 +1,99999999999 @@\n", 1, "is not a hunk header"),
    ("@@ -1 +1 @@\n*a\n", 2, "is no diff line"),
    ("@@ -1 @@\n", 1, "is not a hunk header"),
  ])
  func aPatchThatDoesNotAddUpIsRefusedWithItsPlace(text: String, line: Int, says: String) {
    #expect {
      try Patch(parsing: text)
    } throws: { error in
      guard let error = error as? PatchError else { return false }
      return error.line == line && error.message.contains(says)
    }
  }

  /// Random files changed at random, written as one hunk: read back, the context and removed
  /// lines are the old file, the context and added lines the new one, each numbered from 1.
  @Test(arguments: [21, 22, 23] as [UInt64])
  func randomPatchesReadBackAsTheirFiles(seed: UInt64) throws {
    print("PatchTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let old = (0..<Int.random(in: 0...12, using: &random)).map { _ in
        ["a", "b", "c", "", "x y"].randomElement(using: &random)!
      }
      var new = old
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        if !new.isEmpty, Bool.random(using: &random) {
          new.remove(at: Int.random(in: 0..<new.count, using: &random))
        } else {
          new.insert(
            "n\(Int.random(in: 0...9, using: &random))",
            at: Int.random(in: 0...new.count, using: &random))
        }
      }
      let text = Self.unifiedDiff(old: old, new: new)
      let patch = try Patch(parsing: text)
      let lines = patch.hunks.flatMap(\.lines)
      #expect(lines.filter { $0.kind != .added }.map(\.text) == old, "\(text)")
      #expect(lines.filter { $0.kind != .removed }.map(\.text) == new, "\(text)")
      #expect(
        lines.compactMap(\.oldNumber) == Array(1...max(1, old.count)).prefix(old.count).map { $0 })
      #expect(
        lines.compactMap(\.newNumber) == Array(1...max(1, new.count)).prefix(new.count).map { $0 })
      #expect(try Patch(parsing: patch.text) == patch)
    }
  }

  /// Numbering a patch without reading its lines agrees with parsing it — hunks, kinds,
  /// numbers, and which patches are refused — on random patches, broken ones among them
  /// (lines dropped, headers miscounted, stray lines, CRLF endings, no final newline).
  @Test(arguments: [41, 42] as [UInt64])
  func numberingAgreesWithParsing(seed: UInt64) throws {
    print("Patch numbering seed \(seed)")
    var random = SplitMix64(seed: seed)
    var refused = 0
    for _ in 0..<500 {
      let old = (0..<Int.random(in: 0...10, using: &random)).map { _ in
        ["a", "b", "", "x y"].randomElement(using: &random)!
      }
      var new = old
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        if !new.isEmpty, Bool.random(using: &random) {
          new.remove(at: Int.random(in: 0..<new.count, using: &random))
        } else {
          new.insert("n", at: Int.random(in: 0...new.count, using: &random))
        }
      }
      var lines = Self.unifiedDiff(old: old, new: new).split(
        separator: "\n", omittingEmptySubsequences: false
      ).map(String.init)
      switch Int.random(in: 0..<8, using: &random) {
      case 0 where lines.count > 2:
        lines.remove(at: Int.random(in: 1..<(lines.count - 1), using: &random))
      case 1: lines.insert("?stray", at: Int.random(in: 1...lines.count, using: &random))
      case 2: lines.insert("\\ No newline at end of file", at: lines.count - 1)
      case 3: lines = lines.map { $0.isEmpty ? $0 : $0 + "\r" }
      case 4: lines.insert("@@ -1 +1 @@", at: 0)
      case 5: lines.removeLast()
      default: break
      }
      let text = lines.joined(separator: "\n")
      var hunks: [Hunk] = []
      var numbered: [(DiffLine.Kind, Int?, Int?)] = []
      let reads = Patch.number(
        text, hunk: { hunks.append($0) }, line: { numbered.append(($0, $1, $2)) })
      let parsed = try? Patch(parsing: text)
      #expect(reads == (parsed != nil), "\(text.debugDescription)")
      guard let parsed, reads else {
        refused += 1
        continue
      }
      #expect(hunks.map(\.header) == parsed.hunks.map(\.header))
      let lines2 = parsed.hunks.flatMap(\.lines)
      #expect(numbered.map(\.0) == lines2.map(\.kind))
      #expect(numbered.map(\.1) == lines2.map(\.oldNumber))
      #expect(numbered.map(\.2) == lines2.map(\.newNumber))
    }
    #expect(refused > 20, "broken patches were tried")
  }

  /// One hunk of the whole file: the lines both share (a longest common subsequence) as
  /// context, the rest removed then added, as diff writes them.
  static func unifiedDiff(old: [String], new: [String]) -> String {
    var table = Array(
      repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        table[i][j] =
          old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var lines: [String] = []
    var (i, j) = (0, 0)
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        lines.append(" " + old[i])
        (i, j) = (i + 1, j + 1)
      } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
        lines.append("-" + old[i])
        i += 1
      } else {
        lines.append("+" + new[j])
        j += 1
      }
    }
    let header = "@@ -\(old.isEmpty ? 0 : 1),\(old.count) +\(new.isEmpty ? 0 : 1),\(new.count) @@"
    return ([header] + lines).joined(separator: "\n") + "\n"
  }

  @Test func changedWordsAreWhatLiesBetweenWhatTheLinesShare() throws {
    func changed(_ old: String, _ new: String) -> (String, String)? {
      ChangedWords.ranges(old: old, new: new).map { (String(old[$0.old]), String(new[$0.new])) }
    }
    #expect(changed("let timeout = 10", "let timeout = 30")! == ("10", "30"))
    #expect(changed("foo(bar, baz)", "foo(bar, qux, baz)")! == ("", "qux, "))
    #expect(changed("same", "same") == nil)
    #expect(changed("", "new line")! == ("", "new line"))
    #expect(changed("한글 단어", "한글 문장")! == ("단어", "문장"))

    let hunk = try #require(try Patch(parsing: Self.served).hunks.first)
    // One removed line then two added: not a rewrite, nothing marked within.
    #expect(ChangedWords.inHunk(hunk).isEmpty)
    let rewrite = try #require(
      try Patch(
        parsing: "@@ -1,2 +1,2 @@\n-let a = 1\n-let b = 2\n+let a = 10\n+let b = 2 // kept\n"
      )
      .hunks.first)
    let marks = ChangedWords.inHunk(rewrite)
    #expect(marks.keys.sorted() == [0, 1, 2, 3])
    #expect(marks[2].map { String(rewrite.lines[2].text[$0]) } == "10")
  }

  /// Random pairs of lines: before and after the marked parts, the two lines are the same.
  @Test(arguments: [31, 32] as [UInt64])
  func changedWordsLeaveTheSameTextAroundThem(seed: UInt64) {
    print("ChangedWords seed \(seed)")
    var random = SplitMix64(seed: seed)
    let words = ["a", "bb", " ", "  ", "(", ")", ",", "é", "👍", "x_1"]
    for _ in 0..<2_000 {
      let old = (0..<Int.random(in: 0...8, using: &random)).map { _ in
        words.randomElement(using: &random)!
      }.joined()
      let new = (0..<Int.random(in: 0...8, using: &random)).map { _ in
        words.randomElement(using: &random)!
      }.joined()
      guard let ranges = ChangedWords.ranges(old: old, new: new) else {
        #expect(old == new)
        continue
      }
      #expect(old[..<ranges.old.lowerBound] == new[..<ranges.new.lowerBound], "\(old) | \(new)")
      #expect(old[ranges.old.upperBound...] == new[ranges.new.upperBound...], "\(old) | \(new)")
    }
  }
}
