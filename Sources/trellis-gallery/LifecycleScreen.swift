import Trellis
import TrellisTerminal

/// A collection view's lifecycle: rows whose details load as they enter the working range (and
/// stop loading when they leave it first), a count of what is on screen, row actions on `.`,
/// and rows moved with Alt and the arrows through the data source's reordering handlers.
@MainActor
final class LifecycleScreen: GalleryScreen {
  /// Where a row's details are: not asked for, on their way (so many ticks left), or here.
  enum Details {
    case loading(ticksLeft: Int)
    case loaded(String)
  }

  let title = "Lifecycle"
  var hint: String {
    "↑↓ rows · . actions · Alt-↑↓ move · on screen \(view.displayedItemIdentifiers.count)"
      + " · in range \(view.workingRangeItemIdentifiers.count) · loaded \(loadedCount)"
      + " · cancelled \(cancelled) · \(lastEvent)"
  }

  private let view: CollectionView<Int, Int>
  private var cancelled = 0
  private var loadedCount = 0
  private var lastEvent = ""

  init() {
    var rows: [Int] = []
    rows.append(contentsOf: 1...400)
    let box = DetailsBox()
    view = CollectionView(layout: MilestoneScreen.listLayout()) { _, id in
      let state: String =
        switch box.details[id] {
        case .loaded(let text): text
        case .loading: "loading…"
        case nil: "·"
        }
      return RowCell(
        leading: (box.pinned.contains(id) ? "📌" : "  ") + "\(id)".padding(4),
        title: "Row \(id)", trailing: state)
    }
    self.box = box
    view.navigationKeys = .standard
    view.dataSource.supplementaryProvider = { _, _, _ in
      HeaderCell(title: "Rows", detail: "details load as they near the screen")
    }
    view.workingRange = 6
    view.onEnterWorkingRange = { ids in
      for id in ids where box.details[id] == nil { box.details[id] = .loading(ticksLeft: 3) }
    }
    view.onExitWorkingRange = { [unowned self] ids in
      for id in ids {
        if case .loading = box.details[id] {
          box.details[id] = nil
          cancelled += 1
        }
      }
    }
    view.onWillDisplay = { [unowned self] id, indexPath in
      lastEvent = "shows \(id) at \(indexPath.item)"
    }
    view.rowActionsProvider = { [unowned self] id in
      [
        RowAction(title: box.pinned.contains(id) ? "Unpin" : "Pin") { [unowned self] in
          if box.pinned.remove(id) == nil { box.pinned.insert(id) }
          view.setNeedsDisplay(item: id)
          lastEvent = "pinned \(id)"
        },
        RowAction(title: "Reload") { [unowned self] in
          box.details[id] = .loading(ticksLeft: 5)
          view.setNeedsDisplay(item: id)
        },
        RowAction(title: "Delete", style: .destructive) { [unowned self] in
          var snapshot = view.dataSource.snapshot()
          snapshot.deleteItems([id])
          view.dataSource.apply(snapshot)
          lastEvent = "deleted \(id)"
        },
      ]
    }
    view.dataSource.reorderingHandlers.canReorderItem = { _ in true }
    view.dataSource.reorderingHandlers.didReorder = { [unowned self] transaction in
      lastEvent = "moved: \(transaction.difference.count / 2) move"
    }
    view.dataSource.apply(Snapshot(sections: [(0, rows)]))
  }

  /// The rows' state, shared with the cell provider (made before `self` exists).
  @MainActor final class DetailsBox {
    var details: [Int: Details] = [:]
    var pinned: Set<Int> = []
  }
  private let box: DetailsBox

  func place(in area: CellRect) { view.frame = area }

  func handle(_ event: InputEvent) -> Bool { view.handle(event) }

  /// Advances the simulated requests: a row whose details arrive is redrawn.
  func tick() {
    for (id, state) in box.details {
      guard case .loading(let ticks) = state else { continue }
      if ticks <= 1 {
        box.details[id] = .loaded("details of \(id)")
        loadedCount += 1
      } else {
        box.details[id] = .loading(ticksLeft: ticks - 1)
      }
      view.setNeedsDisplay(item: id)
    }
  }

  func render(into screen: inout CellBuffer) { view.render(into: &screen) }
  var statistics: RenderStatistics { view.statistics }
}
