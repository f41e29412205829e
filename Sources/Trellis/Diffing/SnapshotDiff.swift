// The diff: from a source to a target sectioned collection, a staged changeset whose stages a
// batch-update view accepts one after the other, with the fewest moves.
//
// Read top-down: the public entry points, then `stagedDiff`, one commented block per stage.

extension StagedChangeset {
  /// Computes the changes from one snapshot to another.
  ///
  ///     let changes = StagedChangeset(from: old, to: new) { id in
  ///       oldModels[id] == newModels[id] ? nil : .reconfigure
  ///     }
  ///
  /// Identity is the identifier: an item with the same identifier on both sides is the same item,
  /// kept or moved. Items marked in `target` with ``Snapshot/reloadItems(_:)`` or
  /// ``Snapshot/reconfigureItems(_:)`` and sections marked with ``Snapshot/reloadSections(_:)``
  /// are updated; so is every other kept item for which `itemUpdate` returns an update.
  ///
  /// - Parameters:
  ///   - source: The snapshot the view shows now.
  ///   - target: The snapshot to show.
  ///   - itemUpdate: Called for each item present on both sides and not already marked: how to
  ///     refresh it if its content changed, or `nil` if it did not. Without it, only the marked
  ///     items are updated, each found through the two snapshots' tables (so marks cost what the
  ///     marked items cost, not a question per kept item), and two snapshots with the same
  ///     identifiers cost one comparison of their identifier arrays.
  /// - Complexity: O(*n* + *k* log *k*) on average, where *n* is the number of sections and items
  ///   of both snapshots and *k* the number of items between the common prefix and suffix of
  ///   their section; O(*n*) when few items move. Besides the changeset, the diff holds a few 32-bit
  ///   indexes per item between the common prefixes and suffixes (where each item was and will
  ///   be, and the longest-increasing-subsequence pass), and builds no lookup table: it uses the
  ///   source snapshot's.
  ///
  ///   At its peak, a diff of two 1,000,000-item snapshots with 10% of the items each deleted,
  ///   inserted and moved holds about 29 to 35 MB above its input (`trellis-bench peer`;
  ///   DifferenceKit's `StagedChangeset(source:target:)` holds about 117 MB for the same
  ///   arrays): where each target item came from (a 32-bit index per item, 4 MB), the
  ///   longest-increasing-subsequence pass run over those indexes in place (a predecessor per
  ///   item and the tails with their values, up to 12 MB), the source's items once the deletes
  ///   are applied — what the first stage leaves the view showing — (8 MB for `Int`
  ///   identifiers), the matched positions and the run's marks (a bit each), and the
  ///   changeset's index paths.
  @inlinable
  public init(
    from source: Snapshot<SectionID, ItemID>,
    to target: Snapshot<SectionID, ItemID>,
    itemUpdate: ((ItemID) -> ItemUpdate?)? = nil
  ) {
    self.init(from: source, to: target, targetHashes: nil, itemUpdate: itemUpdate)
  }

  /// ``init(from:to:itemUpdate:)``, with the low 32 bits of each target item's table hash in
  /// position order when they were recorded while the target's table was built, so that no item
  /// is hashed twice.
  @inlinable
  init(
    from source: Snapshot<SectionID, ItemID>,
    to target: Snapshot<SectionID, ItemID>,
    targetHashes: [UInt32]?,
    itemUpdate: ((ItemID) -> ItemUpdate?)?
  ) {
    precondition(
      targetHashes.map { $0.count == target.numberOfItems } ?? true,
      "\(targetHashes?.count ?? 0) hashes given for \(target.numberOfItems) items.")
    let reloaded = target._reloadedItems
    let reconfigured = target._reconfiguredItems
    let reloadedSections = target._reloadedSections
    let hasMarks = !reloaded.isEmpty || !reconfigured.isEmpty
    var locator = SnapshotItemLocator(source)
    // Marks alone are found through the snapshots' tables, at the cost of the marked items, not
    // by asking about every kept item.
    var marked = BatchUpdate()
    if hasMarks && itemUpdate == nil {
      // A kept item: in both snapshots, in sections present on both sides (items of inserted or
      // deleted sections are inserted or deleted with them), outside reloaded sections.
      func note(_ item: ItemID, _ update: ItemUpdate) {
        guard let path = target.indexPath(for: item),
          case let section = target._sections[path.section],
          !reloadedSections.contains(section), source.contains(section: section),
          let sourcePath = source.indexPath(for: item),
          target.contains(section: source._sections[sourcePath.section])
        else { return }
        switch update {
        case .reload: marked.itemReloads.append(path)
        case .reconfigure: marked.itemReconfigures.append(path)
        }
      }
      for item in reloaded.ordered { note(item, .reload) }
      for item in reconfigured.ordered where !reloaded.contains(item) { note(item, .reconfigure) }
      marked.itemReloads.sort()
      marked.itemReconfigures.sort()
    }
    func diff(_ targetHashes: UnsafeBufferPointer<UInt32>?) -> Self {
      stagedDiff(
        sourceSections: source._sections, sourceItems: source._items,
        targetSections: target._sections, targetItems: target._items,
        sourceSectionIndex: { source._sectionIndexes[$0] },
        locator: &locator,
        isSectionReloaded: { !reloadedSections.isEmpty && reloadedSections.contains($0) },
        checksItemUpdates: itemUpdate != nil,
        markedUpdates: marked,
        targetHashes: targetHashes,
        itemUpdate: { item, _, _ in
          if hasMarks {
            if reloaded.contains(item) { return .reload }
            if reconfigured.contains(item) { return .reconfigure }
          }
          return itemUpdate?(item)
        })
    }
    // 32 bits of hash choose a slot only in a table of at most 2^32 slots.
    if let targetHashes, source._itemTable.slots.count <= 1 << 32 {
      self = targetHashes.withUnsafeBufferPointer { diff($0) }
    } else {
      self = diff(nil)
    }
  }
}

extension StagedChangeset where SectionID == SingleSection {
  /// Computes the changes from one flat collection of identifiable elements to another.
  ///
  ///     let changes = StagedChangeset(source: oldIssues, target: newIssues) {
  ///       $0.title == $1.title && $0.state == $1.state
  ///     }
  ///
  /// Elements with the same `id` are the same element; one whose content differs (as
  /// `isContentEqual` tells) is refreshed with `update`. Index paths are in section 0.
  ///
  /// - Parameters:
  ///   - source: The elements the view shows now.
  ///   - target: The elements to show.
  ///   - update: How to refresh an element whose content changed.
  ///   - isContentEqual: Whether two elements with the same identifier look the same.
  /// - Precondition: Identifiers are unique within each collection. Unchanged input costs one
  ///   comparison pass, so not every duplicate is looked for. The diff traps, naming the
  ///   identifier, on one that occurs twice in the target outside the common prefix and suffix of
  ///   the two collections (items there are matched by position), and on one that occurs twice in
  ///   the source between them once the diff has built its table there (after its first few
  ///   lookups, which scan). A duplicate it does not report — inside the common prefix or suffix,
  ///   or in a source whose few lookups were answered by scans — still gives a valid changeset:
  ///   each source position is matched at most once, so the stages turn the source into the
  ///   target.
  /// - Complexity: O(*n* + *k* log *k*) on average, where *n* is the number of elements and *k*
  ///   the number between the common prefix and suffix; O(*n*) when few elements move.
  @inlinable
  public init<C: Collection>(
    source: C, target: C, update: ItemUpdate = .reload,
    isContentEqual: (C.Element, C.Element) -> Bool
  ) where C.Element: Identifiable, C.Element.ID == ItemID {
    let source = Array(source)
    let target = Array(target)
    // Unchanged data is the common case: confirm it without building identifier arrays.
    if source.count == target.count,
      zip(source, target).allSatisfy({ $0.id == $1.id && isContentEqual($0, $1) })
    {
      self.init([])
      return
    }
    var locator = FlatItemLocator<ItemID>()
    self = stagedDiff(
      sourceSections: [.main], sourceItems: [identifiers(of: source)],
      targetSections: [.main], targetItems: [identifiers(of: target)],
      sourceSectionIndex: { _ in 0 },
      locator: &locator,
      isSectionReloaded: { _ in false },
      checksItemUpdates: true,
      markedUpdates: BatchUpdate(),
      itemUpdate: { _, sourceIndex, targetIndex in
        isContentEqual(source[sourceIndex.item], target[targetIndex.item]) ? nil : update
      })
  }

  /// Computes the changes from one flat collection of identifiable, equatable elements to another;
  /// elements with the same `id` that are not equal are refreshed with `update`.
  ///
  /// - Complexity: O(*n* + *k* log *k*) on average, where *n* is the number of elements and *k*
  ///   the number between the common prefix and suffix.
  @inlinable
  public init<C: Collection>(source: C, target: C, update: ItemUpdate = .reload)
  where C.Element: Identifiable & Equatable, C.Element.ID == ItemID {
    self.init(source: source, target: target, update: update, isContentEqual: ==)
  }
}

/// The diff itself, shared by every entry point.
///
/// `sourceSectionIndex` finds a section in the source; `locator` finds items of the source;
/// `isSectionReloaded` tells whether a target section is marked for reload; `itemUpdate` says how
/// to refresh an item kept from source to target (given its identifier and its source and target
/// index paths), or `nil`. With `checksItemUpdates` false, `itemUpdate` is never called.
/// `markedUpdates` holds item reloads and reconfigures found by the caller (sorted target index
/// paths of kept items); they join the updates stage.
///
/// The steps, each a function of its own that tests reach: match the sections
/// (``SectionMatching``), the section stages, the windows between common prefixes and suffixes
/// (``DiffWindows``), the lookup of every target item in the source (``locateTargetItems``),
/// the item deletes, the item inserts, moves and updates (``itemStages``), and the assembly of
/// the stages with the data each leaves the view showing (``assembleStages``).
@inlinable
func stagedDiff<SectionID: Hashable, ItemID: Hashable, Locator: ItemLocator>(
  sourceSections: [SectionID], sourceItems: [[ItemID]],
  targetSections: [SectionID], targetItems: [[ItemID]],
  sourceSectionIndex: (SectionID) -> Int?,
  locator: inout Locator,
  isSectionReloaded: (SectionID) -> Bool,
  checksItemUpdates: Bool,
  markedUpdates: BatchUpdate,
  targetHashes: UnsafeBufferPointer<UInt32>? = nil,
  itemUpdate: (ItemID, IndexPath, IndexPath) -> ItemUpdate?
) -> StagedChangeset<SectionID, ItemID> where Locator.ItemID == ItemID {
  let matching = SectionMatching(
    sourceCount: sourceSections.count, targetSections: targetSections,
    sourceSectionIndex: sourceSectionIndex)
  var (deletes, sectionChanges) = matching.sectionStages()
  let windows = DiffWindows(sourceItems: sourceItems, targetItems: targetItems, matching: matching)
  locator.prepare(sourceItems: sourceItems, windows: windows.sourceWindows)
  var (sourceSlot, matched) = locateTargetItems(
    sourceItems: sourceItems, targetItems: targetItems, matching: matching, windows: windows,
    locator: &locator, targetHashes: targetHashes)
  appendItemDeletes(to: &deletes, matching: matching, windows: windows, matched: matched)
  matched.finish()
  var (itemChanges, updates) = itemStages(
    targetSections: targetSections, sourceItems: sourceItems, targetItems: targetItems,
    matching: matching, windows: windows, sourceSlot: sourceSlot, matched: matched,
    isSectionReloaded: isSectionReloaded, checksItemUpdates: checksItemUpdates,
    itemUpdate: itemUpdate)
  updates.itemReloads.append(contentsOf: markedUpdates.itemReloads)
  updates.itemReconfigures.append(contentsOf: markedUpdates.itemReconfigures)
  return assembleStages(
    sourceSections: sourceSections, sourceItems: sourceItems, targetSections: targetSections,
    targetItems: targetItems, matching: matching, windows: windows, matched: matched,
    deletes: deletes, sectionChanges: sectionChanges, itemChanges: itemChanges, updates: updates)
}

/// How the sections of the source and the target correspond, by identifier.
@usableFromInline
struct SectionMatching {
  /// Each source section's index in the target, or -1 when it is deleted.
  @usableFromInline var sourceToTarget: [Int]
  /// Each target section's index in the source, or -1 when it is inserted.
  @usableFromInline var targetToSource: [Int]

  @inlinable
  init<SectionID>(
    sourceCount: Int, targetSections: [SectionID], sourceSectionIndex: (SectionID) -> Int?
  ) {
    sourceToTarget = [Int](repeating: -1, count: sourceCount)
    targetToSource = [Int](repeating: -1, count: targetSections.count)
    for (target, section) in targetSections.enumerated() {
      if let source = sourceSectionIndex(section) {
        targetToSource[target] = source
        sourceToTarget[source] = target
      }
    }
  }

  /// The section changes of the 1st and 2nd stages.
  ///
  /// The 1st stage's section deletes (source indexes; item deletes join later), and the 2nd
  /// stage: section inserts (target indexes) and moves (from the index after the deletes to the
  /// target index). Sections on a longest increasing run stay put.
  @inlinable
  func sectionStages() -> (deletes: BatchUpdate, sectionChanges: BatchUpdate) {
    let sourceCount = sourceToTarget.count
    var deletes = BatchUpdate()
    // The index of each surviving source section once the deleted ones are gone.
    var survivingIndex = [Int](repeating: -1, count: sourceCount)
    var survivors = 0
    for source in 0..<sourceCount {
      if sourceToTarget[source] < 0 {
        deletes.sectionDeletes.append(source)
      } else {
        survivingIndex[source] = survivors
        survivors += 1
      }
    }
    var sectionChanges = BatchUpdate()
    var keptSectionOrder: [Int] = []
    var keptSectionTargets: [Int] = []
    for target in targetToSource.indices {
      let source = targetToSource[target]
      if source < 0 {
        sectionChanges.sectionInserts.append(target)
      } else {
        keptSectionOrder.append(survivingIndex[source])
        keptSectionTargets.append(target)
      }
    }
    let keptSectionsInPlace = keptSectionOrder.map { Int32(truncatingIfNeeded: $0) }
      .withUnsafeBufferPointer { longestIncreasingSubsequence($0, among: 0..<Int32.max) }
    for position in keptSectionOrder.indices
    where !isOnSubsequence(keptSectionsInPlace, position) {
      sectionChanges.sectionMoves.append(
        Move(source: keptSectionOrder[position], target: keptSectionTargets[position]))
    }
    return (deletes, sectionChanges)
  }
}

/// The part of each kept section that is diffed.
///
/// Items at its start and end that are the same on both sides are kept in place without a
/// lookup, and only the window between them is looked up.
/// The windows of all sections are laid end to end; a source item's *slot* is its position there.
@usableFromInline
struct DiffWindows {
  /// Per source section: the length of the common prefix and suffix with its target section.
  @usableFromInline var prefix: [Int]
  @usableFromInline var suffix: [Int]
  /// Per source section: its window (empty for deleted sections).
  @usableFromInline var sourceWindows: [Range<Int>]
  /// Where each source section's window starts among all of them; one more entry, the total.
  @usableFromInline var sourceWindowStart: [Int]
  /// The same for the target sections.
  @usableFromInline var targetWindowStart: [Int]

  @inlinable
  init<ItemID: Equatable>(
    sourceItems: [[ItemID]], targetItems: [[ItemID]], matching: SectionMatching
  ) {
    let sourceCount = sourceItems.count
    let targetCount = targetItems.count
    let targetToSource = matching.targetToSource
    prefix = [Int](repeating: 0, count: sourceCount)
    suffix = [Int](repeating: 0, count: sourceCount)
    for target in 0..<targetCount where targetToSource[target] >= 0 {
      let source = targetToSource[target]
      (prefix[source], suffix[source]) = commonPrefixAndSuffix(
        sourceItems[source], targetItems[target])
    }
    sourceWindows = [Range<Int>](repeating: 0..<0, count: sourceCount)
    sourceWindowStart = [Int](repeating: 0, count: sourceCount + 1)
    for source in 0..<sourceCount {
      if matching.sourceToTarget[source] >= 0 {
        sourceWindows[source] = prefix[source]..<(sourceItems[source].count - suffix[source])
      }
      sourceWindowStart[source + 1] = sourceWindowStart[source] + sourceWindows[source].count
    }
    targetWindowStart = [Int](repeating: 0, count: targetCount + 1)
    for target in 0..<targetCount {
      let source = targetToSource[target]
      let count = source < 0 ? 0 : targetItems[target].count - prefix[source] - suffix[source]
      targetWindowStart[target + 1] = targetWindowStart[target] + count
    }
    // The per-item arrays of the diff hold 32-bit indexes: half the memory, and half the pages
    // to fault in, of full-width ones.
    if sourceWindowStart[sourceCount] > Int(Int32.max)
      || targetWindowStart[targetCount] > Int(Int32.max)
    {
      fatalError("A diff handles at most \(Int32.max) items between the common prefix and suffix.")
    }
  }

  /// The number of source slots.
  @inlinable var slotCount: Int { sourceWindowStart[sourceWindowStart.count - 1] }

  /// The source section whose window holds `slot`.
  ///
  /// - Complexity: O(log *s*) in the sections.
  @inlinable
  func sourceSection(ofSlot slot: Int) -> Int {
    let sourceCount = sourceWindows.count
    if sourceCount == 1 { return 0 }
    var low = 0
    var high = sourceCount - 1
    while low < high {
      let middle = (low + high + 1) >> 1
      if sourceWindowStart[middle] <= slot { low = middle } else { high = middle - 1 }
    }
    return low
  }
}

/// Looks up every target item of a window in the source: `sourceSlot` holds, per target window
/// position, the slot of its source item (-1 for an insert), and `matched` marks the slots taken.
///
/// Runs of items that stay together are common, so before hashing an item the lookup checks
/// whether it follows the previous one in the source: equal identifiers are the same item.
@inlinable
func locateTargetItems<ItemID: Hashable, Locator: ItemLocator>(
  sourceItems: [[ItemID]], targetItems: [[ItemID]], matching: SectionMatching,
  windows: DiffWindows, locator: inout Locator, targetHashes: UnsafeBufferPointer<UInt32>?
) -> (sourceSlot: [Int32], matched: MatchedSlots) where Locator.ItemID == ItemID {
  let targetCount = targetItems.count
  let targetToSource = matching.targetToSource
  let sourceToTarget = matching.sourceToTarget
  let prefix = windows.prefix
  let suffix = windows.suffix
  let sourceWindows = windows.sourceWindows
  let sourceWindowStart = windows.sourceWindowStart
  let targetWindowStart = windows.targetWindowStart
  var matched = MatchedSlots(count: windows.slotCount)
  var sourceSlot = [Int32](repeating: -1, count: targetWindowStart[targetCount])
  let hashKey = integerHashKey
  // With the target's hashes given (recorded while its table was built), an item's hash is read,
  // not computed: each target item is hashed once in all. `targetOffset` is where the target
  // section's items start among all of them.
  var targetOffset = 0
  withUnsafeTemporaryAllocation(of: Int.self, capacity: 32) { batchHashes in
    sourceSlot.withUnsafeMutableBufferPointer { sourceSlot in
      for target in 0..<targetCount {
        defer { targetOffset += targetItems[target].count }
        guard targetToSource[target] >= 0 else { continue }
        let section = targetToSource[target]
        let start = targetWindowStart[target] - prefix[section]
        let windowEnd = targetItems[target].count - suffix[section]
        // The run being followed: the source section's items, the last index matched in it and
        // the end of its window (0 when no run is being followed).
        var runItems: [ItemID] = []
        var runSection = -1
        var runItem = 0
        var runEnd = 0
        // Lookups wait for memory when the source is large: the first one a run needs hashes the
        // next few and warms them together, so that their waits overlap; the lookups then use
        // those hashes. `batchStart..<warmedEnd` is the batch, `batchHashed` whether it was.
        var batchStart = prefix[section]
        var warmedEnd = prefix[section]
        var batchHashed = false
        targetItems[target].withUnsafeBufferPointer { items in
          for index in prefix[section]..<windowEnd {
            let item = items[index]
            let foundSection: Int
            let foundItem: Int
            if runItem &+ 1 < runEnd && runItems[runItem &+ 1] == item {
              runItem &+= 1
              let slot = Int(sourceSlot[start &+ index &- 1]) &+ 1
              guard !matched.contains(slot) else {
                fatalError(
                  "Identifier \(item) occurs twice in the target; identifiers must be unique.")
              }
              matched.insert(slot)
              sourceSlot[start &+ index] = Int32(truncatingIfNeeded: slot)
              continue
            }
            if index >= warmedEnd {
              batchStart = index
              warmedEnd = Swift.min(index &+ batchHashes.count, windowEnd)
              batchHashed = locator.warmsLookups
              if batchHashed {
                for member in batchStart..<warmedEnd {
                  batchHashes[member &- batchStart] =
                    targetHashes.map { Int($0[targetOffset &+ member]) }
                    ?? PositionTable.hash(items[member], key: hashKey)
                }
                locator.warm(
                  UnsafeBufferPointer(rebasing: items[batchStart..<warmedEnd]),
                  hashes: UnsafeBufferPointer(rebasing: batchHashes[..<(warmedEnd &- batchStart)]))
              }
            }
            let hash =
              batchHashed
              ? batchHashes[index &- batchStart]
              : targetHashes.map { Int($0[targetOffset &+ index]) }
                ?? PositionTable.hash(item, key: hashKey)
            guard let located = locator.location(of: item, hash: hash),
              sourceToTarget[located.section] >= 0
            else {
              locator.recordInsert(item)
              runEnd = 0
              continue
            }
            (foundSection, foundItem) = located
            let window = sourceWindows[foundSection]
            guard window.contains(foundItem) else {
              fatalError(
                "Identifier \(item) occurs twice in the target; identifiers must be unique.")
            }
            let slot = sourceWindowStart[foundSection] + foundItem - window.lowerBound
            guard !matched.contains(slot) else {
              fatalError(
                "Identifier \(item) occurs twice in the target; identifiers must be unique.")
            }
            matched.insert(slot)
            sourceSlot[start &+ index] = Int32(truncatingIfNeeded: slot)
            if foundSection != runSection {
              runItems = sourceItems[foundSection]
              runSection = foundSection
            }
            runItem = foundItem
            runEnd = window.upperBound
          }
        }
      }
    }
  }

  return (sourceSlot, matched)
}

/// The 1st stage, continued: item deletes (source index paths) in surviving sections — items gone
/// from the target, or now in a section being inserted.
@inlinable
func appendItemDeletes(
  to deletes: inout BatchUpdate, matching: SectionMatching, windows: DiffWindows,
  matched: MatchedSlots
) {
  for source in matching.sourceToTarget.indices where matching.sourceToTarget[source] >= 0 {
    let start = windows.sourceWindowStart[source] - windows.sourceWindows[source].lowerBound
    for index in windows.sourceWindows[source] where !matched.contains(start + index) {
      deletes.itemDeletes.append(IndexPath(item: index, section: source))
    }
  }
}

/// The 3rd stage: item inserts (target index paths) and item moves (from the index path once the
/// first two stages are applied to the target index path); and the 4th: updates of kept items,
/// at target index paths, except in reloaded sections.
///
/// - Precondition: `matched` is finished (its ranks are valid).
@inlinable
func itemStages<SectionID: Hashable, ItemID: Hashable>(
  targetSections: [SectionID], sourceItems: [[ItemID]], targetItems: [[ItemID]],
  matching: SectionMatching, windows: DiffWindows, sourceSlot: [Int32], matched: MatchedSlots,
  isSectionReloaded: (SectionID) -> Bool, checksItemUpdates: Bool,
  itemUpdate: (ItemID, IndexPath, IndexPath) -> ItemUpdate?
) -> (itemChanges: BatchUpdate, updates: BatchUpdate) {
  let sourceCount = sourceItems.count
  let targetCount = targetItems.count
  let targetToSource = matching.targetToSource
  let sourceToTarget = matching.sourceToTarget
  let prefix = windows.prefix
  let suffix = windows.suffix
  let sourceWindows = windows.sourceWindows
  let sourceWindowStart = windows.sourceWindowStart
  let targetWindowStart = windows.targetWindowStart
  // A kept item's index once the 1st stage is applied: the section's prefix, then the kept items
  // of its window before it.
  // What to add to the rank of a slot to get its settled index, per source section.
  var settledBase = [Int](repeating: 0, count: sourceCount)
  for source in 0..<sourceCount where sourceToTarget[source] >= 0 {
    settledBase[source] = prefix[source] - matched.rank(sourceWindowStart[source])
  }

  // The 3rd stage: item inserts (target index paths) and item moves (from the index path once
  // the first two stages are applied to the target index path). The 4th stage: updates of kept
  // items, at target index paths, except in reloaded sections.
  var itemChanges = BatchUpdate()
  var updates = BatchUpdate()
  for target in 0..<targetCount {
    let section = targetToSource[target]
    guard section >= 0 else { continue }
    let reloadsSection = isSectionReloaded(targetSections[target])
    if reloadsSection { updates.sectionReloads.append(target) }
    let items = targetItems[target]
    let sourceItemCount = sourceItems[section].count
    let windowEnd = items.count - suffix[section]

    let checksUpdates = checksItemUpdates && !reloadsSection
    func noteUpdate(_ item: ItemID, from sourcePath: IndexPath, at index: Int) {
      guard checksUpdates else { return }
      let path = IndexPath(item: index, section: target)
      switch itemUpdate(item, sourcePath, path) {
      case .reload: updates.itemReloads.append(path)
      case .reconfigure: updates.itemReconfigures.append(path)
      case nil: break
      }
    }

    if checksUpdates {
      for index in 0..<prefix[section] {
        noteUpdate(items[index], from: IndexPath(item: index, section: section), at: index)
      }
    }
    let start = targetWindowStart[target] - prefix[section]
    // Kept items of this section stay put when they are on a longest increasing run of their
    // source slots (a slot's settled index grows with it): those need no settled index at all.
    let ownSlots =
      Int32(
        truncatingIfNeeded: sourceWindowStart[section])..<Int32(
        truncatingIfNeeded: sourceWindowStart[section + 1])
    let staysPut = sourceSlot.withUnsafeBufferPointer { slots in
      longestIncreasingSubsequence(
        UnsafeBufferPointer(rebasing: slots[(start + prefix[section])..<(start + windowEnd)]),
        among: ownSlots)
    }
    for index in prefix[section]..<windowEnd {
      let slot = Int(sourceSlot[start &+ index])
      guard slot >= 0 else {
        itemChanges.itemInserts.append(IndexPath(item: index, section: target))
        continue
      }
      let from = windows.sourceSection(ofSlot: slot)
      if from != section || !isOnSubsequence(staysPut, index &- prefix[section]) {
        itemChanges.itemMoves.append(
          Move(
            source: IndexPath(
              item: matched.rank(slot) &+ settledBase[from], section: sourceToTarget[from]),
            target: IndexPath(item: index, section: target)))
      }
      if checksUpdates {
        let sourceIndex = slot - sourceWindowStart[from] + sourceWindows[from].lowerBound
        noteUpdate(items[index], from: IndexPath(item: sourceIndex, section: from), at: index)
      }
    }
    if checksUpdates {
      for index in windowEnd..<items.count {
        let sourceIndex = sourceItemCount - (items.count - index)
        noteUpdate(items[index], from: IndexPath(item: sourceIndex, section: section), at: index)
      }
    }
  }

  return (itemChanges, updates)
}

/// The stages in order, each with the data it leaves the view showing; empty stages are left out.
@inlinable
func assembleStages<SectionID: Hashable, ItemID: Hashable>(
  sourceSections: [SectionID], sourceItems: [[ItemID]], targetSections: [SectionID],
  targetItems: [[ItemID]], matching: SectionMatching, windows: DiffWindows, matched: MatchedSlots,
  deletes: BatchUpdate, sectionChanges: BatchUpdate, itemChanges: BatchUpdate,
  updates: BatchUpdate
) -> StagedChangeset<SectionID, ItemID> {
  let sourceCount = sourceItems.count
  let targetCount = targetItems.count
  let targetToSource = matching.targetToSource
  let sourceToTarget = matching.sourceToTarget
  let sourceWindows = windows.sourceWindows
  let sourceWindowStart = windows.sourceWindowStart
  // Assemble the stages with the data each leaves the view showing.
  var stages: [Changeset<SectionID, ItemID>] = []
  if !deletes.isEmpty || !sectionChanges.isEmpty {
    // Each surviving source section's items once the 1st stage is applied.
    var settledItems = sourceItems
    for source in 0..<sourceCount where sourceToTarget[source] >= 0 {
      let window = sourceWindows[source]
      let start = sourceWindowStart[source] - window.lowerBound
      guard window.contains(where: { !matched.contains(start + $0) }) else { continue }
      let items = sourceItems[source]
      var kept: [ItemID] = []
      kept.reserveCapacity(items.count)
      kept.append(contentsOf: items[..<window.lowerBound])
      for index in window where matched.contains(start + index) { kept.append(items[index]) }
      kept.append(contentsOf: items[window.upperBound...])
      settledItems[source] = kept
    }
    if !deletes.isEmpty {
      let surviving = (0..<sourceCount).filter { sourceToTarget[$0] >= 0 }
      stages.append(
        Changeset(
          kind: .deletes, update: deletes,
          sectionIdentifiers: surviving.map { sourceSections[$0] },
          itemIdentifiers: surviving.map { settledItems[$0] }))
    }
    if !sectionChanges.isEmpty {
      stages.append(
        Changeset(
          kind: .sectionInsertsAndMoves, update: sectionChanges,
          sectionIdentifiers: targetSections,
          itemIdentifiers: (0..<targetCount).map { target in
            let source = targetToSource[target]
            return source < 0 ? targetItems[target] : settledItems[source]
          }))
    }
  }
  if !itemChanges.isEmpty {
    stages.append(
      Changeset(
        kind: .itemInsertsAndMoves, update: itemChanges,
        sectionIdentifiers: targetSections, itemIdentifiers: targetItems))
  }
  if !updates.isEmpty {
    stages.append(
      Changeset(
        kind: .updates, update: updates,
        sectionIdentifiers: targetSections, itemIdentifiers: targetItems))
  }
  return StagedChangeset(stages)
}

/// The elements' identifiers, in order.
///
/// A loop, not `map`: with the Swift 6 toolchain, `Array.map` costs about 20 ns per element here
/// against about 1.4 for this (`trellis-bench peer-profile 1000000 build`), which made it most of
/// what the flat API paid at a million elements.
@inlinable
func identifiers<Element: Identifiable>(of elements: [Element]) -> [Element.ID] {
  var result: [Element.ID] = []
  result.reserveCapacity(elements.count)
  for element in elements { result.append(element.id) }
  return result
}

/// The lengths of the common prefix and the common suffix of two arrays, not overlapping.
@inlinable
func commonPrefixAndSuffix<Element: Equatable>(
  _ source: [Element], _ target: [Element]
) -> (prefix: Int, suffix: Int) {
  source.withUnsafeBufferPointer { source in
    target.withUnsafeBufferPointer { target in
      let limit = min(source.count, target.count)
      var prefix = 0
      while prefix < limit && source[prefix] == target[prefix] { prefix += 1 }
      var suffix = 0
      while suffix < limit - prefix
        && source[source.count - 1 - suffix] == target[target.count - 1 - suffix]
      {
        suffix += 1
      }
      return (prefix, suffix)
    }
  }
}
