import Foundation
import GitHubIssues
import IssuesBrowser
@testable import issues
import Testing

/// The help topics that are not commands stay true to what they describe.
@Suite struct HelpTopicTests {
  /// Every variable the app's sources read is on `issues help environment`: a new one cannot be
  /// added without saying what it does.
  @Test func everyVariableTheAppReadsIsDocumented() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    // The libraries and the app; test support and benchmarks set variables for the app.
    let modules = ["GitHubIssues", "IssuesBrowser", "TrellisTerminal", "issues"]
    let read = try Regex(
      #"environment\["([A-Za-z_]+)"\]|"((?:GH|GITHUB)_[A-Z_]+|[a-z]+_proxy|[A-Z]+_PROXY)""#)
    var names: Set<String> = []
    for module in modules {
      let folder = sources.appendingPathComponent(module)
      let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
      while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "swift" else { continue }
        let text = try String(contentsOf: file, encoding: .utf8)
        for match in text.matches(of: read) {
          if let name = match.output[1].substring ?? match.output[2].substring {
            names.insert(String(name))
          }
        }
      }
    }
    // HOME and PATH are how any program finds a home and a tool, not settings of this one.
    names.subtract(["HOME", "PATH"])
    #expect(names.count >= 20, "the scan found \(names.sorted())")
    let page = EnvironmentHelp.helpMessage()
    for name in names.sorted() {
      #expect(page.contains(name), "\(name) is read but not on issues help environment")
    }
  }

  /// `issues help keys` has every row of every screen's table, with its words.
  @Test func theKeysPageHasEveryRow() {
    let page = KeysHelp.helpMessage(columns: 200)
    for line in BrowserKeys.standard.helpLines + DashboardKeys.standard.helpLines
      + InboxKeys.standard.helpLines where !line.keys.isEmpty
    {
      #expect(page.contains(line.keys), "\(line.keys)")
      if !line.isTitle {
        // Wrapped at 76 columns: the summary's first words start the entry's text.
        let start = line.summary.split(separator: " ").prefix(3).joined(separator: " ")
        #expect(page.contains(start), "\(line.summary)")
      }
    }
  }

  /// No indented line of a topic is wrapped by the parser at 80 columns, or by man, which
  /// indents by 5.
  @Test(arguments: ["keys", "environment", "config", "search", "offline", "mirror", "scripts"])
  func topicsFitEightyColumns(topic: String) throws {
    let command = try #require(
      Issues.configuration.subcommands.first { $0._commandName == topic })
    let page = command.helpMessage(columns: 80)
    let discussion = try #require(command.configuration.discussion as String?)
    for line in discussion.split(separator: "\n") where line.hasPrefix("  ") {
      #expect(line.count <= HelpText.width, "\(topic): \(line)")
      #expect(page.contains(line), "\(topic): wrapped by the parser: \(line)")
    }
  }
}
