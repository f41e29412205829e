import Trellis
import TrellisTerminal

/// A tree of 3,330 nodes in one section: folders expand and collapse through a section snapshot,
/// each change one batch update of the rows that appear or disappear.
@MainActor
final class OutlineScreen: GalleryScreen {
  let title = "Outline"
  var hint: String {
    "→ or Enter expand · ← collapse (or go to the parent) · click toggles · "
      + "\(tree.visibleItems.count) of \(tree.items.count) rows shown"
  }

  /// A node: folders 0–29 hold folders 100+, which hold files 10,000+.
  private var tree = SectionSnapshot<Int>()
  private let view: CollectionView<Int, Int>

  init() {
    var tree = SectionSnapshot<Int>()
    tree.append(Array(0..<30))
    for folder in 0..<30 {
      let subfolders = (0..<10).map { 100 + folder * 10 + $0 }
      tree.append(subfolders, to: folder)
      for subfolder in subfolders {
        tree.append((0..<10).map { 10_000 + subfolder * 10 + $0 }, to: subfolder)
      }
    }
    tree.expand([0])
    self.tree = tree
    let box = TreeBox()
    box.tree = tree
    view = CollectionView(layout: MilestoneScreen.listLayout()) { _, id in
      Self.cell(for: id, in: box.tree)
    }
    self.box = box
    view.navigationKeys = .standard
    view.dataSource.supplementaryProvider = { _, _, _ in
      HeaderCell(title: "Project", detail: "30 folders · 300 subfolders · 3,000 files")
    }
    view.onSelect = { [weak self] id in self?.toggle(id) }
    view.dataSource.apply(tree, to: 0)
    view.focus(0)
  }

  /// What the cell provider reads: the tree as last applied.
  private final class TreeBox {
    var tree = SectionSnapshot<Int>()
  }
  private let box: TreeBox

  private static func cell(for id: Int, in tree: SectionSnapshot<Int>) -> RowCell {
    let level = tree.contains(id) ? tree.level(of: id) : 0
    let isFile = id >= 10_000
    let marker = isFile ? " " : (tree.isExpanded(id) ? "▾" : "▸")
    let name =
      switch level {
      case 0: "folder \(id + 1)"
      case 1: "subfolder \(id % 10 + 1)"
      default: "file-\(id % 10 + 1).swift"
      }
    return RowCell(
      leading: String(repeating: "  ", count: level) + marker, title: name,
      trailing: isFile ? "\(id % 97 + 1) KB" : "\(tree.children(of: id).count) items",
      leadingStyle: Style(foreground: .cyan))
  }

  /// Expands or collapses a folder through the data source, as a disclosure click does in UIKit:
  /// its section snapshot handlers could refuse or load the children first.
  private func toggle(_ id: Int) {
    guard id < 10_000 else { return }
    let dataSource = view.dataSource
    if tree.isExpanded(id) {
      dataSource.collapse(id, in: 0)
    } else {
      dataSource.expand(id, in: 0)
    }
    tree = dataSource.snapshot(for: 0)
    box.tree = tree
    var snapshot = dataSource.snapshot()
    snapshot.reconfigureItems([id])
    view.dataSource.apply(snapshot)
  }

  func place(in area: CellRect) { view.frame = area }

  func handle(_ event: InputEvent) -> Bool {
    guard case .key(let key) = event, key.modifiers.isEmpty, let focused = view.focusedItem else {
      return view.handle(event)
    }
    switch key.key {
    case .right:
      guard focused < 10_000, !tree.isExpanded(focused) else { return view.handle(event) }
      toggle(focused)
    case .left:
      if focused < 10_000, tree.isExpanded(focused) {
        toggle(focused)
      } else if let parent = tree.parent(of: focused) {
        view.focus(parent)
      }
    default:
      return view.handle(event)
    }
    return true
  }

  func tick() { view.tick() }
  func render(into screen: inout CellBuffer) { view.render(into: &screen) }
  var statistics: RenderStatistics { view.statistics }
}
