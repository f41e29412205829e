import ArgumentParser
import Foundation
import GitHubIssues
import TrellisTerminal

/// gh's `--jq` and `--template` beside a command's `--json`.
///
/// `--jq` runs gojq, the jq gh is built on, over the JSON the command would print, bounded in
/// time and memory (``JQProgram``); an empty program is no program, as in gh. `--template`
/// takes Go templates, which have no implementation here: it is refused, naming `--jq`, rather
/// than printing something a script did not ask for.
struct ScriptingOptions: ParsableArguments {
  @Option(
    name: [.customShort("q"), .long],
    help: ArgumentHelp(
      "Filter the JSON with this jq expression (needs --json).", valueName: "expression"))
  var jq: String?

  @Option(
    name: [.customShort("t"), .long],
    help: ArgumentHelp(
      "Not supported (Go templates): use --jq, which takes jq's language.", valueName: "string"))
  var template: String?

  /// Checks the flags against the command's `--json` (the program is compiled by ``output()``,
  /// when the command runs: a failure there is gh's bare message, which validation cannot print).
  func check(json: String?) throws {
    if template != nil {
      throw ValidationError(
        "--template takes Go templates, which issues does not implement: use --jq with a jq "
          + "expression instead (for example --jq '.[] | \"\\(.number)\\t\\(.title)\"').")
    }
    try Self.requireJSON(for: jq, json: json)
  }

  /// Where the command writes its JSON: straight out, or through the jq program at the end.
  ///
  /// - Throws: ``BareFailure`` with gh's message for a program that does not compile, or when
  ///   gojq is missing.
  func output() throws -> JSONOutput {
    JSONOutput(filter: try Self.program(jq))
  }

  /// Refuses `--jq` without `--json`, in gh's words; an empty `--jq` is none.
  static func requireJSON(for jq: String?, json: String?) throws {
    if let jq, !jq.isEmpty, json == nil {
      throw ValidationError("cannot use `--jq` without specifying `--json`")
    }
  }

  /// The jq program a command's `--jq` names, found and compiled, or `nil` without one.
  ///
  /// - Throws: ``BareFailure`` with gh's message for a program that does not compile, or when
  ///   gojq is missing.
  static func program(_ jq: String?) throws -> JQProgram? {
    guard let jq, !jq.isEmpty else { return nil }
    do {
      return try JQProgram(jq)
    } catch {
      throw BareFailure(error.description)
    }
  }
}

/// A command's JSON on its way out: streamed to standard output, or gathered and filtered.
struct JSONOutput {
  let filter: JQProgram?
  private var output = StandardOutput()
  private var gathered: [UInt8] = []

  init(filter: JQProgram?) {
    self.filter = filter
  }

  /// Whether the JSON should be indented (to a terminal, without a filter, as gh does).
  func pretty(toTerminal: Bool) -> Bool { toTerminal && filter == nil }

  mutating func write(_ text: String) {
    if filter == nil {
      output.write(text)
    } else {
      gathered.append(contentsOf: text.utf8)
    }
  }

  /// Writes what is left: the filter's results, one a line.
  ///
  /// - Throws: ``BareFailure`` with gh's message when the program stops with an error.
  mutating func finish() throws {
    if let filter {
      // A string result prints as it is, for scripts; to a terminal, the characters it would
      // act on (from text anyone can write on GitHub) are shown instead.
      let toTerminal = isatty(STDOUT_FILENO) == 1
      do {
        try filter.run(over: gathered) { line in
          output.write(toTerminal ? ControlCharacters.visible(line, keepingLineBreaks: true) : line)
          output.write("\n")
        }
      } catch {
        output.flush()
        throw BareFailure(String(describing: error))
      }
    }
    output.flush()
  }
}
