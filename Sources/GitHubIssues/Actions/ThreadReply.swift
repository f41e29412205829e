/// A reply to a thread of line comments on a pull request, as the outbox sends it.
public struct ThreadReply: Hashable, Sendable, Codable {
  /// The thread's first comment: GitHub files replies under it.
  public var commentID: Int64
  /// The reply, in Markdown.
  public var body: String

  /// A reply to the thread that starts with comment `commentID`.
  public init(commentID: Int64, body: String) {
    self.commentID = commentID
    self.body = body
  }
}
