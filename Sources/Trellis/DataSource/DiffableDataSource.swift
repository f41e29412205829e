/// Owns the current snapshot and keeps a view in step with it through minimal batch updates.
///
///     let dataSource = DiffableDataSource<Section, Issue.ID, IssueRow>(view: list) { path, id in
///       IssueRow(issue: issues[id]!)
///     }
///     dataSource.apply(Snapshot(sections: [(.open, openIDs), (.closed, closedIDs)]))
///
/// ``apply(_:animatingDifferences:itemUpdate:completion:)`` diffs the new snapshot against the current one
/// and hands each stage of the ``StagedChangeset`` to the view. While the view applies a stage,
/// the data source answers with exactly that stage's data, so the view and the data never disagree.
/// Views ask for cells and supplementaries by index path, and the providers receive identifiers:
/// no index arithmetic leaks into app code.
///
/// The data source is isolated to the main actor, like the view it drives; the compiler checks it.
/// The diff itself is a pure function, safe to compute anywhere.
@MainActor
public final class DiffableDataSource<SectionID: Hashable, ItemID: Hashable, Cell> {
  /// Makes the cell for an item.
  public typealias CellProvider = (_ indexPath: IndexPath, _ itemIdentifier: ItemID) -> Cell

  /// Makes a supplementary element (header, footer, badge) of a kind for a section, or `nil`.
  public typealias SupplementaryProvider =
    (_ kind: String, _ indexPath: IndexPath, _ sectionIdentifier: SectionID) -> Cell?

  /// The view this data source drives, if any.
  public weak var view: (any BatchUpdatingView)?

  let cellProvider: CellProvider

  /// Makes supplementary elements; without one, ``supplementary(ofKind:at:)`` returns `nil`.
  public var supplementaryProvider: SupplementaryProvider?

  /// The applied snapshot: the data the view shows, except during a stage with `stage` data.
  @usableFromInline var current = Snapshot<SectionID, ItemID>()

  /// The data of a stage that deletes or moves sections while the view applies it: the view reads
  /// the arrays the stage carries, so no snapshot is built for an interim state.
  @usableFromInline var stage: StageData<SectionID, ItemID>?

  /// Whether an apply is running; a second one from inside it is a programming error.
  @usableFromInline var isApplying = false

  /// Counts the changes of `current`, so that a diff computed off the main actor can tell whether
  /// the data it started from is still the data shown.
  @usableFromInline var generation: UInt64 = 0

  /// The last asynchronous apply queued; the next one waits for it, so they land in call order.
  var lastAsynchronousApply: Task<Bool, Never>?

  /// Whether a binding follows a stream of snapshots; a second one is refused.
  var isBound = false

  /// Section snapshots applied with ``apply(_:to:animatingDifferences:completion:)``, by section,
  /// while the section still shows their visible items.
  @usableFromInline var sectionSnapshots = SectionTrees<SectionID, ItemID>()

  /// Above this many items (old and new together), the asynchronous ``apply(_:animatingDifferences:)``
  /// and ``bind(_:animatingDifferences:didApply:)`` compute the diff off the main actor and apply it on it.
  public var concurrentDiffThreshold = 20_000

  /// What to do when a person moves items in the view; without `canReorderItem`, nothing moves.
  public var reorderingHandlers = ReorderingHandlers<SectionID, ItemID>()

  /// What to do when a person expands or collapses an item of a section's tree.
  public var sectionSnapshotHandlers = SectionSnapshotHandlers<ItemID>()

  /// Creates a data source for a view, with a provider of cells.
  ///
  /// - Complexity: O(1).
  public init(view: (any BatchUpdatingView)? = nil, cellProvider: @escaping CellProvider) {
    self.view = view
    self.cellProvider = cellProvider
  }

  /// A copy of the current snapshot, to change and apply.
  ///
  /// Items and sections marked for reload in the last applied snapshot have been reloaded; the copy
  /// carries no marks.
  ///
  /// - Complexity: O(1).
  public func snapshot() -> Snapshot<SectionID, ItemID> {
    guard let stage else { return current }
    // During a stage that deletes or moves sections: built once, for views that ask.
    if let built = stage.snapshot { return built }
    let built = Snapshot(sections: zip(stage.sections, stage.items))
    self.stage?.snapshot = built
    return built
  }

  /// Shows a new snapshot, updating the view with the fewest changes.
  ///
  /// The diff finds the new snapshot's items through the current snapshot's own table, and the new
  /// snapshot then becomes the current one as it is: applying builds no lookup table of its own.
  ///
  /// - Parameters:
  ///   - snapshot: The data to show.
  ///   - animatingDifferences: Whether the view should animate the changes.
  ///   - itemUpdate: For each item kept from the current snapshot and not marked in `snapshot`, how
  ///     to refresh it if its content changed, or `nil` if it did not. Without it, only the marked
  ///     items are updated.
  ///   - completion: Called once the view has applied the last stage.
  /// - Precondition: Not called from inside another apply (from the view's batch update).
  /// - Complexity: That of ``StagedChangeset/init(from:to:itemUpdate:)``, plus O(*n*), where *n*
  ///   is the number of items, for each stage that deletes items or inserts or moves sections
  ///   and is followed by one that inserts or moves items, when the view looks items up in it.
  @inlinable
  public func apply(
    _ snapshot: Snapshot<SectionID, ItemID>,
    animatingDifferences: Bool = true,
    itemUpdate: ((ItemID) -> ItemUpdate?)? = nil,
    completion: (() -> Void)? = nil
  ) {
    let changes = StagedChangeset(from: current, to: snapshot, itemUpdate: itemUpdate)
    perform(changes, reaching: snapshot.withoutMarks(), animated: animatingDifferences)
    completion?()
  }

  /// Shows new data given as sections and their items: builds the snapshot and diffs it
  /// against the current one without hashing any item twice.
  ///
  ///     dataSource.apply(sections: [(.open, openIssues), (.closed, closedIssues)])
  ///
  /// The same as `apply(Snapshot(sections: sections), …)`, for the common case of data that
  /// comes whole (a query's result, a page from the network). Building the snapshot's table
  /// hashes every item once; when the identifiers' hash is not a few cycles (anything but the
  /// integer types: strings, UUIDs, structs), those hashes are kept (4 bytes an item, until the
  /// diff ends) and the diff reads them instead of hashing the items it looks up again.
  ///
  /// - Parameters:
  ///   - sections: Each section's identifier and its items' identifiers, in order.
  ///   - animatingDifferences: Whether the view should animate the changes.
  ///   - itemUpdate: As for ``apply(_:animatingDifferences:itemUpdate:completion:)``.
  ///   - completion: Called once the view has applied the last stage.
  /// - Precondition: Section identifiers are unique, and item identifiers are unique across all
  ///   sections (as for ``Snapshot/init(sections:)``); not called from inside another apply.
  /// - Complexity: That of ``Snapshot/init(sections:)`` and
  ///   ``apply(_:animatingDifferences:itemUpdate:completion:)``, less the diff's hashing.
  @inlinable
  public func apply(
    sections: some Sequence<(SectionID, [ItemID])>,
    animatingDifferences: Bool = true,
    itemUpdate: ((ItemID) -> ItemUpdate?)? = nil,
    completion: (() -> Void)? = nil
  ) {
    let snapshot: Snapshot<SectionID, ItemID>
    let changes: StagedChangeset<SectionID, ItemID>
    if PositionTable.hashesCheaply(ItemID.self) {
      snapshot = Snapshot(sections: sections)
      changes = StagedChangeset(from: current, to: snapshot, itemUpdate: itemUpdate)
    } else {
      // The recorded hashes live until the diff ends, not while the view applies the stages.
      var hashes: [UInt32] = []
      snapshot = Snapshot(sections: sections, recordingHashes: &hashes)
      changes = StagedChangeset(
        from: current, to: snapshot, targetHashes: hashes, itemUpdate: itemUpdate)
    }
    perform(changes, reaching: snapshot, animated: animatingDifferences)
    completion?()
  }

  /// Hands each stage of a changeset to the view, switching the data at each, and ends on
  /// `target`; without a view, switches to `target` at once.
  @inlinable
  func perform(
    _ changes: StagedChangeset<SectionID, ItemID>, reaching target: Snapshot<SectionID, ItemID>,
    animated: Bool
  ) {
    beginApplying()
    defer { isApplying = false }
    generation &+= 1
    retainSectionSnapshots(matching: target)
    guard view != nil else {
      current = target
      return
    }
    // The last stage that changes the structure leaves the target's: from there on, the view
    // reads the target, whose lookup table exists, not an interim snapshot built for it.
    let lastStructural = changes.lastIndex { $0.kind != .updates }
    for (index, change) in zip(changes.indices, changes) {
      performBatch(change.update, kind: change.kind, animated: animated) {
        switch change.kind {
        case .itemInsertsAndMoves, .updates:
          stage = nil
          current = target
        case .deletes, .sectionInsertsAndMoves:
          if index == lastStructural {
            stage = nil
            current = target
          } else {
            stage = StageData(sections: change.sectionIdentifiers, items: change.itemIdentifiers)
          }
        }
      }
    }
    stage = nil
    current = target
  }

  /// Hands one batch update to the view, checking that it switches the data exactly once.
  @usableFromInline
  func performBatch(
    _ update: BatchUpdate, kind: Changeset<SectionID, ItemID>.Kind, animated: Bool,
    switchData: () -> Void
  ) {
    guard let view else {
      switchData()
      return
    }
    var updated = 0
    view.performBatchUpdates(update, animated: animated) {
      updated += 1
      switchData()
    }
    if updated != 1 {
      fatalError(
        "The view called updateData \(updated) times during a batch update (\(kind)); "
          + "it must call it exactly once.")
    }
  }

  /// Shows a new snapshot by reloading the whole view, without computing differences.
  ///
  /// - Precondition: Not called from inside an apply.
  /// - Complexity: O(1), plus the view's reload.
  public func applySnapshotUsingReloadData(
    _ snapshot: Snapshot<SectionID, ItemID>, completion: (() -> Void)? = nil
  ) {
    beginApplying()
    defer { isApplying = false }
    generation &+= 1
    current = snapshot.withoutMarks()
    retainSectionSnapshots(matching: current)
    view?.reloadData()
    completion?()
  }

  @usableFromInline
  func beginApplying() {
    if isApplying {
      fatalError(
        "apply was called while a snapshot was being applied, from inside the view's batch update; "
          + "apply snapshots one after the other.")
    }
    isApplying = true
  }

  /// The number of sections the view should show now.
  ///
  /// - Complexity: O(1).
  public var numberOfSections: Int { stage?.sections.count ?? current.numberOfSections }

  /// The number of items in the section at an index.
  ///
  /// - Precondition: `section` is in `0 ..< numberOfSections`.
  /// - Complexity: O(1).
  public func numberOfItems(inSection section: Int) -> Int {
    if let stage { return stage.items[section].count }
    return current.itemIdentifiers(inSectionAt: section).count
  }

  /// The item at an index path, or `nil` when the path is out of range.
  ///
  /// - Complexity: O(1).
  public func itemIdentifier(for indexPath: IndexPath) -> ItemID? {
    guard let stage else { return current.itemIdentifier(at: indexPath) }
    guard stage.items.indices.contains(indexPath.section),
      stage.items[indexPath.section].indices.contains(indexPath.item)
    else { return nil }
    return stage.items[indexPath.section][indexPath.item]
  }

  /// The index path of an item, or `nil` when it is not shown.
  ///
  /// - Complexity: O(1) on average. While the view applies a stage that deletes or moves
  ///   sections, the first lookup of the stage builds its table, O(*n*) in the items, once; the
  ///   next ones are O(1) on average.
  public func indexPath(for itemIdentifier: ItemID) -> IndexPath? {
    guard stage != nil else { return current.indexPath(for: itemIdentifier) }
    return snapshot().indexPath(for: itemIdentifier)
  }

  /// The section at an index, or `nil` when the index is out of range.
  ///
  /// - Complexity: O(1).
  public func sectionIdentifier(for index: Int) -> SectionID? {
    guard let stage else { return current.sectionIdentifier(at: index) }
    return stage.sections.indices.contains(index) ? stage.sections[index] : nil
  }

  /// The index of a section, or `nil` when it is not shown.
  ///
  /// - Complexity: O(1) on average. While the view applies a stage that deletes or moves
  ///   sections, the first lookup of the stage builds its table, O(*n*) in the items, once.
  public func index(for sectionIdentifier: SectionID) -> Int? {
    guard stage != nil else { return current.indexOfSection(sectionIdentifier) }
    return snapshot().indexOfSection(sectionIdentifier)
  }

  /// The cell for the item at an index path, made by the cell provider.
  ///
  /// - Precondition: The index path is in range.
  /// - Complexity: O(1), plus the cell provider's cost.
  public func cell(at indexPath: IndexPath) -> Cell {
    guard let item = itemIdentifier(for: indexPath) else {
      fatalError(
        "Index path \(indexPath) is out of range: the data source has \(numberOfSections) "
          + "sections\(sectionCountDetail(indexPath.section)).")
    }
    return cellProvider(indexPath, item)
  }

  /// The supplementary element of a kind for the section of an index path, or `nil` when there is
  /// no provider or it makes none.
  ///
  /// - Complexity: O(1), plus the supplementary provider's cost.
  public func supplementary(ofKind kind: String, at indexPath: IndexPath) -> Cell? {
    guard let provider = supplementaryProvider,
      let section = sectionIdentifier(for: indexPath.section)
    else { return nil }
    return provider(kind, indexPath, section)
  }

  private func sectionCountDetail(_ section: Int) -> String {
    guard section >= 0 && section < numberOfSections else { return "" }
    return ", and section \(section) has \(numberOfItems(inSection: section)) items"
  }
}

/// The sections and items of a stage, as the changeset carries them.
@usableFromInline
struct StageData<SectionID: Hashable, ItemID: Hashable> {
  @usableFromInline var sections: [SectionID]
  @usableFromInline var items: [[ItemID]]
  /// The same data as a snapshot, once a view asked for one.
  @usableFromInline var snapshot: Snapshot<SectionID, ItemID>?

  @inlinable init(sections: [SectionID], items: [[ItemID]]) {
    self.sections = sections
    self.items = items
  }
}

extension Snapshot {
  /// The same sections and items with no reload or reconfigure marks.
  @inlinable
  func withoutMarks() -> Snapshot {
    var copy = self
    copy._reloadedItems = MarkedIdentifiers()
    copy._reconfiguredItems = MarkedIdentifiers()
    copy._reloadedSections = MarkedIdentifiers()
    return copy
  }
}
