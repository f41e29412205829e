import Foundation

/// A notification thread as the inbox keeps it, with what the person did to it that GitHub
/// may not know yet.
public struct InboxThread: Hashable, Sendable, Identifiable {
  /// The thread as GitHub last listed it.
  package var notification: GitHubNotification
  /// The triage waiting in the inbox's queue, if any (shown already: a read thread shows read,
  /// a done one is gone from the list).
  package var pendingTriage: GitHubClient.Triage?

  /// The thread's identifier.
  public var id: String { notification.id }

  /// Creates one.
  public init(notification: GitHubNotification, pendingTriage: GitHubClient.Triage? = nil) {
    self.notification = notification
    self.pendingTriage = pendingTriage
  }
}
