import Foundation
import GitHubIssues

/// gh's `--body-file`: a file's text, or standard input's for `-`, refused when larger than
/// GitHub takes (65,536 characters, at most four bytes each) — what `comment` and `create` read.
enum BodyFile {

  /// The text of `path` (`-`: standard input); `what` names it when it is too large.
  static func read(_ path: String, what: String) throws -> String {
    let data: Data
    if path == "-" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw CommandFailure("Could not read \(path): \(error.localizedDescription)")
      }
    }
    // Four bytes at most to a character: a larger file is refused before it is decoded (the
    // outbox says so of a shorter one that is still too long).
    guard data.count <= QueuedAction.Operation.maximumTextLength * 4 else {
      throw CommandFailure("\(path) is larger than \(what) can be.")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
