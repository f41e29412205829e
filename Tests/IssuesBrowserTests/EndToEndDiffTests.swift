import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

extension EndToEndTests {
  /// `d` on a pull request in a real terminal: its diff over the list, files under pinned
  /// headers with numbered lines; `c` drafts a comment on the focused line in the editor, `C`
  /// submits the review with it — one review with one line comment on GitHub — and `q` comes
  /// back to the list; the terminal is left as it was.
  @Test func dShowsThePullRequestsDiffAndReviewsItFromTheEditor() async throws {
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 21), as: acme)
    await github.requireToken(forWrites: "test-token")
    let files = [
      PullRequestFile(
        path: "Sources/Parser.swift", status: "modified", additions: 1, deletions: 1,
        patch: "@@ -1,3 +1,3 @@\n let input: String\n-var index = 0\n+var index = 1\n }"),
      PullRequestFile(path: "logo.png", status: "added", additions: 0, deletions: 0, patch: nil),
    ]
    var pulls: [Int] = []
    for number in 1...40 where await github.issue(number: number, in: acme)?.isPullRequest == true {
      pulls.append(number)
      await github.servePullRequestFiles(
        files, ofPullRequest: number, in: acme, head: String(repeating: "c", count: 40),
        binary: ["logo.png"])
    }
    let state = FileManager.default.temporaryDirectory.appendingPathComponent(
      "issues-state-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    let editor = state.appendingPathComponent("editor.sh")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    try "#!/bin/sh\nprintf 'Written in the diff.' > \"$1\"\n".write(
      to: editor, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
    let run = try await Run(
      arguments: ["acme/tracker"], github: github,
      environment: ["XDG_STATE_HOME": state.path, "VISUAL": editor.path])
    run.read { $0.lines.first?.contains("up to date") == true }
    run.settle()
    // Pull requests shown; down the list until `d` finds one.
    run.pty.type("p")
    run.settle()
    var opened = false
    for _ in 0..<40 where !opened {
      let said = run.terminal.lines.last
      run.pty.type("d")
      // An issue says so at once (its own number: a new message); a pull request's diff is
      // read, then shown.
      run.read(seconds: 3) {
        ($0.lines.last != said && $0.lines.last?.contains("is an issue") == true)
          || $0.lines.last?.contains("Reading the diff") == true
          || $0.lines.first?.contains("files +") == true
      }
      if run.terminal.lines.last?.contains("Reading the diff") == true {
        run.read { $0.lines.first?.contains("files +") == true }
      }
      opened = run.terminal.lines.first?.contains("files +") == true
      if !opened {
        run.pty.type("j")
        run.settle(quiet: 0.1)
      }
    }
    try #require(opened, "\(run.terminal.lines.joined(separator: "\n"))")
    let number = try #require(
      Int(run.terminal.lines[0].split(separator: "#")[1].prefix { $0.isNumber }))
    #expect(pulls.contains(number))
    run.read { $0.lines.contains { $0.contains("A binary file") } }
    #expect(
      run.terminal.lines[0].contains("2 files +1 −1 · 0/2 viewed"), "\(run.terminal.lines[0])")
    #expect(run.terminal.lines[1].contains("M Sources/Parser.swift"), "\(run.terminal.lines[1])")
    #expect(
      run.terminal.lines.contains { $0.contains("2   -var index = 0") },
      "\(run.terminal.lines.joined(separator: "\n"))")

    // Down to the added line; a comment drafted on it in the editor.
    for _ in 0..<3 { run.pty.type("j") }
    run.settle()
    run.pty.type("c")
    run.read { $0.lines.last?.contains("Drafted on Sources/Parser.swift:2") == true }
    #expect(
      run.terminal.lines.last?.contains("Drafted on") == true,
      "\(run.terminal.lines.joined(separator: "\n"))")
    run.read { $0.lines.contains { $0.contains("⇡ draft on Sources/Parser.swift:2") } }
    // The review submitted with it: one write, one review, one line comment.
    run.pty.type("C")
    run.read { $0.lines.last?.contains("Reviewed #\(number) (comment) with 1 comment") == true }
    let reviews = await github.submittedReviews(ofPullRequest: number, in: acme)
    #expect(reviews.count == 1, "\(run.terminal.lines.joined(separator: "\n"))")
    #expect(reviews.first?.body == "Written in the diff.")
    #expect(reviews.first?.comments.map(\.line) == [2])
    // Back to the list, then out.
    run.pty.type("q")
    run.read { $0.lines.first?.contains("files +") == false }
    run.quitAndExpectTheTerminalAsItWas()
  }
}
#endif
