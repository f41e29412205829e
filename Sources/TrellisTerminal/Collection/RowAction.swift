/// An action offered on one row of a ``CollectionView``, as a swipe action is on iOS: a title,
/// a style, and what it does.
///
///     view.rowActionsProvider = { id in
///       [RowAction(title: "Archive") { archive(id) },
///        RowAction(title: "Delete", style: .destructive) { delete(id) }]
///     }
@MainActor
public struct RowAction {
  /// How an action is drawn.
  public enum Style: Hashable, Sendable {
    /// An ordinary action.
    case normal
    /// An action that removes or destroys something, drawn in red.
    case destructive
  }

  /// The button's label.
  public var title: String
  /// How the button is drawn.
  public var style: Style
  /// What the action does; the view closes the actions before calling it.
  public var handler: @MainActor () -> Void

  /// Creates an action.
  public init(title: String, style: Style = .normal, handler: @escaping @MainActor () -> Void) {
    self.title = title
    self.style = style
    self.handler = handler
  }
}

/// The actions shown on a row, and the one the keyboard is on.
@MainActor
struct OpenRowActions<ItemID: Hashable> {
  var item: ItemID
  var actions: [RowAction]
  var selected: Int
  /// Where each button was drawn on the screen, to find the one a click lands on.
  var buttons: [CellRect] = []
}
