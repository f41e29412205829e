import Testing
import Trellis

@Suite struct ListConfigurationTests {
  private func layout(_ configuration: ListConfiguration, counts: [Int]) -> CompositionalLayout {
    var layout = CompositionalLayout(section: .list(using: configuration))
    layout.prepare(LayoutContext(itemCounts: counts, containerSize: Size(width: 200, height: 300)))
    return layout
  }

  private func elements(_ layout: CompositionalLayout, _ category: ElementCategory) -> [Rect] {
    layout.allAttributes.filter { $0.category == category }.map(\.frame)
  }

  @Test func insetGroupedRowsSitOverABackgroundWithSeparatorsBetweenThem() {
    var list = ListConfiguration(appearance: .insetGrouped)
    list.rowHeight = .absolute(40)
    list.sectionSpacing = 10
    list.headerMode = .supplementary
    list.headerHeight = 20
    list.footerMode = .supplementary
    list.footerHeight = 12
    list.separatorInsets = EdgeInsets(leading: 8)
    let layout = layout(list, counts: [3])
    // Header 0..<20 over the rows' width (16 in from each side); 10 of spacing; rows at 30, 70,
    // 110, 168 wide; 10 of spacing to 160; the footer 160..<172.
    #expect(
      elements(layout, .supplementary(kind: SupplementaryKind.header)) == [
        Rect(x: 16, y: 0, width: 168, height: 20)
      ])
    #expect(
      elements(layout, .cell) == [
        Rect(x: 16, y: 30, width: 168, height: 40), Rect(x: 16, y: 70, width: 168, height: 40),
        Rect(x: 16, y: 110, width: 168, height: 40),
      ])
    // A separator over the bottom line of each row but the last, 8 in from its leading edge.
    #expect(
      elements(layout, .decoration(kind: "separator")) == [
        Rect(x: 24, y: 69, width: 160, height: 1), Rect(x: 24, y: 109, width: 160, height: 1),
      ])
    // The background covers the rows exactly.
    #expect(
      elements(layout, .decoration(kind: "list-background")) == [
        Rect(x: 16, y: 30, width: 168, height: 120)
      ])
    #expect(
      elements(layout, .supplementary(kind: SupplementaryKind.footer)) == [
        Rect(x: 0 + 16, y: 160, width: 168, height: 12)
      ])
    #expect(layout.contentSize.height == 172)
  }

  @Test func plainRowsAreEdgeToEdgeWithPinnedHeaders() {
    var list = ListConfiguration(appearance: .plain)
    list.rowHeight = .absolute(40)
    list.headerMode = .supplementary
    let layout = layout(list, counts: [5, 5])
    #expect(elements(layout, .cell).first == Rect(x: 0, y: 28, width: 200, height: 40))
    // Sections touch: the second header right after the first section's rows.
    #expect(
      elements(layout, .supplementary(kind: SupplementaryKind.header)).map(\.minY) == [0, 228])
    let viewport = Rect(x: 0, y: 100, width: 200, height: 100)
    let header = layout.attributes(in: viewport, viewport: viewport).first {
      $0.category == .supplementary(kind: SupplementaryKind.header)
    }
    #expect(header?.frame.minY == 100)
    #expect(header?.isPinned == true)
  }

  @Test func sidebarsHaveNoSeparatorsAndAFirstItemHeaderAddsNoSupplementary() {
    for appearance in [ListConfiguration.Appearance.sidebar, .sidebarPlain] {
      var list = ListConfiguration(appearance: appearance)
      list.headerMode = .firstItemInSection
      let layout = layout(list, counts: [4])
      #expect(elements(layout, .decoration(kind: "separator")).isEmpty)
      #expect(elements(layout, .supplementary(kind: SupplementaryKind.header)).isEmpty)
      #expect(elements(layout, .cell).count == 4)
      // The sidebar insets its rows; the plain sidebar does not.
      #expect(elements(layout, .cell).first?.minX == (appearance == .sidebar ? 16 : 0))
    }
  }

  @Test func groupedSectionsAreApartAndEstimatedRowsAreMeasured() {
    var list = ListConfiguration(appearance: .grouped)
    list.sectionSpacing = 12
    var layout = CompositionalLayout(section: .list(using: list))
    layout.prepare(
      LayoutContext(itemCounts: [2, 1], containerSize: Size(width: 200, height: 300)) {
        path, size in
        Size(width: size.width, height: path.item == 0 ? 30 : 50)
      })
    // Section 0: 12 of spacing, rows 30 and 50 tall, 12 more; section 1 from 104.
    #expect(elements(layout, .cell).map(\.minY) == [12, 42, 116])
    #expect(elements(layout, .cell).map(\.height) == [30, 50, 30])
    #expect(elements(layout, .decoration(kind: "separator")).map(\.minY) == [41])
  }
}
