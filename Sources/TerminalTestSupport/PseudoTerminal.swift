import Foundation

#if os(Linux)
import Glibc

/// A pseudo-terminal pair for tests: the test holds the master side, the code under test the
/// slave side, which is a real terminal to `isatty`, `tcgetattr` and `ioctl`.
public final class PseudoTerminal {
  public let master: Int32
  public let slave: Int32
  public let slavePath: String

  public init(columns: Int = 80, rows: Int = 24) throws {
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard master >= 0 else { throw Failure("open /dev/ptmx: errno \(errno)") }
    var unlock: Int32 = 0
    // TIOCSPTLCK: unlock the slave.
    guard ioctl(master, UInt(0x4004_5431), &unlock) == 0 else { throw Failure("TIOCSPTLCK") }
    var number: UInt32 = 0
    // TIOCGPTN: the slave's number.
    guard ioctl(master, UInt(0x8004_5430), &number) == 0 else { throw Failure("TIOCGPTN") }
    slavePath = "/dev/pts/\(number)"
    slave = open(slavePath, O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw Failure("open \(slavePath): errno \(errno)") }
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    resize(columns: columns, rows: rows)
  }

  deinit {
    close(slave)
    close(master)
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  public func resize(columns: Int, rows: Int) {
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
  }

  /// The slave's settings, as comparable bytes.
  public func settings() -> [UInt8] {
    var settings = termios()
    _ = tcgetattr(slave, &settings)
    return withUnsafeBytes(of: &settings) { Array($0) }
  }

  /// Whether the slave is in raw mode (no echo, no canonical input, no signals).
  public func isRaw() -> Bool {
    var settings = termios()
    _ = tcgetattr(slave, &settings)
    return settings.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == 0
  }

  /// Types bytes, as the user would.
  public func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, bytes.count) }
  }

  /// Everything the program wrote, read until `predicate` holds or `seconds` pass.
  public func read(until predicate: (String) -> Bool = { _ in false }, seconds: Double = 5)
    -> String
  {
    var collected: [UInt8] = []
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      let count = Glibc.read(master, &buffer, buffer.count)
      if count > 0 {
        collected += buffer[0..<count]
        if predicate(String(decoding: collected, as: UTF8.self)) { break }
      } else {
        usleep(2000)
      }
    }
    return String(decoding: collected, as: UTF8.self)
  }

  /// Starts a program with the slave as its standard input, output and error.
  public func launch(
    _ path: String, _ arguments: [String], environment extra: [String: String] = [:]
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    // Swift's crash reporter waits for a key when it runs in a terminal; the tests have no one to press it.
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no"
    // The pseudo-terminal behaves as a modern xterm, whatever ran the tests.
    environment["TERM"] = "xterm-256color"
    environment["COLORTERM"] = "truecolor"
    environment["NO_COLOR"] = nil
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
  }
}

/// The path of an executable built beside the tests, such as `trellis-terminal-probe` or `issues`.
public func builtExecutablePath(_ name: String) -> String {
  let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
  // The test bundle may sit inside a .xctest directory.
  while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
    directory.path != "/"
  {
    directory.deleteLastPathComponent()
  }
  return directory.appendingPathComponent(name).path
}

/// Waits for a process to end, up to a limit.
public func waitForExit(_ process: Process, seconds: Double = 10) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while process.isRunning && Date() < deadline { usleep(5000) }
  return !process.isRunning
}

/// Whether a process is stopped (state T in /proc).
public func isStopped(_ pid: Int32) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
    return false
  }
  guard let close = stat.lastIndex(of: ")") else { return false }
  let state = stat[stat.index(close, offsetBy: 2)]
  return state == "T" || state == "t"
}
#endif
