import Foundation

/// A comment being written: the editor's buffer, kept on disk until it goes to the outbox.
package struct CommentDraft: Hashable, Sendable {
  /// The issue it comments on.
  package var issue: Int
  /// The text, in Markdown.
  package var body: String
  /// When it was last saved.
  package var savedAt: Date

  /// Creates a draft.
  package init(issue: Int, body: String, savedAt: Date) {
    self.issue = issue
    self.body = body
    self.savedAt = savedAt
  }

  /// The text as compared: `\r\n` as `\n`, surrounding blank space trimmed.
  package static func normalized(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(
      in: .whitespacesAndNewlines)
  }
}
