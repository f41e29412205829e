import Testing
import TerminalTestSupport
import TrellisTerminal

@Suite struct VirtualTerminalTests {
  @Test func textWrapsAtTheRightEdgeAndScrollsAtTheBottom() {
    var terminal = VirtualTerminal(width: 4, height: 2)
    terminal.write(Array("abcdefghij".utf8))
    #expect(terminal.lines == ["efgh", "ij  "])
  }

  @Test func aWideCharacterThatDoesNotFitWrapsWhole() {
    var terminal = VirtualTerminal(width: 3, height: 2)
    terminal.write(Array("ab한".utf8))
    #expect(terminal.lines == ["ab ", "한 "])
  }

  @Test func cursorMovesAndErasing() {
    var terminal = VirtualTerminal(width: 5, height: 2)
    terminal.write(Array("hello\u{1B}[2;3Hx\u{1B}[1;1H\u{1B}[K\u{1B}[2Cy".utf8))
    #expect(terminal.lines == ["  y  ", "  x  "])
    terminal.write(Array("\u{1B}[2J".utf8))
    #expect(terminal.lines == ["     ", "     "])
  }

  @Test func stylesAreParsedFromSGR() {
    var terminal = VirtualTerminal(width: 4, height: 1)
    terminal.write(Array("\u{1B}[1;31;48;5;200ma\u{1B}[0;38;2;1;2;3mb\u{1B}[7;94mc".utf8))
    #expect(
      terminal.screen[0, 0].style
        == Style(foreground: .red, background: .indexed(200), attributes: .bold))
    #expect(terminal.screen[1, 0].style == Style(foreground: .rgb(1, 2, 3)))
    #expect(terminal.screen[2, 0].style == Style(foreground: .ansi(12), attributes: .reverse))
  }

  @Test func theAlternateScreenKeepsTheMainScreen() {
    var terminal = VirtualTerminal(width: 4, height: 1)
    terminal.write(Array("main".utf8))
    terminal.write(Array("\u{1B}[?1049h\u{1B}[?25l".utf8))
    #expect(terminal.isAlternateScreen)
    #expect(!terminal.isCursorVisible)
    #expect(terminal.lines == ["    "])
    terminal.write(Array("alt".utf8))
    terminal.write(Array("\u{1B}[?1049l\u{1B}[?25h".utf8))
    #expect(terminal.lines == ["main"])
    #expect(terminal.isCursorVisible)
  }

  @Test func sequencesAndCharactersSplitAcrossWritesAreReassembled() {
    var terminal = VirtualTerminal(width: 6, height: 1)
    for byte in Array("\u{1B}[31m한\u{1B}]0;title\u{7}e\u{301}".utf8) { terminal.write([byte]) }
    #expect(terminal.lines == ["한e\u{301}   "])
    #expect(terminal.screen[0, 0].style.foreground == .red)
    #expect(terminal.bytesWritten == Array("\u{1B}[31m한\u{1B}]0;title\u{7}e\u{301}".utf8).count)
  }
}
