import Foundation
import GitHubIssues
import GitHubTestSupport
import Testing
import TrellisTestSupport

/// Random programs from jq's grammar over real issues (betamax's, as GitHub served them): each
/// ends — printed, refused with a message, or stopped at its bound — and none runs past it.
///
/// CI runs 40; `JQ_FUZZ_COUNT=10000 swift test --filter JQFuzzTests` runs the full count.
@Suite struct JQFuzzTests {
  @Test func everyProgramEndsWithinItsBound() throws {
    let count = Int(ProcessInfo.processInfo.environment["JQ_FUZZ_COUNT"] ?? "") ?? 40
    let seed: UInt64 = 0x6A71_F022
    print("JQFuzzTests seed 0x6A71F022, \(count) programs")
    var generator = SplitMix64(seed: seed)
    let issues = try Fixtures.data("github3py__betamax_issues_state_all.json")
    let json = Array(issues)
    let bounds = ExternalTool.Bounds(time: .seconds(2), memory: 256 << 20)
    var outcomes: [String: Int] = [:]
    var slowest = Duration.zero
    for _ in 0..<count {
      let source = JQGrammar.program(using: &generator)
      let started = ContinuousClock.now
      let outcome: String
      do {
        let program = try JQProgram(source)
        var lines = 0
        try program.run(over: json, within: bounds) { _ in lines += 1 }
        outcome = "printed"
      } catch {
        let text = error.description
        outcome =
          text.contains("ran past")
          ? "time"
          : text.contains("MiB of memory")
            ? "memory"
            : text.contains("crashed") ? "crashed" : text.isEmpty ? "silent" : "refused"
      }
      let took = ContinuousClock.now - started
      slowest = max(slowest, took)
      outcomes[outcome, default: 0] += 1
      // The check on `null` may take its own 2 s before the run's 2 s.
      #expect(took < .seconds(6), "\(source) took \(took)")
      #expect(outcome != "crashed" && outcome != "silent", "\(source): \(outcome)")
    }
    print("JQFuzzTests outcomes \(outcomes.sorted { $0.key < $1.key }), slowest \(slowest)")
  }
}

/// Programs in jq's grammar, some of them broken on purpose.
enum JQGrammar {
  static func program(using generator: inout SplitMix64) -> String {
    var text = term(depth: 4, using: &generator)
    if Int.random(in: 0..<12, using: &generator) == 0 {
      // Cut somewhere: a parse error (or, by luck, another program).
      text = String(text.prefix(Int.random(in: 0...text.count, using: &generator)))
    }
    return text
  }

  private static let atoms = [
    ".", ".[]", ".[0]", ".[-1]", "..", ".title", ".number", ".labels", ".user.login", ".body",
    ".[0].title", "null", "true", "1", "-2.5", "1e300", "\"é🎉\"", "\"a,b\"", "[]", "{}", "$ENV",
    "env", "input", "inputs", "debug", "stderr", "input_filename", "halt", "now", "empty",
    "length", "keys", "add", "flatten", "unique", "min", "max", "tostring", "tojson", "type",
    "ascii_downcase", "explode", "@base64", "@base64d", "@csv", "@tsv", "@sh", "@uri", "@html",
    "to_entries", "paths", "recurse", "todate", "fromdate", "tostream", "not", "infinite", "nan",
    "fromjson", "implode", "sort", "reverse", "splits(\",\")", "ltrimstr(\"a\")", "error",
    "\"x\" | halt_error", "input_line_number", "$__loc__", "getpath([\"a\"])", "range(5)",
    "range(1e9)", "[range(1e7)]", "repeat(.)", "limit(3; repeat(1))", "first(range(10))",
  ]

  private static let wrappers = [
    "map(%)", "select(%)", "sort_by(%)", "group_by(%)", "unique_by(%)", "min_by(%)", "[%]",
    "{a: %}", "try %", "(%)?", "first(%)", "any(%)", "all(%)", "with_entries(%)", "del(%)",
    "path(%)", "tostring | test(\"%\")", "gsub(\"\\\\s*\"; \"-\")", "sub(\"^\"; \"x\")",
    "split(\" \")", "join(\", \")", "index(\"l\")", "indices(\"l\")", "limit(2; %)",
    "reduce .[] as $x (0; . + 1)", "foreach .[] as $x (0; . + 1)", "if % then 1 else 2 end",
    "def f: %; f", "% as $v | $v", "label $out | %, break $out", "getpath(%)", "walk(%)",
    "until(. == null; %)", "while(false; %)", "recurse(%)", "splits(%)", "test(%)", "ltrimstr(%)",
    "tojson | fromjson", "@text \"\\(%)\"", "[.[] | %] | length", ".[%]", "has(%)",
  ]

  private static let operators = [
    " | ", ", ", " + ", " - ", " * ", " / ", " % ", " // ", " == ",
    " and ", " or ", " |= ", " += ", " = ", " < ",
  ]

  private static func term(depth: Int, using generator: inout SplitMix64) -> String {
    let pick = depth == 0 ? 0 : Int.random(in: 0..<3, using: &generator)
    switch pick {
    case 0:
      return atoms[Int.random(in: 0..<atoms.count, using: &generator)]
    case 1:
      let wrapper = wrappers[Int.random(in: 0..<wrappers.count, using: &generator)]
      return wrapper.replacingOccurrences(
        of: "%", with: term(depth: depth - 1, using: &generator))
    default:
      let left = term(depth: depth - 1, using: &generator)
      let right = term(depth: depth - 1, using: &generator)
      return left + operators[Int.random(in: 0..<operators.count, using: &generator)] + right
    }
  }
}
