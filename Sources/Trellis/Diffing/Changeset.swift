/// One stage of a ``StagedChangeset``: a batch update and the data a view shows once it is applied.
///
/// A view switches its data to ``sectionIdentifiers`` and ``itemIdentifiers`` as it begins the
/// batch update, so that the counts it reads afterwards agree with the update.
public struct Changeset<SectionID: Hashable, ItemID: Hashable> {
  /// What a stage holds; stages come in this order, and empty ones are left out.
  public enum Kind: Hashable, Sendable, CaseIterable {
    /// Section deletes and item deletes, at positions in the source.
    case deletes
    /// Section inserts and section moves; items stay in their sections.
    case sectionInsertsAndMoves
    /// Item inserts and item moves, within and across sections.
    case itemInsertsAndMoves
    /// Section reloads and item reloads and reconfigures, at positions in the target.
    case updates
  }

  /// What this stage holds.
  public var kind: Kind
  /// The index changes of this stage.
  public var update: BatchUpdate
  /// The sections once this stage is applied.
  public var sectionIdentifiers: [SectionID]
  /// The items of each section once this stage is applied, parallel to ``sectionIdentifiers``.
  public var itemIdentifiers: [[ItemID]]

  /// Creates a stage.
  public init(
    kind: Kind, update: BatchUpdate, sectionIdentifiers: [SectionID], itemIdentifiers: [[ItemID]]
  ) {
    self.kind = kind
    self.update = update
    self.sectionIdentifiers = sectionIdentifiers
    self.itemIdentifiers = itemIdentifiers
  }
}

extension Changeset: Equatable {}
extension Changeset: Sendable where SectionID: Sendable, ItemID: Sendable {}

extension Changeset: CustomStringConvertible {
  public var description: String { "\(kind): \(update)" }
}
