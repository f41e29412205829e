import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ExternalTool {
  /// How long a run may take and how much memory it may hold before it is stopped.
  package struct Bounds: Hashable, Sendable {
    /// Wall-clock time from the start.
    package var time: Duration
    /// Resident memory, in bytes (read from `/proc` on Linux; elsewhere only time is bounded).
    package var memory: Int

    package init(time: Duration, memory: Int) {
      self.time = time
      self.memory = memory
    }
  }

  /// How a bounded run ended.
  package enum Ending: Hashable, Sendable {
    /// The program exited with this status.
    case exited(Int32)
    /// A signal ended it that `issues` did not send: the program crashed.
    case signalled(Int32)
    /// It ran past ``Bounds/time`` and was stopped.
    case ranOutOfTime
    /// It held more than ``Bounds/memory`` and was stopped.
    case ranOutOfMemory
  }

  /// What a bounded run left: how it ended and what it wrote on standard error (at most the
  /// limit given, the start kept).
  package struct BoundedRun: Hashable, Sendable {
    package var ending: Ending
    package var standardError: [UInt8]
  }

  /// Runs the program with `input` on its standard input, handing its standard output over as
  /// it comes, and stops it (SIGKILL) the moment it passes `bounds`.
  ///
  /// Whatever the program does — crash, loop, allocate without end, stop reading its input —
  /// the caller gets an ``Ending``; `nil` only when it could not be started. Everything happens
  /// on the calling thread: one `poll` loop over the three pipes, checking the bounds between
  /// wake-ups (at most every 10 ms).
  package func run(
    _ arguments: [String], input: [UInt8], within bounds: Bounds,
    standardErrorLimit: Int = 1 << 16, output: (ArraySlice<UInt8>) -> Void
  ) -> BoundedRun? {
    // A child that stops reading its input must end in EPIPE here, not in SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    guard let toChild = Self.pipe(), let fromChild = Self.pipe(), let errorsFromChild = Self.pipe()
    else { return nil }
    var childEnds = [toChild.read, fromChild.write, errorsFromChild.write]
    var ourEnds = [toChild.write, fromChild.read, errorsFromChild.read]
    defer {
      for descriptor in childEnds + ourEnds where descriptor >= 0 { close(descriptor) }
    }
    guard let pid = spawn(arguments, standardStreams: childEnds) else { return nil }
    for descriptor in childEnds { close(descriptor) }
    childEnds = []
    _ = fcntl(ourEnds[0], F_SETFL, fcntl(ourEnds[0], F_GETFL) | O_NONBLOCK)

    let clock = ContinuousClock()
    let deadline = clock.now + bounds.time
    var stoppedFor: Ending?
    var written = 0
    var errors: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    if input.isEmpty {
      close(ourEnds[0])
      ourEnds[0] = -1
    }
    while ourEnds[1] >= 0 || ourEnds[2] >= 0 {
      var watched = [
        pollfd(fd: ourEnds[0], events: Int16(POLLOUT), revents: 0),
        pollfd(fd: ourEnds[1], events: Int16(POLLIN), revents: 0),
        pollfd(fd: ourEnds[2], events: Int16(POLLIN), revents: 0),
      ]
      _ = poll(&watched, nfds_t(watched.count), 10)
      if ourEnds[0] >= 0, watched[0].revents != 0 {
        let count = input.withUnsafeBytes { raw -> Int in
          guard let base = raw.baseAddress else { return 0 }
          return write(ourEnds[0], base + written, min(raw.count - written, 1 << 16))
        }
        if count > 0 { written += count }
        if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
          close(ourEnds[0])
          ourEnds[0] = -1
        }
      }
      for (slot, isOutput) in [(1, true), (2, false)] where ourEnds[slot] >= 0 {
        guard watched[slot].revents != 0 else { continue }
        let count = buffer.withUnsafeMutableBytes { raw -> Int in
          guard let base = raw.baseAddress else { return 0 }
          return read(ourEnds[slot], base, raw.count)
        }
        if count > 0 {
          if isOutput {
            output(buffer[..<count])
          } else if errors.count < standardErrorLimit {
            errors += buffer[..<min(count, standardErrorLimit - errors.count)]
          }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          close(ourEnds[slot])
          ourEnds[slot] = -1
        }
      }
      if stoppedFor == nil {
        if clock.now >= deadline {
          stoppedFor = .ranOutOfTime
        } else if let resident = Self.residentBytes(of: pid), resident > bounds.memory {
          stoppedFor = .ranOutOfMemory
        }
        if stoppedFor != nil { kill(pid, SIGKILL) }
      }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    if let stoppedFor { return BoundedRun(ending: stoppedFor, standardError: errors) }
    // WIFEXITED / WTERMSIG, which Swift does not import as macros.
    let signal = status & 0x7F
    let ending: Ending = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    return BoundedRun(ending: ending, standardError: errors)
  }

  /// A pipe whose ends close on `exec` (the child gets its own through `dup2`).
  ///
  /// `pipe2` is not in Swift's view of glibc, so the flag is set just after: a program another
  /// thread starts in between may hold an end until it exits, which delays an end of input,
  /// never loses one.
  private static func pipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    #if canImport(Glibc)
    guard Glibc.pipe(&ends) == 0 else { return nil }
    #else
    guard Darwin.pipe(&ends) == 0 else { return nil }
    #endif
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  /// Starts the program with `standardStreams` as its descriptors 0, 1 and 2, in this process's
  /// environment.
  private func spawn(_ arguments: [String], standardStreams: [Int32]) -> pid_t? {
    #if canImport(Glibc)
    var actions = posix_spawn_file_actions_t()
    #else
    var actions: posix_spawn_file_actions_t?
    #endif
    guard posix_spawn_file_actions_init(&actions) == 0 else { return nil }
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, source) in standardStreams.enumerated() {
      posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
    }
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
    return pid
  }

  /// The resident memory of a running process, where the system says (`/proc` on Linux).
  private static func residentBytes(of pid: pid_t) -> Int? {
    #if os(Linux)
    let descriptor = open("/proc/\(pid)/statm", O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 128)
    let count = bytes.withUnsafeMutableBytes { raw -> Int in
      guard let base = raw.baseAddress else { return 0 }
      return read(descriptor, base, raw.count)
    }
    guard count > 0 else { return nil }
    let fields = String(decoding: bytes[..<count], as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return nil
    #endif
  }
}
