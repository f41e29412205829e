import Foundation

/// A comment being written or sent, kept on disk until GitHub confirms it.
public struct CommentDraft: Hashable, Sendable {
  /// The issue it comments on.
  public var issue: Int
  /// The text, in Markdown.
  public var body: String
  /// When it was last saved.
  public var savedAt: Date
  /// When it was last sent without an answer that said whether it landed (the process was
  /// killed, the connection dropped, GitHub failed): before sending it again, GitHub's comments
  /// are searched for it.
  public var sentAt: Date?

  /// Creates a draft.
  public init(issue: Int, body: String, savedAt: Date, sentAt: Date? = nil) {
    self.issue = issue
    self.body = body
    self.savedAt = savedAt
    self.sentAt = sentAt
  }

  /// Whether a comment GitHub has is this draft, posted: the same text (line endings and
  /// surrounding blank space aside), created no earlier than a while before it was sent (clocks
  /// differ).
  public func matches(_ comment: CachedComment) -> Bool {
    guard let sentAt else { return false }
    return Self.normalized(comment.body) == Self.normalized(body)
      && comment.createdAt >= sentAt.addingTimeInterval(-Self.clockSkew)
  }

  /// How far the host's clock may be behind ours.
  static let clockSkew: TimeInterval = 600

  /// The text as compared: `\r\n` as `\n`, surrounding blank space trimmed.
  public static func normalized(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(
      in: .whitespacesAndNewlines)
  }
}
