import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Events in: keys through the key tables to commands, pastes and the mouse to the views.

extension IssueBrowser {
  /// Handles a key, a paste or the mouse, and returns what the host should do.
  public func handle(_ event: InputEvent) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    if case .help(let offset) = state.mode {
      // The overlay takes every event but the global keys; any other key closes it.
      if case .key(let key) = event, let command = keys.global.command(for: key) {
        return perform(command) + takePendingEffects()
      }
      var overlay = HelpOverlay(lines: keys.helpLines, offset: offset)
      state.mode = overlay.handle(event, on: size) ? .help(offset: overlay.offset) : .browsing
      return takePendingEffects()
    }
    switch event {
    case .key(let key):
      if let command = keys.global.command(for: key) ?? keys.of(state.mode)?.command(for: key) {
        effects = perform(command)
      } else {
        handleUnbound(key)
      }
    case .paste(let text):
      switch state.mode {
      case .browsing, .searching: state.type(text, now: now())
      case .pickingLabel: narrowLabels { $0.typeLabelQuery(text, now: now()) }
      case .reading, .help, .movingToMilestone: break
      }
    case .mouse(let mouse): handle(mouse)
    case .focusGained, .focusLost: break
    }
    return effects + takePendingEffects()
  }

  /// Performs a command, whatever key or click sent it, and returns what the host should do.
  public func perform(_ command: BrowserCommand) -> [BrowserEffect] {
    let list = listPane.list
    switch command {
    case .quit: return [.quit]
    case .interrupt: return [.interrupted]
    case .refresh: return [.refresh]
    case .openInBrowser, .copyNumber, .copyURL:
      guard let issue = focusedIssue else { return [] }
      // Not on GitHub yet: no page, no number.
      if issue.isProvisional {
        show(
          message: "This issue is not filed yet: it has no number or page until GitHub files it.")
        return []
      }
      switch command {
      case .openInBrowser: return [.open(url(of: issue))]
      case .copyNumber: return [.copy(String(issue.number))]
      default: return [.copy(url(of: issue))]
      }
    case .run(let command):
      guard let issue = focusedIssue else {
        show(message: "“\(command.title)” runs on an issue: none is focused.")
        return []
      }
      if issue.isProvisional {
        show(message: "“\(command.title)” runs on a filed issue: this one is not filed yet.")
        return []
      }
      return [
        .run(
          CommandRun(
            command, host: host, repository: repository, number: issue.number,
            title: issue.title, url: url(of: issue), isPullRequest: issue.isPullRequest,
            branch: read.pullRequestDetails(issue)?.headRef))
      ]
    case .moveAlongChips(let move):
      state.focusArea = .chips
      listPane.chips.moveFocus(move)
    case .close, .reopen, .comment, .moveToMilestone, .moveToFocusedChip:
      return performAction(command)
    case .forceQueued, .cancelQueued:
      return settleQueued(force: command == .forceQueued)
    case .newIssue:
      if let refusal = context.writeAccess.refusal {
        show(message: refusal)
        return []
      }
      return [.newIssue]
    case .showDiff:
      guard let issue = actionIssue else {
        show(message: "No pull request is focused.")
        return []
      }
      guard issue.isPullRequest else {
        show(message: "#\(issue.number) is an issue: d shows a pull request's diff.")
        return []
      }
      return [.showDiff(issue.number, title: issue.title)]
    case .rewriteNewIssue:
      guard let issue = actionIssue else {
        show(message: "No issue is focused.")
        return []
      }
      guard issue.isProvisional else {
        show(
          message: "#\(issue.number) is filed: only a new issue not filed yet is rewritten here "
            + "(o opens it on GitHub).")
        return []
      }
      return [.rewriteNewIssue(issue.key, title: issue.title, body: issue.body ?? "")]
    case .activate:
      if let focused = listPane.chips.focusedItem, focused != state.filter.milestone {
        listPane.chips.activate(focused)
      } else {
        openReader()
      }
    case .moveInList(let move):
      state.focusArea = .list
      listPane.unfollow()
      if state.mode == .pickingLabel {
        labelPicker.view.moveFocus(move)
      } else {
        list.moveFocus(move)
      }
    case .toggleSubIssues:
      if !listPane.toggleSubIssues(filter: state.filter),
        let message = listPane.explainSubIssues()
      {
        show(message: message)
      }
    case .toggleSection:
      if let section = listPane.focusedSection { setSection(section, collapsed: nil) }
    case .expandAllSections:
      for section in listPane.model.collapsedSections { setSection(section, collapsed: false) }
    case .cycleState: reload(state.cycleState())
    case .cycleSort: reload(state.cycleSort())
    case .togglePullRequests: reload(state.togglePullRequests())
    case .pickLabel: openLabelPicker()
    case .search: state.beginSearch()
    case .clearFilters: reload(state.clearFilters())
    case .showHelp: state.mode = .help(offset: 0)
    case .scrollReader(let lines): scroll(by: lines)
    case .pageReader(let screens): scroll(by: screens * pageHeight)
    case .readerTop: scroll(by: nil)
    case .readerBottom: scroll(by: Int.max / 2)
    case .back:
      if case .movingToMilestone = state.mode {
        leaveMilestonePicking()
      } else if case .reading = state.mode, returnsAfterReading {
        // Opened from the dashboard on one issue: leaving the reader goes back there.
        return [.quit]
      } else {
        goBack()
      }
    case .commitSearch: reload(state.commitSearch())
    case .cancelTyping:
      if state.mode != .pickingLabel {
        reload(state.cancelSearch())
      } else if state.labelQuery.isEmpty {
        state.mode = .browsing
      } else {
        narrowLabels { $0.labelQuery = "" }
      }
    case .erase:
      if state.mode != .pickingLabel {
        state.eraseSearch(now: now())
      } else if !state.labelQuery.isEmpty {
        narrowLabels { $0.labelQuery.removeLast() }
      }
    case .eraseAll: state.eraseSearch(all: true, now: now())
    case .pick:
      if let focused = labelPicker.view.focusedItem { labelPicker.view.activate(focused) }
    }
    return []
  }

  /// A key no table binds: typed into the search or the label picker, closes the help, and is
  /// ignored elsewhere.
  private func handleUnbound(_ key: KeyEvent) {
    var typed: Character?
    if key.modifiers.subtracting(.shift).isEmpty, case .character(let c) = key.key { typed = c }
    switch state.mode {
    case .searching: if let typed { state.type(String(typed), now: now()) }
    case .pickingLabel:
      if let typed, typed != " " {
        narrowLabels { $0.typeLabelQuery(String(typed), now: now()) }
      } else {
        labelPicker.view.handle(.key(key))
      }
    case .browsing, .reading, .movingToMilestone, .help: break
    }
  }

  private func handle(_ mouse: MouseEvent) {
    let wheel = mouse.kind == .scrollDown ? 3 : mouse.kind == .scrollUp ? -3 : 0
    switch state.mode {
    case .browsing:
      if listPane.chips.frame.contains(x: mouse.x, y: mouse.y) {
        listPane.chips.handle(.mouse(mouse))
      } else if listPane.list.frame.contains(x: mouse.x, y: mouse.y) {
        listPane.list.handle(.mouse(mouse))
      } else if geometry.hasPreviewPane, geometry.previewArea.contains(x: mouse.x, y: mouse.y),
        wheel != 0
      {
        // The wheel over the side preview scrolls it.
        let lines = listPane.focusedPreview(width: geometry.previewTextWidth)?.count ?? 0
        state.scrollPreview(by: wheel, lineCount: lines, height: geometry.previewArea.height)
      }
    case .searching: listPane.list.handle(.mouse(mouse))
    case .pickingLabel: labelPicker.view.handle(.mouse(mouse))
    // Keys pick the milestone: a click would select the chip as the list's filter.
    case .movingToMilestone: break
    case .reading:
      if wheel > 0 { readerPane.prepareScroll(by: wheel, width: geometry.readerTextWidth) }
      readerPane.view.handle(.mouse(mouse))
    case .help: break
    }
  }

  // MARK: Scrolling the reader

  /// A screen of the reader, less a line of context.
  private var pageHeight: Int { max(1, geometry.readerArea.height - 1) }

  /// Scrolls the reader by lines (`nil`: to the top; a huge count: to the end).
  private func scroll(by lines: Int?) {
    switch state.mode {
    case .reading:
      let width = geometry.readerTextWidth
      if let lines {
        readerPane.scroll(by: lines, width: width)
      } else {
        readerPane.scroll(to: 0, width: width)
      }
    case .browsing, .searching, .pickingLabel, .movingToMilestone, .help: break
    }
  }

  // MARK: Label picker

  private func openLabelPicker() {
    state.mode = .pickingLabel
    state.labelQuery = ""
    let model = listPane.model
    labelPicker.open(
      names: model.labelNames, colors: model.labelColors, selected: state.filter.labels.first ?? "")
    place()
  }

  /// Changes what was typed in the label picker and narrows its options to it.
  private func narrowLabels(_ change: (inout BrowserState) -> Void) {
    change(&state)
    labelPicker.narrow(to: state.labelQuery, selected: state.filter.labels.first ?? "")
  }

  /// Advances time: applies a search once typing pauses, animates the spinner, expires messages.
  ///
  /// - Returns: What the host should do (a search that says `@me` asks who that is).
  @discardableResult
  public func tick() -> [BrowserEffect] {
    reload(state.tick(now: now()))
    // A long thread fills in the background, a few milliseconds a tick.
    if case .reading = state.mode {
      readerPane.renderBacklog(limit: 20, width: geometry.readerTextWidth)
    }
    listPane.list.tick()
    return takePendingEffects()
  }
}
