import GitHubIssues

/// Something the browser asks its host to do, outside the screen.
public enum BrowserEffect: Hashable, Sendable {
  /// Leave the browser.
  case quit
  /// Leave the browser because the person pressed Ctrl-C: the command exits with status 130,
  /// as a shell expects of an interrupted program.
  case interrupted
  /// Sync with GitHub now.
  case refresh
  /// Open a URL in the web browser.
  case open(String)
  /// Put text on the clipboard.
  case copy(String)
  /// Find out who `@me` is (the token's account) and tell ``IssueBrowser/setViewer(_:)``.
  case lookUpViewer
  /// Fetch an issue and its comments into the cache and tell
  /// ``IssueBrowser/conversationFetched(_:_:)``.
  case fetchConversation(Int)
  /// Show changes to an issue in the cache at once, send them to GitHub, and tell
  /// ``IssueBrowser/actionFinished(_:_:)`` how it went.
  case edit(EditRequest)
  /// Lend the terminal to the user's editor on the issue's comment draft, post it, and tell
  /// ``IssueBrowser/actionFinished(_:_:)``.
  case comment(CommentRequest)
  /// Send what waits in the queue now (a conflict was set aside).
  case sendQueue
  /// Run one of the person's commands on the focused issue.
  case run(CommandRun)
  /// Show the new-issue form over the browser (the repository's templates, as cached), queue
  /// what the person files, and send it.
  case newIssue
  /// Show pull request N's diff over the browser (read first when none is kept).
  case showDiff(Int, title: String)
  /// Show the form over the browser on a new issue not filed yet (its row's key, title and
  /// body), and rewrite its queued create with what the person keeps.
  case rewriteNewIssue(IssueKey, title: String, body: String)
}
