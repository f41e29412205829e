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
    if case .reading = state.mode, let number = conversation?.number {
      return cacheRead("#\(number)") { try cache.issue(number: number) }
    }
    if case .movingToMilestone(let number) = state.mode {
      return cacheRead("#\(number)") { try cache.issue(number: number) }
    }
    return focusedIssue
  }

  /// Performs an action command: checks what can be checked here (a token, the issue's state),
  /// records it as pending, and returns the request for the host.
  func performAction(_ command: BrowserCommand) -> [BrowserEffect] {
    guard let issue = actionIssue else {
      show(message: "No issue is focused.")
      return []
    }
    switch writeAccess {
    case .allowed: break
    case .needsToken(let advice):
      show(message: "Changing issues needs a token: \(advice).")
      return []
    case .unavailable(let reason):
      show(message: "Issues cannot be changed here: \(reason).")
      return []
    }
    let number = issue.number
    switch command {
    case .close(let reason):
      guard issue.state == .open else {
        show(message: "#\(number) is already closed.")
        return []
      }
      return [edit(number, [.close(reason)], summary: "closing #\(number)")]
    case .reopen:
      guard issue.state == .closed else {
        show(message: "#\(number) is open.")
        return []
      }
      return [edit(number, [.reopen], summary: "reopening #\(number)")]
    case .comment:
      let id = state.begin(PendingAction(number: number, summary: "commenting on #\(number)"))
      return [.comment(CommentRequest(id: id, number: number))]
    case .moveToMilestone:
      state.mode = .movingToMilestone(issue: number)
      let current: MilestoneFilter = issue.milestoneNumber.map { .number($0) } ?? .withoutMilestone
      chips.focus(chipIndex[current] != nil ? current : state.filter.milestone)
      return []
    case .moveToFocusedChip:
      let target = chips.focusedItem
      leaveMilestonePicking()
      let change: IssueChange
      switch target {
      case .number(let milestone)?:
        guard issue.milestoneNumber != milestone else {
          show(message: "#\(number) is in that milestone already.")
          return []
        }
        change = .setMilestone(number: milestone)
      case .withoutMilestone?:
        guard issue.milestoneNumber != nil else {
          show(message: "#\(number) has no milestone already.")
          return []
        }
        change = .removeMilestone
      case .all?, .withMilestone?, nil:
        show(message: "Pick a milestone, or \"No milestone\".")
        return []
      }
      let title = target.flatMap { chip -> String? in
        guard case .number(let milestone) = chip else { return nil }
        return milestones[milestone]?.title
      }
      return [
        edit(
          number, [change],
          summary: title.map { "moving #\(number) to \($0)" }
            ?? "taking #\(number) out of its milestone")
      ]
    default:
      return []
    }
  }

  /// Leaves milestone picking with the chip focus back on the selected chip.
  func leaveMilestonePicking() {
    state.mode = .browsing
    chips.focus(state.filter.milestone)
  }

  private func edit(_ number: Int, _ changes: [IssueChange], summary: String) -> BrowserEffect {
    let id = state.begin(PendingAction(number: number, summary: summary))
    if list.focusedItem == number { actedOn = number }
    return .edit(EditRequest(id: id, number: number, changes: changes))
  }

  /// Tells the browser how an action it asked for went: success with the message to show, or
  /// the failure (the host has already left the cache as GitHub has the issue).
  public func actionFinished(_ id: Int, _ result: Result<String, HostFailure>) {
    let action = state.finish(id)
    switch result {
    case .success(let message): show(message: message + whereTheFocusWent(from: action?.number))
    case .failure(let failure):
      show(message: failure.message + whereTheFocusWent(from: action?.number))
    }
    if let number = action?.number { refreshReader(showing: number) }
  }

  /// What to add to an answer's message when the issue acted on is not in the list.
  ///
  /// " It left this list; the focus is on #8." (as GitHub has it now, or as shown until GitHub
  /// answers), or nothing. The focus keeps following the issue either way: GitHub's version may
  /// re-sort it once more.
  private func whereTheFocusWent(from number: Int?) -> String {
    guard let number, number == actedOn, list.dataSource.indexPath(for: number) == nil,
      let focused = list.focusedItem
    else { return "" }
    return " It left this list; the focus is on #\(focused)."
  }

  /// Where an item is in the list: its section, its neighbours, and its row on screen.
  struct ListPlace {
    var section: ListSection
    var predecessor: Int?
    var successor: Int?
    var row: Double

  }

  func placeOf(_ number: Int) -> ListPlace? {
    let snapshot = list.dataSource.snapshot()
    guard let path = list.dataSource.indexPath(for: number),
      let section = snapshot.sectionIdentifier(containingItem: number),
      let frame = list.layout.attributesForItem(at: path)?.frame
    else { return nil }
    let items = snapshot.numberOfItems(inSection: section)
    let before =
      path.item > 0
      ? snapshot.itemIdentifier(at: IndexPath(item: path.item - 1, section: path.section)) : nil
    let after =
      path.item + 1 < items
      ? snapshot.itemIdentifier(at: IndexPath(item: path.item + 1, section: path.section))
      : before
    return ListPlace(
      section: section, predecessor: before, successor: after,
      row: frame.minY - list.contentOffset.y)
  }

  /// Focuses an issue and scrolls so that it sits on a screen row.
  func keep(_ number: Int, onRow row: Double) {
    guard let path = list.dataSource.indexPath(for: number),
      let frame = list.layout.attributesForItem(at: path)?.frame
    else { return }
    list.setContentOffset(Point(x: list.contentOffset.x, y: frame.minY - row))
    list.focus(number)
  }

  /// Rebuilds the reader when it shows this issue (its state, milestone or comments changed).
  func refreshReader(showing number: Int) {
    guard case .reading = state.mode, conversation?.number == number,
      let issue = cacheRead("#\(number)", { try cache.issue(number: number) })
    else { return }
    previews.forget([number])
    rebuildReader(issue: issue, scrollingToTop: false)
  }

  /// "closing #12…" while actions are on their way, for the status line.
  var pendingSummary: String? {
    guard !state.pendingActions.isEmpty else { return nil }
    let summaries = state.pendingActions.keys.sorted().compactMap {
      state.pendingActions[$0]?.summary
    }
    return summaries.joined(separator: ", ") + "…"
  }
}
