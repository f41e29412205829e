// A program for TrellisTerminal's tests: it takes over the terminal it runs in, writes READY,
// then ends in the way its argument names, so the tests can check the terminal was restored.
// It is not a product.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisTerminal

struct ProbeError: Error {}

func ready(_ session: TerminalSession) {
  try? session.write(Array("READY".utf8))
}

func runAndThrow() throws {
  let session = try TerminalSession(options: TerminalOptions(mouse: true, focusReporting: true))
  ready(session)
  throw ProbeError()
}

// A test runner may spawn this from a thread that blocks signals; start from a clean mask, as a
// program started from a shell does.
var everything = sigset_t()
sigemptyset(&everything)
sigprocmask(SIG_SETMASK, &everything, nil)

let mode = CommandLine.arguments.dropFirst().first ?? "exit"
switch mode {
case "exit":
  let session = try TerminalSession(options: TerminalOptions(mouse: true, focusReporting: true))
  ready(session)
  exit(0)
case "throw":
  do {
    try runAndThrow()
  } catch {
    exit(3)
  }
case "wait":
  // Waits for a signal from the test.
  let session = try TerminalSession(options: TerminalOptions(mouse: true, focusReporting: true))
  ready(session)
  while true { pause() }
case "crash":
  let session = try TerminalSession(options: TerminalOptions(mouse: true, focusReporting: true))
  ready(session)
  let values: [Int] = []
  print(values[Int(getpid()) % 7 + 1])
case "suspend":
  let session = try TerminalSession(options: TerminalOptions(mouse: true, focusReporting: true))
  ready(session)
  session.suspend()
  // Continued: wait for the resumed event, then report it.
  Task.detached {
    for await event in session.events where event == .resumed {
      try? session.write(Array("RESUMED".utf8))
      session.restore()
      exit(0)
    }
  }
  while true { pause() }
case "echo":
  // Reports each event as text until "q".
  let session = try TerminalSession(options: TerminalOptions(mouse: true, focusReporting: true))
  ready(session)
  for await event in session.events {
    try? session.write(Array("[\(event)]".utf8))
    if event == .input(.key(KeyEvent(.character("q")))) { break }
  }
  session.restore()
  exit(0)
default:
  exit(64)
}
