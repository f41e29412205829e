import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

extension IssueBrowser {
  /// Handles a key, a paste or the mouse, and returns what the host should do.
  public func handle(_ event: InputEvent) -> [BrowserEffect] {
    if case .key(let key) = event, key.key == .character("c"), key.modifiers == .control {
      return [.quit]
    }
    switch mode {
    case .help:
      if case .key = event { mode = .browsing }
      return []
    case .pickingLabel:
      handlePicking(event)
      return []
    case .reading(let offset):
      return handleReading(event, offset: offset)
    case .searching:
      return handleSearching(event)
    case .browsing:
      return handleBrowsing(event)
    }
  }

  private func handleBrowsing(_ event: InputEvent) -> [BrowserEffect] {
    switch event {
    case .mouse(let mouse):
      if chips.frame.contains(x: mouse.x, y: mouse.y) {
        chips.handle(event)
      } else if list.frame.contains(x: mouse.x, y: mouse.y) {
        list.handle(event)
      } else if hasPreviewPane, mouse.x >= listWidth, mouse.y >= list.frame.y {
        // The wheel over the side preview scrolls it.
        if mouse.kind == .scrollDown { previewOffset += 3 }
        if mouse.kind == .scrollUp { previewOffset = max(0, previewOffset - 3) }
      }
      return []
    case .paste(let text):
      mode = .searching
      searchDraft += text.filter { !$0.isNewline }
      searchDeadline = now().addingTimeInterval(searchDelay)
      return []
    case .key(let key):
      return handleKey(key)
    case .focusGained, .focusLost:
      return []
    }
  }

  private func handleKey(_ key: KeyEvent) -> [BrowserEffect] {
    guard key.modifiers.subtracting(.shift).isEmpty else { return [] }
    switch key.key {
    case .left, .right:
      chips.handle(.key(key))
    case .enter:
      if let focused = chips.focusedItem, focused != filter.milestone {
        chips.activate(focused)
      } else if list.focusedItem != nil {
        mode = .reading(offset: 0)
      }
    case .escape:
      if filter.text != nil || filter.label != nil {
        filter.text = nil
        searchDraft = ""
        filter.label = nil
        reloadListReportingErrors(countsChanged: true)
      }
    case .character(" "):
      // Space opens or closes a parent's sub-issues; on other rows it does what the list does.
      if !toggleSubIssues() { list.handle(.key(key)) }
    case .character("z"):
      if let section = focusedSection { toggleSection(section) }
    case .character("Z"): expandAllSections()
    case .character("q"): return [.quit]
    case .character("?"): mode = .help
    case .character("/"):
      mode = .searching
      searchDraft = filter.text ?? ""
    case .character("s"): setState(filter.state.next)
    case .character("c"):
      filter.sort = filter.sort.next
      reloadListReportingErrors()
    case .character("p"):
      filter.kind = filter.kind == .issues ? .both : .issues
      reloadListReportingErrors(countsChanged: true)
    case .character("l"): openLabelPicker()
    case .character("r"): return [.refresh]
    case .character("o"):
      guard let issue = focusedIssue else { return [] }
      return [.open(url(of: issue))]
    case .character("y"):
      guard let issue = focusedIssue else { return [] }
      return [.copy(url(of: issue))]
    case .character("Y"):
      guard let issue = focusedIssue else { return [] }
      return [.copy("#\(issue.number)")]
    default:
      list.handle(.key(key))
    }
    return []
  }

  private func handleSearching(_ event: InputEvent) -> [BrowserEffect] {
    switch event {
    case .key(let key) where key.modifiers.subtracting(.shift).isEmpty:
      switch key.key {
      case .enter:
        mode = .browsing
        applySearch()
      case .escape:
        mode = .browsing
        searchDraft = ""
        applySearch()
      case .backspace:
        if !searchDraft.isEmpty { searchDraft.removeLast() }
        searchDeadline = now().addingTimeInterval(searchDelay)
      case .character(let character):
        searchDraft.append(character)
        searchDeadline = now().addingTimeInterval(searchDelay)
      case .up, .down, .pageUp, .pageDown:
        list.handle(event)
      default: break
      }
    case .key(let key) where key.key == .character("u") && key.modifiers == .control:
      searchDraft = ""
      searchDeadline = now().addingTimeInterval(searchDelay)
    case .paste(let text):
      searchDraft += text.filter { !$0.isNewline }
      searchDeadline = now().addingTimeInterval(searchDelay)
    case .mouse:
      list.handle(event)
    default: break
    }
    return []
  }

  private func handleReading(_ event: InputEvent, offset: Int) -> [BrowserEffect] {
    let page = max(1, size.rows - 4)
    var next = offset
    switch event {
    case .key(let key):
      switch key.key {
      case .escape, .enter, .character("q"), .backspace: mode = .browsing
      case .down, .character("j"): next += 1
      case .up, .character("k"): next -= 1
      case .pageDown, .character(" "): next += page
      case .pageUp: next -= page
      case .home, .character("g"): next = 0
      case .end, .character("G"): next = Int.max / 2
      case .character("o"):
        if let issue = focusedIssue { return [.open(url(of: issue))] }
      case .character("y"):
        if let issue = focusedIssue { return [.copy(url(of: issue))] }
      default: break
      }
    case .mouse(let mouse) where mouse.kind == .scrollDown: next += 3
    case .mouse(let mouse) where mouse.kind == .scrollUp: next -= 3
    default: break
    }
    if case .reading = mode { mode = .reading(offset: max(0, next)) }
    return []
  }

  /// Applies the search draft now.
  func applySearch() {
    searchDeadline = nil
    let trimmed = searchDraft.trimmingCharacters(in: .whitespaces)
    let text: String? = trimmed.isEmpty ? nil : trimmed
    guard text != filter.text else { return }
    filter.text = text
    reloadListReportingErrors(countsChanged: true)
  }

  /// Keys of the label picker: arrows move, typing narrows the labels, Enter picks, Esc clears
  /// what was typed or closes.
  private func handlePicking(_ event: InputEvent) {
    guard case .key(let key) = event, key.modifiers.subtracting(.shift).isEmpty else {
      labelPicker.handle(event)
      return
    }
    switch key.key {
    case .escape:
      if labelQuery.isEmpty {
        mode = .browsing
      } else {
        labelQuery = ""
        refreshLabelOptions()
      }
    case .backspace:
      if !labelQuery.isEmpty {
        labelQuery.removeLast()
        refreshLabelOptions()
      }
    case .character(let character) where character != " ":
      labelQuery.append(character)
      refreshLabelOptions()
    default:
      labelPicker.handle(event)
    }
  }

  /// The picker's options for what was typed: "Any label", then the labels containing it.
  func refreshLabelOptions() {
    let matches = labelNames.filter {
      labelQuery.isEmpty || $0.range(of: labelQuery, options: .caseInsensitive) != nil
    }
    labelPicker.dataSource.apply(Snapshot(sections: [(0, [""] + matches)]))
    labelPicker.focus(labelQuery.isEmpty ? (filter.label ?? "") : (matches.first ?? ""))
  }

  private func openLabelPicker() {
    mode = .pickingLabel
    labelQuery = ""
    let options = [""] + labelNames
    let colors = labelColors
    labelCells.make = { _, name in
      OptionCell(text: name.isEmpty ? "Any label" : name, color: name.isEmpty ? nil : colors[name])
    }
    labelPicker.dataSource.applySnapshotUsingReloadData(Snapshot(sections: [(0, options)]))
    labelPicker.selection = .single(selected: filter.label ?? "")
    place()
    labelPicker.focus(filter.label ?? "")
  }

  /// The web page of an issue.
  func url(of issue: CachedIssue) -> String {
    issue.htmlURL ?? "https://github.com/\(repository)/issues/\(issue.number)"
  }

  /// Shows a message in the status bar for a few seconds.
  public func show(message: String) {
    flash = (message, now().addingTimeInterval(4))
  }

  /// Advances time: applies a search once typing pauses, animates the spinner, expires messages.
  public func tick() {
    let now = now()
    if let deadline = searchDeadline, now >= deadline { applySearch() }
    if let flash, now >= flash.until { self.flash = nil }
    list.tick()
  }
}
