/// The changes from one sectioned collection to another, as batch updates a view applies in order.
///
///     let changes = StagedChangeset(from: oldSnapshot, to: newSnapshot)
///     for stage in changes {
///       collectionView.performBatchUpdates(stage.update) { data = stage }
///     }
///
/// A changeset has at most four stages — deletes; section inserts and moves; item inserts and
/// moves; updates — and leaves out the empty ones, so unchanged data gives an empty changeset.
/// Each stage is valid under UIKit's batch-update rules on its own, and applying them in order to
/// the source gives the target.
///
/// Moves are minimal: the items and sections that keep their relative order form a longest
/// increasing subsequence and stay put, so moving the first of a million items to the end is one
/// move. Only an item whose old and new sections both exist on both sides can move; an item whose
/// section is deleted or inserted leaves or arrives with it.
public struct StagedChangeset<SectionID: Hashable, ItemID: Hashable> {
  /// The stages, in the order a view applies them.
  public var stages: [Changeset<SectionID, ItemID>]

  /// Creates a staged changeset from stages.
  public init(_ stages: [Changeset<SectionID, ItemID>] = []) {
    self.stages = stages
  }
}

extension StagedChangeset: RandomAccessCollection {
  public var startIndex: Int { stages.startIndex }
  public var endIndex: Int { stages.endIndex }
  public subscript(position: Int) -> Changeset<SectionID, ItemID> { stages[position] }
}

extension StagedChangeset: Equatable {}
extension StagedChangeset: Sendable where SectionID: Sendable, ItemID: Sendable {}

extension StagedChangeset {
  /// The total number of item moves over all stages.
  public var itemMoveCount: Int { stages.reduce(0) { $0 + $1.update.itemMoves.count } }

  /// The total number of section moves over all stages.
  public var sectionMoveCount: Int { stages.reduce(0) { $0 + $1.update.sectionMoves.count } }
}

extension StagedChangeset: CustomStringConvertible {
  public var description: String {
    "StagedChangeset[\(stages.map(\.description).joined(separator: "; "))]"
  }
}

/// The one section of a flat collection diffed with ``StagedChangeset/init(source:target:update:)``.
public enum SingleSection: Hashable, Sendable {
  /// The only section.
  case main
}
