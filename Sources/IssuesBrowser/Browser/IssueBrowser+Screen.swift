import Foundation
import GitHubIssues
import TrellisTerminal

// The browser on the screen plan: its handle, tick, resize and render are the protocol's.

extension IssueBrowser: Screen {
  /// When the search typed applies, if typing is pausing.
  public var deadline: Date? { state.searchDeadline }

  /// Where the accessible mode puts the terminal's cursor: on the focused row or chip, on the
  /// reader's first line, at the end of the search typed, on the label picked.
  package var cursorPosition: CellPoint? {
    guard !geometry.isTooSmall else { return nil }
    switch state.mode {
    case .browsing:
      switch state.focusArea {
      case .list: return listPane.list.focusedCell ?? listPane.chips.focusedCell
      case .chips: return listPane.chips.focusedCell ?? listPane.list.focusedCell
      }
    case .movingToMilestone: return listPane.chips.focusedCell
    case .pickingLabel: return labelPicker.view.focusedCell
    case .reading: return readerPane.view.frame.height > 0 ? CellPoint(x: 0, y: 1) : nil
    case .searching:
      let room = max(1, size.columns - 6)
      let typed = DisplayWidth.of(BrowserScreen.tail(of: state.searchDraft, fitting: room))
      return CellPoint(x: min(size.columns - 1, 4 + typed), y: geometry.statusRow)
    case .help: return HelpOverlay.cursor
    }
  }
}

extension IssueBrowser {
  /// The focus in words: the focused issue, chip, label or the issue read.
  package var focusDescription: String? {
    switch state.mode {
    case .browsing:
      switch state.focusArea {
      case .list: return focusedIssue.map(Self.describe)
      case .chips: return listPane.chips.focusedItem.map(describe(chip:))
      }
    case .movingToMilestone:
      return listPane.chips.focusedItem.map { "move to " + describe(chip: $0) }
    case .pickingLabel: return labelPicker.view.focusedItem.map { "label: \($0)" }
    case .reading: return focusedIssue.map { "reading " + Self.describe($0) }
    case .searching: return nil
    case .help: return "the list of keys"
    }
  }

  /// A milestone chip in words: its title and count, and whether it is the list's filter.
  func describe(chip: MilestoneFilter) -> String {
    let model = listPane.model
    let count = model.chipCounts[chip] ?? 0
    return "milestone \(model.title(of: chip)), \(count) issue\(count == 1 ? "" : "s")"
      + (chip == state.filter.milestone ? ", selected" : "")
  }

  /// An issue in words: number, title, state, kind and comments.
  static func describe(_ issue: CachedIssue) -> String {
    let kind = issue.isPullRequest ? "pull request" : "issue"
    let state = issue.isDraft && issue.state == .open ? "draft" : issue.state.rawValue
    let comments = "\(issue.comments) comment\(issue.comments == 1 ? "" : "s")"
    return
      "\(QueuedAction.name(ofIssue: issue.number)) \(ControlCharacters.visible(issue.title)), \(state) \(kind), "
      + comments
  }
}
