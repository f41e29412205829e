import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Sub-issues nested under their parent in the list, through section snapshots.

extension IssueBrowser {
  /// A section's items as a tree, or `nil` when nothing nests.
  ///
  /// Each sub-issue that the section lists is nested under its parent (in GitHub's order)
  /// instead of standing at the top level, when the parent is listed in the same section.
  ///
  /// The cache's sub-issue lists come from the network: an issue listed under two parents nests
  /// under the first one met, and a list that would make an issue its own ancestor is ignored
  /// there, so the tree is always valid.
  func tree(of items: [Int]) -> SectionSnapshot<Int>? {
    guard !subIssues.isEmpty else { return nil }
    let listed = Set(items)
    var parentOf: [Int: Int] = [:]
    for parent in items {
      guard let children = subIssues[parent] else { continue }
      for child in children
      where listed.contains(child) && child != parent && parentOf[child] == nil {
        // Not an ancestor of the parent: no cycle.
        var ancestor: Int? = parent
        var isAncestor = false
        while let current = ancestor {
          if current == child {
            isAncestor = true
            break
          }
          ancestor = parentOf[current]
        }
        if !isAncestor { parentOf[child] = parent }
      }
    }
    guard !parentOf.isEmpty else { return nil }
    var tree = SectionSnapshot<Int>()
    tree.append(items.filter { parentOf[$0] == nil })
    // Parents before children: walk down from the roots.
    var pending = tree.rootItems
    while let parent = pending.popLast() {
      let children = (subIssues[parent] ?? []).filter {
        parentOf[$0] == parent && !tree.contains($0)
      }
      guard !children.isEmpty else { continue }
      tree.append(children, to: parent)
      pending += children
    }
    tree.expand(Array(expandedParents.filter { tree.contains($0) }))
    return tree
  }

  /// Opens or closes the sub-issues of the focused row, when it has some nested under it.
  ///
  /// - Returns: Whether the focused row is such a parent.
  func toggleSubIssues() -> Bool {
    guard let focused = list.focusedItem, let section = focusedSection,
      var tree = sectionTrees[section], tree.contains(focused), !tree.children(of: focused).isEmpty
    else { return false }
    if tree.isExpanded(focused) {
      tree.collapse([focused])
      expandedParents.remove(focused)
    } else {
      tree.expand([focused])
      expandedParents.insert(focused)
    }
    sectionTrees[section] = tree
    installListProviders()
    list.dataSource.apply(tree, to: section)
    // The parent's marker changed.
    list.setNeedsDisplay()
    return true
  }

  /// How a row is drawn in its section's outline: its depth and disclosure marker.
  func outline(of number: Int, in section: ListSection?) -> (level: Int, IssueRowCell.Disclosure) {
    guard let section, let tree = sectionTrees[section], tree.contains(number) else {
      return (0, .none)
    }
    let hasChildren = !tree.children(of: number).isEmpty
    let disclosure: IssueRowCell.Disclosure =
      hasChildren ? (tree.isExpanded(number) ? .expanded : .collapsed) : .none
    return (tree.level(of: number), disclosure)
  }
}
