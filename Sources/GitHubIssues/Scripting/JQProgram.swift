import Foundation

/// A jq program run over a command's JSON as gh's `--jq` runs it: by gojq, the jq gh is built on,
/// each result printed as gh prints it (``JQResultLine``).
///
///     let program = try JQProgram(".[] | select(.number > 1) | .title")
///     try program.run(over: Array(json.utf8)) { print($0) }
///
/// The program runs in its own process, bounded in time and memory (``bounds(forInputOf:)``):
/// a crash, a loop or a runaway allocation ends the command with one sentence, never takes it
/// down. What gh's gojq has and the gojq command adds is taken back, so that a program means
/// what it means in gh: `input`, `inputs`, `debug`, `stderr` and `input_filename` fail as gh's
/// do, and `halt` and `halt_error` end the output with gh's `error: …` message (status 1).
package struct JQProgram: Sendable {
  /// Why a program could not be compiled or run, in gh's words where gh has them.
  package struct Failure: Error, Hashable, CustomStringConvertible {
    package var description: String
  }

  /// The program as the person wrote it.
  package let source: String
  private let engine: ExternalTool

  /// The name of the program that runs jq: gojq, which gh links (Debian and Homebrew package it
  /// under this name).
  package static let engineName = "gojq"

  /// Finds gojq and checks that `source` parses and compiles.
  ///
  /// - Throws: ``Failure`` when gojq is not installed, or with gh's message when the program
  ///   does not parse or names what jq does not define.
  package init(
    _ source: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(Failure) {
    guard let engine = ExternalTool(named: Self.engineName, environment: environment) else {
      throw Failure(
        description:
          "--jq runs gojq (the jq that gh is built on), which is not installed: install it "
          + "(apt install gojq, brew install gojq) or pipe --json into jq.")
    }
    self.source = source
    self.engine = engine
    // Compiling is running on `null`, briefly: only a compile error is an answer here.
    let check = try execute(
      over: Array("null".utf8), within: ExternalTool.Bounds(time: .seconds(2), memory: 256 << 20)
    ) { _ in }
    if case .exited(3) = check.ending { throw failure(check) }
  }

  /// How long and how large a run may grow: 20 seconds and 1 GiB, more for a large input
  /// (a second more per 10 MB, 32 times the input's size).
  package static func bounds(forInputOf count: Int) -> ExternalTool.Bounds {
    ExternalTool.Bounds(
      time: .seconds(20) + .milliseconds(count / 10_000), memory: max(1 << 30, count * 32))
  }

  /// Runs the program over `json` and hands over each result line, as gh prints it.
  ///
  /// - Throws: ``Failure`` with gh's message when the program stops with an error, or one
  ///   sentence naming the bound when it ran past one or crashed.
  package func run(
    over json: [UInt8], within bounds: ExternalTool.Bounds? = nil, _ emit: (String) -> Void
  ) throws(Failure) {
    let bounds = bounds ?? Self.bounds(forInputOf: json.count)
    var pending: [UInt8] = []
    let finished = try execute(over: json, within: bounds) { chunk in
      pending += chunk
      var start = pending.startIndex
      while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[start..<newline], as: UTF8.self)
        emit(JQResultLine.text(ofCompactJSON: Substring(line)))
        start = newline + 1
      }
      pending.removeSubrange(..<start)
    }
    if !pending.isEmpty {
      emit(JQResultLine.text(ofCompactJSON: Substring(String(decoding: pending, as: UTF8.self))))
    }
    switch finished.ending {
    case .exited(0): return
    case .exited: throw failure(finished)
    case .signalled(let signal):
      throw Failure(
        description:
          "jq: gojq crashed (signal \(signal)) running the program; nothing after the lines "
          + "above was printed.")
    case .ranOutOfTime:
      throw Failure(
        description:
          "jq: the program ran past \(Self.seconds(bounds.time)) seconds and was stopped "
          + "(--jq runs at most that long over this input).")
    case .ranOutOfMemory:
      throw Failure(
        description:
          "jq: the program took more than \(bounds.memory >> 20) MiB of memory and was stopped "
          + "(--jq holds at most that much over this input).")
    }
  }

  private func execute(
    over json: [UInt8], within bounds: ExternalTool.Bounds, output: (ArraySlice<UInt8>) -> Void
  ) throws(Failure) -> ExternalTool.BoundedRun {
    let program = Self.prelude + source + "\n"
    guard
      let run = engine.run(
        ["-c", "-M", "--", program], input: json, within: bounds, output: output)
    else {
      throw Failure(description: "jq: \(engine.path) could not be started.")
    }
    return run
  }

  /// gh's message for what gojq wrote on standard error.
  private func failure(_ run: ExternalTool.BoundedRun) -> Failure {
    var text = String(decoding: run.standardError, as: UTF8.self)
    // gojq ends its message with one line break; the rest is the message's (`halt_error`'s).
    if text.hasSuffix("\n") { text.removeLast() }
    let gojq = "gojq: "
    if text.hasPrefix(gojq + "error: " + Self.marker) {
      return Failure(description: String(text.dropFirst((gojq + "error: " + Self.marker).count)))
    }
    if text.hasPrefix(gojq + "error: " + Self.haltMarker) {
      return Failure(
        description: "error: " + text.dropFirst((gojq + "error: " + Self.haltMarker).count))
    }
    if text.hasPrefix(gojq + "invalid query:") {
      // gojq shows the line and a caret; gh says only what is wrong.
      let last = text.split(separator: "\n").last ?? ""
      if let caret = last.range(of: "^  ") {
        return Failure(description: String(last[caret.upperBound...]))
      }
    }
    if text.hasPrefix(gojq + "compile error: ") {
      return Failure(description: String(text.dropFirst((gojq + "compile error: ").count)))
    }
    if text.hasPrefix(gojq) { return Failure(description: String(text.dropFirst(gojq.count))) }
    return Failure(description: text.isEmpty ? "jq: gojq failed with no message." : text)
  }

  private static func seconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds)
  }

  /// Marks an error the prelude raised for a name gh's gojq lacks; the text after it is gh's.
  private static let marker = "\u{0}issues-jq:"
  /// Marks `halt` and `halt_error`; the text after it is the value, as gojq's message has it.
  private static let haltMarker = "\u{0}issues-jq-halt:"

  /// Definitions in front of every program, so that it means what it means in gh.
  ///
  /// What the gojq command adds to the gojq gh links is undone, and halting ends as gh reports
  /// it. A program's own definitions come after these, and win.
  private static let prelude = """
    def input: error("\\u0000issues-jq:input(s)/0 is not allowed");
    def inputs: error("\\u0000issues-jq:input(s)/0 is not allowed");
    def debug: error("\\u0000issues-jq:function not defined: debug/0");
    def stderr: error("\\u0000issues-jq:function not defined: stderr/0");
    def input_filename: error("\\u0000issues-jq:function not defined: input_filename/0");
    def halt: error("\\u0000issues-jq-halt:null");
    def halt_error($code): error("\\u0000issues-jq-halt:"
      + (if type == "string" then . else tojson end));
    def halt_error: halt_error(5);

    """
}
