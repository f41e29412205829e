#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What a signal handler needs to put the terminal back, kept where a handler can reach it without
// allocating or locking. Only async-signal-safe calls are made from handlers: write, tcsetattr,
// sigaction, raise.

/// The terminal state to restore, owned by the active ``TerminalSession``.
enum SignalRestore {
  /// 1 while a session has the terminal in raw mode.
  nonisolated(unsafe) static var active: Int32 = 0
  /// The terminal's file descriptor for `tcsetattr`.
  nonisolated(unsafe) static var terminalFD: Int32 = -1
  /// Where the leave sequence is written.
  nonisolated(unsafe) static var outputFD: Int32 = -1
  /// The terminal's settings before the session.
  nonisolated(unsafe) static var saved = termios()
  /// The bytes that turn the session's modes off.
  nonisolated(unsafe) static var leaveBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
  nonisolated(unsafe) static var leaveCount = 0
  /// The write end of the session's wake-up pipe.
  nonisolated(unsafe) static var wakeFD: Int32 = -1
  /// The handlers that were installed before ours, by signal number.
  nonisolated(unsafe) static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

  /// Signals after which the process ends: restore, then let the previous handler act.
  static let terminating: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
  /// Signals raised by a crash: restore, then let the previous handler (a backtracer) act.
  static let crashing: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

  /// Writes the leave sequence and restores the saved settings, once.
  static func restoreNow() {
    guard active != 0 else { return }
    active = 0
    var written = 0
    while written < leaveCount {
      let result = write(outputFD, leaveBytes + written, leaveCount - written)
      if result > 0 {
        written += result
      } else if result < 0 && errno == EINTR {
        continue
      } else {
        break
      }
    }
    _ = tcsetattr(terminalFD, TCSANOW, &saved)
  }

  /// Wakes the session's reader thread with a byte saying why.
  static func wake(_ reason: UInt8) {
    guard wakeFD >= 0 else { return }
    var byte = reason
    _ = write(wakeFD, &byte, 1)
  }

  /// Gives the calling thread an alternate signal stack, so that a crash handler still runs after a
  /// stack overflow on it (the overflowed stack has no room for a handler's frame).
  ///
  /// Each thread that may overflow needs its own; the memory lives as long as the process.
  static func installAlternateStack() {
    var current = stack_t()
    if sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) == 0,
      current.ss_sp != nil
    {
      return  // this thread has one already (the runtime's, or ours)
    }
    let size = 256 * 1024
    guard let memory = malloc(size) else { return }
    var stack = stack_t()
    stack.ss_sp = memory
    stack.ss_size = size
    stack.ss_flags = 0
    if sigaltstack(&stack, nil) != 0 { free(memory) }
  }

  static func install(
    _ handler: @escaping @convention(c) (Int32) -> Void, for signal: Int32, keepPrevious: Bool
  ) {
    var action = sigaction()
    #if os(Linux)
    action.__sigaction_handler.sa_handler = handler
    #else
    action.__sigaction_u.__sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    // On the alternate stack when the thread has one: a crash may be a stack overflow.
    action.sa_flags = SA_RESTART | SA_ONSTACK
    if keepPrevious {
      _ = sigaction(signal, &action, previous + Int(signal))
    } else {
      _ = sigaction(signal, &action, nil)
    }
  }

  static func reinstallPrevious(_ signal: Int32) {
    _ = sigaction(signal, previous + Int(signal), nil)
  }

  static func installAll() {
    installAlternateStack()
    for signal in terminating + crashing {
      install(onFatalSignal, for: signal, keepPrevious: true)
    }
    install(onWindowChange, for: SIGWINCH, keepPrevious: true)
    install(signalStopHandler, for: SIGTSTP, keepPrevious: true)
    install(onContinue, for: SIGCONT, keepPrevious: true)
  }

  static func uninstallAll() {
    for signal in terminating + crashing + [SIGWINCH, SIGTSTP, SIGCONT] {
      reinstallPrevious(signal)
    }
  }
}

/// Restores the terminal, then hands the signal to whoever handled it before.
private func onFatalSignal(_ signal: Int32) {
  SignalRestore.restoreNow()
  SignalRestore.reinstallPrevious(signal)
  // Blocked while this handler runs: delivered again on return, to the previous handler (for a
  // crash, when the faulting instruction runs again).
  _ = raise(signal)
}

private func onWindowChange(_ signal: Int32) {
  SignalRestore.wake(UInt8(ascii: "W"))
}

/// `kill -TSTP` or ``TerminalSession/suspend()``: restore, then stop as usual.
func signalStopHandler(_ signal: Int32) {
  SignalRestore.restoreNow()
  var action = sigaction()
  #if os(Linux)
  action.__sigaction_handler.sa_handler = SIG_DFL
  #else
  action.__sigaction_u.__sa_handler = SIG_DFL
  #endif
  sigemptyset(&action.sa_mask)
  _ = sigaction(SIGTSTP, &action, nil)
  _ = raise(SIGTSTP)
}

/// Continued after a stop: the reader thread re-enters raw mode and asks for a redraw.
private func onContinue(_ signal: Int32) {
  SignalRestore.wake(UInt8(ascii: "C"))
}

/// Restores the terminal when the process exits normally, however `exit` is reached.
func restoreAtExit() {
  SignalRestore.restoreNow()
}
