import TrellisTerminal

// The browser on the screen plan: its handle, tick, resize and render are the protocol's.

extension IssueBrowser: Screen {
  /// Where the accessible mode puts the terminal's cursor: on the focused row or chip, on the
  /// reader's first line, at the end of the search typed, on the label picked.
  public var cursorPosition: CellPoint? {
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
    case .help: return CellPoint(x: 2, y: 1)
    }
  }
}
