import Trellis
import TerminalTestSupport
import TrellisTerminal

/// A screen for collection-view tests: renders views into a buffer, sends the frame through the
/// renderer into a virtual terminal, and reports what changed.
@MainActor
struct TerminalHarness {
  var screen: CellBuffer
  var renderer = FrameRenderer()
  var terminal: VirtualTerminal

  init(width: Int, height: Int) {
    screen = CellBuffer(width: width, height: height)
    terminal = VirtualTerminal(width: width, height: height)
  }

  /// What one frame changed on the terminal.
  struct Frame {
    var bytes: [UInt8]
    /// The cells whose content or style differs from the previous frame.
    var changedCells: [(x: Int, y: Int)]
  }

  /// Renders the views and returns what reached the terminal.
  @discardableResult
  mutating func frame<S, I>(_ views: CollectionView<S, I>...) -> Frame {
    let before = terminal.screen
    for view in views { view.render(into: &screen) }
    let bytes = renderer.render(screen)
    terminal.write(bytes)
    let changed = terminal.screen.changedCells(from: before)
    return Frame(bytes: bytes, changedCells: changed)
  }

  mutating func resize(width: Int, height: Int) {
    screen = CellBuffer(width: width, height: height)
    terminal.resize(width: width, height: height)
  }

  var lines: [String] { terminal.lines }
}

/// A numbered row of a list, for tests.
struct RowCell: CollectionCell {
  var text: String

  func draw(in canvas: inout Canvas, state: CellState) {
    let style =
      state.contains(.focused)
      ? Style(attributes: .reverse) : state.contains(.selected) ? Style(foreground: .cyan) : .plain
    canvas.fill(style: style)
    canvas.text(text, x: 0, y: 0, style: style)
  }
}

/// A chip of a chip bar: its text in brackets, highlighted when selected.
struct ChipCell: CollectionCell {
  var title: String

  static func width(of title: String) -> Double { Double(DisplayWidth.of(title) + 2) }

  func draw(in canvas: inout Canvas, state: CellState) {
    var style = state.contains(.selected) ? Style(foreground: .black, background: .cyan) : .plain
    if state.contains(.focused) { style = style.with(.underline) }
    canvas.fill(style: style)
    canvas.text("[" + title + "]", x: 0, y: 0, style: style)
  }
}

/// A header showing the section's name.
struct HeaderCell: CollectionCell {
  var title: String

  func draw(in canvas: inout Canvas, state: CellState) {
    canvas.fill(style: Style(attributes: .bold))
    canvas.text("# " + title, x: 0, y: 0, style: Style(attributes: .bold))
  }
}

enum Layouts {
  /// One row per item, full width, one line high.
  static func list(width: Double, headers: Bool = false) -> FlowLayout {
    var layout = FlowLayout()
    layout.itemSize = .fixed(Size(width: width, height: 1))
    layout.minimumLineSpacing = 0
    layout.minimumInteritemSpacing = 0
    if headers {
      layout.headerSize = { _ in 1 }
      layout.pinsSectionHeaders = true
    }
    return layout
  }

  /// A one-line chip bar that scrolls sideways, one space between chips.
  static func chipBar() -> CompositionalLayout {
    CompositionalLayout(section: .chips(height: 1, estimatedWidth: 6, spacing: 1))
  }
}
