import Foundation
@testable import GitHubIssues
import GitHubTestSupport
import Testing
import TrellisTestSupport

/// `GitHubJSONDecoder` decodes what Foundation's `JSONDecoder` decodes, fails where it fails,
/// and never traps on what a server sends.
@Suite struct GitHubJSONDecoderTests {
  /// Any JSON value, read through single-value, keyed and unkeyed containers alike.
  indirect enum Value: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([Value])
    case object([String: Value])

    init(from decoder: any Decoder) throws {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let flag = try? single.decode(Bool.self) {
        self = .bool(flag)
      } else if let integer = try? single.decode(Int64.self) {
        self = .integer(integer)
      } else if let double = try? single.decode(Double.self) {
        self = .double(double)
      } else if let text = try? single.decode(String.self) {
        self = .string(text)
      } else if var elements = try? decoder.unkeyedContainer() {
        var values: [Value] = []
        while !elements.isAtEnd { values.append(try elements.decode(Value.self)) }
        self = .array(values)
      } else {
        self = .object(try single.decode([String: Value].self))
      }
    }
  }

  /// A random document, written with the escapes, numbers and nesting servers send.
  private func document(_ rng: inout SplitMix64, depth: Int = 0) -> String {
    switch Int.random(in: 0..<(depth > 3 ? 5 : 8), using: &rng) {
    case 0: return "null"
    case 1: return Bool.random(using: &rng) ? "true" : "false"
    case 2: return String(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
    case 3:
      let forms = ["0.5", "-12.25", "1e3", "2.5E-3", "1.0", "-0", "123456789.125"]
      return forms[Int.random(in: 0..<forms.count, using: &rng)]
    case 4: return quoted(text(&rng))
    case 5:
      let count = Int.random(in: 0..<5, using: &rng)
      let elements = (0..<count).map { _ in document(&rng, depth: depth + 1) }
      return "[" + elements.joined(separator: Bool.random(using: &rng) ? "," : " , ") + "]"
    default:
      let count = Int.random(in: 0..<6, using: &rng)
      let members = (0..<count).map { _ in
        quoted(text(&rng)) + ":" + document(&rng, depth: depth + 1)
      }
      return "{" + members.joined(separator: ",\n ") + "}"
    }
  }

  private func text(_ rng: inout SplitMix64) -> String {
    let pieces = [
      "a", "issue", "é", "검색", "👍🏽", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{E000}",
    ]
    return (0..<Int.random(in: 0..<6, using: &rng)).map { _ in
      pieces[Int.random(in: 0..<pieces.count, using: &rng)]
    }.joined()
  }

  /// A string literal, with every escape JSON has (some of them written as `\u` escapes).
  private func quoted(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": literal += "\\\""
      case "\\": literal += "\\\\"
      case "/": literal += "\\/"
      case "\n": literal += "\\n"
      case "\t": literal += "\\t"
      case "\u{1}": literal += "\\u0001"
      case "👍": literal += "\\ud83d\\udc4d"
      case "é": literal += "\\u00E9"
      default: literal.unicodeScalars.append(scalar)
      }
    }
    return literal + "\""
  }

  @Test func randomDocumentsDecodeAsFoundationDecodesThem() throws {
    let seed: UInt64 = 0x5EED_1550
    print("GitHubJSONDecoderTests seed \(seed)")
    var rng = SplitMix64(seed: seed)
    for _ in 0..<2_000 {
      let json = Data(document(&rng).utf8)
      let expected = try JSONDecoder().decode(Value.self, from: json)
      let found = try GitHubJSONDecoder().decode(Value.self, from: json)
      #expect(found == expected, "\(String(decoding: json, as: UTF8.self))")
    }
  }

  @Test func everyRecordedResponseDecodesAsFoundationDecodesIt() throws {
    let foundation = JSONDecoder()
    foundation.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      guard let date = GitHubDate.parse(try container.decode(String.self)) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a date")
      }
      return date
    }
    var decoded = 0
    for recording in [
      "hub4j__github_api_closed_issues_21_pages.json", "github3py__betamax_issues_state_all.json",
      "octokit_fixtures__paginate_issues.json",
    ] {
      for body in try Fixtures.bodies(recording) {
        let issues = try GitHubJSONDecoder().decode([GitHubIssue].self, from: body)
        #expect(issues == (try foundation.decode([GitHubIssue].self, from: body)))
        decoded += issues.count
      }
    }
    #expect(decoded > 700)
  }

  struct Shape: Decodable {
    var number: Int
    var title: String
    var user: User
    struct User: Decodable { var login: String }
  }

  @Test(
    arguments: [
      #"{"number": 1, "user": {"login": "a"}}"#,
      #"{"number": "1", "title": "t", "user": {"login": "a"}}"#,
      #"{"number": 1, "title": "t", "user": {"login": null}}"#,
      #"{"number": 1, "title": "t", "user": []}"#,
      #"[{"number": 1, "title": "t", "user": {}}]"#,
    ])
  func aFieldThatDoesNotFitIsNamedAsFoundationNamesIt(json: String) {
    let data = Data(json.utf8)
    let expected = describe { _ = try JSONDecoder().decode(Shape.self, from: data) }
    let found = describe { _ = try GitHubJSONDecoder().decode(Shape.self, from: data) }
    #expect(found == expected)
    #expect(found != nil)
  }

  @Test func aNumberThatIsNotWholeIsNamedWhereFoundationNamesNoField() throws {
    let data = Data(#"{"number": 1.5, "title": "t", "user": {"login": "a"}}"#.utf8)
    #expect(
      describe { _ = try GitHubJSONDecoder().decode(Shape.self, from: data) }
        == "corrupted at [\"number\"]")
  }

  private func describe(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch let error as DecodingError {
      switch error {
      case .keyNotFound(let key, let context):
        return "missing \(key.stringValue) at \(context.codingPath.map(\.stringValue))"
      case .typeMismatch(_, let context), .valueNotFound(_, let context):
        return "\(context.debugDescription) at \(context.codingPath.map(\.stringValue))"
      case .dataCorrupted(let context):
        return "corrupted at \(context.codingPath.map(\.stringValue))"
      @unknown default:
        return "\(error)"
      }
    } catch {
      return "\(error)"
    }
  }

  @Test func everyCutOfADocumentIsAnErrorNotATrap() throws {
    let json =
      #"{"a": [1, -2.5e3, "x\u00e9\ud83d\udc4d\n", true, false, null, {"b": {}}], "c": "d"}"#
    let bytes = Array(json.utf8)
    #expect(throws: Never.self) { try GitHubJSONDecoder().decode(Value.self, from: Data(bytes)) }
    for end in 0..<bytes.count {
      #expect(throws: DecodingError.self) {
        try GitHubJSONDecoder().decode(Value.self, from: Data(bytes[..<end]))
      }
    }
  }

  @Test(
    arguments: [
      "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "nul", "\"\\x\"", "\"\\ud83d\"",
      "\"\\udc4d\"", "\"a\u{1}\"", "[1] 2", "{\"a\":1,}", "+1", ".5", "1e",
    ])
  func textThatIsNotJSONIsRefused(json: String) {
    #expect(throws: DecodingError.self) {
      try GitHubJSONDecoder().decode(Value.self, from: Data(json.utf8))
    }
  }

  @Test func textThatIsNotUTF8IsRefused() {
    #expect(throws: DecodingError.self) {
      try GitHubJSONDecoder().decode(Value.self, from: Data([0x22, 0xC3, 0x28, 0x22]))
    }
  }

  @Test func nestingDeeperThanAnyAnswerIsRefusedWithoutRecursingOnIt() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: DecodingError.self) {
      try GitHubJSONDecoder().decode(Value.self, from: Data(deep.utf8))
    }
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    #expect(throws: Never.self) {
      try GitHubJSONDecoder().decode(Value.self, from: Data(fine.utf8))
    }
  }

  @Test func ofTwoMembersWithOneNameTheFirstCountsInSmallAndLargeObjects() throws {
    struct Named: Decodable { var name: String }
    let small = #"{"name": "first", "name": "last"}"#
    #expect(try GitHubJSONDecoder().decode(Named.self, from: Data(small.utf8)).name == "first")
    let filler = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
    let large = #"{"name": "first", "# + filler + #", "name": "last"}"#
    #expect(try GitHubJSONDecoder().decode(Named.self, from: Data(large.utf8)).name == "first")
    let keys = try GitHubJSONDecoder().decode([String: Value].self, from: Data(large.utf8))
    #expect(keys.count == 101)
    #expect(keys["name"] == Value.string("first"))
    #expect(keys == (try JSONDecoder().decode([String: Value].self, from: Data(large.utf8))))
  }

  @Test func datesAreGitHubsISO8601AndAnythingElseIsNamed() throws {
    struct Dated: Decodable { var at: Date }
    let date = try GitHubJSONDecoder().decode(
      Dated.self, from: Data(#"{"at": "2024-02-29T23:59:58Z"}"#.utf8))
    #expect(date.at == GitHubDate.parse("2024-02-29T23:59:58Z"))
    do {
      _ = try GitHubJSONDecoder().decode(Dated.self, from: Data(#"{"at": "yesterday"}"#.utf8))
      Issue.record("a date that is not ISO 8601 was read")
    } catch let error as DecodingError {
      #expect(
        GitHubJSON.describe(error) == "field `at`: Expected date string to be ISO8601-formatted.")
    }
  }
}
