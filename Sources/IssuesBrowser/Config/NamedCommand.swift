import TrellisTerminal

/// A screen's command as the configuration file names it (`keys: browser: {K: state}`), and the
/// command that runs one of the person's own commands.
package protocol NamedCommand: Hashable, Sendable {
  /// The command's name in the file: `state`, `next-section`, `mark-read`.
  var name: String { get }
  /// The command that runs the person's `command`.
  static func run(_ command: UserCommand) -> Self
}

extension FocusMove {
  /// The word a list move is named by: `up`, `page-down`, `first`.
  var name: String {
    switch self {
    case .up: "up"
    case .down: "down"
    case .left: "left"
    case .right: "right"
    case .pageUp: "page-up"
    case .pageDown: "page-down"
    case .first: "first"
    case .last: "last"
    }
  }
}

extension BrowserCommand: NamedCommand {
  public var name: String {
    switch self {
    case .moveAlongChips(let move): "milestone-\(move.name)"
    case .activate: "select"
    case .moveInList(let move): move.name
    case .toggleSubIssues: "sub-issues"
    case .toggleSection: "collapse-section"
    case .expandAllSections: "expand-sections"
    case .cycleState: "state"
    case .cycleSort: "sort"
    case .togglePullRequests: "pull-requests"
    case .pickLabel: "label"
    case .search: "search"
    case .clearFilters: "clear-filters"
    case .openInBrowser: "open"
    case .copyNumber: "copy-number"
    case .copyURL: "copy-url"
    case .refresh: "refresh"
    case .showHelp: "help"
    case .quit: "quit"
    case .interrupt: "interrupt"
    case .close(.completed): "close"
    case .close(.notPlanned): "close-not-planned"
    case .reopen: "reopen"
    case .comment: "comment"
    case .moveToMilestone: "move-to-milestone"
    case .moveToFocusedChip: "move-here"
    case .forceQueued: "force-queued"
    case .cancelQueued: "cancel-queued"
    case .newIssue: "new-issue"
    case .showDiff: "diff"
    case .rewriteNewIssue: "edit-new-issue"
    case .scrollReader(let lines): lines < 0 ? "up" : "down"
    case .pageReader(let screens): screens < 0 ? "page-up" : "page-down"
    case .readerTop: "top"
    case .readerBottom: "bottom"
    case .back: "back"
    case .commitSearch: "keep-search"
    case .cancelTyping: "cancel"
    case .erase: "erase"
    case .eraseAll: "erase-all"
    case .pick: "pick"
    case .run(let command): command.title
    }
  }
}

extension DashboardCommand: NamedCommand {
  package var name: String {
    switch self {
    case .quit: "quit"
    case .interrupt: "interrupt"
    case .refresh: "refresh"
    case .nextSection: "next-section"
    case .previousSection: "previous-section"
    case .section(let index): "section-\(index + 1)"
    case .previousMilestone: "previous-milestone"
    case .nextMilestone: "next-milestone"
    case .toggleGrouping: "group"
    case .moveInList(let move): move.name
    case .read: "read"
    case .openInBrowser: "open"
    case .copyNumber: "copy-number"
    case .copyURL: "copy-url"
    case .showHelp: "help"
    case .run(let command): command.title
    }
  }
}

extension InboxCommand: NamedCommand {
  public var name: String {
    switch self {
    case .quit: "quit"
    case .interrupt: "interrupt"
    case .refresh: "refresh"
    case .moveInList(let move): move.name
    case .read: "read"
    case .triage(.read): "mark-read"
    case .triage(.done): "done"
    case .triage(.unsubscribe): "unsubscribe"
    case .cycleReason: "reason"
    case .cycleRepository: "repository"
    case .openInBrowser: "open"
    case .showHelp: "help"
    case .run(let command): command.title
    }
  }
}
