import GitHubIssues
import TrellisTerminal

/// What a key asks of the diff screen.
public enum DiffCommand: Hashable, Sendable {
  /// Move the focus among the rows.
  case moveInList(FocusMove)
  /// The next file's first row (`]`, Tab).
  case nextFile
  /// The previous file's first row (`[`, Shift-Tab).
  case previousFile
  /// Open the list of files to jump to one (`t`).
  case fileTree
  /// Mark the focused file viewed, or not (`v`).
  case toggleViewed
  /// Draft a comment on the focused line, or on the range marked, in the editor (`c`).
  case comment
  /// Start a range of lines at the focused one (a comment then covers them), or clear it (`V`).
  case markRange
  /// Drop the focused drafted comment (`x`).
  case discardDraft
  /// Resolve the focused thread, or unresolve a resolved one (`z`).
  case toggleResolved
  /// Submit the review with this verdict and the drafted comments (`a`, `R`, `C`).
  case submit(ReviewSubmission.Verdict)
  /// Merge the pull request at the head shown: its checks and review said, then asked how (`M`).
  case merge
  /// Read the diff again: a push shows as a staged update (`r`).
  case refresh
  /// Open the pull request's files on GitHub (`o`).
  case openInBrowser
  /// Show every key (`?`).
  case showHelp
  /// Back to the list (`q`, Esc).
  case back
  /// Leave as interrupted (Ctrl-C).
  case interrupt
  /// Run one of the person's commands on the pull request.
  case run(UserCommand)
}

extension DiffCommand: NamedCommand {
  package var name: String {
    switch self {
    case .moveInList(let move): move.name
    case .nextFile: "next-file"
    case .previousFile: "previous-file"
    case .fileTree: "files"
    case .toggleViewed: "viewed"
    case .comment: "comment"
    case .markRange: "range"
    case .discardDraft: "discard-draft"
    case .toggleResolved: "resolve-thread"
    case .submit(.approve): "approve"
    case .submit(.requestChanges): "request-changes"
    case .submit(.comment): "submit-comments"
    case .merge: "merge"
    case .refresh: "refresh"
    case .openInBrowser: "open"
    case .showHelp: "help"
    case .back: "back"
    case .interrupt: "interrupt"
    case .run(let command): command.title
    }
  }
}

/// The diff screen's keys, as one table: the keyboard, the `?` overlay, the status line and
/// `issues help keys` come from it.
package enum DiffKeys {
  typealias Row = KeyBinding<DiffCommand>

  /// The standard keys.
  package static let standard = KeyBindings<DiffCommand>(
    title: "A pull request's diff (d on a pull request)",
    rows: Row.listMoves(DiffCommand.moveInList, items: "lines", hint: "move") + [
      Row(
        [
          .init(.character("]"), .nextFile), .init(.tab, .nextFile),
          .init(.character("["), .previousFile),
          .init(KeyEvent(.tab, modifiers: .shift), .previousFile),
        ], "the next or previous file", hint: "file"),
      Row([.init(.character("t"), .fileTree)], "the list of files: jump to one", hint: "files"),
      Row(
        [.init(.character("v"), .toggleViewed)],
        "mark the file viewed (kept per file; a push that changes it says so)", hint: "viewed"),
      Row(
        [.init(.character("c"), .comment)],
        "draft a comment on the focused line in $VISUAL or $EDITOR (kept for the review); on a "
          + "thread, reply to it",
        hint: "comment"),
      Row(
        [.init(.character("V"), .markRange)],
        "start a range of lines at the focused one: c then comments on the lines from there to "
          + "the focused one (one hunk); V again clears it",
        hint: "range"),
      Row([.init(.character("x"), .discardDraft)], "drop the focused drafted comment"),
      Row(
        [.init(.character("z"), .toggleResolved)],
        "resolve the focused thread (then folded), or unresolve a resolved one", hint: "resolve"),
      Row(
        [.init(.character("a"), .submit(.approve))],
        "approve, with the drafted comments (a summary in the editor, optional)",
        hint: "approve"),
      Row(
        [.init(.character("R"), .submit(.requestChanges))],
        "request changes, with the drafted comments (a summary in the editor)"),
      Row(
        [.init(.character("C"), .submit(.comment))],
        "submit the drafted comments as a review (a summary in the editor)"),
      Row(
        [.init(.character("M"), .merge)],
        "merge the pull request at the head shown: its checks and review are said, then m, s or "
          + "r picks a merge commit, squash or rebase (any other key cancels)"),
      Row([.init(.character("r"), .refresh)], "read the diff again (a push shows in place)"),
      Row([.init(.character("o"), .openInBrowser)], "open the files on GitHub"),
      Row([.init(.character("?"), .showHelp)], "show every key", hint: "keys"),
      Row(
        [.init(.character("q"), .back), .init(.escape, .back)], "back to the list", hint: "back"),
      Row(
        [.init(KeyEvent(.character("c"), modifiers: .control), .interrupt)],
        "quit, as interrupted (exit status 130)"),
    ])

  /// The `?` overlay's lines for `keys`.
  package static func helpLines(_ keys: KeyBindings<DiffCommand>) -> [HelpLine] {
    HelpOverlay.lines([keys.helpLines, HelpOverlay.keys.helpLines])
  }
}

/// What the diff screen asks of its host.
public enum DiffEffect: Hashable, Sendable {
  /// Back to the list.
  case back
  /// Leave as interrupted.
  case interrupted
  /// Write a comment on these lines (one, or a range of one hunk) in the editor, into the
  /// pending review; the comment's body is what the editor gives.
  case draft(DraftLineComment, headSHA: String)
  /// Write a reply to the thread that starts with this comment in the editor, and send it.
  case reply(Int64)
  /// Drop a drafted comment.
  case discardDraft(Int64)
  /// Resolve or unresolve the thread that starts with this comment, through the outbox.
  case resolveThread(ThreadResolution)
  /// Keep a file's viewed mark (`nil`: not viewed).
  case setViewed(path: String, ViewedFile?)
  /// Read the pull request's checks and review again, for the merge question (`M`) to say.
  case readMergeState
  /// Merge the pull request this way at the head shown, through the outbox.
  case merge(PullRequestMerge.Method)
  /// Write the summary in the editor and submit the review.
  case submit(ReviewSubmission.Verdict)
  /// Read the diff again.
  case refresh
  /// Open a URL in the web browser.
  case open(String)
  /// Run one of the person's commands on the pull request.
  case run(CommandRun)
}

/// How current what the diff screen says of a pull request's checks and review is.
public enum MergeStateFreshness: Hashable, Sendable {
  /// Being read from GitHub.
  case reading
  /// As GitHub said since the merge was asked.
  case current
  /// As the cache last had it: GitHub was not read, for this reason.
  case asLastRead(String)
}
