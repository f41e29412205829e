import GitHubIssues
import TrellisTerminal

/// Something a person asks the browser to do, whichever key asked for it.
///
/// Keys map to commands through ``KeyBindings``; the browser performs commands. Keeping the two
/// apart is what lets the help overlay, the status-line hints and `issues help keys` come from
/// the same table the keyboard goes through.
public enum BrowserCommand: Hashable, Sendable {
  // Browsing
  /// Moves the focus along the milestone chips.
  case moveAlongChips(FocusMove)
  /// Selects the focused chip, or reads the focused issue when its chip is already selected.
  case activate
  /// Moves the focus in the issue list.
  case moveInList(FocusMove)
  /// Opens or closes the sub-issues nested under the focused issue.
  case toggleSubIssues
  /// Collapses or expands the focused issue's section.
  case toggleSection
  /// Expands every collapsed section.
  case expandAllSections
  /// Steps the state filter: open → closed → open + closed.
  case cycleState
  /// Steps the order: recently updated → newest → most commented.
  case cycleSort
  /// Shows or hides pull requests.
  case togglePullRequests
  /// Opens the label picker.
  case pickLabel
  /// Starts typing a search.
  case search
  /// Clears the search and the label.
  case clearFilters
  /// Opens the focused issue in the web browser.
  case openInBrowser
  /// Copies the focused issue's number.
  case copyNumber
  /// Copies the focused issue's URL.
  case copyURL
  /// Syncs with GitHub now.
  case refresh
  /// Shows every key.
  case showHelp
  /// Leaves the browser.
  case quit
  /// Leaves the browser as interrupted (Ctrl-C).
  case interrupt

  // Acting on the focused issue (shown at once, sent to GitHub, taken back if refused)
  /// Closes it, for this reason.
  case close(IssueChange.CloseReason)
  /// Reopens it.
  case reopen
  /// Writes a comment on it in the editor, from its saved draft if there is one.
  case comment
  /// Starts picking the chip of the milestone to move it to.
  case moveToMilestone
  /// Moves it to the focused chip's milestone (or out of any, on "No milestone").
  case moveToFocusedChip
  /// Sends its queued actions that conflict with GitHub's version anyway.
  case forceQueued
  /// Cancels its queued actions not sent yet (the issue shows without them).
  case cancelQueued
  /// Files a new issue: picks one of the repository's templates, fills its form, and queues it.
  case newIssue
  /// Rewrites the title and body of a new issue not filed yet (its form again).
  case rewriteNewIssue
  /// Shows the focused pull request's diff, to read and review it.
  case showDiff

  // Reading an issue full screen
  /// Scrolls the reader by a number of lines (negative: up).
  case scrollReader(lines: Int)
  /// Scrolls the reader by a number of screens (negative: up).
  case pageReader(screens: Int)
  /// Scrolls the reader to its top.
  case readerTop
  /// Scrolls the reader to its end.
  case readerBottom
  /// Leaves the reader, the search field or the picker.
  case back

  // Typing a search or narrowing the labels
  /// Applies what was typed and leaves the field.
  case commitSearch
  /// Clears what was typed and leaves the field (or clears it, in the label picker).
  case cancelTyping
  /// Erases the last character typed.
  case erase
  /// Erases everything typed.
  case eraseAll
  /// Picks the focused label.
  case pick

  // The person's own
  /// Runs one of the person's own commands (the configuration's `commands:`) on the focused
  /// item.
  case run(UserCommand)
}
