import Foundation
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

/// The session against a real pseudo-terminal: raw mode on, modes on, and everything given back
/// whatever way the program ends.
@Suite(.serialized) struct TerminalSessionTests {
  let enter =
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?1004h"
  let leave =
    "\u{1B}[0m\u{1B}[?1004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"

  @Test func notATerminalIsAClearError() {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    defer { fds.forEach { close($0) } }
    #expect(throws: TerminalError(.inputNotATerminal)) {
      try TerminalSession(input: fds[0], output: fds[1])
    }
    let error = TerminalError(.outputNotATerminal)
    #expect(error.description.contains("not a terminal"))
  }

  @Test func aSessionEntersRawModeAndRestoresExactly() throws {
    let pty = try PseudoTerminal()
    let before = pty.settings()
    let session = try TerminalSession(
      options: TerminalOptions(mouse: true, focusReporting: true), input: pty.slave,
      output: pty.slave)
    #expect(pty.isRaw())
    #expect(pty.read(until: { $0.contains(enter) }, seconds: 2) == enter)
    #expect(throws: TerminalError(.sessionAlreadyActive)) {
      try TerminalSession(input: pty.slave, output: pty.slave)
    }
    session.restore()
    #expect(pty.settings() == before)
    #expect(pty.read(until: { $0.contains(leave) }, seconds: 2) == leave)
    session.restore()  // idempotent
    #expect(pty.read(seconds: 0.1).isEmpty)
  }

  /// Restores racing on several threads (a signal's path and the app's quit): the terminal is
  /// given back once, the reader joined once, and the leave sequence written once.
  @Test func concurrentRestoresGiveTheTerminalBackOnce() async throws {
    for _ in 0..<20 {
      let pty = try PseudoTerminal()
      let before = pty.settings()
      let session = try TerminalSession(input: pty.slave, output: pty.slave)
      _ = pty.read(until: { $0.contains("\u{1B}[?1049h") }, seconds: 2)
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 { group.addTask { session.restore() } }
      }
      #expect(pty.settings() == before)
      let written = pty.read(until: { $0.contains("\u{1B}[?1049l") }, seconds: 2)
      #expect(written.components(separatedBy: "\u{1B}[?1049l").count == 2, "one leave sequence")
      #expect(pty.read(seconds: 0.05).isEmpty)
    }
  }

  @Test func typedBytesBecomeEventsAndSizeComesFromTheTTY() async throws {
    let pty = try PseudoTerminal(columns: 100, rows: 30)
    let session = try TerminalSession(input: pty.slave, output: pty.slave)
    defer { session.restore() }
    #expect(session.size == TerminalSize(columns: 100, rows: 30))
    pty.type("한\u{1B}[1;5A\u{1B}")
    var received: [TerminalEvent] = []
    for await event in session.events {
      received.append(event)
      if received.count == 3 { break }
    }
    #expect(
      received == [
        .input(.key(KeyEvent(.character("한")))), .input(.key(KeyEvent(.up, modifiers: .control))),
        .input(.key(KeyEvent(.escape))),
      ])
    pty.resize(columns: 120, rows: 40)
    kill(getpid(), SIGWINCH)
    for await event in session.events {
      #expect(event == .resize(TerminalSize(columns: 120, rows: 40)))
      break
    }
  }

  @Test func writesReachTheTerminal() throws {
    let pty = try PseudoTerminal()
    let session = try TerminalSession(
      options: TerminalOptions(alternateScreen: false, hideCursor: false, bracketedPaste: false),
      input: pty.slave, output: pty.slave)
    try session.write(Array("héllo".utf8))
    #expect(pty.read(until: { $0.contains("héllo") }, seconds: 2) == "héllo")
    session.restore()
  }

  private func runProbe(_ mode: String, then act: (Process, PseudoTerminal) -> Void = { _, _ in })
    throws -> (
      output: String, status: Int32, reason: Process.TerminationReason, restored: Bool
    )
  {
    let pty = try PseudoTerminal()
    let before = pty.settings()
    let process = try pty.launch(builtExecutablePath("trellis-terminal-probe"), [mode])
    var output = pty.read(until: { $0.contains("READY") })
    #expect(output.contains("READY"), "the probe did not start: \(output)")
    act(process, pty)
    let ended = waitForExit(process)
    #expect(ended, "the probe did not end")
    if !ended { process.terminate() }
    output += pty.read(seconds: 0.2)
    return (output, process.terminationStatus, process.terminationReason, pty.settings() == before)
  }

  @Test func normalExitRestoresTheTerminal() throws {
    let run = try runProbe("exit")
    #expect(run.restored)
    #expect(run.output.hasSuffix(leave))
    #expect(run.status == 0)
  }

  @Test func aThrownErrorRestoresTheTerminal() throws {
    let run = try runProbe("throw")
    #expect(run.restored)
    #expect(run.output.hasSuffix(leave))
    #expect(run.status == 3)
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
  func aSignalRestoresTheTerminalAndStillEndsTheProcess(signal: Int32) throws {
    let run = try runProbe("wait") { process, _ in kill(process.processIdentifier, signal) }
    #expect(run.restored)
    #expect(run.output.contains(leave))
    #expect(run.reason == .uncaughtSignal)
    #expect(run.status == signal)
  }

  @Test func aCrashRestoresTheTerminal() throws {
    let run = try runProbe("crash")
    #expect(run.restored)
    #expect(run.output.contains(leave))
    #expect(run.reason == .uncaughtSignal)
  }

  @Test func suspendRestoresAndResumeReentersRawMode() throws {
    let pty = try PseudoTerminal()
    let before = pty.settings()
    let process = try pty.launch(builtExecutablePath("trellis-terminal-probe"), ["suspend"])
    let started = pty.read(until: { $0.contains(leave) })
    #expect(started.contains("READY"))
    // Stopped with the terminal given back.
    var stopped = false
    for _ in 0..<400 where !stopped {
      stopped = isStopped(process.processIdentifier)
      usleep(5000)
    }
    #expect(stopped)
    #expect(pty.settings() == before)
    kill(process.processIdentifier, SIGCONT)
    let resumed = pty.read(until: { $0.contains("RESUMED") })
    #expect(resumed.contains(enter.prefix(8)))
    #expect(resumed.contains("RESUMED"))
    #expect(waitForExit(process))
    #expect(pty.settings() == before)
  }
}
#endif
