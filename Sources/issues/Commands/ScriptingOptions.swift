import ArgumentParser
import Foundation
import TrellisTerminal

/// gh's `--jq` and `--template` beside a command's `--json`.
///
/// `--jq` runs jq itself (its C library) over the JSON the command would print. `--template`
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

  /// Checks the flags against the command's `--json`, and compiles the jq program.
  func check(json: String?) throws {
    if template != nil {
      throw ValidationError(
        "--template takes Go templates, which issues does not implement: use --jq with a jq "
          + "expression instead (for example --jq '.[] | \"\\(.number)\\t\\(.title)\"').")
    }
    guard let jq else { return }
    guard json != nil else {
      throw ValidationError("cannot use `--jq` without specifying `--json`")
    }
    do {
      _ = try JQFilter(jq)
    } catch {
      throw CommandFailure(String(describing: error))
    }
  }

  /// Where the command writes its JSON: straight out, or through the jq program at the end.
  func output() throws -> JSONOutput {
    JSONOutput(filter: try jq.map { try JQFilter($0) })
  }
}

/// A command's JSON on its way out: streamed to standard output, or gathered and filtered.
struct JSONOutput {
  let filter: JQFilter?
  private var output = StandardOutput()
  private var gathered: [UInt8] = []

  init(filter: JQFilter?) {
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
  /// - Throws: ``CommandFailure`` with jq's message when the program stops with an error.
  mutating func finish() throws {
    if let filter {
      // A string result prints as it is, for scripts; to a terminal, the characters it would
      // act on (from text anyone can write on GitHub) are shown instead.
      let toTerminal = isatty(STDOUT_FILENO) == 1
      do {
        try filter.run(gathered) { line in
          output.write(toTerminal ? ControlCharacters.visible(line, keepingLineBreaks: true) : line)
          output.write("\n")
        }
      } catch {
        output.flush()
        throw CommandFailure(String(describing: error))
      }
    }
    output.flush()
  }
}
