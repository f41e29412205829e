import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Data that flows in: lists observed in the cache, and sections that collapse.

extension IssueBrowser {
  /// The query the host observes for this browser: the filter across every milestone (the chips
  /// count them all; the selected chip only narrows the list).
  ///
  /// It changes with the state, kind, label, search and sort, not with the chip: when it does,
  /// the host stops observing the old query and observes the new one.
  public var observedFilter: IssueFilter {
    var observed = queryFilter
    observed.milestone = .all
    if observed.limit != 0 { observed.limit = nil }
    return observed
  }

  /// Shows a list the cache observation yielded for ``observedFilter``: the chip counts, the
  /// headers and the rows that changed, each change a staged update of the rows it touches.
  ///
  /// A few changed items (a sync page) are moved, added or removed one by one in the list's
  /// snapshot, so the cost is that of the changes and one diff, not of rebuilding the list; the
  /// focused issue stays where it is on screen when rows appear above it.
  public func apply(_ observed: ObservedIssueList) {
    let changed: Set<Int>?
    var metadataChanged: Bool
    switch observed.change {
    case .everything:
      changed = nil
      metadataChanged = observed.milestones != milestoneOrder || observed.labels != labelList
      if !metadataChanged && observed.subIssues == subIssues && observed.entries == allEntries {
        return
      }
    case .items(let numbers, let metadata):
      changed = numbers
      metadataChanged = metadata == .changed
    }
    if metadataChanged {
      metadataChanged = observed.milestones != milestoneOrder || observed.labels != labelList
      useMetadata(milestones: observed.milestones, labels: observed.labels)
    }
    allEntries = observed.entries
    let anchor = list.focusedItem
    // The issue the person acted on, if this change touches it: the focus stays on it wherever
    // it goes in the list, on the screen row the focus had; if it leaves the list, the focus
    // goes to its neighbour there, and comes back to it if it returns (an edit taken back).
    let acted = actedOn.flatMap { number in (changed?.contains(number) ?? true) ? number : nil }
    let actedPlace = acted.flatMap { $0 == anchor ? placeOf($0) : nil }
    let focusRow = anchor.flatMap { placeOf($0)?.row }
    // Sub-issues nest: a change that touches a tree, or any tree on screen, rebuilds the list.
    let treeChanged = observed.subIssues != subIssues
    subIssues = observed.subIssues
    if let changed {
      for number in changed { rows[number] = nil }
      previews.forget(changed)
    } else {
      rows.removeAll(keepingCapacity: true)
      previews.clear()
    }
    do {
      let chipCounts = Self.chipCounts(observed.counts)
      try reloadChips(counts: chipCounts)
      let shown = state.filter.milestone == .all ? allEntries : allEntries.filter(chipShows)
      if let changed, !metadataChanged, !treeChanged, sectionTrees.isEmpty,
        changed.count <= Self.incrementalLimit
      {
        // Under "All" the sections are the milestones: their counts are the chips'.
        let sectionCounts: [ListSection: Int]? =
          state.filter.milestone == .all
          ? Dictionary(
            uniqueKeysWithValues: chipCounts.compactMap { chip, count in
              switch chip {
              case .all, .withMilestone: nil
              case .withoutMilestone: count > 0 ? (ListSection.noMilestone, count) : nil
              case .number(let number): count > 0 ? (.milestone(number: number), count) : nil
              }
            }) : nil
        applyChanges(changed, shown: shown, sectionCounts: sectionCounts)
      } else {
        try reloadList(focusFirst: false, entries: shown)
        list.setNeedsDisplay()
      }
      loadError = nil
    } catch {
      loadError = "Could not read the cache: \(error)"
    }
    updatePlaceholder()
    if let acted {
      // Where the changed rows are now.
      list.layoutIfNeeded()
      if list.dataSource.indexPath(for: acted) != nil {
        if let focusRow { keep(acted, onRow: focusRow) }
      } else if let actedPlace,
        let neighbour = [actedPlace.successor, actedPlace.predecessor].compactMap({ $0 }).first(
          where: { list.dataSource.indexPath(for: $0) != nil })
      {
        keep(neighbour, onRow: actedPlace.row)
        show(message: "#\(acted) left this list; the focus is on #\(neighbour).")
      }
    }
    // The issue read full screen changed (an edit shown, taken back, or synced): its header too.
    if let number = conversation?.number, changed?.contains(number) ?? true {
      refreshReader(showing: number)
    }
  }

  /// Above this many changed items, the list is rebuilt rather than edited.
  static var incrementalLimit: Int { 2_000 }

  /// Moves, adds and removes the changed items in the list's snapshot and applies it.
  ///
  /// - Parameters:
  ///   - changed: The numbers of the items that changed.
  ///   - shown: The entries the selected chip shows, in order.
  ///   - known: The item count of every section, when the caller knows them.
  private func applyChanges(
    _ changed: Set<Int>, shown: [IssueListEntry], sectionCounts known: [ListSection: Int]?
  ) {
    var snapshot = list.dataSource.snapshot()
    var counts = known ?? [:]
    if known == nil {
      for entry in shown { counts[section(of: entry), default: 0] += 1 }
    }
    // Where each changed item goes: before the next item of its section in the list (placed
    // first, as changed items are placed from the last up), or at the end of its section.
    var placements: [(number: Int, section: ListSection, before: Int?)] = []
    // A few changed numbers are compared directly: hashing every shown number costs more.
    let few = changed.count <= 16 ? Array(changed) : nil
    for index in shown.indices.reversed() {
      let number = shown[index].number
      guard few?.contains(number) ?? changed.contains(number) else { continue }
      let section = section(of: shown[index])
      let next = shown[(index + 1)...].first { self.section(of: $0) == section }
      placements.append((number, section, next?.number))
    }
    // Changed items that no longer show, or go into a collapsed section, leave; the others move
    // (one pass over the snapshot's table each, where a delete and an insert take two).
    let staying = Set(
      placements.lazy.filter { !self.collapsedSections.contains($0.section) }.map(\.number))
    snapshot.deleteItems(changed.filter { !staying.contains($0) && snapshot.contains(item: $0) })
    for section in snapshot.sectionIdentifiers where counts[section] == nil {
      snapshot.deleteSections([section])
    }
    for placement in placements {
      if !snapshot.contains(section: placement.section) {
        let later = snapshot.sectionIdentifiers.first {
          sectionRank($0) > sectionRank(placement.section)
        }
        if let later {
          snapshot.insertSections([placement.section], beforeSection: later)
        } else {
          snapshot.appendSections([placement.section])
        }
      }
      // A collapsed section keeps its items hidden; its header counts them.
      guard !collapsedSections.contains(placement.section) else { continue }
      let number = placement.number
      let present = snapshot.contains(item: number)
      if let before = placement.before, snapshot.contains(item: before) {
        if !present {
          snapshot.insertItems([number], beforeItem: before)
        } else if let from = snapshot.indexPath(for: number),
          snapshot.indexPath(for: before) != IndexPath(item: from.item + 1, section: from.section)
        {
          snapshot.moveItem(number, beforeItem: before)
        }
      } else if !present {
        snapshot.appendItems([number], toSection: placement.section)
      } else if let last = snapshot.itemIdentifiers(inSection: placement.section).last {
        if last != number { snapshot.moveItem(number, afterItem: last) }
      } else {
        snapshot.deleteItems([number])
        snapshot.appendItems([number], toSection: placement.section)
      }
    }
    // Headers draw their counts: those whose count changed are drawn again, the rest reused.
    let recounted = Set(counts.keys).union(sectionCounts.keys).filter {
      counts[$0] != sectionCounts[$0]
    }
    sectionCounts = counts
    totalShown = shown.count
    let widerNumbers = String(changed.max() ?? 0).count > numberWidth
    numberWidth = max(numberWidth, String(changed.max() ?? 0).count)
    installListProviders()
    snapshot.reconfigureItems(changed.filter { snapshot.contains(item: $0) }.sorted())
    list.dataSource.apply(snapshot)
    if list.focusedItem == nil { list.focus(snapshot.itemIdentifiers.first) }
    for section in recounted { list.setNeedsDisplay(supplementariesOf: section) }
    // Every row draws its number in a column that just grew.
    if widerNumbers { list.setNeedsDisplay() }
  }

  // MARK: Collapsing sections

  /// The key a section is remembered by in the cache.
  static func storageKey(of section: ListSection) -> String {
    switch section {
    case .milestone(let number): "milestone:\(number)"
    case .noMilestone: "no-milestone"
    case .open: "open"
    case .closed: "closed"
    }
  }

  /// Reads the collapsed sections from the cache.
  func loadCollapsedSections() {
    let keys = cacheRead("the collapsed sections") { try cache.collapsedSections() } ?? []
    var sections: Set<ListSection> = []
    for key in keys {
      switch key {
      case "no-milestone": sections.insert(.noMilestone)
      case "open": sections.insert(.open)
      case "closed": sections.insert(.closed)
      default:
        if key.hasPrefix("milestone:"), let number = Int(key.dropFirst("milestone:".count)) {
          sections.insert(.milestone(number: number))
        }
      }
    }
    collapsedSections = sections
  }

  /// The section of the focused row.
  var focusedSection: ListSection? {
    guard let focused = list.focusedItem,
      let path = list.dataSource.indexPath(for: focused)
    else { return nil }
    return list.dataSource.sectionIdentifier(for: path.section)
  }

  /// Collapses or expands a section.
  ///
  /// It is one staged update removing or inserting its rows, through its section snapshot. The
  /// choice is kept in the cache.
  func toggleSection(_ section: ListSection) {
    setSection(section, collapsed: !collapsedSections.contains(section))
  }

  /// Expands every collapsed section.
  func expandAllSections() {
    for section in collapsedSections { setSection(section, collapsed: false) }
  }

  func setSection(_ section: ListSection, collapsed: Bool) {
    guard collapsedSections.contains(section) != collapsed else { return }
    if collapsed { collapsedSections.insert(section) } else { collapsedSections.remove(section) }
    do {
      try cache.setSection(Self.storageKey(of: section), collapsed: collapsed)
    } catch {
      show(message: "Could not remember the section: \(error)")
    }
    installListProviders()
    guard list.dataSource.index(for: section) != nil else { return }
    if collapsed, focusedSection == section {
      moveFocus(outOf: section)
    }
    var tree = SectionSnapshot<Int>()
    if !collapsed {
      let items = allEntries.filter { chipShows($0) && self.section(of: $0) == section }.map(
        \.number)
      if let nested = self.tree(of: items) {
        tree = nested
        sectionTrees[section] = nested
      } else {
        tree.append(items)
      }
    }
    list.dataSource.apply(tree, to: section)
    // Expanding shows what appeared: the focus goes to its first row.
    if !collapsed, let first = tree.rootItems.first { list.focus(first) }
    // The header's marker changed.
    list.setNeedsDisplay()
  }

  /// Gives the focus to the first row after a section, or the last one before it.
  private func moveFocus(outOf section: ListSection) {
    let snapshot = list.dataSource.snapshot()
    guard let index = snapshot.indexOfSection(section) else { return }
    let sections = snapshot.sectionIdentifiers
    let after = sections[(index + 1)...].lazy.compactMap {
      snapshot.itemIdentifiers(inSection: $0).first
    }.first
    let before = sections[..<index].reversed().lazy.compactMap {
      snapshot.itemIdentifiers(inSection: $0).last
    }.first
    list.focus(after ?? before)
  }
}
