import GitHubIssues
import Trellis

// Sub-issues nested under their parents in a section, as a tree.

extension ListModel {
  /// A section's items as a tree, or `nil` when nothing nests.
  ///
  /// Each sub-issue that the section lists is nested under its parent (in GitHub's order)
  /// instead of standing at the top level, when the parent is listed in the same section.
  ///
  /// The cache's sub-issue lists come from the network: an issue listed under two parents nests
  /// under the first one met, and a list that would make an issue its own ancestor, or nest it
  /// deeper than ``maximumNesting``, is ignored there, so the tree is always valid and shallow.
  func tree(of items: [Int]) -> SectionSnapshot<Int>? {
    guard !subIssues.isEmpty else { return nil }
    let listed = Set(items)
    var parentOf: [Int: Int] = [:]
    for parent in items {
      guard let children = subIssues[parent] else { continue }
      for child in children
      where listed.contains(child) && child != parent && parentOf[child] == nil {
        // Not an ancestor of the parent (no cycle), and not deeper than `maximumNesting` (GitHub
        // nests 8 levels; a deeper chain from the network would make every walk long).
        var ancestor: Int? = parent
        var depth = 0
        var refused = false
        while let current = ancestor {
          depth += 1
          if current == child || depth > Self.maximumNesting {
            refused = true
            break
          }
          ancestor = parentOf[current]
        }
        if !refused { parentOf[child] = parent }
      }
    }
    guard !parentOf.isEmpty else { return nil }
    // Each parent's nested children, in GitHub's order.
    var childrenOf: [Int: [Int]] = [:]
    for (parent, children) in subIssues where listed.contains(parent) {
      let nested = children.filter { parentOf[$0] == parent }
      if !nested.isEmpty { childrenOf[parent] = nested }
    }
    // Depth first, each item appended right after its parent's subtree so far (at the end of the
    // storage, where appending costs nothing), with an explicit stack: a chain from the network
    // may be as deep as the list is long.
    var tree = SectionSnapshot<Int>()
    var pending: [(item: Int, parent: Int?)] = items.reversed().compactMap {
      parentOf[$0] == nil ? ($0, nil) : nil
    }
    while let (item, parent) = pending.popLast() {
      tree.append([item], to: parent)
      for child in (childrenOf[item] ?? []).reversed() { pending.append((child, item)) }
    }
    tree.expand(Array(expandedParents.filter { tree.contains($0) }))
    return tree
  }

  /// How deep sub-issues nest in the list; deeper ones stand at the top level.
  static var maximumNesting: Int { 16 }

  /// How a row is drawn in its section's outline: its depth and disclosure marker.
  func outline(of number: Int, in section: ListSection?) -> (level: Int, IssueRowCell.Disclosure) {
    guard let section, let tree = sectionTrees[section], tree.contains(number) else {
      return (0, .none)
    }
    // From the sub-issue lists, not the tree's storage: O(children) per drawn row.
    let hasChildren =
      subIssues[number]?.contains {
        tree.contains($0) && tree.parent(of: $0) == number
      } ?? false
    let disclosure: IssueRowCell.Disclosure =
      hasChildren ? (tree.isExpanded(number) ? .expanded : .collapsed) : .none
    return (tree.level(of: number), disclosure)
  }
}
