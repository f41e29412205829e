import Foundation
import GitHubIssues

/// The inbox screen's state as a value: every thread read, the filters, what shows and in what
/// order, triage shown at once, the message and the `?` overlay — tested without a view.
package struct InboxModel: Hashable, Sendable {
  /// A thread and its row.
  package struct Entry: Hashable, Sendable {
    /// Where it is: its host and id.
    package var row: InboxRow
    /// The thread.
    package var thread: InboxThread

    /// An entry.
    package init(row: InboxRow, thread: InboxThread) {
      self.row = row
      self.thread = thread
    }
  }

  /// Every thread read, unread first then newest first (before the filters).
  package private(set) var all: [Entry] = []
  /// The reason shown, or all (`f` cycles).
  package private(set) var reasonFilter: String?
  /// The repository shown, or all (`F` cycles).
  package private(set) var repositoryFilter: RepositoryName?
  /// What the list shows, in order: `all` through the filters.
  package private(set) var shown: [Entry] = []
  /// The threads shown, by row.
  package private(set) var threads: [InboxRow: InboxThread] = [:]
  /// The status line's message.
  package var message: StatusMessage?
  /// The `?` overlay, while it is open.
  package var help: HelpOverlay?

  /// An empty inbox.
  package init() {}

  /// Takes every thread read: sorted unread first, then newest first, through the filters.
  package mutating func load(_ entries: [Entry]) {
    all = entries
    all.sort {
      ($0.thread.notification.unread ? 0 : 1, $1.thread.notification.updatedAt, $0.row.thread)
        < ($1.thread.notification.unread ? 0 : 1, $0.thread.notification.updatedAt, $1.row.thread)
    }
    refilter()
  }

  private mutating func refilter() {
    let (reason, repository) = (reasonFilter, repositoryFilter)
    shown = all.filter { entry in
      (reason.map { $0 == entry.thread.notification.reason } ?? true)
        && (repository.map { $0 == entry.thread.notification.repository } ?? true)
    }
    threads = Dictionary(shown.map { ($0.row, $0.thread) }) { first, _ in first }
  }

  /// How many threads are unread, whatever the filters.
  package var unreadCount: Int { all.count { $0.thread.notification.unread } }

  /// Shows a thread read, in its place (it moves down among the read ones).
  package mutating func markRead(_ row: InboxRow) {
    guard let index = all.firstIndex(where: { $0.row == row }) else { return }
    all[index].thread.notification.unread = false
    all[index].thread.pendingTriage = .read
    load(all)
  }

  /// Takes a thread out of the list (done, unsubscribed); the others keep their order.
  package mutating func remove(_ row: InboxRow) {
    all.removeAll { $0.row == row }
    shown.removeAll { $0.row == row }
    threads[row] = nil
  }

  /// Shows the next reason, then all; says which.
  package mutating func cycleReason() -> String {
    let reasons = Array(Set(all.map(\.thread.notification.reason))).sorted()
    reasonFilter = Self.next(after: reasonFilter, in: reasons)
    refilter()
    return "Reason: " + (reasonFilter.map(GitHubNotification.describe(reason:)) ?? "all")
  }

  /// Shows the next repository, then all; says which.
  package mutating func cycleRepository() -> String {
    let repositories = Array(Set(all.map(\.thread.notification.repository))).sorted {
      $0.description < $1.description
    }
    repositoryFilter = Self.next(after: repositoryFilter, in: repositories)
    refilter()
    return "Repository: " + (repositoryFilter?.description ?? "all")
  }

  /// The value after `current` in `values`, then none (all), then the first again.
  static func next<T: Equatable>(after current: T?, in values: [T]) -> T? {
    guard let current, let index = values.firstIndex(of: current) else { return values.first }
    return index + 1 < values.count ? values[index + 1] : nil
  }

  /// What the list's header says: how many threads show, and the filters.
  package var headerTitle: String {
    let filters = [
      reasonFilter.map(GitHubNotification.describe(reason:)), repositoryFilter?.description,
    ].compactMap { $0 }
    return "\(shown.count) thread\(shown.count == 1 ? "" : "s")"
      + (filters.isEmpty ? "" : " · " + filters.joined(separator: " · "))
  }

  /// What an empty list says, or `nil` when threads show.
  package var emptyText: String? {
    shown.isEmpty ? (all.isEmpty ? "Inbox zero." : "No thread matches.") : nil
  }

  /// The width of the rows' `owner/name#N` column, measured without building the strings.
  package var placeWidth: Int {
    min(
      40,
      shown.reduce(10) { widest, entry in
        let n = entry.thread.notification
        var digits = 1
        var number = n.number ?? 0
        while number >= 10 {
          number /= 10
          digits += 1
        }
        return max(widest, n.repository.owner.count + n.repository.name.count + 2 + digits)
      })
  }

  /// Moves time on: the message expires.
  package mutating func tick(now: Date) {
    if let message, message.hasExpired(at: now) { self.message = nil }
  }
}
