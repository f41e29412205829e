import Foundation
import GitHubIssues
import Testing

@Suite struct ExternalToolTests {
  @Test func findsAProgramOnThePathAndOnlyInAbsoluteDirectories() throws {
    let shell = try #require(ExternalTool(named: "sh", environment: ["PATH": "/nonexistent:/bin"]))
    #expect(shell.path == "/bin/sh")
    #expect(ExternalTool(named: "sh", environment: ["PATH": "/nonexistent"]) == nil)
    // A relative entry is never searched, even one that leads to /bin from here.
    let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
    let relative = String(repeating: "../", count: depth) + "bin"
    #expect(FileManager.default.isExecutableFile(atPath: relative + "/sh"))
    #expect(ExternalTool(named: "sh", environment: ["PATH": relative]) == nil)
    #expect(ExternalTool(named: "sh", environment: ["PATH": ":."]) == nil)
    #expect(ExternalTool(named: "../bin/sh", environment: ["PATH": "/bin"]) == nil)
  }

  @Test func outputIsTrimmedAndAFailureIsNil() throws {
    let shell = try #require(ExternalTool(named: "sh", environment: ["PATH": "/bin"]))
    #expect(shell.output(["-c", "echo '  token  '; echo noise >&2"]) == "token")
    #expect(shell.output(["-c", "echo partial; exit 3"]) == nil)
    #expect(shell.output(["-c", "kill -9 $$"]) == nil)
  }

  @Test func outputBeyondTheLimitStopsTheProgram() throws {
    let shell = try #require(ExternalTool(named: "sh", environment: ["PATH": "/bin"]))
    let start = ContinuousClock.now
    // Endless output: read up to the limit, then the program is stopped and nothing returned.
    #expect(shell.output(["-c", "while :; do echo 0123456789abcdef; done"], limit: 100_000) == nil)
    #expect(ContinuousClock.now - start < .seconds(10))
    #expect(shell.output(["-c", "printf 0123456789"], limit: 10) == "0123456789")
  }

  @Test func launchWaitsBoundedAndReportsFailure() throws {
    let shell = try #require(ExternalTool(named: "sh", environment: ["PATH": "/bin"]))
    #expect(shell.launch(["-c", "exit 0"]))
    #expect(!shell.launch(["-c", "exit 1"]))
    let start = ContinuousClock.now
    // Still running at the deadline counts as started (a launcher that stays).
    #expect(shell.launch(["-c", "sleep 5"], waitingAtMost: .milliseconds(200)))
    #expect(ContinuousClock.now - start < .seconds(3))
    // The input reaches the program.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "external-tool-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(shell.launch(["-c", "cat > '\(file.path)'"], input: "copied text"))
    #expect(try String(contentsOf: file, encoding: .utf8) == "copied text")
  }
}
