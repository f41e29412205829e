#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The terminal, taken over for a full-screen program: raw mode, the alternate screen, hidden
/// cursor, bracketed paste and optionally mouse and focus reports — and always given back.
///
///     let session = try TerminalSession()
///     defer { session.restore() }
///     var renderer = FrameRenderer()
///     try session.write(renderer.render(frame))
///     for await event in session.events { … }
///
/// The terminal is restored to exactly its prior settings when ``restore()`` is called, when the
/// session is released, when the process exits, on SIGINT, SIGTERM, SIGHUP and SIGQUIT, and when
/// the process crashes (the crash report, if any, prints after the terminal is restored). Ctrl-Z
/// arrives as a key in raw mode; call ``suspend()`` to stop the process the way a shell expects:
/// the terminal is restored, and on `fg` raw mode is re-entered and ``TerminalEvent/resumed`` asks
/// for a full redraw. Window size changes arrive as ``TerminalEvent/resize(_:)``; the signal
/// handler only writes a byte to a pipe.
///
/// One session can be active in a process at a time.
///
/// Sendable without the compiler's check only for `thread`: a `pthread_t` is a pointer on Darwin
/// (an integer on Linux), set once in `init` and joined once, by the call that ends the session
/// under `SessionShared`'s mutex. Everything else is `Sendable` as checked.
public final class TerminalSession: @unchecked Sendable {
  /// Input, resize and resume events, in order; finishes when the session ends or the terminal
  /// hangs up.
  public let events: AsyncStream<TerminalEvent>

  private let shared: SessionShared
  private let thread: pthread_t?

  /// Takes over the terminal.
  ///
  /// - Parameters:
  ///   - options: What to turn on.
  ///   - input: The terminal to read from; standard input by default.
  ///   - output: The terminal to write to; standard output by default.
  /// - Throws: ``TerminalError`` when input or output is not a terminal, another session is
  ///   active, or the terminal cannot be configured; the terminal is then left as it was.
  public init(
    options: TerminalOptions = TerminalOptions(), input: Int32 = STDIN_FILENO,
    output: Int32 = STDOUT_FILENO
  ) throws(TerminalError) {
    guard isatty(input) == 1 else { throw TerminalError(.inputNotATerminal) }
    guard isatty(output) == 1 else { throw TerminalError(.outputNotATerminal) }
    guard SignalRestore.active == 0, SignalRestore.wakeFD < 0 else {
      throw TerminalError(.sessionAlreadyActive)
    }
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else {
      throw TerminalError(.systemCall("tcgetattr", errno: errno))
    }
    var pipeFDs: [Int32] = [-1, -1]
    guard pipe(&pipeFDs) == 0 else { throw TerminalError(.systemCall("pipe", errno: errno)) }
    for fd in pipeFDs {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    let (stream, continuation) = AsyncStream<TerminalEvent>.makeStream()
    events = stream
    shared = SessionShared(
      input: input, output: output, options: options, wakeRead: pipeFDs[0], wakeWrite: pipeFDs[1],
      continuation: continuation)

    // Everything a signal handler needs is in place before raw mode starts.
    let leave = options.leaveSequence
    precondition(leave.count <= 256, "The leave sequence is longer than its buffer")
    SignalRestore.leaveBytes.update(from: leave, count: leave.count)
    SignalRestore.leaveCount = leave.count
    SignalRestore.terminalFD = input
    SignalRestore.outputFD = output
    SignalRestore.saved = saved
    SignalRestore.wakeFD = pipeFDs[1]
    SignalRestore.installAll()
    Self.registerAtExit()
    do {
      try shared.enterRawMode()
    } catch {
      SignalRestore.uninstallAll()
      SignalRestore.wakeFD = -1
      close(pipeFDs[0])
      close(pipeFDs[1])
      throw error
    }
    thread = startReader(shared)
  }

  deinit { restore() }

  /// Whether the exit hook is installed: sessions may start on any thread, one after another.
  private static let atExitRegistered = Mutex(false)

  private static func registerAtExit() {
    let first = atExitRegistered.withLock { registered in
      defer { registered = true }
      return !registered
    }
    if first { atexit { restoreAtExit() } }
  }

  /// The terminal's size now, or 80×24 when it cannot be read.
  public var size: TerminalSize { shared.size() }

  /// Writes bytes to the terminal, all of them.
  ///
  /// - Throws: ``TerminalError`` when the terminal is gone (for example, the window closed).
  public func write(_ bytes: [UInt8]) throws(TerminalError) {
    try shared.write(bytes)
  }

  /// Stops the process as Ctrl-Z does in a shell: restores the terminal and stops; when the shell
  /// continues it, raw mode comes back and ``TerminalEvent/resumed`` is delivered.
  public func suspend() {
    _ = kill(getpid(), SIGTSTP)
  }

  /// Lends the terminal to another program (an editor, a pager) while `body` runs: input stops
  /// being read, the screen and settings are restored as they were before the session; then
  /// raw mode comes back, and ``TerminalEvent/resumed`` asks for a full redraw.
  ///
  /// Keys typed meanwhile go to the other program, not to ``events``.
  public func lend<T>(_ body: () throws -> T) rethrows -> T {
    shared.setPaused(true)
    SignalRestore.wake(UInt8(ascii: "P"))
    shared.waitUntilReaderPaused()
    shared.withTerminal { SignalRestore.restoreNow() }
    defer {
      shared.resume()
      shared.setPaused(false)
      SignalRestore.wake(UInt8(ascii: "R"))
      shared.continuation.yield(.resumed)
      shared.continuation.yield(.resize(shared.size()))
    }
    return try body()
  }

  /// Gives the terminal back: modes off, settings restored, handlers removed, events finished.
  ///
  /// Safe to call more than once, from any thread: the first call restores and joins the reader
  /// thread; the others return at once.
  public func restore() {
    guard shared.end() else { return }
    shared.withTerminal {
      SignalRestore.restoreNow()
      SignalRestore.uninstallAll()
    }
    SignalRestore.wake(UInt8(ascii: "Q"))
    if let thread { _ = pthread_join(thread, nil) }
    SignalRestore.wakeFD = -1
    close(shared.wakeRead)
    close(shared.wakeWrite)
    shared.continuation.finish()
  }
}

/// State shared by the session and its reader thread: what changes after `init` lives under one
/// mutex.
final class SessionShared: Sendable {
  let input: Int32
  let output: Int32
  let options: TerminalOptions
  let wakeRead: Int32
  let wakeWrite: Int32
  let continuation: AsyncStream<TerminalEvent>.Continuation

  /// Whether the session ended, and, while the terminal is lent (``TerminalSession/lend(_:)``),
  /// whether a pause was asked and whether the reader saw it.
  private struct State {
    var ended = false
    var pauseAsked = false
    var readerPaused = false
  }
  private let state = Mutex(State())

  init(
    input: Int32, output: Int32, options: TerminalOptions, wakeRead: Int32, wakeWrite: Int32,
    continuation: AsyncStream<TerminalEvent>.Continuation
  ) {
    self.input = input
    self.output = output
    self.options = options
    self.wakeRead = wakeRead
    self.wakeWrite = wakeWrite
    self.continuation = continuation
  }

  /// Marks the session ended.
  ///
  /// - Returns: Whether this call ended it (`false` when another call already had).
  func end() -> Bool {
    state.withLock { state in
      guard !state.ended else { return false }
      state.ended = true
      return true
    }
  }

  func setPaused(_ paused: Bool) {
    state.withLock { $0.pauseAsked = paused }
  }

  var isPauseAsked: Bool { state.withLock { $0.pauseAsked } }

  func setReaderPaused(_ paused: Bool) {
    state.withLock { $0.readerPaused = paused }
  }

  /// Waits (at most a second) until the reader thread stopped reading input.
  func waitUntilReaderPaused() {
    for _ in 0..<1_000 {
      if state.withLock({ $0.readerPaused }) { return }
      usleep(1_000)
    }
  }

  func size() -> TerminalSize {
    var size = winsize()
    // A dimension the terminal reports as 0 (`stty rows 0`, a serial line) comes from `COLUMNS`
    // or `LINES`, else the classic 80×24, rather than leaving nothing to draw on.
    let environment = { (name: String, fallback: Int) -> Int in
      getenv(name).flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil } ?? fallback
    }
    for fd in [output, input] where ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 {
      guard size.ws_col > 0 || size.ws_row > 0 else { continue }
      return TerminalSize(
        columns: size.ws_col > 0 ? Int(size.ws_col) : environment("COLUMNS", 80),
        rows: size.ws_row > 0 ? Int(size.ws_row) : environment("LINES", 24))
    }
    return TerminalSize(columns: environment("COLUMNS", 80), rows: environment("LINES", 24))
  }

  func write(_ bytes: [UInt8]) throws(TerminalError) {
    try state.withLock { _ in
      Result { () throws(TerminalError) in try writeLocked(bytes) }
    }.get()
  }

  /// Runs `body` holding the session's mutex: what writes to the terminal or changes its
  /// settings, so that a frame and a restore never interleave.
  func withTerminal(_ body: () -> Void) {
    state.withLock { _ in body() }
  }

  private func writeLocked(_ bytes: [UInt8]) throws(TerminalError) {
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes {
        systemWrite(output, $0.baseAddress.map { $0 + written }, bytes.count - written)
      }
      if result > 0 {
        written += result
      } else if result < 0 && (errno == EINTR || errno == EAGAIN) {
        continue
      } else {
        throw TerminalError(.systemCall("write", errno: errno))
      }
    }
  }

  /// Saves nothing (the settings to restore are in `SignalRestore.saved`); switches to raw mode
  /// and turns the options on.
  func enterRawMode() throws(TerminalError) {
    try state.withLock { _ in
      Result { () throws(TerminalError) in try enterRawModeLocked() }
    }.get()
  }

  private func enterRawModeLocked() throws(TerminalError) {
    var raw = SignalRestore.saved
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      throw TerminalError(.systemCall("tcsetattr", errno: errno))
    }
    SignalRestore.active = 1
    do {
      try writeLocked(options.enterSequence)
    } catch {
      SignalRestore.restoreNow()
      throw error
    }
  }

  /// After a stop and continue: take the settings the shell left as the ones to restore, and
  /// re-enter raw mode.
  func resume() {
    guard SignalRestore.active == 0 else { return }
    var current = termios()
    if tcgetattr(input, &current) == 0 { SignalRestore.saved = current }
    SignalRestore.install(signalStopHandler, for: SIGTSTP, keepPrevious: false)
    try? enterRawMode()
  }
}

/// `write(2)`, named apart from the methods called `write`.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, bytes, count)
}

/// Starts the thread that reads input and wake-ups and turns them into events.
private func startReader(_ shared: SessionShared) -> pthread_t? {
  let context = Unmanaged.passRetained(shared).toOpaque()
  #if os(Linux)
  var thread = pthread_t()
  let result = pthread_create(&thread, nil, { readerMain($0) }, context)
  #else
  var thread: pthread_t?
  let result = pthread_create(&thread, nil, { readerMain($0) }, context)
  #endif
  guard result == 0 else {
    Unmanaged<SessionShared>.fromOpaque(context).release()
    return nil
  }
  return thread
}

/// Waits on the wake pipe alone while the terminal is lent; `false` when the session ends.
private func waitWhileLent(_ shared: SessionShared, decoder: inout InputDecoder) -> Bool {
  // What was half-read belongs to no one now.
  _ = decoder.flush()
  shared.setReaderPaused(true)
  defer { shared.setReaderPaused(false) }
  var wake = pollfd(fd: shared.wakeRead, events: Int16(POLLIN), revents: 0)
  var byte: UInt8 = 0
  while shared.isPauseAsked {
    wake.revents = 0
    let ready = poll(&wake, 1, 50)
    if ready < 0 && errno != EINTR { return false }
    guard ready > 0 else { continue }
    if read(shared.wakeRead, &byte, 1) == 1 && byte == UInt8(ascii: "Q") { return false }
  }
  return true
}

private func readerMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let context else { return nil }
  let shared = Unmanaged<SessionShared>.fromOpaque(context).takeRetainedValue()
  SignalRestore.installAlternateStack()
  var decoder = InputDecoder()
  var buffer = [UInt8](repeating: 0, count: 4096)
  var fds = [
    pollfd(fd: shared.input, events: Int16(POLLIN), revents: 0),
    pollfd(fd: shared.wakeRead, events: Int16(POLLIN), revents: 0),
  ]
  loop: while true {
    let timeout = decoder.hasPendingInput ? shared.options.escapeTimeoutMilliseconds : -1
    fds[0].revents = 0
    fds[1].revents = 0
    let ready = poll(&fds, 2, timeout)
    if ready < 0 {
      if errno == EINTR { continue }
      break
    }
    if ready == 0 {
      for event in decoder.flush() { shared.continuation.yield(.input(event)) }
      continue
    }
    if fds[1].revents & Int16(POLLIN) != 0 {
      let count = read(shared.wakeRead, &buffer, buffer.count)
      for index in 0..<max(0, count) {
        switch buffer[index] {
        case UInt8(ascii: "Q"): break loop
        case UInt8(ascii: "W"): shared.continuation.yield(.resize(shared.size()))
        case UInt8(ascii: "C"):
          shared.resume()
          shared.continuation.yield(.resumed)
          shared.continuation.yield(.resize(shared.size()))
        case UInt8(ascii: "P"):
          // The terminal is lent: read nothing but wake-ups until it comes back.
          guard waitWhileLent(shared, decoder: &decoder) else { break loop }
        default: break
        }
      }
    }
    if fds[0].revents & Int16(POLLIN) != 0 {
      let count = read(shared.input, &buffer, buffer.count)
      if count > 0 {
        for event in decoder.decode(buffer[0..<count]) { shared.continuation.yield(.input(event)) }
      } else if count < 0, errno == EIO, tcgetpgrp(shared.input) != getpgrp() {
        // Started or put in the background: the terminal is someone else's for now. Wait to be
        // brought back (`fg`) instead of taking it as a hang-up.
        usleep(100_000)
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        break  // The terminal hung up.
      }
    } else if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
      break
    }
  }
  shared.continuation.finish()
  return nil
}
