import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues list OWNER/REPO`: prints issues as a table, tab-separated values, or JSON.
struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print a repository's issues.",
    discussion: """
      Syncs the cache first (only what changed since the last sync), then prints from it; with \
      --offline, prints what the cache holds. To a terminal, prints a table sized to it; to a \
      pipe, tab-separated values as gh does.
      """)

  @OptionGroup var options: RepositoryOptions

  @Option(help: "Only this milestone (by title), `none` for issues without one, `*` for any.")
  var milestone: String?

  @Option(help: "Which issues, by state.")
  var state: IssueStateFilter = .open

  @Option(help: "Only issues with this label.")
  var label: String?

  @Option(help: "Only issues whose title or body matches these words.")
  var search: String?

  @Option(help: "The order: most recently updated, newest, or most commented first.")
  var sort: IssueSort = .updated

  @Option(help: "At most this many issues.")
  var limit: Int = 30

  @Flag(name: .customLong("pull-requests"), help: "Include pull requests.")
  var pullRequests = false

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Do not sync: print what the cache holds.")
  var offline = false

  func validate() throws {
    guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
  }

  func run() async throws {
    let (host, repository) = try options.resolve()
    let path = IssueCache.defaultURL(for: repository, host: host)
    let cache = try Terminal.openCache(at: path)
    if !offline {
      do {
        let summary = try await Syncing.run(
          host: host, repository: repository, cache: cache, full: false, timeout: options.timeout,
          progress: { _ in },
          waiting: { Terminal.standardError("note: \(Syncing.waitingNote($0))\n") })
        Syncing.warn(summary, repository: repository)
      } catch {
        let count = (try? cache.syncState().itemCount) ?? 0
        guard count > 0 else { throw Terminal.failure(error, repository: repository) }
        Terminal.standardError(
          "warning: \(Terminal.failure(error, repository: repository)) Showing the cache.\n")
      }
    }
    let milestones = Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    var filter = IssueFilter(
      state: state, kind: pullRequests ? .both : .issues, label: label,
      text: search, sort: sort, limit: limit)
    if let milestone {
      if milestone.lowercased() == "none" {
        filter.milestone = .withoutMilestone
      } else if milestone == "*" {
        filter.milestone = .withMilestone
      } else if let match = milestones.values.first(where: {
        $0.title.caseInsensitiveCompare(milestone) == .orderedSame
      }) {
        filter.milestone = .number(match.number)
      } else {
        let known = milestones.values.map(\.title).sorted().joined(separator: ", ")
        throw CommandFailure(
          "No milestone “\(milestone)” in \(repository). Known: \(known.isEmpty ? "none" : known).")
      }
    }
    if let label,
      try !cache.labels().contains(where: { $0.name.caseInsensitiveCompare(label) == .orderedSame })
    {
      Terminal.standardError(
        "note: no label “\(ControlCharacters.visible(label))” in \(repository)'s cache.\n")
    }
    if json || isatty(STDOUT_FILENO) != 1 {
      // Streamed, one issue at a time: memory stays flat however long the list is.
      var output = StandardOutput()
      var writer = IssueTable.JSONArrayWriter()
      let iso = ISO8601DateFormatter()
      var count = 0
      try cache.forEachIssue(filter) { issue in
        count += 1
        output.write(
          json
            ? try writer.element(issue, milestones: milestones)
            : IssueTable.tabSeparatedLine(issue, milestones: milestones, iso: iso))
      }
      if json { output.write(writer.end()) }
      output.flush()
      if count == 0 { Terminal.standardError(Self.nothingMatches(repository, cache: cache)) }
      return
    }
    let issues = try cache.issues(filter)
    if issues.isEmpty {
      Terminal.standardError(Self.nothingMatches(repository, cache: cache))
    } else {
      print(
        IssueTable.table(
          issues, milestones: milestones, width: Terminal.width(STDOUT_FILENO), now: Date()),
        terminator: "")
    }
  }

  /// What an empty result says on standard error: no match, or nothing cached at all.
  static func nothingMatches(_ repository: RepositoryName, cache: IssueCache) -> String {
    let count = (try? cache.syncState().itemCount) ?? 0
    return count == 0
      ? "The cache of \(repository) is empty: run `issues sync \(repository)` first.\n"
      : "No issues match in \(repository).\n"
  }
}

// The filters' own names are the options' values: `--state closed`, `--sort comments`.
extension IssueStateFilter: ExpressibleByArgument {}
extension IssueSort: ExpressibleByArgument {}
