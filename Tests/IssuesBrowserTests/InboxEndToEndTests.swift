import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

extension EndToEndTests {
  /// The inbox in a real terminal: triage leaves the list in the same key press and reaches
  /// GitHub once; a new thread appears within a poll interval without a key press.
  @Test func theInboxTriagesAtOnceAndShowsANewThreadWithinAPollInterval() async throws {
    let github = try await LocalGitHub.start()
    defer { Task { await github.stop() } }
    let start = Date().addingTimeInterval(-3_600)
    for index in 1...5 {
      await github.addNotification(
        NotificationThread(
          id: "\(700 + index)", repository: "acme/tracker", number: index,
          isPullRequest: index % 2 == 0, title: "Inbox thread \(index)",
          reason: index == 1 ? "review_requested" : "mention",
          updatedAt: start.addingTimeInterval(Double(index) * 60)))
    }
    await github.setPollInterval(1)
    let config = FileManager.default.temporaryDirectory.appendingPathComponent(
      "issues-inbox-config-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: config) }
    let run = try await Run(
      arguments: ["inbox"], github: github, environment: ["XDG_CONFIG_HOME": config.path])
    run.read { $0.lines.first?.contains("5 unread") == true }
    #expect(run.terminal.lines[2].contains("Inbox thread 5"), "newest first")
    // Done: gone from the list at once, then from GitHub, once.
    run.pty.type("d")
    run.read { $0.lines.first?.contains("4 unread") == true }
    #expect(!run.terminal.lines.contains { $0.contains("Inbox thread 5") })
    var waited = 0
    while await github.notificationThreads()["705"] != nil, waited < 100 {
      try await Task.sleep(for: .milliseconds(50))
      waited += 1
    }
    #expect(await github.notificationThreads()["705"] == nil)
    // A new thread: shown within the poll interval, no key pressed.
    await github.addNotification(
      NotificationThread(
        id: "799", repository: "acme/web", number: 42, isPullRequest: true,
        title: "A brand new review request", reason: "review_requested", updatedAt: Date()))
    let shown = Date()
    run.read(seconds: 5) { $0.lines.contains { $0.contains("A brand new review request") } }
    #expect(run.terminal.lines.contains { $0.contains("A brand new review request") })
    #expect(Date().timeIntervalSince(shown) < 4)
    // Mark read: the focus goes on, the thread stays listed as read.
    run.pty.type("m")
    run.read { $0.lines.first?.contains("4 unread") == true }
    run.settle()
    let writes = await github.appliedWrites.map { "\($0.method) \($0.path)" }
    #expect(writes.first == "DELETE /notifications/threads/705")
    #expect(writes.filter { $0 == "DELETE /notifications/threads/705" }.count == 1)
    // `?` lists the inbox's keys; any other key closes it and does nothing else.
    run.pty.type("?")
    run.read { $0.lines.contains { $0.contains("mark it done: it leaves the inbox") } }
    #expect(run.terminal.lines.contains { $0.contains("unsubscribe from it") })
    run.pty.type("d")
    run.read { !$0.lines.contains { $0.contains("mark it done: it leaves the inbox") } }
    #expect(run.terminal.lines.first?.contains("4 unread") == true, "d closed the help only")
    run.quitAndExpectTheTerminalAsItWas()
  }
}
#endif
