import Foundation

/// A path as git writes it in a diff's headers.
enum GitPath {
  /// `name` as git writes it with `core.quotePath` on: as it is, or C-quoted (`"a/caf\303\251"`)
  /// when it holds a control character, a quote, a backslash or a byte outside ASCII.
  static func quoted(_ name: String) -> String {
    let bytes = Array(name.utf8)
    let needsQuotes = bytes.contains { byte in
      byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
    guard needsQuotes else { return name }
    var result = "\""
    for byte in bytes {
      switch byte {
      case 0x07: result += "\\a"
      case 0x08: result += "\\b"
      case 0x09: result += "\\t"
      case 0x0A: result += "\\n"
      case 0x0B: result += "\\v"
      case 0x0C: result += "\\f"
      case 0x0D: result += "\\r"
      case UInt8(ascii: "\""): result += "\\\""
      case UInt8(ascii: "\\"): result += "\\\\"
      case 0x20..<0x7F: result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let octal = String(byte, radix: 8)
        result += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
      }
    }
    return result + "\""
  }

  /// A `---` or `+++` line's name: git ends one holding a space with a tab (for patch(1)).
  static func labelled(_ label: String) -> String {
    label.contains(" ") ? label + "\t" : label
  }

  /// The path of a `--- a/…` or `+++ b/…` name (or a quoted `"b/…"`), without its side's prefix
  /// and the tab git ends a name with spaces with; `nil` for `/dev/null` or another side.
  static func unquoted(_ field: Substring, side: String) -> String? {
    var name = field
    // The tab comes after the name, quoted or not (`"b/caf\303\251 x"⇥`).
    if name.last == "\t" { name = name.dropLast() }
    if name.first == "\"" {
      guard let text = cUnquoted(name) else { return nil }
      return dropping(side, from: Substring(text))
    }
    return dropping(side, from: name)
  }

  /// `name` without `side` in front, compared by bytes: a path may begin with a combining mark,
  /// which joins the `/` before it into one `Character`.
  private static func dropping(_ side: String, from name: Substring) -> String? {
    guard name.utf8.starts(with: side.utf8) else { return nil }
    return String(decoding: name.utf8.dropFirst(side.utf8.count), as: UTF8.self)
  }

  /// A C-quoted string as git writes one (`"caf\303\251.txt"`): escapes read, octal ones as
  /// bytes of UTF-8; `nil` when it is not one (no closing quote, a bad escape).
  static func cUnquoted(_ quoted: Substring) -> String? {
    let bytes = Array(quoted.utf8)
    guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"")
    else { return nil }
    var result: [UInt8] = []
    var index = 1
    while index < bytes.count - 1 {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\") else {
        result.append(byte)
        index += 1
        continue
      }
      index += 1
      guard index < bytes.count - 1 else { return nil }
      let escaped = bytes[index]
      switch escaped {
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = 0
        var digits = 0
        while digits < 3, index < bytes.count - 1,
          (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index])
        {
          value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
          index += 1
          digits += 1
        }
        guard value < 256 else { return nil }
        result.append(UInt8(value))
        continue
      case UInt8(ascii: "n"): result.append(0x0A)
      case UInt8(ascii: "t"): result.append(0x09)
      case UInt8(ascii: "r"): result.append(0x0D)
      case UInt8(ascii: "a"): result.append(0x07)
      case UInt8(ascii: "b"): result.append(0x08)
      case UInt8(ascii: "f"): result.append(0x0C)
      case UInt8(ascii: "v"): result.append(0x0B)
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): result.append(escaped)
      default: return nil
      }
      index += 1
    }
    return String(validating: result, as: UTF8.self)
  }
}
