import TrellisTerminal

/// The gallery: a tab bar, the current screen, and a status line with the keys and what the
/// last frame cost.
@MainActor
final class Gallery {
  let screens: [any GalleryScreen] = [
    MilestoneScreen(), WaterfallScreen(), CompositionalScreen(), StatesScreen(), OutlineScreen(),
    LifecycleScreen(),
  ]
  var current = 0
  var size: TerminalSize
  private var renderer = FrameRenderer()
  private var lastBytes = 0

  init(size: TerminalSize) {
    self.size = size
    placeScreens()
  }

  private var contentArea: CellRect {
    CellRect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - 2))
  }

  func placeScreens() {
    for screen in screens { screen.place(in: contentArea) }
  }

  func resize(_ size: TerminalSize) {
    self.size = size
    placeScreens()
  }

  /// What the app should do after an event.
  enum Outcome {
    case redraw
    case quit
  }

  func handle(_ event: InputEvent) -> Outcome {
    if screens[current].handle(event) { return .redraw }
    switch event {
    case .key(let key) where key.modifiers.isEmpty:
      switch key.key {
      case .character("q"), .escape: return .quit
      case .tab: current = (current + 1) % screens.count
      case .character(let digit)
      where digit.wholeNumberValue.map { (1...screens.count).contains($0) } ?? false:
        current = (digit.wholeNumberValue ?? 1) - 1
      default: break
      }
    case .key(let key) where key.key == .tab && key.modifiers == .shift:
      current = (current + screens.count - 1) % screens.count
    case .key(let key) where key.key == .character("c") && key.modifiers == .control:
      return .quit
    case .mouse(let mouse) where mouse.y == 0:
      if case .press(.left) = mouse.kind, let tab = tab(atColumn: mouse.x) { current = tab }
    default: break
    }
    return .redraw
  }

  func tick() {
    for screen in screens { screen.tick() }
  }

  private func tabLabel(_ index: Int) -> String { " \(index + 1) \(screens[index].title) " }

  private func tab(atColumn column: Int) -> Int? {
    var x = 1
    for index in screens.indices {
      let width = DisplayWidth.of(tabLabel(index))
      if column >= x && column < x + width { return index }
      x += width + 1
    }
    return nil
  }

  /// Draws a frame and returns the bytes that bring the terminal up to date.
  func frame() -> [UInt8] {
    var buffer = CellBuffer(width: size.columns, height: size.rows)
    let bar = Style(foreground: .white, background: .indexed(236))
    buffer.draw { canvas in
      canvas.fill(CellRect(x: 0, y: 0, width: size.columns, height: 1), style: bar)
      var x = 1
      for index in screens.indices {
        let style =
          index == current ? Style(foreground: .black, background: .cyan, attributes: .bold) : bar
        x = canvas.text(tabLabel(index), x: x, y: 0, style: style) + 1
      }
      canvas.text(" trellis-gallery ", x: max(x, size.columns - 17), y: 0, style: bar.with(.dim))
    }
    let screen = screens[current]
    screen.render(into: &buffer)
    let stats = screen.statistics
    let status =
      " \(screen.hint) · Tab/1–\(screens.count) screens · q quit │ drawn \(stats.drawn) reused \(stats.reused)"
      + " · \(lastBytes) B "
    buffer.draw { canvas in
      let row = size.rows - 1
      canvas.fill(CellRect(x: 0, y: row, width: size.columns, height: 1), style: bar)
      canvas.text(DisplayWidth.truncate(status, toColumns: size.columns), x: 0, y: row, style: bar)
    }
    let bytes = renderer.render(buffer)
    lastBytes = bytes.count
    return bytes
  }

  func invalidate() { renderer.invalidate() }
}
