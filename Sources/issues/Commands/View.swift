import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues view NUMBER`: one issue and its conversation, as `gh issue view` prints it.
struct View: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "view",
    abstract: "Print an issue, and with --comments its conversation.",
    discussion: """
      Fetches the issue and (unless the cached ones are current) its comments, then prints from \
      the cache; with --offline, prints what the cache holds. To a pipe it prints gh's \
      `key:<tab>value` header, `--`, then the body; --json FIELDS takes gh's fields, \
      comments included.
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Flag(name: [.customShort("c"), .long], help: "Print the comments too.")
  var comments = false

  @Option(
    help: ArgumentHelp(
      "Print JSON with these comma-separated fields: "
        + IssueJSON.Field.allCases.map(\.rawValue).joined(separator: ", ") + ".",
      valueName: "fields"))
  var json: String?

  @OptionGroup var scripting: ScriptingOptions

  @Flag(name: [.customShort("w"), .long], help: "Open the issue in the web browser.")
  var web = false

  @Flag(help: "Do not fetch: print what the cache holds.")
  var offline = false

  func validate() throws {
    if let json { _ = try IssueJSON.fields(json, allowingComments: true) }
    try scripting.check(json: json)
  }

  func run() async throws {
    let jsonOutput = try scripting.output()
    let number = issue.number
    let (host, repository) = try issue.applied(to: options).resolve()
    if web {
      print(Desktop.open("https://\(host.name)/\(repository)/issues/\(number)"))
      return
    }
    let cache = try Terminal.openCache(at: IssueCache.defaultURL(for: repository, host: host))
    // A comment listing that could not prove it saw everything: shown, then exit 1.
    var incomplete: GitHubError?
    if !offline {
      var client: GitHubClient?
      do {
        let token = try TokenDiscovery.token(for: host)
        let made = Syncing.client(host: host, token: token, timeout: options.timeout)
        client = made
        await MeResolver.remember(token: token, client: made, cache: cache)
        let fetcher = ConversationFetcher(client: made, cache: cache, repository: repository)
        if case .listed(let count, let complete, let announced, let skippedEvents) =
          try await fetcher.fetch(number)
        {
          if !complete {
            incomplete = GitHubError(
              .incompleteListing, url: "comments of \(repository)#\(number)",
              detail: "it listed \(count) comments where the issue announces \(announced)")
          }
          if skippedEvents > 0 {
            Terminal.standardError(
              "warning: \(skippedEvents) timeline events of #\(number) could not be read and are "
                + "left out.\n")
          }
        }
      } catch {
        guard try cache.issue(number: number) != nil else {
          // The issue's 404 while the repository itself answers: said of the issue, as gh
          // says it, not blamed on the repository.
          if error.code == .notFound, error.url.hasSuffix("/issues/\(number)"), let client,
            (try? await client.repository(repository)) != nil
          {
            throw CommandFailure(
              "Could not resolve to an issue or pull request with the number of \(number) in "
                + "\(repository).")
          }
          throw Terminal.failure(error, repository: repository)
        }
        Terminal.standardError(
          "warning: \(Terminal.failure(error, repository: repository)) Showing the cache.\n")
      }
    }
    guard let issue = try cache.issue(number: number) else {
      throw CommandFailure(
        "#\(number) is not in the cache of \(repository)"
          + (offline ? ": run without --offline to fetch it." : "."))
    }
    let milestones = Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    let labels = Dictionary(try cache.labels().map { ($0.name, $0) }) { first, _ in first }
    let conversation = try cache.comments(of: number)
    let reviews = issue.isPullRequest ? try cache.reviews(of: number) : []
    let isTerminal = isatty(STDOUT_FILENO) == 1
    var output = StandardOutput()
    if let json {
      let fields = try IssueJSON.fields(json, allowingComments: true)
      var object = IssueJSON.object(
        issue, fields: fields.filter { $0 != .comments },
        context: IssueJSON.Context(milestones: milestones, labels: labels))
      if fields.contains(.comments), case .object(var members) = object {
        // The login behind the token, when a sync has asked GitHub for it.
        let viewer = try await MeResolver.viewer(
          host: host, cache: cache, offline: offline, timeout: options.timeout)
        members["comments"] = .array(conversation.map { IssueJSON.comment($0, viewer: viewer) })
        object = .object(members.sortedByKey())
      }
      var json = jsonOutput
      json.write(IssueJSON.single(object, pretty: json.pretty(toTerminal: isTerminal)))
      try json.finish()
    } else if isTerminal {
      output.write(
        IssueView.terminal(
          issue, comments: self.comments ? conversation : nil, reviews: reviews,
          milestones: milestones,
          width: Terminal.width(STDOUT_FILENO), now: Date()))
    } else {
      output.write(
        IssueView.piped(
          issue, comments: self.comments ? conversation : nil, reviews: reviews,
          milestones: milestones))
    }
    output.flush()
    if let incomplete {
      throw CommandFailure(Terminal.incompleteSentence(incomplete, repository: repository))
    }
  }
}
