import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues list [OWNER/REPO]`: prints issues as a table, tab-separated values, or JSON — with
/// gh's flags, so that a script written for `gh issue list` runs against it.
struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "Print a repository's issues.",
    discussion: """
      Syncs the cache first (only what changed since the last sync), then prints from it; with \
      --offline, prints what the cache holds. The flags are gh's: to a terminal it prints a \
      table sized to it; to a pipe, gh's tab-separated columns (number, state, title, labels, \
      updated); with --json FIELDS, gh's fields and shapes. @me is the token's account, asked \
      of GitHub once and remembered.
      """)

  @OptionGroup var options: RepositoryOptions

  @Option(
    name: [.customShort("m"), .long],
    help: "Only this milestone (by title or number), `none` for issues without one, `*` for any.")
  var milestone: String?

  @Option(name: [.customShort("s"), .long], help: "Which issues, by state.")
  var state: IssueStateFilter = .open

  @Option(
    name: [.customShort("l"), .customLong("label")],
    help: "Only issues with these labels (comma-separated, or repeated): all of them.")
  var labels: [String] = []

  @Option(name: [.customShort("a"), .long], help: "Only issues assigned to this login, or @me.")
  var assignee: String?

  @Option(name: [.customShort("A"), .long], help: "Only issues opened by this login, or @me.")
  var author: String?

  @Option(
    help:
      "Only issues whose body or a cached comment mentions this login, or @me (comments are cached by 'sync --comments')."
  )
  var mention: String?

  @Option(
    name: [.customShort("S"), .long], parsing: .unconditional,
    help: "Only issues this search selects (words and qualifiers: `issues help search`).")
  var search: String?

  @Option(help: "The order: newest (gh's default), most recently updated, or most commented first.")
  var sort: IssueSort = .created

  @Option(name: [.customShort("L"), .long], help: "At most this many issues.")
  var limit: Int = 30

  @Flag(name: .customLong("pull-requests"), help: "Include pull requests.")
  var pullRequests = false

  @Option(
    help: ArgumentHelp(
      "Print JSON with these comma-separated fields: "
        + IssueJSON.Field.listed.map(\.rawValue).joined(separator: ", ") + ".",
      valueName: "fields"))
  var json: String?

  @OptionGroup var scripting: ScriptingOptions

  @Flag(help: "Open the same list on GitHub in the web browser instead of printing it.")
  var web = false

  @Flag(help: "Do not sync: print what the cache holds.")
  var offline = false

  func validate() throws {
    guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    for (flag, login) in [("--assignee", assignee), ("--author", author), ("--mention", mention)] {
      if let login, SearchQuery.actorLogin(login) == nil {
        throw ValidationError(
          "\(flag) takes a login (letters, digits and hyphens), a bot's (NAME[bot] or app/NAME) "
            + "or @me, not “\(ControlCharacters.visible(login))”.")
      }
    }
    if let json { _ = try IssueJSON.fields(json) }
    try scripting.check(json: json)
    _ = try SearchOption.query(search)
  }

  /// The labels of the `-l` flags, each split at its commas as gh splits them.
  var label: [String] { SearchOption.labels(labels) }

  func run() async throws {
    // The jq program is compiled before anything is read, so that a typo costs nothing.
    let jsonOutput = try scripting.output()
    let (host, repository) = try options.resolve()
    if web {
      print(Desktop.open(webURL(host: host, repository: repository)))
      return
    }
    let cache = try await Syncing.syncedCache(
      host: host, repository: repository, offline: offline, timeout: options.timeout)
    let milestones = Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    // The search is the whole language (`assignee:@me label:bug -label:wontfix crash`); its
    // terms and the flags must all hold, as in gh, which sends both to GitHub's search.
    let query = try SearchOption.query(search) ?? SearchQuery()
    var filter = IssueFilter(
      state: Self.state(state, for: query), kind: pullRequests ? .both : .issues, labels: label,
      sort: sort, limit: limit)
    if let milestone {
      filter.milestone = try Self.milestoneFilter(
        milestone, milestones: Array(milestones.values), repository: repository)
    }
    let me = MeResolver(host: host, cache: cache, offline: offline, timeout: options.timeout)
    filter.assignee = try await me.login(assignee.flatMap(SearchQuery.actorLogin))
    filter.author = try await me.login(author.flatMap(SearchQuery.actorLogin))
    filter.mention = try await me.login(mention.flatMap(SearchQuery.actorLogin))
    let login = query.mentionsMe ? try await me.login(SearchQuery.me) : nil
    if let narrowed = query.applied(to: filter, me: login) { filter = narrowed }
    let knownLabels = try cache.labels()
    for label in label
    where !knownLabels.contains(where: { $0.name.caseInsensitiveCompare(label) == .orderedSame }) {
      Terminal.standardError(
        "note: no label “\(ControlCharacters.visible(label))” in \(repository)'s cache.\n")
    }
    let isTerminal = isatty(STDOUT_FILENO) == 1
    if let json {
      let fields = try IssueJSON.fields(json)
      let context = IssueJSON.Context(
        milestones: milestones,
        labels: Dictionary(knownLabels.map { ($0.name, $0) }) { first, _ in first })
      // Streamed, one issue at a time: memory stays flat however long the list is.
      var output = jsonOutput
      var writer = IssueJSON.ArrayWriter(pretty: output.pretty(toTerminal: isTerminal))
      try cache.forEachIssue(filter, withBody: fields.contains(.body)) { issue in
        output.write(writer.element(IssueJSON.object(issue, fields: fields, context: context)))
      }
      output.write(writer.end())
      try output.finish()
      return
    }
    if !isTerminal {
      var output = StandardOutput()
      var count = 0
      try cache.forEachIssue(filter) { issue in
        count += 1
        output.write(IssueTable.tabSeparatedLine(issue))
      }
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

  /// The milestone a `--milestone` value names: `none`, `*`, a title (in any case) or a number.
  static func milestoneFilter(
    _ text: String, milestones: [GitHubMilestone], repository: RepositoryName
  ) throws -> MilestoneFilter {
    if text.lowercased() == "none" { return .withoutMilestone }
    if text == "*" { return .withMilestone }
    if let match = milestones.first(where: { $0.title.caseInsensitiveCompare(text) == .orderedSame }
    ) {
      return .number(match.number)
    }
    if let number = Int(text), milestones.contains(where: { $0.number == number }) {
      return .number(number)
    }
    let known = milestones.map(\.title).sorted().joined(separator: ", ")
    throw CommandFailure(
      "No milestone “\(ControlCharacters.visible(text))” in \(repository). "
        + "Known: \(known.isEmpty ? "none" : known).")
  }

  /// The state the list keeps: `--state` as given, except that its `open` (the default) gives
  /// way to a search asking for closed or merged items, as in gh.
  static func state(_ state: IssueStateFilter, for query: SearchQuery) -> IssueStateFilter {
    state == .open && query.asksForItemsNotOpen ? .all : state
  }

  /// The list on GitHub's web: the repository's issues page with the same filters as a search.
  func webURL(host: GitHubHost, repository: RepositoryName) -> String {
    let search = (try? SearchOption.query(self.search)) ?? nil
    let shown = search.map { Self.state(state, for: $0) } ?? state
    var terms = [pullRequests ? nil : "is:issue", shown == .all ? nil : "is:\(shown.rawValue)"]
      .compactMap { $0 }
    func quoted(_ text: String) -> String {
      text.contains(where: \.isWhitespace) ? "\"\(text)\"" : text
    }
    for label in label { terms.append("label:\(quoted(label))") }
    if let assignee { terms.append("assignee:\(assignee)") }
    if let author { terms.append("author:\(author)") }
    if let mention { terms.append("mentions:\(mention)") }
    if let milestone {
      switch milestone {
      case "none": terms.append("no:milestone")
      case "*": terms.append("milestone:*")
      default: terms.append("milestone:\(quoted(milestone))")
      }
    }
    if let search = self.search { terms.append(search) }
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: "&=+#")
    let query = terms.joined(separator: " ").addingPercentEncoding(withAllowedCharacters: allowed)
    return "https://\(host.name)/\(repository.owner)/\(repository.name)/issues?q=\(query ?? "")"
  }

  /// What an empty result says on standard error: no match, or nothing cached at all.
  static func nothingMatches(_ repository: RepositoryName, cache: IssueCache) -> String {
    let count = (try? cache.syncState().itemCount) ?? 0
    return count == 0
      ? "The cache of \(repository) is empty: run `issues sync \(repository)` first.\n"
      : "No issues match in \(repository).\n"
  }
}

// The filters' own names are the options' values: `--state closed`, `--sort comments`; in
// any case, as gh takes them (`-s CLOSED`).
extension IssueStateFilter: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(rawValue: argument.lowercased())
  }
}
extension IssueSort: ExpressibleByArgument {}
