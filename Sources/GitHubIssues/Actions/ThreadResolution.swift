/// Resolving or unresolving a thread of line comments on a pull request, as the outbox sends it.
///
/// The thread is named by its first comment's REST id — the id `pr view --json reviewThreads`
/// prints and replies take — because REST does not know threads; the GraphQL node that GitHub
/// resolves is found from it when the action is sent.
public struct ThreadResolution: Hashable, Sendable, Codable {
  /// What is done to the thread.
  public enum Change: String, Hashable, Sendable, Codable {
    /// Marks the thread resolved (the web folds it).
    case resolve
    /// Opens a resolved thread again.
    case unresolve

    /// The thread's `isResolved` once the change landed.
    package var resolves: Bool { self == .resolve }
  }

  /// The thread's first comment.
  public var commentID: Int64
  /// Resolve or unresolve.
  public var change: Change

  /// `change` on the thread that starts with comment `commentID`.
  public init(commentID: Int64, change: Change) {
    self.commentID = commentID
    self.change = change
  }
}
