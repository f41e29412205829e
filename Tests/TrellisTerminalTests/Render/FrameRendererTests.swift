import Testing
import TerminalTestSupport
import TrellisTerminal
import TrellisTestSupport

@Suite struct FrameRendererTests {
  /// Renders frames through a virtual terminal and returns it with the bytes of each frame.
  private func show(_ frames: [CellBuffer]) -> (VirtualTerminal, [[UInt8]]) {
    var terminal = VirtualTerminal(width: frames[0].width, height: frames[0].height)
    var renderer = FrameRenderer()
    var outputs: [[UInt8]] = []
    for frame in frames {
      let bytes = renderer.render(frame)
      terminal.write(bytes)
      outputs.append(bytes)
      #expect(terminal.screen == frame, "\n\(terminal.screen)\n≠\n\(frame)")
    }
    return (terminal, outputs)
  }

  @Test func reverseWithoutColourIsReverseOnlyWhereThereIsNoColour() {
    let focus = Style(background: .indexed(24), attributes: [.bold, .reverseWithoutColor])
    #expect(ColorSupport.none.adapt(focus) == Style(attributes: [.bold, .reverse]))
    for depth in [ColorSupport.ansi16, .indexed256, .trueColor] {
      let adapted = depth.adapt(focus)
      #expect(adapted.attributes == .bold, "\(depth)")
      #expect(adapted.background != .default, "\(depth)")
    }
  }

  @Test func theFirstFrameIsDrawnInFull() {
    let frame = CellBuffer(lines: ["전체선택 😃", "新版本的问题"])
    let (terminal, _) = show([frame])
    #expect(terminal.lines == ["전체선택 😃 ", "新版本的问题"])
  }

  @Test func anUnchangedFrameWritesNothing() {
    let frame = CellBuffer(lines: ["abc"])
    let (_, outputs) = show([frame, frame])
    #expect(outputs[1].isEmpty)
  }

  @Test func aOneCellChangeCostsAHandfulOfBytesWhateverTheScreenSize() {
    var big = CellBuffer(width: 200, height: 60)
    big.draw { $0.fill(with: "x") }
    var changed = big
    changed.draw { $0.text("y", x: 150, y: 40) }
    let (_, outputs) = show([big, changed])
    // ESC[?2026h ESC[41;151H y ESC[?2026l
    #expect(
      String(decoding: outputs[1], as: UTF8.self) == "\u{1B}[?2026h\u{1B}[41;151Hy\u{1B}[?2026l")
    #expect(outputs[1].count <= 32)
  }

  @Test func stylesChangeOnlyWhenTheyDiffer() {
    let red = Style(foreground: .red)
    var first = CellBuffer(width: 6, height: 1, fill: .blank(red))
    first.draw { $0.text("ab", x: 0, y: 0, style: red) }
    var second = first
    second.draw { $0.text("cd", x: 0, y: 0, style: red) }
    let (_, outputs) = show([first, second])
    let text = String(decoding: outputs[1], as: UTF8.self)
    #expect(text == "\u{1B}[?2026h\u{1B}[Hcd\u{1B}[?2026l")  // the terminal is still red
  }

  @Test func nearbyChangesOnARowMoveTheCursorForwardRelatively() {
    var first = CellBuffer(width: 20, height: 1)
    first.draw { $0.fill(with: "-") }
    var second = first
    second.draw { canvas in
      canvas.text("a", x: 10, y: 0)
      canvas.text("b", x: 13, y: 0)
    }
    let (_, outputs) = show([first, second])
    #expect(
      String(decoding: outputs[1], as: UTF8.self)
        == "\u{1B}[?2026h\u{1B}[;11Ha\u{1B}[2Cb\u{1B}[?2026l")
  }

  @Test func wideCharactersReplacingNarrowOnesAndBack() {
    let frames = [
      CellBuffer(lines: ["abcdef"]),
      CellBuffer(lines: ["a한글ef"], width: 6),
      CellBuffer(lines: ["ab글cf"], width: 6),
      CellBuffer(lines: ["😃😃😃"], width: 6),
      CellBuffer(lines: ["xyzuvw"]),
    ]
    _ = show(frames)
  }

  /// A wide cluster of several scalars (terminals disagree on its width: tmux 3.3 draws `⚠️`
  /// in one column) is written over two blanks, and the next cell is placed by an absolute
  /// move: a terminal that draws it narrow shows a blank beside it, the rest of the row in place.
  @Test func disputedWideClustersNeverShiftTheRestOfTheRow() {
    var renderer = FrameRenderer()
    let first = String(decoding: renderer.render(CellBuffer(lines: ["a⚠️b😃c"])), as: UTF8.self)
    #expect(first.contains("a  \u{1B}[;2H⚠️\u{1B}[;4Hb"), "\(first.debugDescription)")
    #expect(first.contains("b😃c"), "a single-scalar wide character is not disputed")
    _ = show([
      CellBuffer(lines: ["a⚠️b👨‍👩‍👧c"], width: 8), CellBuffer(lines: ["x🇯🇵yz⚠️w"], width: 8),
      CellBuffer(lines: ["abcdefgh"], width: 8),
    ])
  }

  @Test func aResizedFrameIsDrawnInFull() {
    var renderer = FrameRenderer()
    var terminal = VirtualTerminal(width: 4, height: 1)
    terminal.write(renderer.render(CellBuffer(lines: ["abcd"])))
    terminal.resize(width: 6, height: 2)
    let bytes = renderer.render(CellBuffer(lines: ["abcdef", "ghij"], width: 6))
    terminal.write(bytes)
    #expect(terminal.lines == ["abcdef", "ghij  "])
  }

  @Test func everyColourAndAttributeSurvivesTheRoundTrip() {
    let styles = [
      Style(foreground: .red, background: .ansi(12)),
      Style(foreground: .indexed(200), attributes: [.bold, .underline]),
      Style(background: .rgb(10, 20, 30), attributes: [.italic, .dim]),
      Style(attributes: .reverse),
      .plain,
    ]
    var frame = CellBuffer(width: 10, height: 1)
    frame.draw { canvas in
      for (index, style) in styles.enumerated() {
        canvas.text("\(index)", x: index * 2, y: 0, style: style)
      }
    }
    var reversed = frame
    reversed.draw { canvas in
      for (index, style) in styles.reversed().enumerated() {
        canvas.text("\(index)", x: index * 2, y: 0, style: style)
      }
    }
    _ = show([frame, reversed, frame])
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func randomFrameSequencesReachTheScreenExactly(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let pieces = ["a", "b", "한", "😃", "e\u{301}", "新", " ", "─"]
    let styles = [
      Style.plain, Style(foreground: .red), Style(attributes: [.bold]),
      Style(background: .indexed(33)),
    ]
    var frame = CellBuffer(width: 16, height: 5)
    var frames = [frame]
    for _ in 0..<60 {
      for _ in 0..<Int.random(in: 0...6, using: &rng) {
        let text = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
          pieces[Int.random(in: 0..<pieces.count, using: &rng)]
        }.joined()
        let style = styles[Int.random(in: 0..<styles.count, using: &rng)]
        frame.draw {
          $0.text(
            text, x: Int.random(in: -1...15, using: &rng), y: Int.random(in: 0...4, using: &rng),
            style: style)
        }
      }
      frames.append(frame)
    }
    _ = show(frames)
  }

  /// A list of `count` rows from `first`, under a fixed title and over a fixed status line, with
  /// a side pane whose text follows the first row.
  private func listFrame(first: Int, width: Int = 40, height: Int = 12) -> CellBuffer {
    var frame = CellBuffer(width: width, height: height)
    frame.draw { canvas in
      _ = canvas.text("title", x: 0, y: 0, style: Style(attributes: [.bold]))
      for row in 1..<(height - 1) {
        let words = ["alpha", "브라보 찰리", "delta", "echo foxtrot golf", "hotel 新"]
        let number = first + row
        _ = canvas.text(
          "#\(number) \(words[(number % 5 + 5) % 5]) \(number * 37 % 101)", x: 0, y: row,
          style: row == 3 ? Style(attributes: [.reverse]) : .plain)
      }
      _ = canvas.text("status", x: 0, y: height - 1)
    }
    return frame
  }

  @Test func aListScrolledByARowIsMovedByTheTerminalNotRedrawn() {
    let frames = (0..<6).map { listFrame(first: $0) } + [listFrame(first: 3), listFrame(first: 1)]
    let (_, outputs) = show(frames)
    // A row up: the band's margins, SU, the uncovered row and the moved focus row.
    #expect(String(decoding: outputs[1], as: UTF8.self).contains("\u{1B}[2;11r\u{1B}[S\u{1B}[r"))
    for output in outputs[1..<6] { #expect(output.count < 120, "\(output.count) bytes") }
    // Two rows down at once.
    #expect(String(decoding: outputs[7], as: UTF8.self).contains("\u{1B}[2T"))
    // What the frame's list rows hold, written cell by cell, is several times more.
    let listed = frames[1].lines[1..<11].reduce(0) { $0 + $1.utf8.count }
    #expect(listed > 3 * outputs[1].count)
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func randomScrollsWithChangesReachTheScreenExactly(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var first = 0
    var frames: [CellBuffer] = []
    for _ in 0..<40 {
      first += Int.random(in: -4...4, using: &rng)
      var frame = listFrame(first: first, width: 24, height: Int.random(in: 9...10, using: &rng))
      if frames.last?.height != frame.height { frame = listFrame(first: first, width: 24) }
      // A few cells changed on top of the scroll, styled or wide.
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        frame.draw {
          _ = $0.text(
            ["新", "x", "😃"][Int.random(in: 0..<3, using: &rng)],
            x: Int.random(in: 0...23, using: &rng), y: Int.random(in: 0...11, using: &rng),
            style: Style(background: .indexed(UInt8(Int.random(in: 0...9, using: &rng)))))
        }
      }
      frames.append(frame)
    }
    _ = show(frames)
  }
}
