import ArgumentParser

/// `issues pr comment`: a comment on a pull request's conversation, as `gh pr comment` writes
/// one — the same outbox, flags and drafts as `issues comment` (a pull request's conversation
/// is an issue's).
struct PullRequestCommentCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "comment",
    abstract: "Comment on a pull request, with gh pr comment's flags.",
    discussion: """
      The same as `issues comment` on the pull request's number: queued before it is sent, \
      sent once, a lost answer settled by reading GitHub (`issues help comment`). Line \
      comments on the diff are not written here yet.
      """)

  @OptionGroup var comment: CommentCommand

  func run() async throws {
    try await comment.run()
  }
}
