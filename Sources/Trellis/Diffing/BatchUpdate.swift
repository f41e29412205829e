/// A move of a section or an item from its position before a batch update to its position after.
public struct Move<Position: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
  /// The position before the update.
  public var source: Position
  /// The position after the update.
  public var target: Position

  /// Creates a move from `source` to `target`.
  @inlinable
  public init(source: Position, target: Position) {
    self.source = source
    self.target = target
  }

  public var description: String { "\(source) → \(target)" }
}

/// How a view refreshes an item whose content changed but whose identity did not.
public enum ItemUpdate: Hashable, Sendable {
  /// Replace the cell with a new one (UIKit's `reloadItems`).
  case reload
  /// Update the existing cell in place, keeping its state (UIKit's `reconfigureItems`).
  case reconfigure
}

/// The index changes that a batch-update view applies at once, with UIKit's rules.
///
/// Deletes and reloads name positions before the update, inserts name positions after it, and
/// moves go from before to after. Items in a deleted or inserted section are not listed: they go
/// and come with their section. A ``StagedChangeset`` never puts a position in two of these lists
/// (deleted and moved, reloaded and moved, deleted twice), so a view may apply them in any order
/// its engine prefers.
public struct BatchUpdate: Hashable, Sendable {
  /// Sections removed, by index before the update.
  public var sectionDeletes: [Int] = []
  /// Sections added, by index after the update.
  public var sectionInserts: [Int] = []
  /// Sections moved, from their index before the update to their index after it.
  public var sectionMoves: [Move<Int>] = []
  /// Sections whose every cell and supplementary is recreated, by index before the update.
  public var sectionReloads: [Int] = []
  /// Items removed, by index path before the update.
  public var itemDeletes: [IndexPath] = []
  /// Items added, by index path after the update.
  public var itemInserts: [IndexPath] = []
  /// Items moved, from their index path before the update to their index path after it.
  public var itemMoves: [Move<IndexPath>] = []
  /// Items whose cell is replaced, by index path before the update.
  public var itemReloads: [IndexPath] = []
  /// Items whose cell is updated in place, by index path before the update.
  public var itemReconfigures: [IndexPath] = []

  /// Creates an empty batch update.
  public init() {}

  /// Whether the update changes nothing.
  public var isEmpty: Bool { changeCount == 0 }

  /// The number of section and item changes the update holds.
  public var changeCount: Int {
    sectionDeletes.count + sectionInserts.count + sectionMoves.count + sectionReloads.count
      + itemDeletes.count + itemInserts.count + itemMoves.count + itemReloads.count
      + itemReconfigures.count
  }
}

extension BatchUpdate: CustomStringConvertible {
  public var description: String {
    var parts: [String] = []
    func add<T>(_ name: String, _ values: [T]) {
      if !values.isEmpty { parts.append("\(name): \(values)") }
    }
    add("sectionDeletes", sectionDeletes)
    add("sectionInserts", sectionInserts)
    add("sectionMoves", sectionMoves)
    add("sectionReloads", sectionReloads)
    add("itemDeletes", itemDeletes)
    add("itemInserts", itemInserts)
    add("itemMoves", itemMoves)
    add("itemReloads", itemReloads)
    add("itemReconfigures", itemReconfigures)
    return "BatchUpdate(\(parts.joined(separator: ", ")))"
  }
}
