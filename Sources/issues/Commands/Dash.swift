import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues dash`: the dashboard's sections, answered from the caches of every repository the
/// configuration names, on every host, without GitHub's search API.
struct Dash: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dash",
    abstract: "Open the dashboard: your sections across repositories (printed to a pipe).",
    discussion: """
      Sections come from $XDG_CONFIG_HOME/trellis-issues/dashboard.yml (or --config): each a \
      title and a query in GitHub's search syntax (is:open is:pr author:@me label:bug,crash \
      milestone:"1.0" repo:o/r org:acme -label:wip sort:updated-desc), over the repositories it \
      lists, on github.com and Enterprise hosts side by side. Without a file: the current \
      repository's open issues, your pull requests and what is assigned to you, across every \
      cached repository. Printed, nothing is fetched but @me's login (once per token): sync \
      repositories with `issues sync`; the screen syncs every one in the background. In a \
      terminal, the dashboard screen: a tab per section, Enter reads an item in its \
      repository's browser, ? lists the keys. To a pipe (or with --print), one tab-separated \
      line per item (section, repository, number, state, kind, title, labels, updated); --json \
      FIELDS gives each section's title, count and items with gh's fields, plus repository and \
      isPullRequest.
      """)

  @Option(help: "The dashboard's configuration file (default: the XDG config folder's).")
  var config: String?

  @Option(help: "Only the section with this title.")
  var section: String?

  @Option(name: [.customShort("L"), .long], help: "At most this many items per section.")
  var limit: Int?

  @Option(
    help: ArgumentHelp(
      "Print JSON with these comma-separated fields (gh's, and repository, isPullRequest).",
      valueName: "fields"))
  var json: String?

  @Flag(help: "Check the configuration and say what it holds; print no sections.")
  var check = false

  @Flag(help: "Print the sections even to a terminal, instead of opening the dashboard screen.")
  var print = false

  @Flag(help: "Never ask GitHub anything (@me must have been looked up before).")
  var offline = false

  @OptionGroup var screen: ScreenFlags

  @Option(help: ArgumentHelp("Seconds to wait for GitHub (default: 15).", valueName: "seconds"))
  var timeout: Double?

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    if let timeout, !(timeout > 0 && timeout <= 3600) {
      throw ValidationError("--timeout must be a number of seconds between 0 and 3600.")
    }
  }

  func run() async throws {
    let dashboardConfig = try loadConfig()
    var sections = dashboardConfig.sections
    if let section {
      sections = sections.filter { $0.title == section }
      guard !sections.isEmpty else {
        throw CommandFailure(
          "No section is called “\(ControlCharacters.visible(section))”: the sections are "
            + dashboardConfig.sections.map { "“\($0.title)”" }.joined(separator: ", ") + ".")
      }
    }
    if check {
      Swift.print(
        "\(sections.count) section\(sections.count == 1 ? "" : "s") over "
          + "\(dashboardConfig.repositories.count) repositor"
          + (dashboardConfig.repositories.count == 1 ? "y" : "ies") + ": "
          + dashboardConfig.repositories.map(\.description).joined(separator: ", "))
      return
    }
    let isInteractive =
      !print && json == nil && isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1
      && ColorSupport.isCapableTerminal(environment: ProcessInfo.processInfo.environment)
    if isInteractive {
      try await showScreen(dashboardConfig)
      return
    }
    let opened = try await DashboardOpening.open(
      dashboardConfig, offline: offline, timeout: timeout)
    for note in opened.notes { Terminal.standardError("note: \(note)\n") }
    if dashboardConfig.repositories.isEmpty {
      Terminal.standardError(
        "note: no repository to read: sync one (issues sync OWNER/REPO), or list them under "
          + "repositories: in \(DashboardConfig.defaultURL().path).\n")
    }
    let dashboard = opened.dashboard
    let isTerminal = isatty(STDOUT_FILENO) == 1
    var output = StandardOutput()
    var jsonSections: [IssueJSON.Value] = []
    let jsonFields = try json.map(Self.fields)
    for (index, section) in sections.enumerated() {
      let entries = try dashboard.entries(section.query)
      let shown = limit.map { Array(entries.prefix($0)) } ?? entries
      let items = try dashboard.items(shown)
      let spansRepositories = Set(entries.map(\.source)).count > 1
      if let jsonFields {
        var contexts: [DashboardSource: IssueJSON.Context] = [:]
        for repository in dashboard.repositories
        where items.contains(where: { $0.source == repository.source }) {
          contexts[repository.source] = IssueJSON.Context(
            milestones: Dictionary(try repository.cache.milestones().map { ($0.number, $0) }) {
              first, _ in first
            },
            labels: Dictionary(try repository.cache.labels().map { ($0.name, $0) }) {
              first, _ in first
            })
        }
        jsonSections.append(
          IssueJSON.dashboardSection(
            section, count: entries.count, items: items, fields: jsonFields.issue,
            repository: jsonFields.repository, isPullRequest: jsonFields.isPullRequest,
            contexts: contexts))
      } else if isTerminal {
        if index > 0 { output.write("\n") }
        output.write(
          "\(ControlCharacters.visible(section.title))  (\(entries.count)"
            + (items.count < entries.count ? ", first \(items.count)" : "") + ")\n")
        let rows = try Self.rows(items, dashboard: dashboard, withRepository: spansRepositories)
        if rows.isEmpty {
          output.write("  nothing matches \(ControlCharacters.visible(section.query.text))\n")
        } else {
          output.write(
            IssueTable.table(rows, width: Terminal.width(STDOUT_FILENO), now: Date()))
        }
      } else {
        for item in items {
          let issue = item.issue
          output.write(
            [
              ControlCharacters.visible(section.title), item.source.description,
              String(issue.number), issue.state == .open ? "OPEN" : "CLOSED",
              issue.isPullRequest ? "PR" : "ISSUE",
              ControlCharacters.visible(
                issue.title.split(whereSeparator: \.isWhitespace).joined(separator: " ")),
              ControlCharacters.visible(issue.labels.joined(separator: ", ")),
              IssueJSON.timestamp(issue.updatedAt),
            ].joined(separator: "\t") + "\n")
        }
      }
    }
    if jsonFields != nil {
      output.write(IssueJSON.single(.array(jsonSections), pretty: isTerminal))
    }
    output.flush()
  }

  /// The dashboard screen, until the person leaves it; an item opened from it is read in its
  /// repository's browser, and leaving the reader comes back.
  @MainActor
  func showScreen(_ config: DashboardConfig) async throws {
    let opened = try await DashboardOpening.open(
      config, offline: offline, timeout: timeout, creatingMissing: !offline)
    let network: BrowserHost.Network =
      offline ? .offline : .github(timeout: timeout)
    let options = try screen.options(configPath: self.config)
    var session = try Terminal.takeSession()
    let host = DashboardHost(
      dashboard: opened.dashboard, sections: config.sections, network: network,
      size: session.size, notes: opened.notes, options: options)
    if let section, let index = config.sections.firstIndex(where: { $0.title == section }) {
      host.browser.select(index)
    }
    while true {
      switch await host.run(in: session) {
      case .quit: return
      case .interrupted: throw ExitCode(130)
      case .read(let source, let number):
        guard let cache = opened.dashboard.repositories.first(where: { $0.source == source })?.cache
        else {
          session = try Terminal.takeSession()
          continue
        }
        let reading = try Terminal.takeSession()
        let ending = await BrowserHost(
          cache: cache, repository: source.repository, host: source.host, network: network,
          session: reading, syncStatus: .cached(lastSynced: try? cache.lastSyncedAt()),
          reading: number, options: options
        ).run()
        if ending == .interrupted { throw ExitCode(130) }
        session = try Terminal.takeSession()
      }
    }
  }

  /// The configuration file's dashboard, or the standard one when there is no file.
  func loadConfig() throws -> DashboardConfig {
    let url = config.map { URL(fileURLWithPath: $0) } ?? DashboardConfig.defaultURL()
    if config != nil || FileManager.default.fileExists(atPath: url.path) {
      do {
        // A file with only keys, commands or a theme leaves the standard dashboard.
        if let configured = try DashboardConfig.configured(in: ConfigFile(contentsOf: url)) {
          return configured
        }
      } catch {
        throw CommandFailure(error.description)
      }
    }
    return DashboardConfig.standard(
      current: Self.currentRepository(), cached: Self.cachedRepositories())
  }

  /// The repository of `GH_REPO` or of the current directory's git remote, if any.
  static func currentRepository() -> DashboardSource? {
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["GH_REPO"], !text.isEmpty,
      let (host, name) = try? RepositoryOptions.parseRepository(text)
    {
      return DashboardSource(
        host: host.flatMap(GitHubHost.named) ?? .github, repository: name)
    }
    guard let remote = GitRemote.current() else { return nil }
    return DashboardSource(
      host: GitHubHost.named(remote.host) ?? .github, repository: remote.repository)
  }

  /// Every repository with a cache under a real host's name (not a test server's or proxy's).
  static func cachedRepositories() -> [DashboardSource] {
    let root = IssueCache.defaultURL(for: RepositoryName(owner: "o", name: "r"))
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let files = FileManager.default
    var found: [DashboardSource] = []
    for hostName in ((try? files.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
      guard let host = GitHubHost.named(hostName), host.storageName == hostName else { continue }
      let hostFolder = root.appendingPathComponent(hostName)
      for owner in ((try? files.contentsOfDirectory(atPath: hostFolder.path)) ?? []).sorted() {
        let ownerFolder = hostFolder.appendingPathComponent(owner)
        for file in ((try? files.contentsOfDirectory(atPath: ownerFolder.path)) ?? []).sorted()
        where file.hasSuffix(".sqlite") {
          if let name = RepositoryName("\(owner)/\(file.dropLast(".sqlite".count))") {
            found.append(DashboardSource(host: host, repository: name))
          }
        }
      }
    }
    return found
  }

  static func rows(_ items: [DashboardItem], dashboard: Dashboard, withRepository: Bool) throws
    -> [IssueTable.Row]
  {
    var milestones: [DashboardSource: [Int: GitHubMilestone]] = [:]
    for repository in dashboard.repositories
    where items.contains(where: { $0.source == repository.source }) {
      milestones[repository.source] = Dictionary(
        try repository.cache.milestones().map { ($0.number, $0) }
      ) { first, _ in first }
    }
    return items.map { item in
      IssueTable.Row(
        number: (withRepository ? item.source.description : "") + "#\(item.issue.number)"
          + (item.issue.isPullRequest ? " PR" : ""),
        issue: item.issue,
        milestone: item.issue.milestoneNumber.flatMap { milestones[item.source]?[$0]?.title } ?? "")
    }
  }

  /// What `--json` asks for: gh's fields, and whether it asks for the two dashboard ones.
  struct Fields {
    var issue: [IssueJSON.Field]
    var repository: Bool
    var isPullRequest: Bool
  }

  static func fields(_ text: String) throws -> Fields {
    let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let repository = names.contains("repository")
    let isPullRequest = names.contains("isPullRequest")
    let rest = names.filter { $0 != "repository" && $0 != "isPullRequest" }
    let issue =
      rest.isEmpty && (repository || isPullRequest)
      ? [] : try IssueJSON.fields(rest.joined(separator: ","))
    return Fields(issue: issue, repository: repository, isPullRequest: isPullRequest)
  }
}
