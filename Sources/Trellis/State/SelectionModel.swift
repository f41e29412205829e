/// Which items are selected — none allowed, at most one, or any number — following items by
/// identity, and reporting exactly which items need redrawing after each change.
///
///     var chips = SelectionModel<Chip.ID>.single(selected: .all)
///     let change = chips.select(.milestone(3))
///     change.changed  // [.all, .milestone(3)]: redraw these two chips, nothing else
///
/// Selection belongs to identifiers, not positions: an item that moves stays selected, and
/// ``reconcile(with:)`` deselects (and reports) items that a new snapshot no longer has.
public struct SelectionModel<ID: Hashable> {
  @usableFromInline
  enum Storage {
    case disabled
    case single(ID?)
    case multiple(order: [ID], members: Set<ID>)
  }

  @usableFromInline var storage: Storage

  /// A model in which nothing can be selected.
  public static var none: SelectionModel { SelectionModel(storage: .disabled) }

  /// A model in which at most one item is selected; selecting another replaces it.
  public static func single(selected: ID? = nil) -> SelectionModel {
    SelectionModel(storage: .single(selected))
  }

  /// A model in which any number of items can be selected.
  public static func multiple(selected: [ID] = []) -> SelectionModel {
    var model = SelectionModel(storage: .multiple(order: [], members: []))
    for id in selected { _ = model.select(id) }
    return model
  }

  @usableFromInline init(storage: Storage) { self.storage = storage }

  /// How many items can be selected.
  public enum Mode: Hashable, Sendable {
    /// None.
    case none
    /// At most one.
    case single
    /// Any number.
    case multiple
  }

  /// How many items this model lets be selected.
  public var mode: Mode {
    switch storage {
    case .disabled: .none
    case .single: .single
    case .multiple: .multiple
    }
  }

  /// The selected items, in the order they were selected.
  public var selectedIdentifiers: [ID] {
    switch storage {
    case .disabled, .single(nil): []
    case .single(let id?): [id]
    case .multiple(let order, _): order
    }
  }

  /// Whether an item is selected.
  ///
  /// - Complexity: O(1) on average.
  public func isSelected(_ id: ID) -> Bool {
    switch storage {
    case .disabled: false
    case .single(let selected): selected == id
    case .multiple(_, let members): members.contains(id)
    }
  }

  /// Selects an item; in single mode, deselects the one that was selected.
  ///
  /// Selecting the selected item again changes nothing and returns an empty change. In the `none`
  /// mode nothing is selected.
  ///
  /// - Returns: The items whose appearance changed.
  /// - Complexity: O(1) on average.
  @discardableResult
  public mutating func select(_ id: ID) -> SelectionChange<ID> {
    switch storage {
    case .disabled:
      return SelectionChange()
    case .single(let selected):
      guard selected != id else { return SelectionChange() }
      storage = .single(id)
      return SelectionChange(deselected: selected.map { [$0] } ?? [], selected: [id])
    case .multiple(var order, var members):
      guard members.insert(id).inserted else { return SelectionChange() }
      order.append(id)
      storage = .multiple(order: order, members: members)
      return SelectionChange(selected: [id])
    }
  }

  /// Deselects an item, if it is selected.
  ///
  /// - Returns: The items whose appearance changed: the item, or nothing.
  /// - Complexity: O(1) on average in single mode; O(*k*) in multiple mode, where *k* is the
  ///   number of selected items.
  @discardableResult
  public mutating func deselect(_ id: ID) -> SelectionChange<ID> {
    switch storage {
    case .disabled:
      return SelectionChange()
    case .single(let selected):
      guard selected == id else { return SelectionChange() }
      storage = .single(nil)
      return SelectionChange(deselected: [id])
    case .multiple(var order, var members):
      guard members.remove(id) != nil else { return SelectionChange() }
      order.removeAll { $0 == id }
      storage = .multiple(order: order, members: members)
      return SelectionChange(deselected: [id])
    }
  }

  /// Selects an item if it is not selected, and deselects it if it is.
  ///
  /// - Returns: The items whose appearance changed.
  @discardableResult
  public mutating func toggle(_ id: ID) -> SelectionChange<ID> {
    isSelected(id) ? deselect(id) : select(id)
  }

  /// Deselects every item.
  ///
  /// - Returns: The items whose appearance changed: every item that was selected.
  @discardableResult
  public mutating func deselectAll() -> SelectionChange<ID> {
    let previous = selectedIdentifiers
    switch storage {
    case .disabled: break
    case .single: storage = .single(nil)
    case .multiple: storage = .multiple(order: [], members: [])
    }
    return SelectionChange(deselected: previous)
  }

  /// Deselects the items that a new snapshot no longer contains; moved items stay selected.
  ///
  /// - Returns: The items deselected because they are gone.
  /// - Complexity: O(*k*) on average, where *k* is the number of selected items.
  @discardableResult
  public mutating func reconcile<SectionID>(
    with snapshot: Snapshot<SectionID, ID>
  ) -> SelectionChange<ID> {
    let gone = selectedIdentifiers.filter { !snapshot.contains(item: $0) }
    guard !gone.isEmpty else { return SelectionChange() }
    for id in gone { deselect(id) }
    return SelectionChange(deselected: gone)
  }
}

extension SelectionModel: Equatable {
  /// Two models are equal when they have the same mode and the same selected items in the same order.
  public static func == (lhs: SelectionModel, rhs: SelectionModel) -> Bool {
    lhs.mode == rhs.mode && lhs.selectedIdentifiers == rhs.selectedIdentifiers
  }
}

extension SelectionModel: Sendable where ID: Sendable {}
extension SelectionModel.Storage: Sendable where ID: Sendable {}

extension SelectionModel: CustomStringConvertible {
  public var description: String { "SelectionModel.\(mode)(\(selectedIdentifiers))" }
}
