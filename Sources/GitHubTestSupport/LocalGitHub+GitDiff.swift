import Foundation
import GitHubIssues

// The whole diff GitHub serves with the diff media type, written as git writes one — on its
// own, never through the client's code, so that what the client reads of it proves something.

extension LocalGitHub {
  /// The blob id a file's contents would have: the same contents, the same id.
  static func servedBlob(_ path: String, _ contents: String) -> String {
    var hex = ""
    var seed: UInt64 = 0xcbf2_9ce4_8422_2325
    for round in 0..<3 {
      var hash = seed ^ UInt64(round)
      for byte in (path + "\u{0}" + contents).utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      seed = hash
      let digits = String(hash, radix: 16)
      hex += String(repeating: "0", count: 16 - digits.count) + digits
    }
    return String(hex.prefix(40))
  }

  /// The blob id of a served file at the head (all zeros for a removed one), and before.
  static func servedBlobs(of file: PullRequestFile) -> (before: String, after: String) {
    let zeros = String(repeating: "0", count: 40)
    let before = servedBlob(file.previousPath ?? file.path, "before " + (file.patch ?? ""))
    let after = servedBlob(file.path, "after " + (file.patch ?? ""))
    switch file.status {
    case "added": return (zeros, after)
    case "removed": return (before, zeros)
    default: return (before, after)
    }
  }

  /// A name as git quotes it in a diff (`core.quotePath` on).
  private static func gitQuoted(_ name: String) -> String {
    let plain = name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    if plain { return name }
    let named: [UInt8: String] = [
      0x07: "a", 0x08: "b", 0x09: "t", 0x0A: "n", 0x0B: "v", 0x0C: "f", 0x0D: "r",
      0x22: "\"", 0x5C: "\\",
    ]
    var quoted = "\""
    for byte in name.utf8 {
      if let letter = named[byte] {
        quoted += "\\" + letter
      } else if byte >= 0x20 && byte < 0x7F {
        quoted += String(UnicodeScalar(byte))
      } else {
        let digits = String(byte, radix: 8)
        quoted += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
      }
    }
    return quoted + "\""
  }

  /// One file's part of the whole diff, as `git diff` writes it: modes, `index` with
  /// abbreviated blob ids, names quoted (and a tab after one with a space), then its hunks.
  static func gitDiffPart(of file: PullRequestFile, binary: Bool, mode: String) -> String {
    let oldName = file.previousPath ?? file.path
    let (a, b) = (gitQuoted("a/" + oldName), gitQuoted("b/" + file.path))
    let (before, after) = servedBlobs(of: file)
    var text = "diff --git \(a) \(b)\n"
    let hasContent = binary || file.patch?.isEmpty == false
    switch file.status {
    case "added": text += "new file mode \(mode)\n"
    case "removed": text += "deleted file mode \(mode)\n"
    default:
      if mode != "100644" { text += "old mode 100644\nnew mode \(mode)\n" }
      if file.previousPath != nil, file.previousPath != file.path {
        text += "similarity index \(hasContent ? 90 : 100)%\n"
        text += "rename from \(gitQuoted(oldName))\nrename to \(gitQuoted(file.path))\n"
      }
    }
    guard hasContent else { return text }
    let unchangedMode = file.status != "added" && file.status != "removed" && mode == "100644"
    text += "index \(before.prefix(7))..\(after.prefix(7))\(unchangedMode ? " " + mode : "")\n"
    let minus = file.status == "added" ? "/dev/null" : a
    let plus = file.status == "removed" ? "/dev/null" : b
    if binary { return text + "Binary files \(minus) and \(plus) differ\n" }
    text += "--- \(minus)\(minus.contains(" ") ? "\t" : "")\n"
    text += "+++ \(plus)\(plus.contains(" ") ? "\t" : "")\n"
    let patch = file.patch ?? ""
    return text + patch + (patch.hasSuffix("\n") ? "" : "\n")
  }
}
