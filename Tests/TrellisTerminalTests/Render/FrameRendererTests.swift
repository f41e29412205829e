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
}
