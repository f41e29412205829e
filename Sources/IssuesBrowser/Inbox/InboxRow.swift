import GitHubIssues

/// A row of the inbox: a thread of one of the hosts.
public struct InboxRow: Hashable, Sendable {
  /// The host's place in the inbox's hosts.
  public var host: Int
  /// The thread's id.
  public var thread: String
}
