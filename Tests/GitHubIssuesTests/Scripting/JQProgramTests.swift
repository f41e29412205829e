import Foundation
import GitHubIssues
import Testing

/// `--jq` as gh runs it: gojq in a bounded child process, its results printed as gh prints them.
///
/// The expected outputs were printed by the real gh 2.23 (Debian's, built on gojq 0.12.11) with
/// `gh api --jq` over ``GhRecording/input``; the tests need gojq on the `PATH`, as CI installs it.
@Suite struct JQProgramTests {
  @Test(arguments: GhRecording.cases)
  func printsWhatGhPrinted(_ recorded: GhCase) throws {
    var printed = ""
    var failure: JQProgram.Failure?
    do {
      let program = try JQProgram(recorded.program)
      try program.run(over: Array(GhRecording.input.utf8)) { printed += $0 + "\n" }
    } catch {
      failure = error
    }
    #expect(printed == recorded.printed)
    #expect(failure?.description == recorded.failure)
  }

  @Test func aProgramThatNeverEndsIsStoppedAtTheTimeBound() throws {
    let program = try JQProgram("repeat(1)")
    var lines = 0
    let started = ContinuousClock.now
    #expect {
      try program.run(
        over: Array("null".utf8), within: ExternalTool.Bounds(time: .seconds(1), memory: 1 << 30)
      ) { _ in lines += 1 }
    } throws: { error in
      (error as? JQProgram.Failure)?.description.contains("ran past 1 seconds") == true
    }
    #expect(lines > 0)
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test func aProgramThatHoldsEverMoreMemoryIsStoppedAtTheMemoryBound() throws {
    let program = try JQProgram("[range(1e9)] | length")
    #expect {
      try program.run(
        over: Array("null".utf8), within: ExternalTool.Bounds(time: .seconds(30), memory: 64 << 20)
      ) { _ in }
    } throws: { error in
      (error as? JQProgram.Failure)?.description.contains("more than 64 MiB") == true
    }
  }

  @Test func aCrashIsOneSentenceNotTheCommandsEnd() throws {
    // A gojq that dies by SIGSEGV once the program is past its compile check.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "jq-crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fake = folder.appendingPathComponent("gojq")
    try """
    #!/bin/sh
    input=$(cat)
    [ "$input" = null ] && exit 0
    kill -SEGV $$
    """.write(to: fake, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
    let program = try JQProgram(".", environment: ["PATH": folder.path])
    // A script written a moment ago may not start yet (`ETXTBSY`: a process the parallel tests
    // forked meanwhile still holds it open for writing): the test waits for that, not the code.
    var failure = ""
    for _ in 0..<20 {
      do {
        try program.run(over: Array("[1]".utf8)) { _ in }
        failure = "no error"
      } catch {
        failure = "\(error)"
      }
      guard failure.contains("could not be started") else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(failure.contains("crashed (signal 11)"), "\(failure)")
  }

  @Test func withoutGojqTheMessageSaysHowToGetIt() {
    #expect {
      _ = try JQProgram(".", environment: ["PATH": "/nonexistent"])
    } throws: { error in
      (error as? JQProgram.Failure)?.description.contains("apt install gojq") == true
    }
  }

  @Test func aLargeInputIsWrittenWhileTheOutputIsRead() throws {
    // More than a pipe holds each way: the input is written as the output is read.
    let items = (0..<20_000).map { #"{"number":\#($0),"title":"issue \#($0)"}"# }
    let json = Array(("[" + items.joined(separator: ",") + "]").utf8)
    var count = 0
    var last = ""
    try JQProgram(".[] | .title").run(over: json) { line in
      count += 1
      last = line
    }
    #expect(count == 20_000)
    #expect(last == "issue 19999")
  }
}

/// One program gh ran, and what it printed.
struct GhCase: Sendable, CustomTestStringConvertible {
  var program: String
  var printed: String
  var failure: String?

  init(_ program: String, printed: String, failure: String? = nil) {
    self.program = program
    self.printed = printed
    self.failure = failure
  }

  var testDescription: String { program }
}

enum GhRecording {
  /// The issues gh 2.23 filtered (`gh api` over this JSON, as served).
  static let input =
    "[{\"number\": 1, \"title\": \"héllo wörld 🎉\", \"labels\": [{\"name\": \"bug\"}, {\"name\": \"good first issue\"}], \"score\": 10.5, \"body\": \"a\\r\\nb\\tc <d> & \u{2028} \u{7F} \\b\\f end\", \"author\": {\"login\": \"ann\"}}, {\"number\": 22, \"title\": \"  padded  \", \"labels\": [], \"score\": 2.675, \"body\": \"\", \"author\": {\"login\": \"bob\"}}]"

  /// What gh 2.23 printed for each program over ``input``: its standard output, and its error
  /// message (without the final line break) when it exited 1.
  static let cases: [GhCase] = [
    GhCase(".[].number", printed: "1\n22\n"),
    GhCase(".[0].title", printed: "héllo wörld 🎉\n"),
    GhCase(".[0].title|index(\"w\")", printed: "6\n"),
    GhCase(".[0].title|indices(\"l\")", printed: "[2,3,9]\n"),
    GhCase(".[0].title|.[6:11]", printed: "wörld\n"),
    GhCase(".[0].title|length", printed: "13\n"),
    GhCase(".[1].title|gsub(\"^\\\\s*|\\\\s*$\";\"\")", printed: "padded\n"),
    GhCase(".[1].title|gsub(\"\";\"-\")", printed: "- - -p-a-d-d-e-d- - -\n"),
    GhCase(".[0].body", printed: "a\r\nb\tc <d> & \u{2028} \u{7F} \u{8}\u{C} end\n"),
    GhCase(
      ".[0]",
      printed:
        "{\"author\":{\"login\":\"ann\"},\"body\":\"a\\r\\nb\\tc \\u003cd\\u003e \\u0026 \\u2028 \u{7F} \\u0008\\u000c end\",\"labels\":[{\"name\":\"bug\"},{\"name\":\"good first issue\"}],\"number\":1,\"score\":10.5,\"title\":\"héllo wörld 🎉\"}\n"
    ),
    GhCase(".[0].labels|map(.name)|join(\", \")", printed: "bug, good first issue\n"),
    GhCase("[.[].score]", printed: "[10.5,2.675]\n"),
    GhCase(".[].score", printed: "10.50\n2.67\n"),
    GhCase("map(.score)|add", printed: "13.18\n"),
    GhCase("map(.number)|add/3", printed: "7.67\n"),
    GhCase(
      "[1e-7, 1e21, 1e20, -0.5, 0.1]", printed: "[1e-7,1e+21,100000000000000000000,-0.5,0.1]\n"),
    GhCase(
      "1e300",
      printed:
        "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160\n"
    ),
    GhCase("0.125", printed: "0.12\n"),
    GhCase("-2.5", printed: "-2.50\n"),
    GhCase(
      "[.[] | {n: .number, t: .title}]",
      printed: "[{\"n\":1,\"t\":\"héllo wörld 🎉\"},{\"n\":22,\"t\":\"  padded  \"}]\n"),
    GhCase(".[] | \"\\(.number)\\t\\(.title)\"", printed: "1\théllo wörld 🎉\n22\t  padded  \n"),
    GhCase(".[] | [.number, .title] | @tsv", printed: "1\théllo wörld 🎉\n22\t  padded  \n"),
    GhCase(".[] | [.number, .author.login] | @csv", printed: "1,\"ann\"\n22,\"bob\"\n"),
    GhCase("input", printed: "", failure: "input(s)/0 is not allowed"),
    GhCase("[inputs]", printed: "", failure: "input(s)/0 is not allowed"),
    GhCase("debug", printed: "", failure: "function not defined: debug/0"),
    GhCase(".[0].title|debug", printed: "", failure: "function not defined: debug/0"),
    GhCase("stderr", printed: "", failure: "function not defined: stderr/0"),
    GhCase("input_filename", printed: "", failure: "function not defined: input_filename/0"),
    GhCase("\"bye\\n\"|halt_error", printed: "", failure: "error: bye\n"),
    GhCase("{\"a\":1}|halt_error(3)", printed: "", failure: "error: {\"a\":1}"),
    GhCase("halt", printed: "", failure: "error: null"),
    GhCase(".[0].number, halt", printed: "1\n", failure: "error: null"),
    GhCase(".[", printed: "", failure: "unexpected EOF"),
    GhCase("foo", printed: "", failure: "function not defined: foo/0"),
    GhCase("error(\"boom\")", printed: "", failure: "error: boom"),
    GhCase(".[0].number.x", printed: "", failure: "expected an object but got: number (1)"),
    GhCase(
      ".[0]|keys", printed: "[\"author\",\"body\",\"labels\",\"number\",\"score\",\"title\"]\n"),
    GhCase("null", printed: "\n"),
    GhCase("true", printed: "true\n"),
    GhCase(".[]|select(.number > 5)|.author.login", printed: "bob\n"),
    GhCase("[.[]|.labels|length]|max", printed: "2\n"),
    GhCase(
      "\"x\"|test(\"(\")", printed: "",
      failure: "invalid regular expression \"(\": error parsing regexp: missing closing ): `(`"),
  ]
}
