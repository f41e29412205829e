import GitHubIssues
import Trellis

// Sub-issues nested under their parents in a section, as a tree.

extension ListModel {
  /// A section's items as a tree, or `nil` when no listed issue has sub-issues.
  ///
  /// Each sub-issue that the section lists is nested under its parent (in GitHub's order)
  /// instead of standing at the top level, when the parent is listed in the same section. A
  /// sub-issue the section does not list (it is in another milestone, or the chip or the filter
  /// leaves it out) is still there under its parent, as a ``ListItem/subIssue(_:parent:)`` row:
  /// every parent opens on all of its sub-issues.
  ///
  /// The cache's sub-issue lists come from the network: an issue listed under two parents nests
  /// under the first one met, and a list that would make an issue its own ancestor, or nest it
  /// deeper than ``maximumNesting``, is ignored there, so the tree is always valid and shallow.
  ///
  /// - Complexity: O(*n*) dictionary lookups for the section's *n* entries, plus work in
  ///   proportion to its parents and their sub-issues; runs of plain rows are appended at once.
  func tree(of entries: [IssueListEntry]) -> SectionSnapshot<ListItem>? {
    treeShape(of: entries).map { tree(of: entries, shape: $0) }
  }

  /// Who nests under whom in a section: what building its tree needs, found in proportion to
  /// its parents and their sub-issues (plus a lookup per entry), without building it.
  struct TreeShape {
    /// The section's parents, in its order.
    var parents: [IssueListEntry]
    /// The keys of the parents and of the sub-issues the section lists, by number, and back.
    var keyOf: [Int: IssueKey]
    var numberOf: [IssueKey: Int]
    /// The parent each nested sub-issue shows under.
    var parentOf: [Int: Int]
    /// Each parent's rows, in GitHub's order.
    var childrenOf: [Int: [ListItem]]
  }

  /// The shape of a section's tree, or `nil` when nothing nests in it (see ``tree(of:)``).
  func treeShape(of entries: [IssueListEntry]) -> TreeShape? {
    guard !subIssues.isEmpty else { return nil }
    // The section's parents, in its order, and the sub-issues they name: only those need maps.
    var parents: [IssueListEntry] = []
    var wanted: Set<Int> = []
    for entry in entries {
      guard let children = subIssues[entry.number] else { continue }
      parents.append(entry)
      wanted.formUnion(children)
    }
    guard !parents.isEmpty else { return nil }
    // Which of those sub-issues the section lists, with their keys; and every parent's key.
    var keyOf: [Int: IssueKey] = [:]
    var numberOf: [IssueKey: Int] = [:]
    for entry in entries where wanted.contains(entry.number) {
      keyOf[entry.number] = entry.key
      numberOf[entry.key] = entry.number
    }
    for parent in parents {
      keyOf[parent.number] = parent.key
      numberOf[parent.key] = parent.number
    }
    func listed(_ number: Int) -> Bool { keyOf[number] != nil }
    var parentOf: [Int: Int] = [:]
    for parent in parents.map(\.number) {
      guard let children = subIssues[parent] else { continue }
      for child in children
      where listed(child) && child != parent && parentOf[child] == nil {
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
    // Each parent's rows, in GitHub's order: its nested children, and the sub-issues listed
    // elsewhere (one listed in this section but nested under another parent is shown there).
    var childrenOf: [Int: [ListItem]] = [:]
    for parent in parents {
      guard let children = subIssues[parent.number] else { continue }
      var seen: Set<Int> = [parent.number]
      let rows = children.compactMap { child -> ListItem? in
        guard seen.insert(child).inserted else { return nil }
        if parentOf[child] == parent.number, let key = keyOf[child] { return .issue(key) }
        return listed(child) ? nil : .subIssue(child, parent: parent.key)
      }
      if !rows.isEmpty { childrenOf[parent.number] = rows }
    }
    guard !childrenOf.isEmpty else { return nil }
    return TreeShape(
      parents: parents, keyOf: keyOf, numberOf: numberOf, parentOf: parentOf,
      childrenOf: childrenOf)
  }

  /// A section's tree, from its shape.
  func tree(of entries: [IssueListEntry], shape: TreeShape) -> SectionSnapshot<ListItem> {
    let (keyOf, numberOf, parentOf, childrenOf) = (
      shape.keyOf, shape.numberOf, shape.parentOf, shape.childrenOf
    )
    // Depth first: runs of rows without children are appended at once; a parent's subtree item
    // by item, each right after its parent's subtree so far (at the end of the storage, where
    // appending costs nothing), with an explicit stack: a chain from the network may be as deep
    // as the list is long.
    var tree = SectionSnapshot<ListItem>()
    // Every entry is a row of the tree, and a few sub-issues listed elsewhere.
    tree.reserveCapacity(entries.count + 16)
    var run: [ListItem] = []
    for entry in entries where parentOf[entry.number] == nil {
      guard childrenOf[entry.number] != nil else {
        run.append(.issue(entry.key))
        continue
      }
      if !run.isEmpty {
        tree.append(run)
        run.removeAll(keepingCapacity: true)
      }
      var pending: [(item: ListItem, number: Int, parent: ListItem?)] = [
        (.issue(entry.key), entry.number, nil)
      ]
      while let (item, number, parent) = pending.popLast() {
        tree.append([item], to: parent)
        guard case .issue = item else { continue }
        for child in (childrenOf[number] ?? []).reversed() {
          switch child {
          case .issue(let key):
            if let childNumber = numberOf[key] { pending.append((child, childNumber, item)) }
          case .subIssue(let childNumber, _): pending.append((child, childNumber, item))
          }
        }
      }
    }
    if !run.isEmpty { tree.append(run) }
    tree.expand(
      expandedParents.compactMap { keyOf[$0] }.map(ListItem.issue).filter { tree.contains($0) })
    return tree
  }

  /// How deep sub-issues nest in the list; deeper ones stand at the top level.
  static var maximumNesting: Int { 16 }

  /// How a row is drawn in its section's outline: its depth and disclosure marker.
  func outline(of item: ListItem, in section: ListSection?) -> (
    level: Int, IssueRowCell.Disclosure
  ) {
    guard let section, let tree = sectionTrees[section], tree.contains(item) else {
      return (0, .none)
    }
    guard case .issue(let key) = item, let number = treeNumbers[key] else {
      return (tree.level(of: item), .none)
    }
    // From the sub-issue lists, not the tree's storage: O(children) per drawn row.
    let hasChildren =
      subIssues[number]?.contains { child in
        if tree.contains(.subIssue(child, parent: key)) { return true }
        guard let childKey = treeKeys[child] else { return false }
        return tree.contains(.issue(childKey)) && tree.parent(of: .issue(childKey)) == item
      } ?? false
    let disclosure: IssueRowCell.Disclosure =
      hasChildren ? (tree.isExpanded(item) ? .expanded : .collapsed) : .none
    return (tree.level(of: item), disclosure)
  }
}
