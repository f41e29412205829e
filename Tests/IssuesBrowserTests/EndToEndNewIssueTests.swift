import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

extension VirtualTerminal {
  fileprivate func shows(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
}

extension EndToEndTests {
  static let crashForm = """
    name: Crash
    description: The app stopped.
    labels: [bug]
    body:
      - type: input
        id: version
        attributes:
          label: Version
        validations:
          required: true
      - type: textarea
        id: logs
        attributes:
          label: Logs
    """

  /// `n` in the browser: the repository's chooser and form over the list, on the same loop; the
  /// issue filed through the outbox, its row in the list with its number; Esc files nothing.
  @Test func nFilesAnIssueFromTheRepositorysFormOverTheList() async throws {
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 21), as: acme)
    try await github.serveIssueTemplates([("crash.yml", Self.crashForm)], of: acme)
    await github.requireToken(forWrites: "test-token")
    let run = try await Run(arguments: ["acme/tracker"], github: github)
    run.read { $0.lines.first?.contains("up to date") == true }
    run.settle()
    let list = run.terminal.lines

    // Esc on the chooser: back to the list as it was, nothing filed.
    run.pty.type("n")
    run.read { $0.shows("Crash") && $0.shows("Blank issue") }
    run.pty.type("\u{1B}")
    run.read { $0.lines.last?.contains("Nothing was filed") == true }
    #expect(Array(run.terminal.lines.dropLast()) == Array(list.dropLast()))

    // The form: the required field refused empty, then filled and filed.
    run.pty.type("n")
    run.read { $0.shows("Crash") }
    run.pty.type("\r")
    run.read { $0.shows("Version") }
    run.pty.type("Crash on start")
    run.settle()
    run.pty.type("\u{13}")
    run.read { $0.shows("required") }
    #expect(await github.filedIssues.isEmpty)
    // The focus went to the field refused.
    run.pty.type("1.2")
    run.settle()
    run.pty.type("\u{13}")
    run.read { $0.lines.last?.contains("Filed #41") == true }
    #expect(await github.filedIssues == [41])
    let filed = try #require(await github.issue(number: 41, in: acme))
    #expect(filed.title == "Crash on start")
    #expect(filed.body == "### Version\n\n1.2\n\n### Logs\n\n_No response_")
    #expect(filed.labels.map(\.name) == ["bug"])
    // Its row is in the list, with the number GitHub gave it.
    run.settle()
    let row = run.terminal.lines.first { $0.contains("Crash on start") }
    #expect(row?.contains("#41") == true)
    run.quitAndExpectTheTerminalAsItWas()
  }

  /// Offline, templates never read: a blank issue, queued and shown at once as a row with no
  /// number yet, rewritten with `e` while it waits; the next session that reaches GitHub files
  /// it, once, as rewritten.
  @Test func nOfflineQueuesABlankIssueShownAtOnce() async throws {
    let acme = RepositoryName(owner: "acme", name: "tracker")
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    try await github.serve(
      synthetic: SyntheticRepository(itemCount: 40, milestoneCount: 3, seed: 21), as: acme)
    await github.requireToken(forWrites: "test-token")
    let first = try await Run(arguments: ["acme/tracker"], github: github)
    first.read { $0.lines.first?.contains("up to date") == true }
    first.quitAndExpectTheTerminalAsItWas()

    let offline = try await Run(
      arguments: ["acme/tracker", "--offline"], github: github,
      environment: ["XDG_CACHE_HOME": first.cacheDirectory.path])
    offline.read { $0.shows("12 issues") }
    offline.settle()
    offline.pty.type("n")
    offline.read { $0.shows("never read") }
    offline.pty.type("Written on a train")
    offline.settle()
    offline.pty.type("\u{13}")
    offline.read { $0.lines.last?.contains("Queued: file") == true }
    offline.settle()
    let row = offline.terminal.lines.first { $0.contains(" new  Written on a train") }
    #expect(row != nil)
    #expect(offline.terminal.lines.contains { $0.contains("new, not filed yet: Written") })
    #expect(await github.filedIssues.isEmpty)
    // Rewritten while it waits (the title erased and typed again).
    offline.pty.type("e")
    offline.read { $0.shows("new issue, not filed yet") && $0.shows("Keep the changes") }
    offline.pty.type("\u{15}")
    offline.pty.type("Written on a plane")
    offline.settle()
    offline.pty.type("\u{13}")
    offline.read { $0.lines.last?.contains("Rewritten") == true }
    offline.settle()
    #expect(offline.terminal.lines.contains { $0.contains(" new  Written on a plane") })
    offline.quitAndExpectTheTerminalAsItWas()

    let online = try await Run(
      arguments: ["acme/tracker"], github: github,
      environment: ["XDG_CACHE_HOME": first.cacheDirectory.path])
    online.read { $0.shows("#41") && $0.shows("Written on a plane") }
    online.settle()
    #expect(await github.filedIssues == [41])
    #expect(await github.issue(number: 41, in: acme)?.title == "Written on a plane")
    online.quitAndExpectTheTerminalAsItWas()
  }
}
#endif
