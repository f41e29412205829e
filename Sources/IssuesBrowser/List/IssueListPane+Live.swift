import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Lists observed in the cache, and the focus kept on the issue a person acted on.

extension IssueListPane {
  /// Shows a list the cache observation yielded: the chip counts, the headers and the rows that
  /// changed, each change a staged update of the rows it touches.
  ///
  /// A few changed items (a sync page) are moved, added or removed one by one in the list's
  /// snapshot, so the cost is that of the changes and one diff, not of rebuilding the list; the
  /// focused issue stays where it is on screen when rows appear above it.
  ///
  /// - Returns: Whether anything changed, and what to tell the person (the issue they acted on
  ///   left the list, and where the focus went).
  func apply(_ observed: ObservedIssueList, filter: inout IssueFilter) -> (
    changed: Bool, message: String?
  ) {
    let changed: Set<IssueKey>?
    var metadataChanged: Bool
    // Rows this screen just wrote are shown as written: this list is that write's.
    let written = self.written
    self.written = []
    // The queue's marks come with the list when the queue changed: no read of the queue here.
    let queueChanged = observed.queue.map { $0.waiting != queued || $0.conflicted != conflicted }
    if let marks = observed.queue { showQueue(marks) }
    switch observed.change {
    case .everything:
      changed = nil
      metadataChanged = model.metadataDiffers(
        milestones: observed.milestones, labels: observed.labels)
      if !metadataChanged && observed.subIssues == model.subIssues
        && observed.entries == model.entries
      {
        return (queueChanged == true, nil)
      }
    case .items(let keys, let metadata):
      changed = keys
      metadataChanged = metadata == .changed
    }
    if metadataChanged {
      metadataChanged = model.metadataDiffers(
        milestones: observed.milestones, labels: observed.labels)
      model.useMetadata(milestones: observed.milestones, labels: observed.labels)
    }
    model.entries = observed.entries
    let anchor = list.focusedItem
    // The issue the person acted on, if this change touches it: the focus stays on it wherever
    // it goes in the list, on the screen row the focus had; if it leaves the list, the focus
    // goes to its neighbour there, and comes back to it if it returns (an edit taken back).
    let acted = model.actedOn.flatMap { item in
      (item.key.map { changed?.contains($0) ?? true } ?? true) ? item : nil
    }
    let actedPlace = acted.flatMap { $0 == anchor ? place(of: $0) : nil }
    let focusRow = anchor.flatMap { place(of: $0)?.row }
    // Sub-issues nest: a change that touches a tree, or any tree on screen, rebuilds the list.
    let treeChanged = observed.subIssues != model.subIssues
    if treeChanged { model.subIssues = observed.subIssues }
    forgetRows(changed, keeping: written)
    showChips(counts: ListModel.chipCounts(observed.counts), selection: &filter)
    let shown = model.entries(under: filter.milestone)
    if let changed, !metadataChanged, !treeChanged, changed.count <= ListModel.incrementalLimit,
      model.treesTakeEdits(of: changed)
    {
      var snapshot = list.dataSource.snapshot()
      let edit = model.edit(
        &snapshot, changed: changed, shown: shown, under: filter.milestone,
        sectionCounts: filter.milestone == .all ? model.sectionCountsFromChips : nil)
      installListProviders(filter: filter)
      list.dataSource.apply(snapshot)
      if list.focusedItem == nil { list.focus(snapshot.itemIdentifiers.first) }
      for section in edit.recounted { list.setNeedsDisplay(supplementariesOf: section) }
      // Every row draws its number in a column that just grew.
      if edit.widerNumbers { list.setNeedsDisplay() }
    } else {
      showList(shown, filter: filter, focusFirst: false)
      list.setNeedsDisplay()
    }
    model.loadError = nil
    guard let acted else { return (true, nil) }
    // Where the changed rows are now.
    list.layoutIfNeeded()
    if list.dataSource.indexPath(for: acted) != nil {
      if let focusRow { keep(acted, onRow: focusRow) }
    } else if let actedPlace,
      let neighbour = [actedPlace.successor, actedPlace.predecessor].compactMap({ $0 }).first(
        where: { list.dataSource.indexPath(for: $0) != nil })
    {
      keep(neighbour, onRow: actedPlace.row)
      return (
        true,
        "#\(self.number(of: acted)) left this list; the focus is on #\(self.number(of: neighbour))."
      )
    }
    return (true, nil)
  }

  /// What to add to an answer's message when the issue acted on is not in the list.
  ///
  /// " It left this list; the focus is on #8." (as GitHub has it now, or as shown until GitHub
  /// answers), or nothing. The focus keeps following the issue either way: GitHub's version may
  /// re-sort it once more.
  func whereTheFocusWent(from number: Int?) -> String {
    guard let number, let acted = model.actedOn, list.dataSource.indexPath(for: acted) == nil,
      let focused = list.focusedItem, self.number(of: acted) == String(number)
    else { return "" }
    return " It left this list; the focus is on #\(self.number(of: focused))."
  }

  /// The number of the issue a row shows, for a message: the row acted on's as the action
  /// knew it, a drawn row's, the list's, or as a last resort the cache's.
  private func number(of item: ListItem) -> String {
    if let acted = model.acted, acted.item == item { return String(acted.number) }
    if let row = loadedRow(item) { return String(row.number) }
    if let number = model.number(of: item) { return String(number) }
    return read.issue(of: item).map { String($0.number) } ?? "?"
  }

  /// Where an item is in the list: its neighbours in its section, and its row on screen.
  struct Place {
    var predecessor: ListItem?
    var successor: ListItem?
    var row: Double
  }

  func place(of item: ListItem) -> Place? {
    let snapshot = list.dataSource.snapshot()
    guard let path = list.dataSource.indexPath(for: item),
      let frame = list.layout.attributesForItem(at: path)?.frame
    else { return nil }
    let items = snapshot.numberOfItems(inSection: snapshot.sectionIdentifiers[path.section])
    let before =
      path.item > 0
      ? snapshot.itemIdentifier(at: IndexPath(item: path.item - 1, section: path.section)) : nil
    let after =
      path.item + 1 < items
      ? snapshot.itemIdentifier(at: IndexPath(item: path.item + 1, section: path.section))
      : before
    return Place(predecessor: before, successor: after, row: frame.minY - list.contentOffset.y)
  }

  /// Focuses a row and scrolls so that it sits on a screen row.
  func keep(_ item: ListItem, onRow row: Double) {
    guard let path = list.dataSource.indexPath(for: item),
      let frame = list.layout.attributesForItem(at: path)?.frame
    else { return }
    list.setContentOffset(Point(x: list.contentOffset.x, y: frame.minY - row))
    list.focus(item)
  }
}
