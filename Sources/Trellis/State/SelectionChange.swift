/// What a selection operation changed: the items to redraw, and nothing else.
///
///     var selection = SelectionModel<Int>.single(selected: 1)
///     selection.select(2)  // SelectionChange(deselected: [1], selected: [2])
///     selection.select(2)  // SelectionChange(deselected: [], selected: []) — nothing to redraw
public struct SelectionChange<ID: Hashable>: Hashable {
  /// Items that were selected and no longer are, in the order they were selected.
  public var deselected: [ID]
  /// Items that were not selected and now are.
  public var selected: [ID]

  /// Creates a change.
  public init(deselected: [ID] = [], selected: [ID] = []) {
    self.deselected = deselected
    self.selected = selected
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { deselected.isEmpty && selected.isEmpty }

  /// Every item whose appearance changed: the ones to redraw.
  public var changed: Set<ID> { Set(deselected).union(selected) }
}

extension SelectionChange: Sendable where ID: Sendable {}
