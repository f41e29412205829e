import Foundation
import GitHubIssues
import Testing
import TrellisTestSupport

/// gojq's compact JSON, rewritten as gh prints a result (the right-hand sides are gh 2.23's).
@Suite struct JQResultLineTests {
  @Test(arguments: [
    (#""héllo""#, "héllo"),
    (#""a\r\nb\u0000""#, "a\r\nb\u{0}"),
    ("null", ""), ("true", "true"), ("42", "42"), ("10.5", "10.50"), ("-0.5", "-0.50"),
    (#"["\u007f\u0001\b\f\t\#u{2028}"]"#, #"["\#u{7F}\u0001\u0008\u000c\t\u2028"]"#),
    (
      #"{"x":"<a&b>","é":[1,2.5,1e-7,100000000000000000000000]}"#,
      #"{"x":"\u003ca\u0026b\u003e","é":[1,2.5,1e-7,100000000000000000000000]}"#
    ),
    (#"["\ud83c\udf89"]"#, #"["🎉"]"#),
    (#"[[],{},[{}]]"#, #"[[],{},[{}]]"#),
  ])
  func rewritesAsGh(_ compact: String, _ printed: String) {
    #expect(JQResultLine.text(ofCompactJSON: Substring(compact)) == printed)
  }

  /// Any JSON gojq can write comes out as JSON that means the same, whatever its nesting.
  @Test func randomDocumentsKeepTheirMeaning() throws {
    var generator = SplitMix64(seed: 0x0051_7E57)
    print("JQResultLineTests seed 0x517E57")
    for _ in 0..<2_000 {
      let document = Self.randomJSON(depth: 4, using: &generator)
      let rewritten = JQResultLine.text(ofCompactJSON: Substring(document))
      guard document.first == "[" || document.first == "{" else { continue }
      #expect(
        try Self.canonical(document) == Self.canonical(rewritten), "\(document) → \(rewritten)")
    }
  }

  /// The document as Foundation writes it again, keys sorted: equal for equal meanings.
  private static func canonical(_ json: String) throws -> String {
    let object = try JSONSerialization.jsonObject(
      with: Data(json.utf8), options: [.fragmentsAllowed])
    let data = try JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
  }

  private static func randomJSON(depth: Int, using generator: inout SplitMix64) -> String {
    let pick = Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &generator)
    switch pick {
    case 0: return "null"
    case 1: return Bool.random(using: &generator) ? "true" : "false"
    case 2: return String(Int.random(in: -1_000_000...1_000_000, using: &generator))
    case 3:
      let value = Double.random(in: -1e6...1e6, using: &generator)
      return GoNumberFormat.json(value)
    case 4:
      let alphabet: [Character] = [
        "a", "é", "<", "&", "\"", "\\", "\n", "\u{1}", "\u{2028}", "🎉", "\u{7F}",
      ]
      let text = String(
        (0..<Int.random(in: 0..<8, using: &generator)).map { _ in
          alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
        })
      // A string written as JSON writes it, with the escapes any writer may choose.
      var written = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": written += "\\\""
        case "\\": written += "\\\\"
        case "\n": written += "\\n"
        case "\u{1}": written += "\\u0001"
        case "\u{7F}": written += "\\u007f"
        default: written.unicodeScalars.append(scalar)
        }
      }
      return written + "\""
    case 5:
      let items = (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
        randomJSON(depth: depth - 1, using: &generator)
      }
      return "[" + items.joined(separator: ",") + "]"
    default:
      let items = (0..<Int.random(in: 0..<4, using: &generator)).map { index in
        "\"k\(index)\":" + randomJSON(depth: depth - 1, using: &generator)
      }
      return "{" + items.joined(separator: ",") + "}"
    }
  }
}
