/// One jq result, given as compact JSON, written the way gh prints a `--jq` result.
///
/// gh hands each result to Go: a string prints as its text, `null` as an empty line, a number as
/// ``GoNumberFormat/scalar(_:)``, anything else through `encoding/json` — keys in byte order,
/// `<`, `>`, `&`, U+2028 and U+2029 escaped, `\b` and `\f` as `\u0008` and `\u000c`, DEL as it
/// is, and a number with a fraction or an exponent as ``GoNumberFormat/json(_:)``. A whole number
/// jq wrote without either is kept digit for digit, as gh keeps the integers jq computes.
///
///     JQResultLine.text(ofCompactJSON: #""caf\u00e9""#)   // "café"
///     JQResultLine.text(ofCompactJSON: #"{"a":"<b>"}"#)   // {"a":"\u003cb\u003e"}
package enum JQResultLine {
  /// The line gh prints for `json`, one compact JSON value as gojq writes it with `-c`.
  ///
  /// Text that is not JSON is returned as it is: it can only come from a jq that broke its own
  /// output format, and a script is better served by it than by nothing.
  package static func text(ofCompactJSON json: Substring) -> String {
    let bytes = Array(json.utf8)
    guard let first = bytes.first else { return "" }
    switch first {
    case UInt8(ascii: "\""):
      var reader = Reader(bytes: bytes)
      guard let text = reader.string(), reader.atEnd else { return String(json) }
      return text
    case UInt8(ascii: "n"):
      return ""
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
      return String(json)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var reader = Reader(bytes: bytes)
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count + bytes.count / 8)
      guard reader.reencode(into: &out), reader.atEnd else { return String(json) }
      return String(decoding: out, as: UTF8.self)
    default:
      let token = String(json)
      guard isFraction(token) else { return token }
      guard let value = Double(token) else { return token }
      return GoNumberFormat.scalar(value)
    }
  }

  /// Whether a number token is jq's floating-point form (a fraction or an exponent).
  private static func isFraction(_ token: String) -> Bool {
    token.utf8.contains {
      $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
    }
  }

  /// A reader over compact JSON that writes it again as Go's `encoding/json` would.
  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    /// Copies one value, rewriting its strings and numbers; `false` when it is not JSON.
    mutating func reencode(into out: inout [UInt8]) -> Bool {
      // Depth is the JSON's own: a stack of what is open, never recursion.
      var depth = 0
      repeat {
        guard offset < bytes.count else { return false }
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          out.append(byte)
          offset += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          out.append(byte)
          offset += 1
        case UInt8(ascii: ","), UInt8(ascii: ":"):
          out.append(byte)
          offset += 1
        case UInt8(ascii: "\""):
          guard let text = string() else { return false }
          Self.writeGoString(text, into: &out)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          let start = offset
          while offset < bytes.count, Self.isNumberByte(bytes[offset]) { offset += 1 }
          let token = String(decoding: bytes[start..<offset], as: UTF8.self)
          if JQResultLine.isFraction(token), let value = Double(token), value.isFinite {
            out.append(contentsOf: GoNumberFormat.json(value).utf8)
          } else {
            out.append(contentsOf: token.utf8)
          }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
          let start = offset
          while offset < bytes.count,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[offset])
          {
            offset += 1
          }
          out.append(contentsOf: bytes[start..<offset])
        default:
          return false
        }
      } while depth > 0
      return true
    }

    /// Reads one JSON string at `offset` and returns its text; `nil` when it is malformed.
    mutating func string() -> String? {
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
      offset += 1
      var scalars = String.UnicodeScalarView()
      var runStart = offset
      func flushRun() {
        if runStart < offset {
          scalars.append(
            contentsOf: String(decoding: bytes[runStart..<offset], as: UTF8.self).unicodeScalars)
        }
      }
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") {
          flushRun()
          offset += 1
          return String(scalars)
        }
        guard byte == UInt8(ascii: "\\") else {
          offset += 1
          continue
        }
        flushRun()
        guard offset + 1 < bytes.count else { return nil }
        let escape = bytes[offset + 1]
        offset += 2
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          guard let unit = hexUnit() else { return nil }
          if (0xD800..<0xDC00).contains(unit), bytes.count - offset >= 6,
            bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
          {
            let saved = offset
            offset += 2
            if let low = hexUnit(), (0xDC00..<0xE000).contains(low) {
              let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
              scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
              break
            }
            offset = saved
          }
          scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
        default:
          return nil
        }
        runStart = offset
      }
      return nil
    }

    /// Four hexadecimal digits at `offset`, consumed.
    private mutating func hexUnit() -> UInt32? {
      guard bytes.count - offset >= 4 else { return nil }
      var value: UInt32 = 0
      for byte in bytes[offset..<offset + 4] {
        guard let digit = Self.hexValue(byte) else { return nil }
        value = value << 4 | digit
      }
      offset += 4
      return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
      default: nil
      }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
        true
      default: false
      }
    }

    /// `text` as Go's `encoding/json` writes a string with HTML escaping on (gh's default).
    static func writeGoString(_ text: String, into out: inout [UInt8]) {
      let hex = Array("0123456789abcdef".utf8)
      out.append(UInt8(ascii: "\""))
      for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x22: out.append(contentsOf: #"\""#.utf8)
        case 0x5C: out.append(contentsOf: #"\\"#.utf8)
        case 0x0A: out.append(contentsOf: #"\n"#.utf8)
        case 0x0D: out.append(contentsOf: #"\r"#.utf8)
        case 0x09: out.append(contentsOf: #"\t"#.utf8)
        case 0x00..<0x20, 0x3C, 0x3E, 0x26:
          out.append(contentsOf: #"\u00"#.utf8)
          out.append(hex[Int(scalar.value >> 4)])
          out.append(hex[Int(scalar.value & 0xF)])
        case 0x2028: out.append(contentsOf: #"\u2028"#.utf8)
        case 0x2029: out.append(contentsOf: #"\u2029"#.utf8)
        default: out.append(contentsOf: String(scalar).utf8)
        }
      }
      out.append(UInt8(ascii: "\""))
    }
  }
}
