import Testing
import TrellisTerminal
import TrellisTestSupport

@Suite struct CanvasTests {
  @Test func textIsClippedToItsRectangle() {
    var frame = CellBuffer(width: 10, height: 3)
    frame.draw(in: CellRect(x: 2, y: 1, width: 4, height: 1)) { canvas in
      canvas.text("abcdefgh", x: 0, y: 0)
      canvas.text("zz", x: 0, y: 1)  // below the rectangle: not drawn
    }
    #expect(frame.lines == ["          ", "  abcd    ", "          "])
  }

  @Test func aWideCharacterStraddlingTheEdgeBecomesABlank() {
    // Regression for "전": half of it must not escape the frame.
    var frame = CellBuffer(width: 6, height: 1, fill: Cell("."))
    frame.draw(in: CellRect(x: 0, y: 0, width: 3, height: 1)) { canvas in
      canvas.text("전체", x: 0, y: 0)
    }
    #expect(frame.lines == ["전 ..."])
    #expect(frame[3, 0].grapheme == ".")
  }

  @Test func aWideCharacterStartingLeftOfTheClipLeavesABlank() {
    var frame = CellBuffer(width: 6, height: 1, fill: Cell("."))
    frame.draw(in: CellRect(x: 1, y: 0, width: 4, height: 1)) { canvas in
      canvas.text("한글", x: -1, y: 0)
    }
    #expect(frame.lines == [". 글.."])
  }

  @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
    var frame = CellBuffer(lines: ["한글ab"])
    frame.draw { $0.text("x", x: 1, y: 0) }
    #expect(frame.lines == [" x글ab"])
    frame.draw { $0.text("y", x: 2, y: 0) }
    #expect(frame.lines == [" xy ab"])
  }

  @Test func emojiSequencesTakeTwoCellsAndCombiningMarksStayWithTheirLetter() {
    var frame = CellBuffer(width: 8, height: 1)
    let end = frame.draw { $0.text("🇰🇷e\u{301}👨‍👩‍👧|", x: 0, y: 0) }
    #expect(end == 6)
    #expect(frame[0, 0].grapheme == "🇰🇷")
    #expect(frame[1, 0].isContinuation)
    #expect(frame[2, 0].grapheme == "e\u{301}")
    #expect(frame[3, 0].grapheme == "👨‍👩‍👧")
    #expect(frame[5, 0].grapheme == "|")
  }

  @Test func controlCharactersAreNotDrawn() {
    var frame = CellBuffer(width: 4, height: 1)
    frame.draw { $0.text("a\u{1B}[31mb", x: 0, y: 0) }
    #expect(frame.lines == ["a[31"])
  }

  @Test func boxesAndFillsStayInside() {
    var frame = CellBuffer(width: 6, height: 4)
    frame.draw(in: CellRect(x: 1, y: 0, width: 4, height: 3)) { canvas in
      canvas.fill(with: "·")
      canvas.box(border: .rounded)
    }
    #expect(frame.lines == [" ╭──╮ ", " │··│ ", " ╰──╯ ", "      "])
  }

  @Test func nestedCanvasesClipToBoth() {
    var frame = CellBuffer(width: 8, height: 1)
    frame.draw(in: CellRect(x: 2, y: 0, width: 4, height: 1)) { outer in
      outer.draw(in: CellRect(x: 2, y: 0, width: 10, height: 1)) { inner in
        inner.text("abcdef", x: 0, y: 0)
      }
    }
    #expect(frame.lines == ["    ab  "])
  }

  @Test func restyleKeepsTheText() {
    var frame = CellBuffer(lines: ["ab"])
    frame.draw {
      $0.restyle(CellRect(x: 1, y: 0, width: 1, height: 1)) { $0.attributes.insert(.reverse) }
    }
    #expect(frame.lines == ["ab"])
    #expect(frame[1, 0].style.attributes == .reverse)
    #expect(frame[0, 0].style == .plain)
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func randomDrawingKeepsWideCharactersPaired(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let pieces = ["a", "한", "😃", "e\u{301}", "新", "🇰🇷", " "]
    var frame = CellBuffer(width: 12, height: 3)
    for step in 0..<200 {
      let rect = CellRect(
        x: Int.random(in: -2...12, using: &rng), y: Int.random(in: -1...3, using: &rng),
        width: Int.random(in: 0...8, using: &rng), height: Int.random(in: 0...3, using: &rng))
      let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
        pieces[Int.random(in: 0..<pieces.count, using: &rng)]
      }.joined()
      let before = frame
      frame.draw(in: rect) { $0.text(text, x: Int.random(in: -2...4, using: &rng), y: 0) }
      for row in 0..<frame.height {
        for column in 0..<frame.width {
          let cell = frame[column, row]
          if cell.width == 2 {
            #expect(
              column + 1 < frame.width && frame[column + 1, row].isContinuation,
              "seed \(seed), step \(step)")
          }
          if cell.isContinuation {
            #expect(column > 0 && frame[column - 1, row].width == 2, "seed \(seed), step \(step)")
          }
          // Outside the rectangle only the other half of a broken wide character may change.
          let clip = rect.intersection(frame.bounds)
          if !clip.contains(x: column, y: row) && cell != before[column, row] {
            let neighbour =
              clip.contains(x: column - 1, y: row) || clip.contains(x: column + 1, y: row)
            #expect(
              neighbour && cell.grapheme == " ", "seed \(seed), step \(step): (\(column), \(row))")
          }
        }
      }
    }
  }

  /// A fill of one-column cells writes a run at a time; over wide characters cut by its edges
  /// it leaves what writing its cells one by one leaves.
  @Test(arguments: 0..<10 as Range<UInt64>)
  func aFillIsItsCellsWrittenOneByOne(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let pieces = ["a", "한", "😃", "新", " "]
    for step in 0..<200 {
      var frame = CellBuffer(width: 12, height: 3)
      for row in 0..<3 {
        let text = (0..<8).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
        frame.draw { $0.text(text.joined(), x: Int.random(in: 0...2, using: &rng), y: row) }
      }
      let rect = CellRect(
        x: Int.random(in: -2...12, using: &rng), y: Int.random(in: -1...3, using: &rng),
        width: Int.random(in: 0...10, using: &rng), height: Int.random(in: 0...3, using: &rng))
      let style = Style(foreground: .red)
      var filled = frame
      filled.draw(in: rect) { $0.fill(style: style) }
      var oneByOne = frame
      let clip = rect.intersection(frame.bounds)
      for row in clip.y..<clip.maxY {
        for column in clip.x..<clip.maxX { oneByOne.put(.blank(style), x: column, y: row) }
      }
      #expect(filled == oneByOne, "seed \(seed), step \(step)")
    }
  }
}
