import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `inbox:triage`: `d` on a thread of a 1,000-thread inbox kept on disk, as the inbox screen
/// does it — queued in the inbox's database, the list read again and updated, the frame drawn
/// with the row gone.
@MainActor
func inboxWorkloads(wanted: (String) -> Bool) throws {
  guard wanted("inbox") else { return }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trellis-bench-inbox-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: directory) }
  let store = try InboxStore(path: directory.appendingPathComponent("inbox.sqlite").path)
  let reasons = ["review_requested", "mention", "assign", "subscribed", "comment"]
  let start = Date(timeIntervalSince1970: 1_750_000_000)
  let threads = (0..<1_000).map { index in
    GitHubNotification(
      id: "\(10_000 + index)", unread: index % 3 != 0, reason: reasons[index % reasons.count],
      updatedAt: start.addingTimeInterval(Double(index) * 60),
      title: "Thread \(index) about something worth reading",
      subjectType: index % 2 == 0 ? "PullRequest" : "Issue", number: index + 1,
      repository: RepositoryName(owner: "acme", name: "repo\(index % 20)"))
  }
  try store.apply(
    GitHubClient.NotificationListing(
      threads: threads, isComplete: true, lastModified: nil, pollInterval: 60),
    polledAt: start)
  let size = TerminalSize(columns: 160, rows: 50)
  let browser = InboxBrowser(inboxes: [(.github, store)], size: size)
  var screen = CellBuffer(width: size.columns, height: size.rows)
  browser.render(into: &screen)
  var times: [Double] = []
  var gone = 0
  for _ in 0..<301 {
    let before = browser.threads.count
    let began = clock.now
    _ = browser.handle(.key(KeyEvent(.character("d"))))
    browser.render(into: &screen)
    times.append(milliseconds(clock.now - began))
    if browser.threads.count == before - 1 { gone += 1 }
  }
  print(
    "inbox:triage".padding(to: 22) + format(median(Array(times.dropFirst()))).leftPadding(to: 10)
      + " ms   d on a thread of 1,000: queued, gone from the list, frame drawn; \(gone) of 301 "
      + "rows gone (target ≤ 2)")
}
