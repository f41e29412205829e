import Foundation
import TrellisTerminal

/// Runs the person's commands for every screen: in the foreground with the terminal handed over
/// and restored, or in the background with the result said on the status line.
@MainActor
enum CommandRunner {
  /// The most of a background command's output kept, from its end.
  nonisolated static let keptOutput = 4096

  /// Runs `run`; a foreground run returns what to say once it is over, a background one says
  /// it through `report` when it ends.
  static func start(
    _ run: CommandRun, session: TerminalSession?,
    report: @escaping @Sendable (String) -> Void
  ) -> String? {
    let title = run.command.title
    switch run.command.mode {
    case .foreground:
      guard let session else { return "“\(title)” needs the terminal, and there is none." }
      do {
        let status = try session.lend { () throws -> Int32 in
          let process = Self.process(run)
          try process.run()
          process.waitUntilExit()
          return process.terminationStatus
        }
        return status == 0 ? "“\(title)” done." : "“\(title)” ended with status \(status)."
      } catch {
        return "Could not run “\(title)”: \(error)"
      }
    case .background:
      let process = Self.process(run)
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = pipe
      process.standardInput = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        return "Could not run “\(title)”: \(error)"
      }
      Task.detached {
        let output = Self.tail(of: pipe.fileHandleForReading)
        process.waitUntilExit()
        let status = process.terminationStatus
        let last =
          String(decoding: output, as: UTF8.self)
          .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let said = ControlCharacters.visible(last)
        report(
          status == 0
            ? "“\(title)”" + (said.isEmpty ? " done." : ": \(said)")
            : "“\(title)” failed (status \(status))" + (said.isEmpty ? "." : ": \(said)"))
      }
      return "“\(title)” started."
    }
  }

  /// The shell running the command's script, with the placeholders' variables.
  nonisolated static func process(_ run: CommandRun) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", run.command.template.script]
    process.environment = ProcessInfo.processInfo.environment.merging(run.environment) { $1 }
    return process
  }

  /// What a pipe carries until it closes, keeping only the last ``keptOutput`` bytes.
  nonisolated static func tail(of handle: FileHandle) -> [UInt8] {
    var kept: [UInt8] = []
    while true {
      let data = handle.availableData
      if data.isEmpty { break }
      kept.append(contentsOf: data)
      if kept.count > 2 * keptOutput { kept.removeFirst(kept.count - keptOutput) }
    }
    return Array(kept.suffix(keptOutput))
  }
}
