import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import TrellisTestSupport

/// A command's placeholders reach it as one argument each, whatever they hold and wherever the
/// template puts them: never as code.
@Suite struct CommandTemplateTests {
  /// Runs a template's script as the runner does, with `title` as the focused item's title, and
  /// returns what it printed.
  static func output(of template: String, title: String, in directory: URL) throws -> String {
    let run = CommandRun(
      UserCommand(title: "t", template: try CommandTemplate(template), mode: .background),
      host: .github, repository: RepositoryName(owner: "acme", name: "tracker"), number: 7,
      title: title, url: "https://github.com/acme/tracker/issues/7", isPullRequest: false,
      branch: nil)
    let process = CommandRunner.process(run)
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  static let hostile = [
    "it's \"$(touch PWNED)\" `touch PWNED` ; touch PWNED & echo",
    "'; touch PWNED; '", "\"; touch PWNED; \"", "$(touch PWNED)", "${HOME} $HOME * ?",
    "two\nlines\n", "\\'\\\"\\\\", "  leading and trailing  ", "", "-n", "{title}",
  ]

  @Test(arguments: [
    // Bare, between double quotes, between single quotes, glued to other text.
    "printf '[%s]' {title}", "printf '[%s]' \"{title}\"", "printf '[%s]' '{title}'",
    "printf '[%s]' x{title}y",
  ])
  func aHostileTitleIsOneArgumentAndNeverRuns(template: String) throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("template-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // Random titles too, from a fixed seed, of the characters a shell cares about.
    var generator = SplitMix64(seed: 52)
    print("CommandTemplateTests seed 52")
    let alphabet = Array("a $`'\"\\;&|(){}*?<>#~\n\t!=-")
    var titles = Self.hostile
    for _ in 0..<40 {
      titles.append(
        String(
          (0..<Int(generator.next() % 24)).map { _ in
            alphabet[Int(generator.next() % UInt64(alphabet.count))]
          }))
    }
    for title in titles {
      let printed = try Self.output(of: template, title: title, in: directory)
      let expected = template.hasSuffix("x{title}y") ? "[x\(title)y]" : "[\(title)]"
      #expect(printed == expected, "\(template) with \(title.debugDescription)")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("PWNED").path))
  }

  @Test func everyPlaceholderHasItsValueAndShellBracesAreLeftAlone() throws {
    let directory = FileManager.default.temporaryDirectory
    let printed = try Self.output(
      of: "printf '%s|' {host} {repository} {owner} {name} {number} {url} {kind} \"{branch}\" "
        + "${HOME:+home} {a,b}",
      title: "t", in: directory)
    #expect(
      printed
        == "github.com|acme/tracker|acme|tracker|7|https://github.com/acme/tracker/issues/7|issue||"
        + "home|{a,b}|")
  }

  @Test func aNulInAValueIsShownNotCut() throws {
    let run = CommandRun(
      UserCommand(title: "t", template: try CommandTemplate("true"), mode: .background),
      host: .github, repository: RepositoryName(owner: "a", name: "b"), number: 1,
      title: "a\0b", url: "u", isPullRequest: true, branch: "feature")
    #expect(run.environment["TRELLIS_TITLE"] == "a␀b")
    #expect(run.environment["TRELLIS_BRANCH"] == "feature")
    #expect(run.environment["TRELLIS_KIND"] == "pull-request")
  }
}
