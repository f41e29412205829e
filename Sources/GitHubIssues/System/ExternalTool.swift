import Foundation

/// A program found on the `PATH` and run without the terminal: how `issues` asks `gh` for a token,
/// `git` for the current remote, and the desktop's tools to open a browser or set the clipboard.
///
///     let token = ExternalTool(named: "gh")?.output(["auth", "token"])
///
/// The program's standard error is discarded and its standard input is empty unless given, so a
/// tool can neither draw over the screen nor wait for a key.
package struct ExternalTool: Hashable, Sendable {
  /// The program's absolute path.
  package let path: String

  /// The program `name` in the first directory of `PATH` that holds it as an executable file, or
  /// `nil` when none does.
  ///
  /// Relative directories in `PATH` (an empty entry, `.`) are skipped: a tool is never picked up
  /// from whatever directory `issues` happens to run in.
  package init?(
    named name: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    guard
      !name.contains("/"),
      let found = directories.lazy.filter({ $0.hasPrefix("/") }).map({ "\($0)/\(name)" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    path = found
  }

  /// Runs the program to its end and returns what it printed, trimmed of surrounding white
  /// space; `nil` when it could not start, exited with a failure, or printed more than `limit`
  /// bytes (it is then stopped).
  package func output(_ arguments: [String], limit: Int = 1 << 20) -> String? {
    let process = makeProcess(arguments)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return nil
    }
    var data = Data()
    let reader = pipe.fileHandleForReading
    while let chunk = try? reader.read(upToCount: 64 * 1024), !chunk.isEmpty {
      data.append(chunk)
      if data.count > limit {
        // SIGKILL: a SIGTERM may be blocked in the mask the child inherited.
        kill(process.processIdentifier, SIGKILL)
        break
      }
    }
    try? reader.close()
    process.waitUntilExit()
    guard data.count <= limit, process.terminationReason == .exit, process.terminationStatus == 0
    else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Starts the program, writes `input` to it, and waits for it at most `timeout`: `true` when it
  /// exited successfully or is still running then (a browser launcher that stays), `false` when
  /// it could not start or failed.
  package func launch(
    _ arguments: [String], input: String? = nil, waitingAtMost timeout: Duration = .seconds(2)
  ) -> Bool {
    let process = makeProcess(arguments)
    process.standardOutput = FileHandle.nullDevice
    let pipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : pipe
    do {
      try process.run()
    } catch {
      return false
    }
    if let input {
      try? pipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
      try? pipe.fileHandleForWriting.close()
    }
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while process.isRunning && clock.now < deadline { usleep(10_000) }
    return process.isRunning
      || (process.terminationReason == .exit && process.terminationStatus == 0)
  }

  private func makeProcess(_ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    return process
  }
}
