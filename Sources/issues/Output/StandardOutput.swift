import Foundation

#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Standard output through a buffer, written in large chunks.
///
/// A reader that went away (`issues pr diff 7 | head`) ends the program as it ends gh and every
/// Unix tool: by `SIGPIPE`, quietly, with the status a shell reports for it (141) — never a
/// trap, whatever the process's disposition of the signal was.
struct StandardOutput {
  private var buffer: [UInt8] = []

  mutating func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    Self.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes `text` to standard output at once, as ``write(_:)-swift.type.method`` does.
  static func write(_ text: String) {
    write(Array(text.utf8))
  }

  /// Writes every byte to standard output, retrying short and interrupted writes.
  ///
  /// On `EPIPE` the program ends by `SIGPIPE` with the default action (what a shell calls
  /// "exited 141"), as it would had the signal not been ignored; any other error stops the
  /// output, which has nowhere to go.
  static func write(_ bytes: [UInt8]) {
    // What `print` holds goes first, so that the two stay in order.
    fflush(nil)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return systemWrite(STDOUT_FILENO, base + offset, bytes.count - offset)
      }
      if written > 0 {
        offset += written
      } else if written < 0, errno == EINTR {
        continue
      } else if written < 0, errno == EPIPE {
        endForClosedReader()
      } else {
        return
      }
    }
  }

  /// Ends the program as a closed pipe ends a Unix tool: by `SIGPIPE`, with its default action.
  static func endForClosedReader() -> Never {
    signal(SIGPIPE, SIG_DFL)
    raise(SIGPIPE)
    exit(128 + SIGPIPE)
  }
}
