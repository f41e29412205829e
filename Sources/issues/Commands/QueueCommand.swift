import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues queue`: the actions waiting to reach GitHub — list them, send them, cancel one, or
/// send one in conflict anyway.
struct QueueCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "queue",
    abstract: "List the actions waiting to reach GitHub; send, cancel or force them.",
    discussion: """
      An action taken while GitHub cannot be reached (close, reopen, edit, and the browser's \
      keys and comments) waits in the cache's queue, shown at once, and is sent once GitHub \
      can be reached — by the browser, by any sync, or by `issues queue send`. Each is sent \
      exactly once, in order per issue: one whose answer was lost is checked on GitHub before \
      it is sent again. One that conflicts with what GitHub holds now (closed by someone else, \
      a milestone deleted) waits for you: `issues queue force ID` sends it anyway, `issues \
      queue cancel ID` drops it and shows the issue without it. To a pipe: one line per \
      action, `id<tab>issue<tab>status<tab>action<tab>detail`.
      """,
    subcommands: [List.self, Send.self, Cancel.self, Force.self],
    defaultSubcommand: List.self)

  /// The repository's cache, and a replayer when a token is found.
  static func open(_ options: RepositoryOptions) throws -> (
    host: GitHubHost, repository: RepositoryName, cache: IssueCache
  ) {
    let (host, repository) = try options.resolve()
    let cache = try Terminal.openCache(at: IssueCache.defaultURL(for: repository, host: host))
    return (host, repository, cache)
  }

  /// `issues queue list`.
  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the waiting actions (with --all, the finished too).")

    @OptionGroup var options: RepositoryOptions

    @Flag(help: "Also the actions that landed or were cancelled (kept a day).")
    var all = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
      let (_, repository, cache) = try QueueCommand.open(options)
      let actions = try cache.queuedActions(all: all)
      let titles = cache.milestoneTitles()
      var output = StandardOutput()
      if json {
        var writer = IssueJSON.ArrayWriter(pretty: isatty(STDOUT_FILENO) == 1)
        for action in actions {
          output.write(writer.element(QueueCommand.json(action, titles: titles)))
        }
        output.write(writer.end())
      } else if actions.isEmpty {
        Terminal.standardError("Nothing waits to reach GitHub in \(repository).\n")
      } else {
        for action in actions {
          let (status, detail) = QueueCommand.status(action)
          output.write(
            [
              String(action.id), action.issueNumber > 0 ? "#\(action.issueNumber)" : "new", status,
              action.operation.describe(issue: action.issueNumber, milestoneTitles: titles),
              detail,
            ].map { ControlCharacters.visible($0.replacingOccurrences(of: "\t", with: " ")) }
              .joined(separator: "\t") + "\n")
        }
      }
      output.flush()
    }
  }

  /// `issues queue send`.
  struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "send", abstract: "Send the waiting actions now.")

    @OptionGroup var options: RepositoryOptions

    func run() async throws {
      let (host, repository, cache) = try QueueCommand.open(options)
      guard let token = try TokenDiscovery.token(for: host) else {
        throw CommandFailure(
          "Sending the queue needs a token with write access to \(repository): "
            + "\(host.tokenAdvice).")
      }
      let client = Syncing.client(host: host, token: token, timeout: options.timeout)
      let replayer = ActionReplayer(
        client: client, cache: cache, repository: repository,
        viewer: try? cache.viewerLogin(token: token))
      let summary = await replayer.replay()
      var parts = ["Sent \(summary.sent)"]
      if summary.foundLanded > 0 {
        parts.append("\(summary.foundLanded) found on GitHub after a lost answer (not sent again)")
      }
      if summary.alreadyHeld > 0 { parts.append("\(summary.alreadyHeld) already so on GitHub") }
      if summary.conflicts > 0 {
        parts.append("\(summary.conflicts) in conflict (issues queue lists them)")
      }
      print(parts.joined(separator: "; ") + "; \(summary.waiting) waiting.")
      if let stopped = summary.stopped {
        throw CommandFailure(
          "Stopped: \(Terminal.failure(stopped, repository: repository)) "
            + "What is left is sent next time.")
      }
    }
  }

  /// `issues queue cancel ID`.
  struct Cancel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "cancel", abstract: "Cancel a waiting action that was not sent.")

    // Before the options: the first positional argument is the id.
    @Argument(help: "The action's id, as `issues queue` lists it.")
    var id: Int64

    @OptionGroup var options: RepositoryOptions

    func run() async throws {
      let (_, _, cache) = try QueueCommand.open(options)
      let action = try cache.queuedActions(all: true).first { $0.id == id }
      var kept: Draft.Words?
      try QueueCommand.saying { kept = try cache.cancelQueuedAction(id) }
      // What the person wrote is never cancelled with the action: it is a draft again.
      var said = "Cancelled \(id)."
      if let kept, let action {
        let place = kept.whereKept(issue: action.issueNumber)
        said += " " + place.prefix(1).uppercased() + place.dropFirst() + "."
      }
      if case .review(let review)? = action?.operation, !review.comments.isEmpty {
        said +=
          " Its \(review.comments.count) line comment\(review.comments.count == 1 ? " is" : "s are") "
          + "drafted again."
      }
      print(ControlCharacters.visible(said))
    }
  }

  /// `issues queue force ID`.
  struct Force: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "force",
      abstract: "Send an action in conflict anyway (with the next send).")

    // Before the options: the first positional argument is the id.
    @Argument(help: "The action's id, as `issues queue` lists it.")
    var id: Int64

    @OptionGroup var options: RepositoryOptions

    func run() async throws {
      let (_, _, cache) = try QueueCommand.open(options)
      try QueueCommand.saying { try cache.sendAnyway(id) }
      print("\(id) is sent with the next send, its conflict set aside.")
    }
  }

  /// Runs a queue operation, a refusal said as the command's failure.
  static func saying(_ operation: () throws -> Void) throws {
    do {
      try operation()
    } catch let error as QueueError {
      throw CommandFailure("\(error).")
    }
  }

  /// An action's status word and its detail.
  static func status(_ action: QueuedAction) -> (String, String) {
    switch action.status {
    case .pending: ("pending", action.lastError ?? "")
    case .sending(let since):
      (
        "unanswered",
        "sent \(IssueJSON.timestamp(since)) without an answer: checked on GitHub before any "
          + "resend" + (action.lastError.map { " (\($0))" } ?? "")
      )
    case .conflict(let reason): ("conflict", reason)
    case .done(let at): ("landed", IssueJSON.timestamp(at))
    case .cancelled(let at): ("cancelled", IssueJSON.timestamp(at))
    }
  }

  static func json(_ action: QueuedAction, titles: [Int: String]) -> IssueJSON.Value {
    let (status, detail) = status(action)
    return .object(
      IssueJSON.Object([
        (
          "action",
          .string(action.operation.describe(issue: action.issueNumber, milestoneTitles: titles))
        ),
        ("attempts", .int(action.attempts)),
        ("detail", .string(detail)),
        ("id", .int(Int(action.id))),
        ("issue", action.issueNumber > 0 ? .int(action.issueNumber) : .null),
        ("queuedAt", .string(IssueJSON.timestamp(action.queuedAt))),
        ("status", .string(status)),
      ]))
  }
}
