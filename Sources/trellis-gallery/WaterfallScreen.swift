import Trellis
import TrellisTerminal

/// An endless waterfall: a waterfall of cards of varying height that grows by a page when the focus nears
/// the end, as an infinite feed does; only the new cards are laid out.
@MainActor
final class WaterfallScreen: GalleryScreen {
  struct Card {
    var title: String
    var body: String
    var height: Int
    var color: Color
  }

  let title = "Waterfall"
  var hint: String {
    "↑↓←→ move · Enter select · pages: \(pages)\(loading > 0 ? " · loading page \(pages + 1)…" : "")"
  }
  private var cards: [Card] = []
  private let view: CollectionView<Int, Int>
  private var pages = 0
  /// Ticks left until the page being "fetched" arrives; 0 when idle.
  private var loading = 0
  private var generator = SampleData.Generator(state: 7)
  private let box = CardBox()

  /// The cards, shared with the layout's height closure and the cell provider.
  final class CardBox {
    var cards: [Card] = []
  }

  init() {
    let box = self.box
    view = CollectionView(layout: Self.layout(columns: 2, box: box)) { _, id in
      let card = box.cards[id]
      return CardCell(title: card.title, body: card.body, color: card.color)
    }
    view.navigationKeys = .standard
    view.onFocusChange = { [weak self] id in self?.prefetch(near: id) }
    appendPage()
    appendPage()
    view.focus(0)
  }

  static func layout(columns: Int, box: CardBox) -> WaterfallLayout {
    var layout = WaterfallLayout()
    layout.columnCount = { _ in columns }
    layout.columnSpacing = 1
    layout.itemSpacing = 0
    layout.sectionInset = EdgeInsets(top: 0, leading: 1, bottom: 0, trailing: 1)
    layout.itemHeight = .height { indexPath, _ in Double(box.cards[indexPath.item].height) }
    return layout
  }

  private func appendPage() {
    let colors: [Color] = [.cyan, .magenta, .yellow, .green, .blue, .red]
    for _ in 0..<24 {
      let number = box.cards.count + 1
      box.cards.append(
        Card(
          title: "Card \(number)",
          body: SampleData.sentence(&generator, words: 4 + generator.next(18)),
          height: 4 + generator.next(6), color: colors[generator.next(colors.count)]))
    }
    pages += 1
    view.dataSource.apply(Snapshot(sections: [(0, Array(0..<box.cards.count))]))
  }

  /// Starts "fetching" the next page when the focus is within a few cards of the end.
  private func prefetch(near id: Int?) {
    guard let id, loading == 0, id >= box.cards.count - 8 else { return }
    loading = 6
  }

  func place(in area: CellRect) {
    let columns = area.width >= 150 ? 4 : area.width >= 100 ? 3 : 2
    view.frame = area
    view.layout = Self.layout(columns: columns, box: box)
  }

  func handle(_ event: InputEvent) -> Bool { view.handle(event) }

  func tick() {
    guard loading > 0 else { return }
    loading -= 1
    if loading == 0 { appendPage() }
  }

  func render(into screen: inout CellBuffer) { view.render(into: &screen) }

  var statistics: RenderStatistics { view.statistics }
}
