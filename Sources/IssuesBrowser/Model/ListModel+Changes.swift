import GitHubIssues
import Trellis

// A sync page or an edit, applied to the list's snapshot item by item rather than by rebuilding
// the list: the cost is that of the changes and one diff.

extension ListModel {
  /// Above this many changed items, the list is rebuilt rather than edited.
  static var incrementalLimit: Int { 2_000 }

  /// What an edit of the list's snapshot changed beyond its items.
  struct Edit {
    /// Sections whose header count changed: their headers are drawn again.
    var recounted: Set<ListSection>
    /// Whether the number column grew: every row is drawn again.
    var widerNumbers: Bool
  }

  /// Whether the sub-issue trees can take an edit of these items as the list does.
  ///
  /// They can when there are none, or when none of the items is a parent or anyone's sub-issue:
  /// in a tree such items are rows at its top level, placed and removed there as in the list.
  /// Otherwise the list is rebuilt.
  ///
  /// - Complexity: O(*n*) comparisons over the entries for a few items.
  func treesTakeEdits(of changed: Set<IssueKey>) -> Bool {
    guard hasTrees else { return true }
    guard changed.count <= 16 else { return false }
    var numbers = changed.compactMap { treeNumbers[$0] }
    let wanted = Array(changed)
    for entry in entries where wanted.contains(entry.key) { numbers.append(entry.number) }
    return numbers.allSatisfy { subIssues[$0] == nil && !subIssueNumbers.contains($0) }
  }

  /// Moves, adds and removes the changed items in the list's snapshot, and marks them to be
  /// drawn again.
  ///
  /// - Parameters:
  ///   - snapshot: The list's snapshot, edited in place.
  ///   - changed: The keys of the items that changed.
  ///   - shown: The entries the chip shows, in order.
  ///   - chip: The selected chip, which decides the sections.
  ///   - known: The item count of every section, when the caller knows them.
  /// - Returns: What changed beyond the items: headers to draw again, a wider number column.
  /// - Precondition: ``treesTakeEdits(of:)`` allows the edit: the sections' trees take the same
  ///   moves at their top level.
  mutating func edit(
    _ snapshot: inout Snapshot<ListSection, ListItem>, changed: Set<IssueKey>,
    shown: [IssueListEntry],
    under chip: MilestoneFilter, sectionCounts known: [ListSection: Int]?
  ) -> Edit {
    // The trees the edit touches are built before it edits them, from the entries the snapshot
    // was made of: here those of the sections the changed items were in, below (in the pass
    // that places them) those of the sections they go to.
    if !unbuiltTrees.isEmpty {
      for key in changed {
        if let section = snapshot.sectionIdentifier(containingItem: .issue(key)) {
          ensureTree(of: section)
        }
      }
    }
    var counts = known ?? [:]
    if known == nil {
      for entry in shown { counts[Self.section(of: entry, under: chip), default: 0] += 1 }
    }
    // Where each changed item goes: before the next item of its section in the list (placed
    // first, as changed items are placed from the last up), or at the end of its section.
    var placements: [(key: IssueKey, section: ListSection, before: IssueKey?)] = []
    // A few changed keys are compared directly: hashing every shown key costs more.
    let few = changed.count <= 16 ? Array(changed) : nil
    var widest = 0
    // In a section with a tree, an item goes before the next row at the tree's top level (a
    // nested row shows under its parent, not where the entries list it).
    func isTopLevel(_ entry: IssueListEntry, in section: ListSection) -> Bool {
      guard let tree = sectionTrees[section],
        !(few?.contains(entry.key) ?? changed.contains(entry.key)),
        tree.contains(.issue(entry.key))
      else { return true }
      return tree.parent(of: .issue(entry.key)) == nil
    }
    for index in shown.indices.reversed() {
      let key = shown[index].key
      guard few?.contains(key) ?? changed.contains(key) else { continue }
      let section = Self.section(of: shown[index], under: chip)
      ensureTree(of: section)
      let next = shown[(index + 1)...].first {
        Self.section(of: $0, under: chip) == section && isTopLevel($0, in: section)
      }
      placements.append((key, section, next?.key))
      widest = max(widest, shown[index].number)
      if isInTree(shown[index].number) {
        treeNumbers[key] = shown[index].number
        treeKeys[shown[index].number] = key
      }
    }
    // Changed items that no longer show, or go into a collapsed section, leave; the others move
    // (one pass over the snapshot's table each, where a delete and an insert take two).
    let collapsed = collapsedSections
    let staying = Set(placements.filter { !collapsed.contains($0.section) }.map(\.key))
    snapshot.deleteItems(
      changed.filter { !staying.contains($0) }.map(ListItem.issue).filter(snapshot.contains(item:)))
    if !sectionTrees.isEmpty {
      // Every changed item leaves the tree it was in; those still listed go back below.
      let items = changed.map(ListItem.issue)
      for section in Array(sectionTrees.keys)
      where items.contains(where: { sectionTrees[section]?.contains($0) == true }) {
        sectionTrees[section]?.delete(items)
      }
    }
    if !subIssues.isEmpty {
      // The numbers of the rows that left, forgotten as a rebuild would.
      let listed = Set(placements.map(\.key))
      for key in changed where !listed.contains(key) {
        guard let number = treeNumbers.removeValue(forKey: key) else { continue }
        if treeKeys[number] == key { treeKeys[number] = nil }
      }
    }
    for section in snapshot.sectionIdentifiers where counts[section] == nil {
      snapshot.deleteSections([section])
    }
    for section in Array(sectionTrees.keys) where counts[section] == nil {
      sectionTrees[section] = nil
    }
    for section in Array(unbuiltTrees.keys) where counts[section] == nil {
      unbuiltTrees[section] = nil
    }
    for placement in placements {
      place(placement.key, in: placement.section, before: placement.before, of: &snapshot)
      placeInTree(placement.key, in: placement.section, before: placement.before)
    }
    let recounted = Set(counts.keys).union(sectionCounts.keys).filter {
      counts[$0] != sectionCounts[$0]
    }
    sectionCounts = counts
    totalShown = shown.count
    let width = String(widest).count
    let wider = width > numberWidth
    numberWidth = max(numberWidth, width)
    snapshot.reconfigureItems(
      changed.sorted().map(ListItem.issue).filter(snapshot.contains(item:)))
    return Edit(recounted: recounted, widerNumbers: wider)
  }

  /// Puts an item at the top level of its section's tree, if the section has one: before
  /// another top-level item, or after the last.
  private mutating func placeInTree(
    _ key: IssueKey, in section: ListSection, before next: IssueKey?
  ) {
    guard sectionTrees[section] != nil else { return }
    let item = ListItem.issue(key)
    if let next, sectionTrees[section]?.contains(.issue(next)) == true {
      sectionTrees[section]?.insert([item], before: .issue(next))
    } else {
      sectionTrees[section]?.append([item])
    }
  }

  /// Puts an item before another of its section, or at the section's end.
  ///
  /// A missing section is made where its rank puts it; a collapsed one keeps its items hidden.
  private func place(
    _ key: IssueKey, in section: ListSection, before next: IssueKey?,
    of snapshot: inout Snapshot<ListSection, ListItem>
  ) {
    let item = ListItem.issue(key)
    let before = next.map(ListItem.issue)
    if !snapshot.contains(section: section) {
      if let later = snapshot.sectionIdentifiers.first(where: { rank(of: $0) > rank(of: section) })
      {
        snapshot.insertSections([section], beforeSection: later)
      } else {
        snapshot.appendSections([section])
      }
    }
    guard !collapsedSections.contains(section) else { return }
    let present = snapshot.contains(item: item)
    if let before, snapshot.contains(item: before) {
      if !present {
        snapshot.insertItems([item], beforeItem: before)
      } else if let from = snapshot.indexPath(for: item),
        snapshot.indexPath(for: before) != IndexPath(item: from.item + 1, section: from.section)
      {
        snapshot.moveItem(item, beforeItem: before)
      }
    } else if !present {
      snapshot.appendItems([item], toSection: section)
    } else if let last = snapshot.itemIdentifiers(inSection: section).last {
      if last != item { snapshot.moveItem(item, afterItem: last) }
    } else {
      snapshot.deleteItems([item])
      snapshot.appendItems([item], toSection: section)
    }
  }
}
