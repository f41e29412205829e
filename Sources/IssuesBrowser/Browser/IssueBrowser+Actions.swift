import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Acting on an issue: the keys ask the host for an edit or a comment; the host shows the edit in
// the cache at once (the list moves through the same staged update a sync makes), sends it, and
// says how it went.

extension IssueBrowser {
  /// The issue an action applies to: the one read full screen, or the focused row.
  var actionIssue: CachedIssue? {
    if case .reading = state.mode, let number = readerPane.number { return read.issue(number) }
    if case .movingToMilestone(let number) = state.mode { return read.issue(number) }
    // The row the list drew: what an action needs (state, milestone, labels), without a read.
    if let focused = listPane.list.focusedItem, let row = listPane.loadedRow(focused) {
      return row
    }
    return focusedIssue
  }

  /// Shows queued changes on the row the list draws, as the cache now holds them.
  public func showQueued(_ actions: [QueuedAction], on number: Int) {
    guard let focused = listPane.list.focusedItem, var row = listPane.loadedRow(focused),
      row.number == number
    else { return }
    for action in actions { row = row.showing(action) }
    listPane.showWritten(row)
  }

  /// Keeps the focus on a new issue's row once the list shows it (it was just queued).
  package func follow(newIssue key: IssueKey, number: Int) {
    listPane.follow(.issue(key), number: number)
  }

  /// The milestones' titles, by number, as the chips have them.
  var milestoneTitles: [Int: String] { listPane.model.milestones.mapValues(\.title) }

  /// Performs an action command: checks what can be checked here (a token, the issue's state),
  /// records it as pending, and returns the request for the host.
  func performAction(_ command: BrowserCommand) -> [BrowserEffect] {
    guard let issue = actionIssue else {
      show(message: "No issue is focused.")
      return []
    }
    let target = listPane.chips.focusedItem
    if case .movingToMilestone = state.mode { leaveMilestonePicking() }
    let number = issue.number
    switch ActionPlan.plan(
      command, on: issue, access: context.writeAccess, target: target,
      milestones: listPane.model.milestones)
    {
    case .refuse(let message): show(message: message)
    case .pickMilestone(let current):
      state.mode = .movingToMilestone(issue: number)
      listPane.chips.focus(
        listPane.model.chipIndex[current] != nil ? current : state.filter.milestone)
    case .comment:
      let id = state.begin(PendingAction(number: number, summary: "commenting on #\(number)"))
      return [.comment(CommentRequest(id: id, number: number))]
    case .edit(let changes, let summary):
      let id = state.begin(PendingAction(number: number, summary: summary))
      if let focused = listPane.list.focusedItem, focused.key == issue.key {
        listPane.follow(focused, number: number)
      }
      return [.edit(EditRequest(id: id, number: number, changes: changes))]
    }
    return []
  }

  /// Leaves milestone picking with the chip focus back on the selected chip.
  func leaveMilestonePicking() {
    state.mode = .browsing
    listPane.chips.focus(state.filter.milestone)
  }

  /// Tells the browser how an action it asked for went: success with the message to show, or
  /// the failure (the host has already left the cache as GitHub has the issue).
  public func actionFinished(_ id: Int, _ result: Result<String, HostFailure>) {
    let action = state.finish(id)
    switch result {
    case .success(let message):
      show(message: message + listPane.whereTheFocusWent(from: action?.number))
    case .failure(let failure):
      show(message: failure.message + listPane.whereTheFocusWent(from: action?.number))
    }
    if let number = action?.number { refreshReader(showing: number) }
  }

  /// Settles the queued actions of the issue shown (read, or focused): those in conflict sent
  /// anyway (`F`), or those not sent yet cancelled (`U`), the issue shown without them.
  func settleQueued(force: Bool) -> [BrowserEffect] {
    let issue: CachedIssue? =
      if case .reading = state.mode { readerPane.number.flatMap { read.issue($0) } } else {
        focusedIssue
      }
    guard let issue else { return [] }
    let number = issue.number
    let actions = (read("the queue") { try $0.queuedActions() } ?? []).filter {
      $0.issueNumber == number
    }
    guard !actions.isEmpty else {
      show(message: "Nothing of #\(number) waits in the queue.")
      return []
    }
    if force {
      let conflicts = actions.filter {
        if case .conflict = $0.status { return true }
        return false
      }
      guard !conflicts.isEmpty else {
        show(
          message: "#\(number)'s queued actions are not in conflict: they are sent when GitHub "
            + "can be reached.")
        return []
      }
      for action in conflicts { _ = read("the queue") { try $0.sendAnyway(action.id) } }
      listPane.forgetRows([issue.key])
      listPane.readQueue()
      listPane.list.setNeedsDisplay()
      show(message: "Sending #\(number)'s \(conflicts.count) action(s) in conflict anyway.")
      refreshReader(showing: number)
      return [.sendQueue]
    }
    var cancelled = 0
    var unanswered = 0
    var kept = 0
    for action in actions.reversed() {
      if case .sending = action.status {
        unanswered += 1
        continue
      }
      // The words a cancel gives back (a comment, a review, a reply) are drafts again.
      let gaveBack = read("the queue") { cache -> Bool? in
        try cache.cancelQueuedAction(action.id) != nil
      }
      if let gaveBack {
        cancelled += 1
        if gaveBack { kept += 1 }
      }
    }
    listPane.forgetRows([issue.key])
    listPane.readQueue()
    listPane.list.setNeedsDisplay()
    show(
      message: "Cancelled \(cancelled) queued action\(cancelled == 1 ? "" : "s") of #\(number)"
        + (unanswered > 0
          ? "; \(unanswered) sent without an answer stay (checked on GitHub before any resend)."
          : ".")
        + (kept > 0 ? " What you wrote is kept as a draft." : ""))
    refreshReader(showing: number)
    return []
  }

  /// The focused issue, with its body.
  var focusedIssue: CachedIssue? { listPane.list.focusedItem.flatMap { read.issue(of: $0) } }

  // MARK: The reader

  /// Opens the focused issue in the reader, with the comments the cache holds, and asks the host
  /// for them (``BrowserEffect/fetchConversation(_:)``) unless they are current.
  func openReader() {
    guard let issue = focusedIssue else { return }
    state.mode = .reading
    let lines = listPane.focusedPreview(width: geometry.readerTextWidth) ?? []
    // An issue not filed yet has no conversation on GitHub to ask for.
    if readerPane.open(issue, lines: lines, width: geometry.readerTextWidth), !issue.isProvisional {
      pendingEffects.append(.fetchConversation(issue.number))
    }
    if context.savedDrafts.contains(issue.number) {
      show(message: "A comment draft for #\(issue.number) is saved: c opens it to send it.")
    }
  }

  /// Opens the reader on an issue, wherever it is (in the list shown or not): the dashboard
  /// opens a repository's browser this way, and ``returnsAfterReading`` takes it back there
  /// when the reader is left.
  public func read(number: Int) {
    guard let issue = read.issue(number) else {
      show(message: "#\(number) is not in the cache.")
      return
    }
    state.mode = .reading
    let lines = IssuePreview.lines(
      of: issue, width: geometry.readerTextWidth, milestones: listPane.model.milestones,
      labelColors: listPane.model.labelColors, now: now(),
      details: read.pullRequestDetails(issue))
    if readerPane.open(issue, lines: lines, width: geometry.readerTextWidth), !issue.isProvisional {
      pendingEffects.append(.fetchConversation(issue.number))
    }
  }

  /// Leaves the reader, the search field or the picker for the list.
  func goBack() {
    if case .reading = state.mode { readerPane.close() }
    state.mode = .browsing
  }

  /// Takes the host's answer to ``BrowserEffect/fetchConversation(_:)``: the reader shows what
  /// the cache now holds (only the lines that changed are drawn again), or why it could not.
  package func conversationFetched(_ number: Int, _ result: Result<Void, HostFailure>) {
    guard readerPane.number == number else { return }
    readerPane.fetched(result)
    refreshReader(showing: number)
  }

  /// Rebuilds the reader when it shows this issue (its state, milestone or comments changed).
  func refreshReader(showing number: Int) {
    guard case .reading = state.mode, readerPane.number == number, let issue = read.issue(number)
    else { return }
    listPane.previews.forget([issue.key])
    let width = geometry.readerTextWidth
    let lines = IssuePreview.lines(
      of: issue, width: width, milestones: listPane.model.milestones,
      labelColors: listPane.model.labelColors, now: now(), details: read.pullRequestDetails(issue))
    readerPane.rebuild(issue, lines: lines, width: width, scrollingToTop: false)
  }
}
