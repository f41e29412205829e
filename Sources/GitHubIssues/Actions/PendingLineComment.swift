import Foundation

/// A line comment in a pull request's pending review: drafted, not sent yet.
public struct PendingLineComment: Hashable, Sendable, Identifiable {
  /// Its place among the drafts (they are sent in this order).
  public var id: Int64
  /// The pull request.
  public var pullRequest: Int
  /// The head commit whose diff it was drafted on.
  public var commitID: String
  /// The comment.
  public var comment: DraftLineComment
  /// When it was drafted.
  public var draftedAt: Date

  /// A draft as the cache keeps it.
  public init(
    id: Int64, pullRequest: Int, commitID: String, comment: DraftLineComment, draftedAt: Date
  ) {
    self.id = id
    self.pullRequest = pullRequest
    self.commitID = commitID
    self.comment = comment
    self.draftedAt = draftedAt
  }
}
