/// The items of one section as a tree that can be expanded and collapsed: an outline, a file
/// browser, issues with their sub-issues.
///
///     var outline = SectionSnapshot<String>()
///     outline.append(["Fruit", "Vegetables"])
///     outline.append(["Apple", "Pear"], to: "Fruit")
///     outline.expand(["Fruit"])
///     outline.visibleItems  // ["Fruit", "Apple", "Pear", "Vegetables"]
///     dataSource.apply(outline, to: .main)
///
/// A section snapshot is the `NSDiffableDataSourceSectionSnapshot` of this package. The section
/// shows only the visible items: those whose ancestors are all expanded.
/// ``DiffableDataSource/apply(_:to:animatingDifferences:completion:)`` turns an expansion or a
/// collapse into one batch update of the rows that appear or disappear.
///
/// Items are unique in a section snapshot, every item has at most one parent, and a parent is in
/// the snapshot before its children are added: adding an item twice, or under a parent that is
/// not there, stops the program with a message naming the item, as ``Snapshot`` does for
/// duplicates. So a tree can never hold a cycle.
///
/// Items are stored in depth-first order with their depth, so `visibleItems` is a scan and
/// building a tree top down (append a parent, then its children) costs O(1) per item.
public struct SectionSnapshot<ItemID: Hashable> {
  /// Where an item sits in the tree.
  @usableFromInline
  struct Node {
    @inlinable init(parent: ItemID?, level: Int) {
      self.parent = parent
      self.level = level
    }

    /// Its parent, or `nil` for a root.
    @usableFromInline var parent: ItemID?
    /// Its depth: 0 for a root.
    @usableFromInline var level: Int
  }

  /// Every item, in depth-first order: a parent, then its subtree, then its next sibling.
  @usableFromInline var _items: [ItemID] = []
  /// The depth of each item of `_items`, at the same index.
  @usableFromInline var _levels: [Int] = []
  /// Each item's parent and depth.
  @usableFromInline var _nodes: [ItemID: Node] = [:]
  /// The expanded items; an item without children may be expanded too, for when it gets some.
  @usableFromInline var _expanded: Set<ItemID> = []

  /// Creates an empty section snapshot.
  ///
  /// - Complexity: O(1).
  @inlinable public init() {}

  /// Every item, parents before their children, whatever is expanded.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var items: [ItemID] { _items }

  /// The items with no parent, in order.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public var rootItems: [ItemID] {
    var roots: [ItemID] = []
    for index in _items.indices where _levels[index] == 0 { roots.append(_items[index]) }
    return roots
  }

  /// The items the section shows: those whose ancestors are all expanded, in order.
  ///
  /// - Complexity: O(*n*), with one set lookup per item that has children.
  @inlinable
  public var visibleItems: [ItemID] {
    var visible: [ItemID] = []
    visible.reserveCapacity(_items.count)
    var index = 0
    while index < _items.count {
      visible.append(_items[index])
      index = _isExpandedParent(at: index) ? index + 1 : _subtreeEnd(of: index)
    }
    return visible
  }

  /// Whether the item at `index` has children shown when it is: it is expanded.
  @inlinable
  func _isExpandedParent(at index: Int) -> Bool {
    index + 1 >= _items.count || _levels[index + 1] <= _levels[index]
      || _expanded.contains(_items[index])
  }

  /// The index just past the subtree of the item at `index`.
  @inlinable
  func _subtreeEnd(of index: Int) -> Int {
    let level = _levels[index]
    var end = index + 1
    while end < _items.count && _levels[end] > level { end += 1 }
    return end
  }

  /// Whether the snapshot holds an item.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func contains(_ item: ItemID) -> Bool { _nodes[item] != nil }

  /// The depth of an item: 0 for a root, 1 for its children, and so on.
  ///
  /// - Precondition: The snapshot holds `item`.
  /// - Complexity: O(1) on average.
  @inlinable
  public func level(of item: ItemID) -> Int { _node(item, "to find the level of").level }

  /// The parent of an item, or `nil` for a root.
  ///
  /// - Precondition: The snapshot holds `item`.
  /// - Complexity: O(1) on average.
  @inlinable
  public func parent(of item: ItemID) -> ItemID? { _node(item, "to find the parent of").parent }

  /// The position of an item in ``items``, or `nil` when the snapshot does not hold it.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public func index(of item: ItemID) -> Int? {
    _nodes[item] == nil ? nil : _items.firstIndex(of: item)
  }

  /// The expanded items, in the tree's depth-first order: those whose children show when they
  /// do (an item without children may be expanded too, for when it gets some).
  ///
  /// - Complexity: O(*n*), where *n* is the number of items.
  @inlinable
  public var expandedItems: [ItemID] {
    guard !_expanded.isEmpty else { return [] }
    return _items.filter { _expanded.contains($0) }
  }

  /// Whether an item is expanded.
  ///
  /// - Precondition: The snapshot holds `item`.
  /// - Complexity: O(1) on average.
  @inlinable
  public func isExpanded(_ item: ItemID) -> Bool {
    _ = _node(item, "to check the expansion of")
    return _expanded.contains(item)
  }

  /// Whether an item is shown: all its ancestors are expanded.
  ///
  /// - Precondition: The snapshot holds `item`.
  /// - Complexity: O(depth).
  @inlinable
  public func isVisible(_ item: ItemID) -> Bool {
    var ancestor = _node(item, "to check the visibility of").parent
    while let current = ancestor {
      guard _expanded.contains(current) else { return false }
      ancestor = _nodes[current]?.parent
    }
    return true
  }

  /// The children of an item, or the roots for `nil`, in order.
  ///
  /// - Precondition: The snapshot holds `parent`.
  /// - Complexity: O(*n*) to find the parent and walk its subtree.
  @inlinable
  public func children(of parent: ItemID?) -> [ItemID] {
    guard let parent else { return rootItems }
    let start = _position(of: parent, "to list the children of")
    let level = _levels[start] + 1
    var children: [ItemID] = []
    for index in (start + 1)..<_subtreeEnd(of: start) where _levels[index] == level {
      children.append(_items[index])
    }
    return children
  }

  /// A section snapshot of a parent's subtree, with or without the parent itself; its items keep
  /// their expansion.
  ///
  /// - Precondition: The snapshot holds `parent`.
  /// - Complexity: O(*n*) to find the parent, plus O(*k*) for its *k*-item subtree.
  @inlinable
  public func snapshot(of parent: ItemID, includingParent: Bool = false) -> SectionSnapshot {
    let start = _position(of: parent, "to take the subtree of")
    let first = includingParent ? start : start + 1
    let base = _levels[start] + (includingParent ? 0 : 1)
    var result = SectionSnapshot()
    for index in first..<_subtreeEnd(of: start) {
      let item = _items[index]
      let level = _levels[index] - base
      result._items.append(item)
      result._levels.append(level)
      let parent = level == 0 ? nil : _nodes[item]?.parent
      result._nodes[item] = Node(parent: parent, level: level)
      if _expanded.contains(item) { result._expanded.insert(item) }
    }
    return result
  }

  // MARK: Changing the tree

  /// Reserves room for `count` items, so that building a large tree does not grow its storage
  /// and index step by step.
  ///
  /// - Complexity: O(*n*) when the storage grows, O(1) otherwise.
  @inlinable
  public mutating func reserveCapacity(_ count: Int) {
    _items.reserveCapacity(count)
    _levels.reserveCapacity(count)
    _nodes.reserveCapacity(count)
  }

  /// Adds items at the end of a parent's children, or as the last roots when `parent` is `nil`.
  ///
  /// - Precondition: None of `items` is in the snapshot or twice in `items`; the snapshot holds
  ///   `parent`.
  /// - Complexity: O(*k*) when `parent` is `nil` or its subtree ends the snapshot (building top
  ///   down); otherwise O(*n*) to make room.
  @inlinable
  public mutating func append(_ items: [ItemID], to parent: ItemID? = nil) {
    let (position, level) = _insertionPoint(atEndOf: parent)
    _insert(items, at: position, level: level, parent: parent)
  }

  /// Adds items as siblings just before another item.
  ///
  /// - Precondition: None of `items` is in the snapshot or twice in `items`; the snapshot holds
  ///   `sibling`.
  /// - Complexity: O(*n* + *k*) for *k* new items: finding the sibling and making room.
  @inlinable
  public mutating func insert(_ items: [ItemID], before sibling: ItemID) {
    let position = _position(of: sibling, "to insert before")
    _insert(items, at: position, level: _levels[position], parent: _nodes[sibling]?.parent)
  }

  /// Adds items as siblings just after another item and its subtree.
  ///
  /// - Precondition: None of `items` is in the snapshot or twice in `items`; the snapshot holds
  ///   `sibling`.
  /// - Complexity: O(*n* + *k*) for *k* new items: finding the sibling and making room.
  @inlinable
  public mutating func insert(_ items: [ItemID], after sibling: ItemID) {
    let position = _position(of: sibling, "to insert after")
    _insert(
      items, at: _subtreeEnd(of: position), level: _levels[position],
      parent: _nodes[sibling]?.parent)
  }

  /// Adds a whole tree at the end of a parent's children (or as roots): its roots become the
  /// parent's children, its expansion is kept.
  ///
  /// - Precondition: No item of `subtree` is in this snapshot; the snapshot holds `parent`.
  /// - Complexity: O(*n* + *k*) for a *k*-item subtree; O(*k*) when `parent` is `nil`.
  @inlinable
  public mutating func append(_ subtree: SectionSnapshot, to parent: ItemID? = nil) {
    let (position, level) = _insertionPoint(atEndOf: parent)
    _insert(subtree, at: position, level: level, parent: parent)
  }

  /// Adds a whole tree as siblings just before another item.
  ///
  /// - Precondition: No item of `subtree` is in this snapshot; the snapshot holds `sibling`.
  /// - Complexity: O(*n* + *k*) for a *k*-item subtree.
  @inlinable
  public mutating func insert(_ subtree: SectionSnapshot, before sibling: ItemID) {
    let position = _position(of: sibling, "to insert before")
    _insert(subtree, at: position, level: _levels[position], parent: _nodes[sibling]?.parent)
  }

  /// Adds a whole tree as siblings just after another item and its subtree.
  ///
  /// - Precondition: No item of `subtree` is in this snapshot; the snapshot holds `sibling`.
  /// - Complexity: O(*n* + *k*) for a *k*-item subtree.
  @inlinable
  public mutating func insert(_ subtree: SectionSnapshot, after sibling: ItemID) {
    let position = _position(of: sibling, "to insert after")
    _insert(
      subtree, at: _subtreeEnd(of: position), level: _levels[position],
      parent: _nodes[sibling]?.parent)
  }

  /// Replaces the children of a parent (and their subtrees) with the roots of another tree.
  ///
  /// - Precondition: The snapshot holds `parent`; no item of `subtree` is in this snapshot
  ///   outside the replaced children.
  /// - Complexity: O(*n* + *k*) for a *k*-item subtree.
  @inlinable
  public mutating func replace(childrenOf parent: ItemID, using subtree: SectionSnapshot) {
    delete(children(of: parent))
    append(subtree, to: parent)
  }

  /// Removes items with their subtrees; items not in the snapshot are ignored.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public mutating func delete(_ items: [ItemID]) {
    if items.count <= 8 {
      // A few items (a row closed, an issue moved): each found by a scan that compares items
      // rather than a pass that hashes every one.
      for item in items where _nodes[item] != nil {
        let start = _position(of: item, "to delete")
        let end = _subtreeEnd(of: start)
        for removed in _items[start..<end] {
          _nodes[removed] = nil
          _expanded.remove(removed)
        }
        _items.removeSubrange(start..<end)
        _levels.removeSubrange(start..<end)
      }
      return
    }
    let doomed = Set(items.filter { _nodes[$0] != nil })
    guard !doomed.isEmpty else { return }
    var keptItems: [ItemID] = []
    var keptLevels: [Int] = []
    keptItems.reserveCapacity(_items.count)
    keptLevels.reserveCapacity(_items.count)
    var index = 0
    while index < _items.count {
      let item = _items[index]
      if doomed.contains(item) {
        let end = _subtreeEnd(of: index)
        for removed in _items[index..<end] {
          _nodes[removed] = nil
          _expanded.remove(removed)
        }
        index = end
      } else {
        keptItems.append(item)
        keptLevels.append(_levels[index])
        index += 1
      }
    }
    _items = keptItems
    _levels = keptLevels
  }

  /// Removes every item.
  ///
  /// - Complexity: O(1), plus releasing the storage when no copy shares it.
  @inlinable
  public mutating func deleteAll() { self = SectionSnapshot() }

  // MARK: Expanding and collapsing

  /// Expands items, so that their children show when they do.
  ///
  /// - Precondition: The snapshot holds every item.
  /// - Complexity: O(*k*) on average for *k* items.
  @inlinable
  public mutating func expand(_ items: [ItemID]) {
    for item in items {
      _ = _node(item, "to expand")
      _expanded.insert(item)
    }
  }

  /// Collapses items, hiding their subtrees; a subtree keeps its own expansion for next time.
  ///
  /// - Precondition: The snapshot holds every item.
  /// - Complexity: O(*k*) on average for *k* items.
  @inlinable
  public mutating func collapse(_ items: [ItemID]) {
    for item in items {
      _ = _node(item, "to collapse")
      _expanded.remove(item)
    }
  }

  /// The tree as text, one item per line, indented by level, with `+` for collapsed parents,
  /// `-` for expanded ones: for tests and debugging.
  ///
  /// - Complexity: O(*n*).
  public func visualDescription() -> String {
    var lines: [String] = []
    for index in _items.indices {
      let hasChildren = index + 1 < _items.count && _levels[index + 1] > _levels[index]
      let marker = hasChildren ? (_expanded.contains(_items[index]) ? "- " : "+ ") : "  "
      lines.append(String(repeating: "  ", count: _levels[index]) + marker + "\(_items[index])")
    }
    return lines.joined(separator: "\n")
  }

  // MARK: Internals

  @inlinable
  func _node(_ item: ItemID, _ role: StaticString) -> Node {
    guard let node = _nodes[item] else {
      fatalError("Item identifier \(item) \(role) is not in the section snapshot.")
    }
    return node
  }

  /// The position of an item, searching from the end, where building top down adds.
  @inlinable
  func _position(of item: ItemID, _ role: StaticString) -> Int {
    _ = _node(item, role)
    guard let position = _items.lastIndex(of: item) else {
      fatalError("Section snapshot storage lost item \(item); this is a bug in Trellis.")
    }
    return position
  }

  /// Where new children of `parent` go, and their level.
  @inlinable
  func _insertionPoint(atEndOf parent: ItemID?) -> (position: Int, level: Int) {
    guard let parent else { return (_items.count, 0) }
    let position = _position(of: parent, "to append children to")
    return (_subtreeEnd(of: position), _levels[position] + 1)
  }

  /// Records a new item's node, stopping with a precise message if the item is already in the
  /// snapshot (it would have two parents, or be its own ancestor): one lookup of the item.
  @inlinable
  mutating func _addNode(_ item: ItemID, parent: ItemID?, level: Int) {
    guard let existing = _nodes.updateValue(Node(parent: parent, level: level), forKey: item)
    else { return }
    _nodes[item] = existing
    _requireNew(item, parent: parent)
  }

  /// Stops with a precise message if an item is already in the snapshot (it would have two
  /// parents, or be its own ancestor).
  @inlinable
  func _requireNew(_ item: ItemID, parent: ItemID?) {
    guard let existing = _nodes[item] else { return }
    let place = existing.parent.map { "under \($0)" } ?? "a root item"
    let cycle = parent.map { isInSubtree($0, of: item) } ?? false
    fatalError(
      "Item identifier \(item) is already in the section snapshot, \(place); "
        + (cycle
          ? "adding it under \(parent.map { "\($0)" } ?? "") would make it its own ancestor."
          : "an item can be in a section snapshot once, under one parent."))
  }

  /// Whether `item` is `ancestor` or below it.
  @inlinable
  func isInSubtree(_ item: ItemID, of ancestor: ItemID) -> Bool {
    var current: ItemID? = item
    while let node = current {
      if node == ancestor { return true }
      current = _nodes[node]?.parent
    }
    return false
  }

  @inlinable
  mutating func _insert(_ items: [ItemID], at position: Int, level: Int, parent: ItemID?) {
    _nodes.reserveCapacity(_nodes.count + items.count)
    for item in items { _addNode(item, parent: parent, level: level) }
    if position == _items.count {
      _items.append(contentsOf: items)
      _levels.append(contentsOf: repeatElement(level, count: items.count))
    } else {
      _items.insert(contentsOf: items, at: position)
      _levels.insert(contentsOf: repeatElement(level, count: items.count), at: position)
    }
  }

  @inlinable
  mutating func _insert(
    _ subtree: SectionSnapshot, at position: Int, level: Int, parent: ItemID?
  ) {
    _nodes.reserveCapacity(_nodes.count + subtree._items.count)
    for (index, item) in subtree._items.enumerated() {
      let depth = subtree._levels[index]
      let itemParent = depth == 0 ? parent : subtree._nodes[item]?.parent
      _addNode(item, parent: itemParent, level: level + depth)
    }
    let levels = subtree._levels.map { $0 + level }
    _items.insert(contentsOf: subtree._items, at: position)
    _levels.insert(contentsOf: levels, at: position)
    _expanded.formUnion(subtree._expanded)
  }
}

extension SectionSnapshot: Equatable {
  /// Whether two section snapshots hold the same tree, in the same order, with the same items
  /// expanded.
  ///
  /// - Complexity: O(*n*).
  public static func == (lhs: SectionSnapshot, rhs: SectionSnapshot) -> Bool {
    lhs._items == rhs._items && lhs._levels == rhs._levels && lhs._expanded == rhs._expanded
  }
}

extension SectionSnapshot: Sendable where ItemID: Sendable {}
extension SectionSnapshot.Node: Sendable where ItemID: Sendable {}

extension SectionSnapshot: CustomStringConvertible {
  /// The tree as ``visualDescription()`` draws it.
  ///
  /// - Complexity: O(*n*).
  public var description: String { "SectionSnapshot(\n\(visualDescription())\n)" }
}
