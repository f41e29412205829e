import Foundation
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

/// The gallery, run for real in a pseudo-terminal: every screen draws, and quitting gives the
/// terminal back.
@Suite(.serialized) struct GalleryTests {
  @Test func everyScreenDrawsAndQuitRestoresTheTerminal() throws {
    let pty = try PseudoTerminal(columns: 100, rows: 30)
    let before = pty.settings()
    var terminal = VirtualTerminal(width: 100, height: 30)
    let process = try pty.launch(builtExecutablePath("trellis-gallery"), [])
    defer { if process.isRunning { process.terminate() } }
    func read(until condition: (VirtualTerminal) -> Bool) {
      var buffer = [UInt8](repeating: 0, count: 65536)
      let deadline = Date().addingTimeInterval(10)
      while Date() < deadline {
        let count = Glibc.read(pty.master, &buffer, buffer.count)
        if count > 0 {
          terminal.write(buffer[0..<count])
          if condition(terminal) { return }
        } else {
          usleep(2000)
        }
      }
    }
    func shows(_ text: String) -> (VirtualTerminal) -> Bool {
      { terminal in terminal.lines.contains { $0.contains(text) } }
    }
    read(until: shows("No milestone 105"))
    #expect(terminal.lines[1].contains("All 480"))
    pty.type("\u{1B}[C\u{1B}[C\r")  // → → Enter: the "v1.0 출시" chip
    read(until: shows("Open  36 issues"))
    #expect(shows("Open  36 issues")(terminal))
    pty.type("2")
    read(until: shows("Card 1"))
    #expect(shows("Card 2")(terminal))
    pty.type("3")
    read(until: shows("Featured 1"))
    #expect(shows("Nested groups")(terminal))
    pty.type("4x")
    read(until: shows("502 Bad Gateway"))
    #expect(shows("Could not load")(terminal))
    // The outline: folder 1 is open; → on folder 2 (after its ten subfolders) opens it too.
    pty.type("5")
    read(until: shows("subfolder 10"))
    #expect(shows("▾ folder 1")(terminal))
    #expect(shows("40 of 3330 rows shown")(terminal))
    pty.type("\u{1B}[B\u{1B}[C")  // ↓ then →: subfolder 1 opens, ten files below it
    read(until: shows("50 of 3330 rows shown"))
    #expect(shows("file-10.swift")(terminal))
    pty.type("\u{1B}[D")  // ←: it closes again
    read(until: shows("40 of 3330 rows shown"))
    // The lifecycle: rows near the screen load their details; `.` opens the focused row's actions.
    pty.type("6")
    read(until: shows("details of 3"))
    pty.type("\u{1B}[B.")
    read(until: shows("3 Delete"))
    #expect(shows("2 Reload")(terminal))
    pty.type("\u{1B}")
    usleep(100_000)
    pty.type("q")
    #expect(waitForExit(process))
    #expect(process.terminationStatus == 0)
    read(until: { !$0.isAlternateScreen })
    #expect(!terminal.isAlternateScreen)
    #expect(pty.settings() == before)
  }
}
#endif
