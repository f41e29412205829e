import Trellis
import TrellisTerminal

/// The states a list goes through, from a `LoadState`: loading, loaded, empty, failed, and a
/// refresh that keeps the content on screen.
@MainActor
final class StatesScreen: GalleryScreen {
  struct Failure: Error {
    var message: String
  }

  let title = "States"
  var hint: String {
    let state: String =
      switch load.presentation {
      case .nothing: "idle"
      case .progress: "loading"
      case .content(_, .current): "loaded"
      case .content(_, .refreshing): "refreshing (content stays)"
      case .content(_, .failedToRefresh): "refresh failed (content stays)"
      case .empty: "empty"
      case .failure: "failed"
      }
    return "L load · E empty · X fail · R refresh · F failed refresh · state: \(state)"
  }
  private var load = LoadState<[Int], Failure>.idle
  private let view: CollectionView<Int, Int>
  /// What the simulated request will return, and when.
  private var pending: (ticks: Int, result: Result<[Int], Failure>)?

  init() {
    view = CollectionView(layout: MilestoneScreen.listLayout()) { _, id in
      RowCell(leading: "\(id)".padding(4), title: "Loaded row \(id)", trailing: "")
    }
    view.navigationKeys = .standard
    view.dataSource.supplementaryProvider = { _, _, _ in HeaderCell(title: "Results") }
    start(.success(Array(1...60)))
  }

  /// Starts a simulated request; a refresh keeps what is shown, a fresh load starts from nothing.
  private func start(_ result: Result<[Int], Failure>, refresh: Bool = false) {
    if !refresh { load = .idle }
    load.startLoading()
    pending = (15, result)
    update()
  }

  private func update() {
    view.placeholder = CollectionPlaceholder(
      load.presentation, loading: "Loading results…",
      empty: "Nothing matches. Press L to load again.",
      failure: { "Could not load: \($0.message). Press L to retry." })
    if let content = load.content {
      view.dataSource.apply(Snapshot(sections: [(0, content)]))
    }
  }

  func place(in area: CellRect) { view.frame = area }

  func handle(_ event: InputEvent) -> Bool {
    guard case .key(let key) = event, key.modifiers.isEmpty else { return view.handle(event) }
    switch key.key {
    case .character("l"), .character("L"): start(.success(Array(1...60)))
    case .character("e"), .character("E"): start(.success([]))
    case .character("x"), .character("X"):
      start(.failure(Failure(message: "the server answered 502 Bad Gateway")))
    case .character("r"), .character("R"): start(.success(Array(1...80)), refresh: true)
    case .character("f"), .character("F"):
      start(.failure(Failure(message: "the network is unreachable")), refresh: true)
    default: return view.handle(event)
    }
    return true
  }

  func tick() {
    view.tick()
    guard var pending else { return }
    pending.ticks -= 1
    self.pending = pending.ticks > 0 ? pending : nil
    if pending.ticks == 0 {
      switch pending.result {
      case .success(let rows): load.finish(with: rows)
      case .failure(let failure): load.fail(with: failure)
      }
      update()
    }
  }

  func render(into screen: inout CellBuffer) { view.render(into: &screen) }
  var statistics: RenderStatistics { view.statistics }
}
