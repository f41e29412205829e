import Foundation
@testable import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTerminal

/// An action shows in the frame of its key press: the write's list is left by the observer
/// before the write returns, and the row the list drew is patched, not read again.
@MainActor
@Suite struct ActionFrameTests {
  @Test func aCloseShowsInTheSameKeyPressAndSyncsOffIt() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("action-frame-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = try IssueCache(path: directory.appendingPathComponent("c.sqlite").path)
    try cache.apply(SyntheticRepository(itemCount: 300, milestoneCount: 3, seed: 7).make())
    let browser = IssueBrowser(
      cache: cache, repository: RepositoryName(owner: "acme", name: "tracker"),
      size: TerminalSize(columns: 120, rows: 30))
    browser.writeAccess = .queued(reason: "offline mode")
    let follower = ListFollower(cache: cache) {}
    follower.follow(browser.observedFilter)
    // The first list, taken when the observation started (off the input path).
    var first: ObservedIssueList?
    for _ in 0..<400 where first == nil {
      if case .success(let list)? = follower.take() {
        first = list
      } else {
        try await Task.sleep(for: .milliseconds(5))
      }
    }
    browser.apply(try #require(first))
    _ = browser.render()
    let issue = try #require(browser.focusedIssue)
    #expect(issue.state == .open)

    // `x`, performed as the host does: queued (committed, not yet synced), the list taken at
    // once, the row patched as written.
    guard case .edit(let request)? = browser.perform(.close(.completed)).first else {
      Issue.record("no edit")
      return
    }
    let queued = try request.changes.map {
      try cache.enqueue(.change($0), onIssue: request.number, durability: .deferred)
    }
    browser.showQueued(queued, on: request.number)
    guard case .success(let list)? = follower.take() else {
      Issue.record("the write's list was not there when the write returned")
      return
    }
    #expect(list.queue?.waiting == [issue.number], "the queue's marks came with the list")
    browser.apply(list)
    let lines = browser.render().lines
    // Closed: it left the open list, in this frame.
    // (The list's rows are left of the preview; the status line may name it.)
    let rows = lines.dropFirst(3).dropLast().map { String($0.prefix(60)) }
    #expect(!rows.contains { $0.contains("#\(issue.number) ") }, "\(lines)")
    #expect(!list.entries.contains { $0.key == issue.key })
    #expect(lines.first?.contains("⇡ 1 queued") == true)
    cache.syncWrites()
    #expect(try cache.queuedActions().map(\.issueNumber) == [issue.number])
    #expect(try cache.issue(number: issue.number)?.state == .closed)
  }

  @Test func aRowShownAsQueuedIsWhatTheCacheWrote() throws {
    let cache = try IssueCache()
    try cache.apply(SyntheticRepository(itemCount: 50, milestoneCount: 3, seed: 9).make())
    let milestones = try cache.milestones()
    for number in [1, 2, 3, 4, 5] {
      let before = try #require(try cache.issues(numbers: [number]).first)
      let changes: [IssueChange] = [
        before.state == .open ? .close(.notPlanned) : .reopen,
        .setMilestone(number: milestones[number % milestones.count].number),
        .addLabels(["zeta", "Alpha"]),
        .addAssignees(["octocat"]), .removeLabel("alpha"),
      ]
      var shown = before
      for change in changes {
        let action = try cache.enqueue(.change(change), onIssue: number)
        shown = shown.showing(action)
      }
      let written = try #require(try cache.issues(numbers: [number]).first)
      #expect(shown.state == written.state)
      // The cache keeps times to the millisecond.
      #expect(
        abs(
          (shown.closedAt?.timeIntervalSince1970 ?? 0)
            - (written.closedAt?.timeIntervalSince1970 ?? 0))
          < 0.001)
      #expect(shown.milestoneNumber == written.milestoneNumber)
      #expect(shown.labels == written.labels && shown.assignees == written.assignees)
    }
  }
}
