import Foundation

/// gh's `--body-file`: a file's text, or standard input's for `-`, refused when larger than
/// GitHub takes (65,536 characters, at most four bytes each) — what `comment` and `create` read.
enum BodyFile {
  /// GitHub's limit on a comment's or an issue body's length, in characters.
  static let maximumLength = 65_536

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
    guard data.count <= maximumLength * 4 else {
      throw CommandFailure("\(path) is larger than \(what) can be.")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
