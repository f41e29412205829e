import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Sections that collapse, and sub-issues that open under their parent.

extension IssueListPane {
  /// Collapses or expands a section, and keeps the choice in the cache.
  ///
  /// It is one staged update removing or inserting its rows, through its section snapshot.
  ///
  /// - Returns: A failure to say, when the choice could not be kept.
  @discardableResult
  func setSection(_ section: ListSection, collapsed: Bool, filter: IssueFilter) -> String? {
    guard model.collapsedSections.contains(section) != collapsed else { return nil }
    if collapsed {
      model.collapsedSections.insert(section)
    } else {
      model.collapsedSections.remove(section)
    }
    var failure: String?
    do {
      try read.cache.setSection(ListModel.storageKey(of: section), collapsed: collapsed)
    } catch {
      failure = "Could not remember the section: \(error)"
    }
    installListProviders(filter: filter)
    guard list.dataSource.index(for: section) != nil else { return failure }
    if collapsed, focusedSection == section { moveFocus(outOf: section) }
    var tree = SectionSnapshot<ListItem>()
    if !collapsed {
      let items = model.items(of: section, under: filter.milestone)
      model.unbuiltTrees[section] = nil
      if let nested = model.tree(of: items) {
        tree = nested
        model.sectionTrees[section] = nested
      } else {
        tree.append(items.map { ListItem.issue($0.key) })
      }
    }
    list.dataSource.apply(tree, to: section)
    // Expanding shows what appeared: the focus goes to its first row.
    if !collapsed, let first = tree.rootItems.first { list.focus(first) }
    // The header's marker changed.
    list.setNeedsDisplay()
    return failure
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

  /// Opens or closes the sub-issues of the focused row, when it has some under it.
  ///
  /// - Returns: Whether the focused row is such a parent.
  func toggleSubIssues(filter: IssueFilter) -> Bool {
    if let section = focusedSection { model.ensureTree(of: section) }
    guard let focused = list.focusedItem, case .issue = focused,
      let number = model.number(of: focused),
      let section = focusedSection, var tree = model.sectionTrees[section],
      tree.contains(focused), !tree.children(of: focused).isEmpty
    else { return false }
    if tree.isExpanded(focused) {
      tree.collapse([focused])
      model.expandedParents.remove(number)
    } else {
      tree.expand([focused])
      model.expandedParents.insert(number)
    }
    model.sectionTrees[section] = tree
    installListProviders(filter: filter)
    list.dataSource.apply(tree, to: section)
    if tree.isExpanded(focused), let last = tree.snapshot(of: focused).visibleItems.last {
      // Show the opened sub-issues, as many as fit with the parent still on screen.
      list.scrollToItem(last)
      list.scrollToItem(focused)
    }
    // The parent's marker changed.
    list.setNeedsDisplay()
    return true
  }

  /// What Space says on a row that opens nothing, and where it takes the focus.
  ///
  /// On a sub-issue shown under its parent, the focus goes to its own row when the list has
  /// one; on an issue with no sub-issue in the cache, it says so.
  func explainSubIssues() -> String? {
    guard let focused = list.focusedItem else { return nil }
    guard case .subIssue(let number, _) = focused else {
      guard let issue = read.issue(of: focused) else { return nil }
      let announced = issue.subIssues?.total ?? 0
      return announced > 0
        ? "#\(issue.number)'s \(announced) sub-issues are not cached (another repository, or not synced yet)."
        : "#\(issue.number) has no sub-issues."
    }
    guard let own = model.item(number: number), let path = list.dataSource.indexPath(for: own),
      let section = list.dataSource.sectionIdentifier(for: path.section)
    else {
      return "#\(number) is not in this list: the chip or the filter leaves it out."
    }
    list.focus(own)
    return "#\(number) is listed \(model.whereabouts(of: section)): the focus is on it there."
  }
}
