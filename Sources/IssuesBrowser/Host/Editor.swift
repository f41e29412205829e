import Foundation
import TrellisTerminal

/// The person's editor (`VISUAL`, `EDITOR`, or `vi`), run on a file in the terminal.
package enum Editor {
  /// Lends `session`'s terminal to the person's editor on `text`, in a file of its own that
  /// is removed after, and returns what the person wrote — the line break an editor ends a
  /// file with left out.
  @MainActor
  package static func write(_ text: String, in session: TerminalSession, naming name: String)
    throws -> String
  {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "issues-\(name)-\(getpid())-\(UUID().uuidString.prefix(8)).md")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(text.utf8).write(to: file)
    try session.lend { () throws -> Void in try Editor.edit(file) }
    let written = try String(contentsOf: file, encoding: .utf8)
    return written.hasSuffix("\n") ? String(written.dropLast()) : written
  }

  /// Runs the user's editor on a file, on this terminal, and waits for it.
  package static func edit(_ file: URL) throws(HostFailure) {
    let environment = ProcessInfo.processInfo.environment
    let command =
      [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
      .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // The editor may carry arguments (`code --wait`); the file is passed as "$1", never parsed.
    process.arguments = ["-c", "\(command) \"$1\"", "editor", file.path]
    do {
      try process.run()
    } catch {
      throw HostFailure("Could not start the editor (\(command)): \(error.localizedDescription)")
    }
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw HostFailure(
        "The editor (\(command)) failed; the draft is kept in \(file.path).")
    }
  }
}
