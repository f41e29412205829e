import GitHubIssues

/// Something the dashboard asks its host to do, outside the screen.
package enum DashboardEffect: Hashable, Sendable {
  /// Leave the dashboard.
  case quit
  /// Leave it because the person pressed Ctrl-C (exit status 130).
  case interrupted
  /// Open an item in its repository's browser, in the reader; come back here after.
  case read(DashboardSource, Int)
  /// Open a URL in the web browser.
  case open(String)
  /// Put text on the clipboard.
  case copy(String)
  /// Sync every repository now.
  case refresh
  /// Run one of the person's commands on the focused item.
  case run(CommandRun)
}
