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

  /// A form GitHub refuses (422) keeps what was typed: the next `n` opens it filled, every
  /// answer in its field, and files it; `e` on a new issue waiting to be filed opens what will
  /// be filed — the form's answers, not an empty body — and a change of title keeps them.
  @Test func aRefusedFormReopensFilledAndARewriteKeepsItsAnswers() async throws {
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

    func fill(title: String, version: String) {
      run.pty.type("n")
      run.read { $0.shows("Crash") }
      run.pty.type("\r")
      run.read { $0.shows("Version") }
      run.pty.type(title)
      run.settle()
      run.pty.type("\t")
      run.pty.type(version)
      run.settle()
    }
    await github.inject(.validation, path: "/repos/acme/tracker/issues", method: "POST")
    fill(title: "Crash on start", version: "1.2")
    run.pty.type("\u{13}")
    run.read { $0.lines.last?.contains("Not sent, kept as a draft (n opens it filled)") == true }
    #expect(await github.filedIssues.isEmpty)
    // The next `n` opens the draft as it was left, every answer in its field.
    run.pty.type("n")
    run.read { $0.shows("Your draft") }
    #expect(run.terminal.lines.contains { $0.contains("Crash on start") })
    #expect(run.terminal.lines.contains { $0.contains("1.2") })
    run.pty.type("\u{13}")
    run.read { $0.lines.last?.contains("Filed #41") == true }
    let filed = try #require(await github.issue(number: 41, in: acme))
    #expect(filed.title == "Crash on start")
    #expect(filed.body == "### Version\n\n1.2\n\n### Logs\n\n_No response_")
    // Filed: the draft is gone, the next `n` opens the chooser.
    run.pty.type("n")
    run.read { $0.shows("Blank issue") }
    #expect(!run.terminal.lines.contains { $0.contains("Your draft") })
    run.pty.type("\u{1B}")
    run.read { $0.lines.last?.contains("Nothing was filed") == true }
    run.quitAndExpectTheTerminalAsItWas()

    // Offline: queued; `e` opens the form's answers, not an empty body.
    let offline = try await Run(
      arguments: ["acme/tracker", "--offline"], github: github,
      environment: ["XDG_CACHE_HOME": run.cacheDirectory.path])
    offline.read { $0.shows("issues") }
    offline.settle()
    offline.pty.type("n")
    offline.read { $0.shows("Crash") }
    offline.pty.type("\r")
    offline.read { $0.shows("Version") }
    offline.pty.type("Crash on exit")
    offline.settle()
    offline.pty.type("\t")
    offline.pty.type("2.0")
    offline.settle()
    offline.pty.type("\u{13}")
    offline.read { $0.lines.last?.contains("Queued: file") == true }
    offline.settle()
    offline.pty.type("e")
    offline.read { $0.shows("Keep the changes") }
    #expect(offline.terminal.lines.contains { $0.contains("2.0") })
    offline.pty.type("\u{15}")
    offline.pty.type("Crash on quit")
    offline.settle()
    offline.pty.type("\u{13}")
    offline.read { $0.lines.last?.contains("Rewritten") == true }
    offline.quitAndExpectTheTerminalAsItWas()
    let cache = try IssueCache(
      path: IssueCache.defaultURL(
        for: acme, host: await github.host,
        environment: ["XDG_CACHE_HOME": run.cacheDirectory.path]
      ).path)
    let waiting = try cache.queuedActions().compactMap { action in
      if case .create(let issue) = action.operation { issue } else { nil }
    }
    #expect(waiting.map(\.title) == ["Crash on quit"])
    #expect(waiting.first?.body == "### Version\n\n2.0\n\n### Logs\n\n_No response_")
  }
}
#endif
