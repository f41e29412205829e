import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

extension EndToEndTests {
  /// The browser in a real terminal acting on a local GitHub that keeps what it is told: a
  /// close lands, a refused one comes back with the reason, and a comment is written in the
  /// editor the terminal is lent to.
  @Test func theBrowserClosesAnIssueTakesBackARefusalAndComments() async throws {
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 21), as: acme)
    await github.requireToken(forWrites: "test-token")
    let state = FileManager.default.temporaryDirectory.appendingPathComponent(
      "issues-state-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    let editor = state.appendingPathComponent("editor.sh")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    try "#!/bin/sh\nprintf 'Written from the browser.' > \"$1\"\n".write(
      to: editor, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
    let run = try await Run(
      arguments: ["acme/tracker"], github: github,
      environment: ["XDG_STATE_HOME": state.path, "VISUAL": editor.path])
    run.read { $0.lines.first?.contains("up to date") == true }
    run.settle()

    // Close the focused issue: it leaves the open list, and GitHub has it closed.
    run.pty.type("x")
    run.read { $0.lines.last?.contains("Closed #") == true }
    let message = try #require(run.terminal.lines.last)
    let closed = try #require(Int(message.split(separator: "#")[1].prefix { $0.isNumber }))
    #expect(await github.issue(number: closed, in: acme)?.state == .closed)
    #expect(!run.terminal.lines.dropLast().contains { $0.contains("#\(closed) ") })

    // Refused (a token without the scope): shown, then taken back with the reason.
    for number in 1...40 {
      await github.inject(
        .missingScope(has: "read:org", accepted: "repo"),
        path: "/repos/acme/tracker/issues/\(number)", method: "PATCH")
    }
    run.settle()
    let before = run.terminal.lines
    run.pty.type("x")
    run.read { $0.lines.last?.contains("Could not close") == true }
    run.settle()
    #expect(run.terminal.lines.last?.contains("`repo` scope") == true)
    #expect(Array(run.terminal.lines.dropLast()) == Array(before.dropLast()))
    await github.clearFaults()

    // Comment: the editor gets the terminal, then the browser comes back and posts it.
    run.pty.type("C")
    run.read { $0.lines.last?.contains("Commented on #") == true }
    #expect(run.terminal.isAlternateScreen)
    let said = try #require(run.terminal.lines.last)
    let commented = try #require(Int(said.split(separator: "#")[1].prefix { $0.isNumber }))
    #expect(
      await github.commentBodies(of: commented, in: acme) == ["Written from the browser."])
    run.quitAndExpectTheTerminalAsItWas()
  }
}
#endif
