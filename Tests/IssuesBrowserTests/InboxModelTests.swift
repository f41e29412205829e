import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing

/// The inbox's state as a value: order, filters, triage shown, what the header and an empty
/// list say — without a view or a store.
@Suite struct InboxModelTests {
  static let start = Date(timeIntervalSince1970: 1_750_000_000)

  static func entry(
    _ id: String, unread: Bool, minutes: Double, reason: String = "mention",
    repository: String = "acme/tracker", number: Int = 1
  ) -> InboxModel.Entry {
    InboxModel.Entry(
      row: InboxRow(host: 0, thread: id),
      thread: InboxThread(
        notification: GitHubNotification(
          id: id, unread: unread, reason: reason, updatedAt: start.addingTimeInterval(minutes * 60),
          title: "Thread \(id)", subjectType: "Issue", number: number,
          repository: RepositoryName(repository) ?? RepositoryName(owner: "a", name: "b"))))
  }

  static var model: InboxModel {
    var model = InboxModel()
    model.load([
      entry("1", unread: false, minutes: 9), entry("2", unread: true, minutes: 1),
      entry("3", unread: true, minutes: 5, reason: "review_requested", repository: "acme/web"),
      entry("4", unread: false, minutes: 2, number: 12_345),
    ])
    return model
  }

  @Test func unreadFirstThenNewestFirst() {
    let model = Self.model
    #expect(model.shown.map(\.row.thread) == ["3", "2", "1", "4"])
    #expect(model.unreadCount == 2)
    #expect(model.headerTitle == "4 threads")
    #expect(model.emptyText == nil)
    // "acme/tracker#12345": the widest place.
    #expect(model.placeWidth == "acme/tracker#12345".count)
  }

  @Test func readMovesDownAndDoneLeavesWithoutReordering() {
    var model = Self.model
    model.markRead(InboxRow(host: 0, thread: "3"))
    #expect(
      model.shown.map(\.row.thread) == ["2", "1", "3", "4"], "read, it goes among the read by age")
    #expect(model.threads[InboxRow(host: 0, thread: "3")]?.pendingTriage == .read)
    #expect(model.unreadCount == 1)
    model.remove(InboxRow(host: 0, thread: "1"))
    #expect(model.shown.map(\.row.thread) == ["2", "3", "4"])
    #expect(model.threads[InboxRow(host: 0, thread: "1")] == nil)
    #expect(model.headerTitle == "3 threads")
  }

  @Test func filtersCycleThroughTheirValuesThenAll() {
    var model = Self.model
    #expect(model.cycleReason() == "Reason: mentioned")
    #expect(model.shown.allSatisfy { $0.thread.notification.reason == "mention" })
    #expect(model.headerTitle == "3 threads · mentioned")
    _ = model.cycleReason()
    #expect(model.reasonFilter == "review_requested")
    #expect(model.cycleReason() == "Reason: all")
    #expect(model.shown.count == 4)
    #expect(model.cycleRepository() == "Repository: acme/tracker")
    _ = model.cycleReason()
    _ = model.cycleReason()
    #expect(model.shown.isEmpty, "review requested in acme/tracker: none")
    #expect(model.emptyText == "No thread matches.")
    var empty = InboxModel()
    empty.load([])
    #expect(empty.emptyText == "Inbox zero.")
  }

  @Test func aMessageExpires() {
    var model = Self.model
    model.message = StatusMessage("said", now: Self.start)
    model.tick(now: Self.start.addingTimeInterval(1))
    #expect(model.message?.text == "said")
    model.tick(now: Self.start.addingTimeInterval(StatusMessage.duration))
    #expect(model.message == nil)
  }
}
