import Foundation
import GitHubIssues

/// The current directory's git remote, as `gh` uses it when no repository is named.
enum GitRemote {
  /// The `origin` remote (or the first one), if the directory is in a clone of a hosted repository.
  static func current() -> GitRemoteURL? {
    guard let names = run(["remote"])?.split(separator: "\n").map(String.init), !names.isEmpty
    else { return nil }
    let ordered = names.contains("origin") ? ["origin"] + names.filter { $0 != "origin" } : names
    for name in ordered {
      if let url = run(["remote", "get-url", name]), let remote = GitRemoteURL(url) {
        return remote
      }
    }
    return nil
  }

  private static func run(_ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
