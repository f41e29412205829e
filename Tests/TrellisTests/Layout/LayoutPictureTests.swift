import Testing
import Trellis

@Suite struct LayoutPictureTests {
  @Test func elementsAreDrawnAsLabelledRectanglesByCategory() {
    let svg = LayoutPicture.svg(
      of: [
        LayoutAttributes(
          category: .cell, indexPath: IndexPath(item: 1, section: 0),
          frame: Rect(x: 10, y: 20, width: 30, height: 40)),
        LayoutAttributes(
          category: .supplementary(kind: "header"), indexPath: IndexPath(item: 0, section: 0),
          frame: Rect(x: 0, y: 0, width: 100, height: 20)),
        LayoutAttributes(
          category: .decoration(kind: "<bg>"), indexPath: IndexPath(item: 0, section: 0),
          frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      ], contentSize: Size(width: 100, height: 100.5))
    #expect(
      svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100.5\""))
    #expect(svg.contains("<rect x=\"10\" y=\"20\" width=\"30\" height=\"40\" fill=\"#cfe3ff\""))
    #expect(svg.contains(">0.1</text>"))
    #expect(svg.contains(">header 0</text>"))
    #expect(svg.contains("&lt;bg&gt;"))
    // Decorations first, then cells, then supplementaries.
    let lines = svg.split(separator: "\n")
    let decoration = lines.firstIndex { $0.contains("#eceff1") }
    let cell = lines.firstIndex { $0.contains("#cfe3ff") }
    let header = lines.firstIndex { $0.contains("#ffe0b8") }
    #expect(decoration != nil && cell != nil && header != nil)
    if let decoration, let cell, let header { #expect(decoration < cell && cell < header) }
    #expect(svg.hasSuffix("</svg>\n"))
  }
}

@Suite struct LayoutPictureNumberTests {
  @Test func coordinatesAreWrittenToHundredthsWithoutNeedlessDigits() {
    let svg = LayoutPicture.svg(
      of: [
        LayoutAttributes(
          category: .cell, indexPath: IndexPath(item: 0, section: 0),
          frame: Rect(x: -0.5, y: 0.05, width: 12.346, height: 3))
      ], contentSize: Size(width: 20, height: 10))
    #expect(svg.contains(#"<rect x="-0.5" y="0.05" width="12.35" height="3""#))
  }
}
