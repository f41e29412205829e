import Foundation

/// A comment being written: the editor's buffer, kept on disk until it goes to the outbox.
public struct CommentDraft: Hashable, Sendable {
  /// The issue it comments on.
  public var issue: Int
  /// The text, in Markdown.
  public var body: String
  /// When it was last saved.
  public var savedAt: Date

  /// Creates a draft.
  public init(issue: Int, body: String, savedAt: Date) {
    self.issue = issue
    self.body = body
    self.savedAt = savedAt
  }

  /// The text as compared: `\r\n` as `\n`, surrounding blank space trimmed.
  public static func normalized(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(
      in: .whitespacesAndNewlines)
  }
}
