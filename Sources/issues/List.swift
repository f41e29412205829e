import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser

/// `issues list OWNER/REPO`: prints issues as a table, tab-separated values, or JSON.
struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print a repository's issues.",
    discussion: """
      Syncs the cache first (only what changed since the last sync), then prints from it; with \
      --offline, prints what the cache holds. To a terminal, prints a table sized to it; to a \
      pipe, tab-separated values as gh does.
      """)

  enum State: String, ExpressibleByArgument, CaseIterable {
    case open, closed, all
  }

  enum Sort: String, ExpressibleByArgument, CaseIterable {
    case updated, created, comments
  }

  @OptionGroup var options: RepositoryOptions

  @Option(help: "Only this milestone (by title), or `none` for issues without one.")
  var milestone: String?

  @Option(help: "Which issues, by state.")
  var state: State = .open

  @Option(help: "Only issues with this label.")
  var label: String?

  @Option(help: "Only issues whose title or body matches these words.")
  var search: String?

  @Option(help: "The order: most recently updated, newest, or most commented first.")
  var sort: Sort = .updated

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
        _ = try await Syncing.run(
          host: host, repository: repository, cache: cache, full: false, progress: { _ in })
      } catch {
        let count = (try? cache.syncState().itemCount) ?? 0
        guard count > 0 else { throw Terminal.failure(error, repository: repository) }
        Terminal.standardError(
          "warning: \(Terminal.failure(error, repository: repository)) Showing the cache.\n")
      }
    }
    let milestones = Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    var filter = IssueFilter(
      state: state.issueState, kind: pullRequests ? .both : .issues, label: label,
      text: search, sort: sort.issueSort, limit: limit)
    if let milestone {
      if milestone.lowercased() == "none" {
        filter.milestone = .none
      } else if let match = milestones.values.first(where: {
        $0.title.caseInsensitiveCompare(milestone) == .orderedSame
      }) {
        filter.milestone = .number(match.number)
      } else {
        let known = milestones.values.map(\.title).sorted().joined(separator: ", ")
        throw ValidationError(
          "No milestone “\(milestone)” in \(repository). Known: \(known.isEmpty ? "none" : known).")
      }
    }
    let issues = try cache.issues(filter)
    if json {
      print(try IssueTable.json(issues, milestones: milestones), terminator: "")
    } else if isatty(STDOUT_FILENO) == 1 {
      if issues.isEmpty {
        Terminal.standardError("No issues match in \(repository).\n")
      } else {
        print(
          IssueTable.table(
            issues, milestones: milestones, width: Terminal.width(STDOUT_FILENO), now: Date()),
          terminator: "")
      }
    } else {
      print(IssueTable.tabSeparated(issues, milestones: milestones), terminator: "")
    }
  }
}

extension List.State {
  var issueState: IssueFilter.State {
    switch self {
    case .open: .open
    case .closed: .closed
    case .all: .all
    }
  }
}

extension List.Sort {
  var issueSort: IssueFilter.Sort {
    switch self {
    case .updated: .updated
    case .created: .created
    case .comments: .comments
    }
  }
}
