import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Events in: keys through the key tables to commands, pastes and the mouse to the views.

extension IssueBrowser {
  /// Handles a key, a paste or the mouse, and returns what the host should do.
  public func handle(_ event: InputEvent) -> [BrowserEffect] {
    let effects = route(event)
    return effects + takePendingEffects()
  }

  private func route(_ event: InputEvent) -> [BrowserEffect] {
    switch event {
    case .key(let key):
      if let command = KeyBindings.global.command(for: key)
        ?? KeyBindings.of(state.mode).command(for: key)
      {
        return perform(command)
      }
      handleUnbound(key)
    case .paste(let text):
      switch state.mode {
      case .browsing, .searching: state.type(text, now: now())
      case .pickingLabel:
        state.typeLabelQuery(text, now: now())
        refreshLabelOptions()
      case .reading, .help, .movingToMilestone: break
      }
    case .mouse(let mouse):
      handle(mouse)
    case .focusGained, .focusLost:
      break
    }
    return []
  }

  /// Performs a command, whatever key or click sent it, and returns what the host should do.
  public func perform(_ command: BrowserCommand) -> [BrowserEffect] {
    switch command {
    case .quit: return [.quit]
    case .interrupt: return [.interrupted]
    case .refresh: return [.refresh]
    case .openInBrowser:
      return focusedIssue.map { [.open(url(of: $0))] } ?? []
    case .copyNumber:
      return focusedIssue.map { [.copy(String($0.number))] } ?? []
    case .copyURL:
      return focusedIssue.map { [.copy(url(of: $0))] } ?? []
    case .moveAlongChips(let move): chips.moveFocus(move)
    case .close, .reopen, .comment, .moveToMilestone, .moveToFocusedChip:
      return performAction(command)
    case .activate:
      if let focused = chips.focusedItem, focused != state.filter.milestone {
        chips.activate(focused)
      } else {
        openReader()
      }
    case .moveInList(let move):
      actedOn = nil
      if state.mode == .pickingLabel { labelPicker.moveFocus(move) } else { list.moveFocus(move) }
    case .toggleSubIssues: if !toggleSubIssues() { sayWhereTheSubIssuesAre() }
    case .toggleSection: if let section = focusedSection { toggleSection(section) }
    case .expandAllSections: expandAllSections()
    case .cycleState: reload(state.cycleState())
    case .cycleSort: reload(state.cycleSort())
    case .togglePullRequests: reload(state.togglePullRequests())
    case .pickLabel: openLabelPicker()
    case .search: state.beginSearch()
    case .clearFilters: reload(state.clearFilters())
    case .showHelp: state.mode = .help(offset: 0)
    case .scrollReader(let lines):
      prepareReaderScroll(by: lines)
      scroll(by: lines)
    case .pageReader(let screens):
      prepareReaderScroll(by: screens * pageHeight)
      scroll(by: screens * pageHeight)
    case .readerTop: scroll(to: 0)
    case .readerBottom:
      prepareReaderScroll(by: Int.max / 2)
      scroll(to: Int.max / 2)
    case .back:
      if case .movingToMilestone = state.mode {
        leaveMilestonePicking()
      } else {
        state.mode = .browsing
      }
    case .commitSearch: reload(state.commitSearch())
    case .cancelTyping:
      if state.mode == .pickingLabel {
        if state.labelQuery.isEmpty {
          state.mode = .browsing
        } else {
          state.labelQuery = ""
          refreshLabelOptions()
        }
      } else {
        reload(state.cancelSearch())
      }
    case .erase:
      if state.mode == .pickingLabel {
        if !state.labelQuery.isEmpty {
          state.labelQuery.removeLast()
          refreshLabelOptions()
        }
      } else {
        state.eraseSearch(now: now())
      }
    case .eraseAll: state.eraseSearch(all: true, now: now())
    case .pick:
      if let focused = labelPicker.focusedItem { labelPicker.activate(focused) }
    }
    return []
  }

  /// A key no table binds: typed into the search or the label picker, closes the help, and is
  /// ignored elsewhere.
  private func handleUnbound(_ key: KeyEvent) {
    let typed: Character? = {
      guard key.modifiers.subtracting(.shift).isEmpty, case .character(let c) = key.key else {
        return nil
      }
      return c
    }()
    switch state.mode {
    case .searching:
      if let typed { state.type(String(typed), now: now()) }
    case .pickingLabel:
      if let typed, typed != " " {
        state.typeLabelQuery(String(typed), now: now())
        refreshLabelOptions()
      } else {
        labelPicker.handle(.key(key))
      }
    case .help: state.mode = .browsing
    case .browsing, .reading, .movingToMilestone: break
    }
  }

  private func handle(_ mouse: MouseEvent) {
    let wheel = mouse.kind == .scrollDown ? 3 : mouse.kind == .scrollUp ? -3 : 0
    switch state.mode {
    case .browsing:
      if chips.frame.contains(x: mouse.x, y: mouse.y) {
        chips.handle(.mouse(mouse))
      } else if list.frame.contains(x: mouse.x, y: mouse.y) {
        list.handle(.mouse(mouse))
      } else if hasPreviewPane, previewArea.contains(x: mouse.x, y: mouse.y), wheel != 0 {
        // The wheel over the side preview scrolls it.
        let lines = focusedPreview(width: previewTextWidth)?.count ?? 0
        state.scrollPreview(by: wheel, lineCount: lines, height: previewArea.height)
      }
    case .searching: list.handle(.mouse(mouse))
    case .pickingLabel: labelPicker.handle(.mouse(mouse))
    case .movingToMilestone:
      // Keys pick the milestone: a click would select the chip as the list's filter.
      break
    case .reading:
      if wheel > 0 { prepareReaderScroll(by: wheel) }
      reader.handle(.mouse(mouse))
    case .help: if wheel != 0 { scroll(by: wheel) }
    }
  }

  // MARK: Scrolling the reader and the help

  /// A screen of the reader or the help, less a line of context.
  private var pageHeight: Int {
    if case .help = state.mode { return max(1, helpArea.height - 5) }
    return max(1, readerArea.height - 1)
  }

  private func scroll(by lines: Int) {
    switch state.mode {
    case .reading: reader.scroll(by: Double(lines))
    case .help(let offset): scroll(to: offset + lines)
    case .browsing, .searching, .pickingLabel, .movingToMilestone: break
    }
  }

  /// Scrolls the reader or the help to an offset, kept within what it shows.
  private func scroll(to offset: Int) {
    switch state.mode {
    case .reading:
      reader.setContentOffset(.zero)
      if offset > 0 { reader.scroll(by: Double(offset)) }
    case .help:
      let height = max(1, helpArea.height - 4)
      let clamped = BrowserState.clamp(
        offset, lineCount: BrowserScreen.helpLines.count, height: height)
      state.mode = .help(offset: clamped)
    case .browsing, .searching, .pickingLabel, .movingToMilestone: break
    }
  }

  // MARK: Label picker

  /// The picker's options for what was typed: "Any label", then the labels containing it.
  func refreshLabelOptions() {
    let query = state.labelQuery
    let matches = labelNames.filter {
      query.isEmpty || $0.range(of: query, options: .caseInsensitive) != nil
    }
    labelPicker.dataSource.apply(Snapshot(sections: [(0, [""] + matches)]))
    labelPicker.focus(query.isEmpty ? (state.filter.labels.first ?? "") : (matches.first ?? ""))
  }

  private func openLabelPicker() {
    state.mode = .pickingLabel
    state.labelQuery = ""
    let options = [""] + labelNames
    let colors = labelColors
    labelCells.make = { _, name in
      OptionCell(text: name.isEmpty ? "Any label" : name, color: name.isEmpty ? nil : colors[name])
    }
    labelPicker.dataSource.applySnapshotUsingReloadData(Snapshot(sections: [(0, options)]))
    labelPicker.selection = .single(selected: state.filter.labels.first ?? "")
    place()
    labelPicker.focus(state.filter.labels.first ?? "")
  }

  // MARK: Host

  /// The web page of an issue: its URL from GitHub, or one on the repository's host.
  func url(of issue: CachedIssue) -> String {
    issue.htmlURL ?? "https://\(host.name)/\(repository)/issues/\(issue.number)"
  }

  /// A read of the cache whose failure is said on the status line rather than dropped: a
  /// failing cache shows why, not a blank reader or an Enter that does nothing.
  ///
  /// - Returns: What was read, or `nil` after showing the failure.
  func cacheRead<Value>(_ what: String, _ read: () throws -> Value?) -> Value? {
    do {
      return try read()
    } catch {
      show(message: "Could not read \(what) from the cache: \(error)")
      return nil
    }
  }

  /// Shows a message in the status bar for a few seconds.
  public func show(message: String) {
    state.show(message: message, now: now())
  }

  /// Advances time: applies a search once typing pauses, animates the spinner, expires messages.
  ///
  /// - Returns: What the host should do (a search that says `@me` asks who that is).
  @discardableResult
  public func tick() -> [BrowserEffect] {
    reload(state.tick(now: now()))
    // A long thread fills in the background, a few milliseconds a tick.
    if case .reading = state.mode { renderReaderBacklog(limit: 20) }
    list.tick()
    return takePendingEffects()
  }
}
