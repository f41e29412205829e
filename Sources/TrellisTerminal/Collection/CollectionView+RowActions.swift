import Trellis

// A row's actions, opened by a key as a swipe opens them on iOS: buttons drawn over the trailing
// end of the focused row, chosen with the arrows or their number, run with Enter.

extension CollectionView {
  /// The item whose actions are open, if any.
  ///
  /// - Complexity: O(1).
  public var rowActionsItem: ItemID? { openRowActions?.item }

  /// The titles of the open actions and the index of the one the keyboard is on, if any.
  ///
  /// - Complexity: O(*a*), the open actions.
  public var rowActionsTitles: (titles: [String], selected: Int)? {
    openRowActions.map { ($0.actions.map(\.title), $0.selected) }
  }

  /// Opens the actions of an item (the focused one by default), as ``rowActionKeys`` does.
  ///
  /// - Returns: Whether any actions opened: there is a ``rowActionsProvider``, the item is in
  ///   the data, and the provider offers at least one action for it.
  /// - Complexity: O(log *n* + *v*) to bring the item into view, plus the provider's cost.
  @discardableResult
  public func showRowActions(for id: ItemID? = nil) -> Bool {
    guard let provider = rowActionsProvider, let id = id ?? focusedItem,
      dataSource.indexPath(for: id) != nil
    else { return false }
    let actions = provider(id)
    guard !actions.isEmpty else { return false }
    if id != focusedItem { focus(id) } else { scrollToItem(id) }
    openRowActions = OpenRowActions(item: id, actions: actions, selected: 0)
    return true
  }

  /// Closes the open actions without running any.
  ///
  /// - Complexity: O(1).
  public func dismissRowActions() { openRowActions = nil }

  /// Handles a key while actions are open: every key is theirs until they close.
  func handleRowActions(_ event: KeyEvent) -> Bool {
    guard var open = openRowActions else { return false }
    let count = open.actions.count
    switch event.key {
    case .tab where event.modifiers.contains(.shift):
      open.selected = (open.selected + count - 1) % count
    case .left, .up:
      open.selected = (open.selected + count - 1) % count
    case .right, .down, .tab:
      open.selected = (open.selected + 1) % count
    case .enter, .character(" "):
      return runRowAction(at: open.selected)
    case .character(let digit)
    where digit.wholeNumberValue.map { (1...count).contains($0) } ?? false:
      return runRowAction(at: (digit.wholeNumberValue ?? 1) - 1)
    case .escape, .backspace:
      openRowActions = nil
      return true
    default:
      if rowActionKeys.contains(event) { openRowActions = nil }
      return true
    }
    openRowActions = open
    return true
  }

  /// Handles a click while actions are open: on a button it runs it, anywhere else it closes them.
  func handleRowActions(_ event: MouseEvent) -> Bool {
    guard let open = openRowActions else { return false }
    guard case .press(.left) = event.kind else { return true }
    if let index = open.buttons.firstIndex(where: { $0.contains(x: event.x, y: event.y) }) {
      return runRowAction(at: index)
    }
    openRowActions = nil
    return true
  }

  private func runRowAction(at index: Int) -> Bool {
    guard let open = openRowActions, open.actions.indices.contains(index) else { return true }
    openRowActions = nil
    open.actions[index].handler()
    return true
  }

  /// Draws the open actions as buttons over the trailing end of their row, on the screen only:
  /// the view's own buffer keeps the row, so closing them costs nothing but the next frame.
  func drawRowActions(into screen: inout CellBuffer) {
    guard var open = openRowActions else { return }
    guard
      let index = drawnIndex[.item(open.item)]
        ?? drawn.firstIndex(where: { $0.key == .item(open.item) })
    else {
      open.buttons = []
      openRowActions = open
      return
    }
    let bounds = CellRect(x: 0, y: 0, width: frame.width, height: frame.height)
    let row = drawn[index].rect.intersection(bounds)
    guard !row.isEmpty else { return }
    let labels = open.actions.enumerated().map { " \($0.offset + 1) \($0.element.title) " }
    var x = row.maxX
    var buttons = [CellRect](
      repeating: CellRect(x: 0, y: 0, width: 0, height: 0), count: labels.count)
    let y = row.y + (row.height - 1) / 2
    for (position, label) in labels.enumerated().reversed() {
      let width = DisplayWidth.of(label)
      x -= width
      buttons[position] = CellRect(x: frame.x + x, y: frame.y + y, width: width, height: 1)
      x -= 1
    }
    let clip = CellRect(
      x: frame.x + row.x, y: frame.y + row.y, width: row.width, height: row.height)
    screen.draw(in: clip) { canvas in
      // The gaps between the buttons are blank, not the row showing through.
      if let first = buttons.first {
        canvas.fill(
          CellRect(
            x: first.x - clip.x, y: first.y - clip.y, width: clip.maxX - first.x, height: 1))
      }
      for (position, button) in buttons.enumerated() {
        let action = open.actions[position]
        var style =
          switch action.style {
          case .normal: Style(foreground: .white, background: .blue)
          case .destructive: Style(foreground: .white, background: .red)
          }
        if position == open.selected {
          style = style.with([.bold, .underline, .reverseWithoutColor])
        }
        canvas.text(labels[position], x: button.x - clip.x, y: button.y - clip.y, style: style)
      }
    }
    open.buttons = buttons.map { $0.intersection(clip) }
    openRowActions = open
  }
}
