import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// Random diffs — hunks in order or not, repeated, "no newline" markers anywhere, threads
/// repeated or on lines that are gone — never give two rows one identity, and a push between
/// any two of them keeps the focus on a row that exists.
@MainActor
@Suite struct DiffModelPropertyTests {
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(max(1, bound)))
    }
  }

  static func patch(_ random: inout Generator) -> String {
    var text = ""
    var old = 1
    var new = 1
    for _ in 0..<(1 + random.next(4)) {
      // Now and then a hunk that goes back (hostile), else one after the last.
      if random.next(6) == 0 { old = max(0, old - random.next(8)) }
      if random.next(6) == 0 { new = max(0, new - random.next(8)) }
      var lines: [String] = []
      var oldCount = 0
      var newCount = 0
      for _ in 0..<(1 + random.next(8)) {
        switch random.next(4) {
        case 0:
          lines.append("-gone \(random.next(3))")
          oldCount += 1
        case 1:
          lines.append("+new \(random.next(3))")
          newCount += 1
        default:
          lines.append(" same \(random.next(3))")
          oldCount += 1
          newCount += 1
        }
        if random.next(10) == 0 { lines.append("\\ No newline at end of file") }
      }
      text +=
        "@@ -\(old),\(oldCount) +\(new),\(newCount) @@\n" + lines.joined(separator: "\n")
        + "\n"
      old += oldCount + random.next(5)
      new += newCount + random.next(5)
    }
    return text
  }

  static func diff(_ random: inout Generator, head: String) -> PullRequestDiff {
    let files = (0..<(1 + random.next(5))).map { index in
      FileDiff(
        path: "f\(random.next(6)).swift", status: "modified", additions: 1, deletions: 1,
        content: random.next(8) == 0 ? .binary : .patch(patch(&random)))
    }
    // Paths repeat at random: GitHub lists each once, so the diff keeps the first.
    var seen: Set<String> = []
    return PullRequestDiff(
      headSHA: head, files: files.filter { seen.insert($0.path).inserted },
      announcedFiles: files.count)
  }

  static func threads(_ random: inout Generator) -> [ReviewThread] {
    (0..<random.next(5)).map { _ in
      ReviewThread(comments: [
        ReviewComment(
          id: Int64(random.next(4)), reviewID: 1, author: "mona", body: "b",
          path: "f\(random.next(6)).swift", line: random.next(3) == 0 ? nil : random.next(20),
          createdAt: Date(timeIntervalSince1970: 0))
      ])
    }
  }

  @Test func rowsAreUniqueAndAPushKeepsTheFocusOnARow() throws {
    let seed: UInt64 = 0xD1FF_5EED
    print("DiffModelPropertyTests seed \(seed)")
    var random = Generator(state: seed)
    for round in 0..<300 {
      let first = DiffModel(
        diff: Self.diff(&random, head: "a"), threads: Self.threads(&random))
      for file in first.files {
        #expect(Set(file.rows).count == file.rows.count, "round \(round): \(file.diff.path)")
        #expect(file.rows.enumerated().allSatisfy { Int($1.index) == $0 })
      }
      let screen = DiffScreen(
        repository: RepositoryName(owner: "o", name: "r"), number: 1, title: "t", model: first,
        size: TerminalSize(columns: 60, rows: 12))
      for _ in 0..<random.next(30) { _ = screen.perform(.moveInList(.down)) }
      let second = DiffModel(
        diff: Self.diff(&random, head: "b"), threads: Self.threads(&random), previous: first)
      screen.show(second)
      _ = screen.render()
      if let focused = screen.focusedRow {
        #expect(second.content(of: focused) != nil, "round \(round)")
        #expect(second.file(of: focused)?.rows[Int(focused.index)] == focused, "round \(round)")
      } else {
        #expect(second.files.allSatisfy { $0.rows.isEmpty }, "round \(round)")
      }
    }
  }
}
