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

  /// The network lost mid-session: a close is queued and shown at once (the row marked, the
  /// title counting it); the network back, a refresh sends it — once.
  @Test func aCloseWithoutTheNetworkIsQueuedShownAndSentOnceItIsBack() async throws {
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 21), as: acme)
    await github.requireToken(forWrites: "test-token")
    let run = try await Run(arguments: ["acme/tracker", "--timeout", "2"], github: github)
    run.read { $0.lines.first?.contains("up to date") == true }
    run.settle()
    await github.setReachable(false)
    run.pty.type("x")
    run.read { $0.lines.last?.contains("Queued: close #") == true }
    let message = try #require(run.terminal.lines.last)
    let number = try #require(Int(message.split(separator: "#")[1].prefix { $0.isNumber }))
    run.read { $0.lines.first?.contains("⇡ 1 queued") == true }
    #expect(await github.issue(number: number, in: acme)?.state == .open)
    // Shown closed at once: it left the open list.
    #expect(!run.terminal.lines.dropLast().contains { $0.contains("#\(number) ") })
    await github.setReachable(true)
    run.pty.type("r")
    run.read {
      !($0.lines.first?.contains("queued") ?? true)
        && $0.lines.first?.contains("up to date") == true
    }
    #expect(await github.issue(number: number, in: acme)?.state == .closed)
    #expect(
      await github.appliedWrites.filter { $0.path == "/repos/acme/tracker/issues/\(number)" }
        .count == 1)
    run.quitAndExpectTheTerminalAsItWas()
  }

  /// The focus stays on the issue acted on: moved to another milestone (another section of the
  /// list), then refused with 422 and put back, the next key acts on the same issue.
  @Test func theFocusStaysOnAnIssueMovedThenPutBack() async throws {
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 60, milestoneCount: 4, seed: 5), as: acme)
    let run = try await Run(arguments: ["acme/tracker"], github: github)
    run.read { $0.lines.first?.contains("up to date") == true }
    run.settle()
    run.pty.type("jjj")
    run.settle()
    // Which issue is focused: the milestone prompt names it.
    run.pty.type("m")
    run.read { $0.lines.last?.contains("move #") == true }
    let prompt = try #require(run.terminal.lines.last)
    let number = try #require(Int(prompt.split(separator: "#")[1].prefix { $0.isNumber }))
    for other in 1...60 {
      await github.inject(
        .validation, path: "/repos/acme/tracker/issues/\(other)", method: "PATCH")
    }
    run.pty.type("\u{1B}[C")
    run.settle()
    run.pty.type("\r")
    run.read { $0.lines.last?.contains("Could not move #\(number)") == true }
    run.settle()
    // Still on it: the prompt names the same issue.
    run.pty.type("m")
    run.read { $0.lines.last?.contains("move #") == true }
    #expect(run.terminal.lines.last?.contains("move #\(number) ") == true)
    run.pty.type("\u{1B}")
    run.settle()
    await github.clearFaults()

    // A close whose connection drops after GitHub applied it: the issue is read again, found
    // closed (landed: not sent again), and leaves the open list; the status line says where the
    // focus went.
    for other in 1...60 {
      await github.inject(
        .dropConnection, path: "/repos/acme/tracker/issues/\(other)", method: "PATCH")
    }
    run.pty.type("x")
    run.read { $0.lines.last?.contains("Closed #\(number)") == true }
    run.settle()
    #expect(await github.issue(number: number, in: acme)?.state == .closed)
    #expect(
      await github.appliedWrites.filter { $0.path == "/repos/acme/tracker/issues/\(number)" }
        .count == 1)
    #expect(!run.terminal.lines.dropLast().contains { $0.contains("#\(number) ") })
    // The focus is on a listed issue (its neighbour), not on one hidden from view.
    run.pty.type("m")
    run.read { $0.lines.last?.contains("move #") == true }
    let prompt2 = try #require(run.terminal.lines.last)
    let neighbour = try #require(Int(prompt2.split(separator: "#")[1].prefix { $0.isNumber }))
    #expect(neighbour != number)
    #expect(run.terminal.lines.dropLast().contains { $0.contains("#\(neighbour) ") })
    run.pty.type("\u{1B}")
    run.settle()
    run.quitAndExpectTheTerminalAsItWas()
  }
}
#endif
