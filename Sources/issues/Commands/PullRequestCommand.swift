import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues pr`: pull requests from the cache, as `gh pr` lists and shows them.
struct PullRequestCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pr",
    abstract:
      "List, view, diff, check out, review, merge and comment on pull requests, with gh's flags.",
    subcommands: [
      PullRequestList.self, PullRequestView.self, PullRequestDiffCommand.self,
      PullRequestCheckoutCommand.self, PullRequestMergeCommand.self,
      PullRequestCommentCommand.self, PullRequestReviewCommand.self,
    ])
}

/// What `pr list` and `pr view` share: the cache's milestones and labels for gh's fields, and
/// the details (branches, size, review) of the pull requests a command prints.
enum PullRequestCommands {
  /// The JSON fields that only a pull request's details fill.
  static let detailFields: [PullRequestJSON.Field] = [
    .additions, .deletions, .baseRefName, .headRefName, .mergeable, .reviewRequests,
    .latestReviews, .reviewDecision,
  ]

  /// Fetches through REST the details the cache lacks of the pull requests in `numbers` (at
  /// most ``PullRequestFetcher/fallbackLimit``, the first it lacks first), unless `offline`.
  ///
  /// - Returns: Those still without details: their fields are refused, never printed as 0 or
  ///   an empty string.
  static func ensureDetails(
    _ numbers: [Int], host: GitHubHost, repository: RepositoryName, cache: IssueCache,
    offline: Bool, timeout: Double?
  ) async throws -> [Int] {
    let missing = try cache.pullRequestsWithoutDetails(numbers)
    guard !missing.isEmpty, !offline else { return missing }
    let client = Syncing.client(
      host: host, token: try? TokenDiscovery.token(for: host), timeout: timeout)
    let fetcher = PullRequestFetcher(client: client, cache: cache, repository: repository)
    for number in missing.prefix(PullRequestFetcher.fallbackLimit) {
      guard await fetcher.fetch(number, reviews: nil, lineComments: false) else { break }
    }
    return try cache.pullRequestsWithoutDetails(numbers)
  }

  /// Why fields of some pull requests are refused: their details are not cached.
  static func unknownDetails(_ missing: [Int], offline: Bool) -> CommandFailure {
    let named = missing.prefix(5).map { "#\($0)" }.joined(separator: ", ")
    let more = missing.count > 5 ? " and \(missing.count - 5) more" : ""
    return CommandFailure(
      "The branches, size and review of \(named)\(more) are not cached, and are not printed "
        + "as 0 or empty: "
        + (offline
          ? "run without --offline to fetch them."
          : "GitHub did not give them now; `issues sync` (with a token, through GraphQL) or "
            + "`issues pr view N` fetches them."))
  }

  static func context(_ cache: IssueCache) throws -> IssueJSON.Context {
    IssueJSON.Context(
      milestones: Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a },
      labels: Dictionary(try cache.labels().map { ($0.name, $0) }) { a, _ in a })
  }
}

/// `issues pr list`: the repository's pull requests, filtered as gh filters them.
struct PullRequestList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List pull requests, with gh pr list's flags.",
    discussion: """
      Answered from the cache after a sync (--offline: the cache alone). --search takes GitHub's \
      search syntax (review-requested:@me status:failure review:approved …). To a pipe: gh's \
      columns (number, title, branch, state with DRAFT, created time); --json FIELDS takes gh's \
      fields the cache holds: comments, reviews, reviewThreads and statusCheckRollup fetch each \
      listed pull request's conversation first, files and changedFiles its files (unless \
      --offline), as `pr view` does.
      """)

  @OptionGroup var options: RepositoryOptions

  @Option(name: [.customShort("s"), .long], help: "open, closed, merged or all.")
  var state = "open"

  @Option(
    name: [.customShort("l"), .customLong("label")],
    help: "Only with these labels (comma-separated, or repeated): all of them.")
  var labels: [String] = []

  @Option(name: [.customShort("a"), .long], help: "Only assigned to this login, or @me.")
  var assignee: String?

  @Option(name: [.customShort("A"), .long], help: "Only opened by this login, or @me.")
  var author: String?

  @Option(name: [.customShort("B"), .long], help: "Only into this base branch.")
  var base: String?

  @Option(name: [.customShort("H"), .long], help: "Only from this head branch.")
  var head: String?

  @Flag(name: [.customShort("d"), .long], help: "Only drafts.")
  var draft = false

  @Option(
    name: [.customShort("S"), .long], parsing: .unconditional,
    help: "A search in GitHub's syntax (`issues help search`); newest first unless it sorts.")
  var search: String?

  @Option(name: [.customShort("L"), .long], help: "At most this many (default 30).")
  var limit = 30

  @Option(
    help: ArgumentHelp(
      "Print JSON with these comma-separated fields: "
        + PullRequestJSON.Field.allCases.map(\.rawValue).joined(separator: ", ") + ".",
      valueName: "fields"))
  var json: String?

  @OptionGroup var scripting: ScriptingOptions

  @Flag(name: [.customShort("w"), .long], help: "Open the list on GitHub instead.")
  var web = false

  @Flag(help: "Do not sync: list what the cache holds.")
  var offline = false

  func validate() throws {
    guard ["open", "closed", "merged", "all"].contains(state.lowercased()) else {
      throw ValidationError("--state takes open, closed, merged or all, not “\(state)”.")
    }
    guard limit >= 1 else { throw ValidationError("--limit must be at least 1.") }
    if let json { _ = try PullRequestJSON.fields(json) }
    try scripting.check(json: json)
    for login in [assignee, author].compactMap({ $0 }) where SearchQuery.actorLogin(login) == nil {
      throw ValidationError("“\(ControlCharacters.visible(login))” is not a login or @me.")
    }
    _ = try SearchOption.query(search)
  }

  /// The query the flags make.
  func query() throws -> SearchQuery {
    var query = try SearchOption.query(search) ?? SearchQuery()
    // gh lists the newest first.
    if query.writtenSort == nil { query.writtenSort = QuerySort(.created) }
    query.terms.append(QueryTerm(.kind(.pullRequest)))
    // As in gh, the default `open` gives way to a search asking for closed or merged ones.
    switch state.lowercased() {
    case "open" where query.asksForItemsNotOpen: break
    case "open": query.terms.append(QueryTerm(.state(.open)))
    case "closed": query.terms.append(QueryTerm(.state(.closed)))
    case "merged": query.terms.append(QueryTerm(.merged(true)))
    default: break
    }
    for name in SearchOption.labels(labels) { query.terms.append(QueryTerm(.label(anyOf: [name]))) }
    func actor(_ text: String) -> QueryActor {
      text == SearchQuery.me ? .me : .login(SearchQuery.actorLogin(text) ?? text)
    }
    if let assignee { query.terms.append(QueryTerm(.assignee(actor(assignee)))) }
    if let author { query.terms.append(QueryTerm(.author(actor(author)))) }
    if let base { query.terms.append(QueryTerm(.base(base))) }
    if let head { query.terms.append(QueryTerm(.head(head))) }
    if draft { query.terms.append(QueryTerm(.draft(true))) }
    return query
  }

  func run() async throws {
    let jsonOutput = try scripting.output()
    let (host, repository) = try options.resolve()
    if web {
      print(Desktop.open("https://\(host.name)/\(repository)/pulls"))
      return
    }
    let query = try query()
    let cache = try await Syncing.syncedCache(
      host: host, repository: repository, offline: offline, timeout: options.timeout)
    let me =
      query.mentionsMe
      ? try await MeResolver(host: host, cache: cache, offline: offline, timeout: options.timeout)
        .login(SearchQuery.me) : nil
    let source = DashboardSource(host: host, repository: repository)
    let dashboard = Dashboard(repositories: [.init(source: source, cache: cache, me: me)])
    let entries = try dashboard.entries(query).prefix(limit)
    let pulls = try dashboard.items(entries).map(\.issue)
    let isTerminal = isatty(STDOUT_FILENO) == 1
    var output = StandardOutput()
    let fields = try json.map { try PullRequestJSON.fields($0) }
    // gh's piped columns have the branch; its JSON the fields only details fill.
    let needsDetails =
      fields.map { $0.contains(where: PullRequestCommands.detailFields.contains) }
      ?? !isTerminal
    if needsDetails {
      let missing = try await PullRequestCommands.ensureDetails(
        pulls.map(\.number), host: host, repository: repository, cache: cache, offline: offline,
        timeout: options.timeout)
      if !missing.isEmpty { throw PullRequestCommands.unknownDetails(missing, offline: offline) }
    }
    if let fields {
      let context = try PullRequestCommands.context(cache)
      var json = jsonOutput
      var writer = IssueJSON.ArrayWriter(pretty: json.pretty(toTerminal: isTerminal))
      // Node ids and a bot's shape come with the row's accounts, which the list's rows leave out.
      let needsAccounts = fields.contains { [.id, .author, .assignees].contains($0) }
      let reader = PullRequestConversationReader(
        host: host, repository: repository, cache: cache, offline: offline,
        timeout: options.timeout)
      // Each pull request's conversation and files first: one never read refuses the whole
      // list before any of it is printed, as a field is never printed empty.
      var conversations: [Int: PullRequestJSON.Conversation] = [:]
      for pull in pulls {
        conversations[pull.number] = try await reader.conversation(
          of: pull.number, fields: fields, comments: false)
      }
      for listed in pulls {
        let pull = needsAccounts ? try cache.issue(number: listed.number) ?? listed : listed
        let details = needsDetails ? try cache.pullRequestDetails(number: pull.number) : nil
        json.write(
          writer.element(
            PullRequestJSON.object(
              pull, details: details, fields: fields, context: context,
              conversation: conversations[pull.number])))
      }
      json.write(writer.end())
      try json.finish()
    } else if pulls.isEmpty {
      Terminal.standardError("no pull requests match your search in \(repository)\n")
    } else if isTerminal {
      let milestones = try PullRequestCommands.context(cache).milestones
      let rows = pulls.map { pull in
        IssueTable.Row(
          number: "#\(pull.number)" + (pull.isDraft ? " draft" : ""), issue: pull,
          milestone: pull.milestoneNumber.flatMap { milestones[$0]?.title } ?? "")
      }
      output.write(IssueTable.table(rows, width: Terminal.width(STDOUT_FILENO), now: Date()))
    } else {
      for pull in pulls {
        guard let branch = try cache.pullRequestDetails(number: pull.number)?.headRef else {
          throw PullRequestCommands.unknownDetails([pull.number], offline: offline)
        }
        let state = pull.isDraft && pull.state == .open ? "DRAFT" : PullRequestJSON.state(pull)
        output.write(
          [
            String(pull.number),
            ControlCharacters.visible(
              pull.title.split(whereSeparator: \.isWhitespace).joined(separator: " ")),
            ControlCharacters.visible(branch), state, IssueJSON.timestamp(pull.createdAt),
          ].joined(separator: "\t") + "\n")
      }
    }
    output.flush()
  }
}

/// `issues pr view N`: one pull request, as `gh pr view` prints it.
struct PullRequestView: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "view",
    abstract: "Print a pull request: state, branches, size, review, checks and description.",
    discussion: """
      To a pipe: gh's `key:<tab>value` header (title, state, author, labels, assignees, \
      reviewers, projects, milestone, number, url, additions, deletions), `--`, the body. \
      With --comments, its conversation instead: comments and reviews in order, each review's \
      line comments after it (with `path:` and `line:`), as gh's blocks. --comments and the \
      JSON fields comments, reviews, reviewThreads and statusCheckRollup fetch the \
      conversation first (reviewThreads: each line-comment thread's path, line, whether it is \
      outdated, whether it is resolved — left out while that was never read — and its \
      comments), and \
      files and changedFiles its files as `pr diff` does (unless --offline).
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Option(
    help: ArgumentHelp(
      "Print JSON with these comma-separated fields: "
        + PullRequestJSON.Field.allCases.map(\.rawValue).joined(separator: ", ") + ".",
      valueName: "fields"))
  var json: String?

  @OptionGroup var scripting: ScriptingOptions

  @Flag(name: [.customShort("c"), .long], help: "Print its comments and reviews.")
  var comments = false

  @Flag(name: [.customShort("w"), .long], help: "Open it in the web browser.")
  var web = false

  @Flag(help: "Do not sync: print what the cache holds.")
  var offline = false

  func validate() throws {
    if let json { _ = try PullRequestJSON.fields(json) }
    try scripting.check(json: json)
  }

  func run() async throws {
    let jsonOutput = try scripting.output()
    let number = issue.number
    let (host, repository) = try issue.applied(to: options).resolve()
    if web {
      print(Desktop.open("https://\(host.name)/\(repository)/pull/\(number)"))
      return
    }
    let cache = try await Syncing.syncedCache(
      host: host, repository: repository, offline: offline, timeout: options.timeout)
    guard let pull = try cache.issues(numbers: [number]).first,
      let whole = try cache.issue(number: number)
    else {
      throw CommandFailure(
        "#\(number) is not in the cache of \(repository)"
          + (offline ? " (run without --offline to sync it)." : "."))
    }
    guard pull.isPullRequest else {
      throw CommandFailure("#\(number) is an issue, not a pull request: issues view \(number).")
    }
    let fields = try json.map { try PullRequestJSON.fields($0) }
    let reader = PullRequestConversationReader(
      host: host, repository: repository, cache: cache, offline: offline,
      timeout: options.timeout)
    let conversation = try await reader.conversation(
      of: number, fields: fields, comments: comments)
    let readsConversation = comments || (fields?.contains(where: \.isConversation) ?? false)
    // gh's header has the size and branches; its JSON the fields only details fill.
    if fields.map({ $0.contains(where: PullRequestCommands.detailFields.contains) })
      ?? !readsConversation
    {
      let missing = try await PullRequestCommands.ensureDetails(
        [number], host: host, repository: repository, cache: cache, offline: offline,
        timeout: options.timeout)
      if !missing.isEmpty { throw PullRequestCommands.unknownDetails(missing, offline: offline) }
    }
    // Read again: fetching the conversation may have brought newer details.
    let row = readsConversation ? try cache.issues(numbers: [number]).first ?? pull : pull
    var shown = try cache.issue(number: number) ?? whole
    shown.isDraft = row.isDraft
    shown.mergedAt = row.mergedAt
    shown.reviewDecision = row.reviewDecision
    shown.checks = row.checks
    let details = try cache.pullRequestDetails(number: number)
    let context = try PullRequestCommands.context(cache)
    var output = StandardOutput()
    let isTerminal = isatty(STDOUT_FILENO) == 1
    if let fields {
      var json = jsonOutput
      json.write(
        IssueJSON.single(
          PullRequestJSON.object(
            shown, details: details, fields: fields, context: context,
            conversation: conversation),
          pretty: json.pretty(toTerminal: isTerminal)))
      try json.finish()
    } else if let conversation, readsConversation {
      output.write(
        isTerminal
          ? IssueView.terminal(
            shown, comments: conversation.comments, reviews: conversation.reviews,
            milestones: context.milestones, width: Terminal.width(STDOUT_FILENO), now: Date())
          : IssueView.piped(
            shown, comments: conversation.comments, reviews: conversation.reviews,
            milestones: context.milestones))
    } else {
      output.write(Self.text(shown, details: details, milestones: context.milestones))
    }
    output.flush()
  }

  /// gh's `key:<tab>value` header, `--` and the body.
  static func text(
    _ pull: CachedIssue, details: PullRequestDetails?, milestones: [Int: GitHubMilestone]
  ) -> String {
    let reviewers = details.map { reviewerList(of: pull, $0) } ?? []
    var header: [(String, String)] = [
      ("title", pull.title),
      // gh says an open draft's state is DRAFT (its `prStateWithDraft`), with no line of its own.
      ("state", pull.isDraft && pull.state == .open ? "DRAFT" : PullRequestJSON.state(pull)),
      ("author", IssueView.ghLogin(pull.author)),
      ("labels", pull.labels.joined(separator: ", ")),
      ("assignees", pull.assignees.joined(separator: ", ")),
      ("reviewers", reviewers.joined(separator: ", ")), ("projects", ""),
      ("milestone", pull.milestoneNumber.flatMap { milestones[$0]?.title } ?? ""),
      ("number", String(pull.number)), ("url", pull.htmlURL ?? ""),
      ("additions", String(details?.additions ?? 0)),
      ("deletions", String(details?.deletions ?? 0)),
    ]
    if let details {
      header.append(("base", details.baseRef))
      header.append(("head", details.headRef))
      header.append(("review", pull.reviewDecision?.rawValue ?? ""))
      header.append(("checks", pull.checks?.rawValue ?? ""))
      header.append(("mergeable", details.mergeable.rawValue))
    }
    var text = ""
    for (key, value) in header {
      text +=
        "\(key):\t\(ControlCharacters.visible(value.replacingOccurrences(of: "\n", with: " ")))\n"
    }
    return text + "--\n" + (pull.body ?? "") + "\n"
  }

  /// The `reviewers:` entries as gh's `prReviewerList` makes them: each reviewer once with the
  /// latest verdict (a pending review and the author's own left out), a reviewer asked again
  /// shown as `Requested`; those who reviewed first, then those asked, each by name.
  static func reviewerList(of pull: CachedIssue, _ details: PullRequestDetails) -> [String] {
    var states: [String: String] = [:]
    for review in details.reviews where review.author != pull.author {
      states[review.author.isEmpty ? "ghost" : IssueView.ghLogin(review.author)] = review.state
    }
    for reviewer in details.requestedReviewers { states[reviewer] = "REQUESTED" }
    let shown = states.filter { $0.value != "PENDING" }.sorted { a, b in
      if (a.value == "REQUESTED") != (b.value == "REQUESTED") { return b.value == "REQUESTED" }
      // Go compares strings byte by byte.
      return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
    }
    return shown.map { "\($0.key) (\(reviewName($0.value)))" }
  }

  /// A reviewer's verdict as gh names it; dismissed is `Commented`, as gh tallies it.
  static func reviewName(_ state: String) -> String {
    switch state {
    case "APPROVED": "Approved"
    case "CHANGES_REQUESTED": "Changes requested"
    case "COMMENTED", "DISMISSED": "Commented"
    case "REQUESTED": "Requested"
    default:
      state.prefix(1).uppercased()
        + state.dropFirst().lowercased().replacingOccurrences(of: "_", with: " ")
    }
  }
}
