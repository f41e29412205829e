import Foundation
import GitHubIssues
import GitHubTestSupport
import TerminalTestSupport
import Testing
import TrellisTerminal

#if os(Linux)
import Glibc

/// What the dashboard's end-to-end tests serve: repositories on two local GitHubs standing for
/// github.com and an Enterprise host.
enum DashboardEndToEnd {
  static let tracker = RepositoryName(owner: "acme", name: "tracker")
  static let web = RepositoryName(owner: "acme", name: "web")
  static let platform = RepositoryName(owner: "platform", name: "api")
  /// What each repository serves.
  static func data(_ name: RepositoryName) -> SyntheticRepository {
    switch name {
    case tracker: SyntheticRepository(itemCount: 120, milestoneCount: 5, seed: 1)
    case web: SyntheticRepository(itemCount: 80, milestoneCount: 3, seed: 2)
    default: SyntheticRepository(itemCount: 60, milestoneCount: 2, seed: 3)
    }
  }

  /// Two GitHubs, a configuration naming both, and the folder it is in.
  struct Setup {
    let dotCom: LocalGitHub
    let enterprise: LocalGitHub
    let configHome: URL

    static func make(sections: String) async throws -> Setup {
      let dotCom = try await LocalGitHub.start()
      let enterprise = try await LocalGitHub.start()
      for name in [tracker, web] {
        try await dotCom.serve(synthetic: data(name), as: name)
      }
      try await enterprise.serve(synthetic: data(platform), as: platform)
      let configHome = FileManager.default.temporaryDirectory
        .appendingPathComponent("issues-dash-\(UUID().uuidString)")
      let folder = configHome.appendingPathComponent("trellis-issues")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let config = """
        repositories: [acme/tracker, acme/web, ghe.example.com/platform/api]
        hosts:
          github.com: {api-url: "\(await dotCom.baseURL.absoluteString)"}
          ghe.example.com: {api-url: "\(await enterprise.baseURL.absoluteString)"}
        sections:
        \(sections)
        """
      try config.write(
        to: folder.appendingPathComponent("dashboard.yml"), atomically: true, encoding: .utf8)
      return Setup(dotCom: dotCom, enterprise: enterprise, configHome: configHome)
    }

    func stop() async {
      await dotCom.stop()
      await enterprise.stop()
      try? FileManager.default.removeItem(at: configHome)
    }

    var environment: [String: String] {
      ["XDG_CONFIG_HOME": configHome.path, "GH_ENTERPRISE_TOKEN": "test-token"]
    }
  }

  static let threeSections = """
      - {title: Bugs, query: "is:open label:bug"}
      - {title: Web PRs, query: "repo:acme/web is:pr", group-by: repository}
      - {title: Platform, query: "repo:ghe.example.com/platform/api is:open"}
    """

  static func items(_ name: RepositoryName) -> [GitHubIssue] { data(name).make().issues }

  static var expectedBugs: Int {
    [tracker, web, platform].reduce(0) { total, name in
      total + items(name).count { $0.state == .open && $0.labels.contains { $0.name == "bug" } }
    }
  }
}

/// `issues dash` in a pseudo-terminal. In `EndToEndTests`, so that it runs one test at a time with
/// the others that read a pseudo-terminal: each holds a thread while it reads, and the local
/// GitHubs need the others.
extension EndToEndTests {
  typealias Dash = DashboardEndToEnd

  @Test func aDashboardOfThreeSectionsOverTwoHostsFillsAsTheRepositoriesSync() async throws {
    let setup = try await Dash.Setup.make(sections: Dash.threeSections)
    defer { Task { await setup.stop() } }
    let run = try await EndToEndTests.Run(
      arguments: ["dash"], github: nil, columns: 120, rows: 30, environment: setup.environment)
    let bugs = Dash.expectedBugs
    let webPRs = Dash.items(Dash.web).count { $0.isPullRequest }
    let platformOpen = Dash.items(Dash.platform).count { $0.state == .open }
    run.read(seconds: 90) {
      $0.lines[1].contains(" Bugs \(bugs) ") && $0.lines[0].contains("up to date")
    }
    #expect(run.terminal.lines[1].contains(" Bugs \(bugs) "), "\(run.terminal.lines[0...2])")
    #expect(run.terminal.lines[1].contains(" Web PRs \(webPRs) "))
    #expect(run.terminal.lines[1].contains(" Platform \(platformOpen) "))
    #expect(run.terminal.lines[0].contains("dashboard · 3 repositories"))
    // Every section answered from the caches: GitHub's search API was never asked.
    #expect(await setup.dotCom.requestCount(pathPrefix: "/search") == 0)
    #expect(await setup.enterprise.requestCount(pathPrefix: "/search") == 0)
    #expect(await setup.dotCom.requestCount(pathPrefix: "/repos/acme/tracker/issues") > 0)
    // The newest open bug of all three, first, named with its repository.
    let newest = [Dash.tracker, Dash.web, Dash.platform].flatMap { name in
      Dash.items(name).filter { $0.state == .open && $0.labels.contains { $0.name == "bug" } }
        .map { (name, $0) }
    }.max { $0.1.updatedAt < $1.1.updatedAt }
    let (newestName, newestIssue) = try #require(newest)
    let prefix = newestName == Dash.platform ? "ghe.example.com/platform/api" : "\(newestName)"
    #expect(run.terminal.lines[3].contains("\(prefix)#\(newestIssue.number)"))
    // The Enterprise repository's section: its rows alone.
    run.pty.type("3")
    run.read { $0.lines[3].contains("repo:ghe.example.com/platform/api") }
    // One repository: its milestone chips, then its rows alone.
    #expect(run.terminal.lines[2].contains(" All \(platformOpen) "))
    #expect(run.terminal.lines[4].contains("#"))
    #expect(!run.terminal.lines[4...].contains { $0.contains("acme/") })
    // Enter reads the item in its repository's browser; Esc comes back to the same tab.
    run.pty.type("\r")
    run.read { $0.lines[0].contains("platform/api") && !$0.lines[0].contains("dashboard") }
    #expect(run.terminal.lines[0].contains("platform/api"))
    run.pty.type("\u{1B}")
    run.read { $0.lines[0].contains("dashboard") }
    #expect(run.terminal.lines[3].contains("repo:ghe.example.com/platform/api"))
    // `?` lists the dashboard's keys; any other key closes it and does nothing else.
    run.pty.type("?")
    run.read { $0.lines.contains { $0.contains("next and previous section") } }
    #expect(run.terminal.lines.contains { $0.contains("group the section by repository") })
    run.pty.type("q")
    run.read { !$0.lines.contains { $0.contains("next and previous section") } }
    #expect(run.terminal.lines[3].contains("repo:ghe.example.com/platform/api"))
    run.quitAndExpectTheTerminalAsItWas()
  }

  @Test func aDashboardConfigurationMistakeIsReportedWithItsLineAndNothingStarts() async throws {
    let setup = try await Dash.Setup.make(
      sections: """
          - {title: Bugs, query: "is:open lable:bug"}
        """)
    defer { Task { await setup.stop() } }
    let run = try await EndToEndTests.Run(
      arguments: ["dash"], github: nil, environment: setup.environment)
    run.read { $0.lines.contains { $0.contains("dashboard.yml:") } }
    run.settle()
    // The message wraps at the terminal's width: read it as one text.
    let text = run.terminal.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    // Line 6 of the file, the column of "lable" inside the quoted query.
    #expect(text.contains("dashboard.yml:6:35: Unknown qualifier lable:. Did you mean label:?"))
    #expect(waitForExit(run.process))
    #expect(run.process.terminationStatus == 1)
    #expect(!run.terminal.isAlternateScreen)
    // Nothing was synced: no request reached either GitHub.
    #expect(await setup.dotCom.requestCount(pathPrefix: "/") == 0)
  }

  @Test func aSyncOfOneRepositoryUpdatesTheDashboardSectionsThatMatchWhileAnotherIsBrowsed()
    async throws
  {
    let setup = try await Dash.Setup.make(sections: Dash.threeSections)
    defer { Task { await setup.stop() } }
    let run = try await EndToEndTests.Run(
      arguments: ["dash"], github: nil, columns: 120, rows: 30, environment: setup.environment)
    let bugs = Dash.expectedBugs
    run.read(seconds: 90) {
      $0.lines[1].contains(" Bugs \(bugs) ") && $0.lines[0].contains("up to date")
    }
    run.pty.type("3")
    run.read { $0.lines[3].contains("repo:ghe.example.com/platform/api") }
    let platformRows = Array(run.terminal.lines[2...10])
    // On github.com, a closed item without the label becomes an open bug.
    let item = try #require(
      Dash.items(Dash.tracker).first {
        $0.state == .closed && !$0.labels.contains { $0.name == "bug" } && !$0.isPullRequest
      })
    let json = try #require(await setup.dotCom.itemJSON(number: item.number, in: Dash.tracker))
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    object["state"] = "open"
    object["closed_at"] = NSNull()
    object["labels"] = [["id": 800_000, "name": "bug", "color": "a2eeef"]]
    let edited = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    await setup.dotCom.replaceItem(number: item.number, in: Dash.tracker, json: edited)
    await setup.dotCom.touch(numbers: [item.number], in: Dash.tracker)
    // Another process syncs that repository alone.
    let sync = Process()
    sync.executableURL = URL(fileURLWithPath: builtExecutablePath("issues"))
    sync.arguments = [
      "sync", "acme/tracker", "--api-url", await setup.dotCom.baseURL.absoluteString,
    ]
    sync.environment = ProcessInfo.processInfo.environment.merging([
      "XDG_CACHE_HOME": run.cacheDirectory.path, "GH_TOKEN": "test-token",
    ]) { _, given in given }
    sync.standardOutput = FileHandle.nullDevice
    sync.standardError = FileHandle.nullDevice
    try sync.run()
    sync.waitUntilExit()
    #expect(sync.terminationStatus == 0)
    run.read { $0.lines[1].contains(" Bugs \(bugs + 1) ") }
    #expect(run.terminal.lines[1].contains(" Bugs \(bugs + 1) "))
    // The section browsed did not move.
    #expect(run.terminal.lines[3].contains("repo:ghe.example.com/platform/api"))
    #expect(Array(run.terminal.lines[2...10]) == platformRows)
    // The bug heads its section.
    run.pty.type("1")
    run.read { $0.lines[3].contains("acme/tracker#\(item.number)") }
    #expect(run.terminal.lines[3].contains("acme/tracker#\(item.number)"))
    run.quitAndExpectTheTerminalAsItWas()
  }
}
#endif
