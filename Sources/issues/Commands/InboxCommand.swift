import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues inbox`: the notifications inbox of every configured host — list it, filter it,
/// triage a thread (read, done, unsubscribe), offline too.
struct InboxCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inbox",
    abstract: "Your GitHub notifications: a screen to read and triage them (printed to a pipe).",
    discussion: """
      The inbox is kept per host beside the caches. Each run sends the triage that waits, then \
      asks GitHub for the inbox only when its poll interval (X-Poll-Interval) has passed, with \
      If-Modified-Since: an inbox that did not change answers 304, which costs no rate limit. \
      The hosts are --hostname's, or those of the dashboard's configuration, or github.com. \
      --json gives each thread's subject's `state` now (OPEN, CLOSED, MERGED) from its \
      repository's cache, `null` when that is not cached. \
      To a pipe: one line per thread, `host<tab>id<tab>repository<tab>number<tab>type<tab>\
      reason<tab>unread<tab>updated<tab>title`, unread first. Triage (`issues inbox read ID`, \
      `done ID`, `unsubscribe ID`) shows at once and is sent once; offline it waits and is \
      sent by the next run that can reach GitHub. GitHub answers notifications to a classic \
      token only, with the notifications or repo scope: a fine-grained token is refused.
      """,
    subcommands: [List.self, Read.self, Done.self, Unsubscribe.self],
    defaultSubcommand: List.self)

  /// Where the hosts come from, and how GitHub is reached.
  struct HostOptions: ParsableArguments {
    @Option(help: "One host: github.com or an Enterprise host (default: the configured ones).")
    var hostname: String?

    @Option(help: "The API root instead of the host's (a proxy, or a local test server).")
    var apiURL: String?

    @Option(help: "The dashboard configuration naming the hosts (default: the XDG one).")
    var config: String?

    @Option(help: "Seconds to wait for GitHub before giving up.")
    var timeout: Double?

    /// The hosts whose inbox is read.
    func hosts() throws -> [GitHubHost] {
      if hostname != nil || apiURL != nil {
        var host = try RepositoryOptions.host(named: hostname ?? "github.com")
        if let apiURL {
          host = GitHubHost(
            name: host.name, apiBaseURL: try RepositoryOptions.apiRoot(apiURL),
            isEnterprise: host.isEnterprise)
        }
        return [host]
      }
      let url = config.map { URL(fileURLWithPath: $0) } ?? DashboardConfig.defaultURL()
      if config != nil || FileManager.default.fileExists(atPath: url.path) {
        do {
          var hosts: [GitHubHost] = []
          let dashboard = try DashboardConfig.configured(in: ConfigFile(contentsOf: url))
          for source in dashboard?.repositories ?? []
          where !hosts.contains(where: { $0.name == source.host.name }) {
            hosts.append(source.host)
          }
          if !hosts.isEmpty { return hosts }
        } catch {
          throw CommandFailure(error.description)
        }
      }
      return [.github]
    }

    /// A host's inbox and the sync that keeps it.
    func inbox(_ host: GitHubHost) throws -> InboxSync {
      let store: InboxStore
      do {
        store = try InboxStore(path: InboxStore.defaultURL(host: host).path)
      } catch {
        throw CommandFailure("Could not open the inbox of \(host.name): \(error)")
      }
      let token = try TokenDiscovery.token(for: host)
      return InboxSync(
        client: Syncing.client(host: host, token: token, timeout: timeout), store: store)
    }
  }

  /// `issues inbox list`.
  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the inbox (the default).")

    @OptionGroup var hosts: HostOptions

    @Option(help: "Only threads for this reason: review_requested, mention, assign, …")
    var reason: String?

    @Option(
      name: [.customShort("R"), .long], help: "Only threads of this repository (OWNER/REPO).")
    var repo: String?

    @OptionGroup var screen: ScreenFlags

    @Flag(help: "Do not ask GitHub: list what the inbox holds.")
    var offline = false

    @Flag(help: "Ask GitHub now, even before its poll interval has passed.")
    var refresh = false

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Print the list even in a terminal (instead of the inbox screen).")
    var print = false

    func run() async throws {
      if !json, !print, isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 {
        try await showScreen()
        return
      }
      let repository = try repo.map { text -> RepositoryName in
        guard let name = RepositoryName(text) else {
          throw CommandFailure("“\(ControlCharacters.visible(text))” is not OWNER/REPO.")
        }
        return name
      }
      var rows: [(GitHubHost, InboxThread)] = []
      for host in try hosts.hosts() {
        let sync = try hosts.inbox(host)
        if !offline {
          let outcome = await sync.run(force: refresh)
          if let stopped = outcome.stopped {
            Terminal.standardError(
              ControlCharacters.visible(
                "warning: \(host.name): \(stopped.summary()). Showing the inbox as kept.")
                + "\n")
          }
        }
        rows += try sync.store.threads(reason: reason, repository: repository).map { (host, $0) }
      }
      rows.sort {
        ($0.1.notification.unread ? 0 : 1, $1.1.notification.updatedAt)
          < ($1.1.notification.unread ? 0 : 1, $0.1.notification.updatedAt)
      }
      var output = StandardOutput()
      if json {
        var writer = IssueJSON.ArrayWriter(pretty: isatty(STDOUT_FILENO) == 1)
        // The subjects' state now, from the caches of the repositories that have one.
        var caches: [String: IssueCache?] = [:]
        func state(_ host: GitHubHost, _ n: GitHubNotification) -> IssueJSON.Value {
          guard let number = n.number else { return .null }
          let url = IssueCache.defaultURL(for: n.repository, host: host)
          if caches[url.path] == nil {
            caches[url.path] =
              FileManager.default.fileExists(atPath: url.path)
              ? try? IssueCache(path: url.path) : nil
          }
          guard let cache = caches[url.path] ?? nil,
            let issue = try? cache.issues(numbers: [number]).first
          else { return .null }
          return .string(
            issue.state == .open ? "OPEN" : issue.mergedAt != nil ? "MERGED" : "CLOSED")
        }
        for (host, thread) in rows {
          let n = thread.notification
          output.write(
            writer.element(
              .object(
                IssueJSON.Object([
                  ("host", .string(host.name)), ("id", .string(n.id)),
                  ("number", n.number.map { .int($0) } ?? .null),
                  ("pending", thread.pendingTriage.map { .string($0.rawValue) } ?? .null),
                  ("reason", .string(n.reason)), ("repository", .string(n.repository.description)),
                  ("state", state(host, n)),
                  ("title", .string(n.title)), ("type", .string(n.subjectType)),
                  ("unread", .bool(n.unread)),
                  ("updatedAt", .string(IssueJSON.timestamp(n.updatedAt))),
                ]))))
        }
        output.write(writer.end())
      } else if rows.isEmpty {
        Terminal.standardError("Inbox zero.\n")
      } else {
        for (host, thread) in rows {
          let n = thread.notification
          output.write(
            [
              host.name, n.id, n.repository.description, n.number.map(String.init) ?? "",
              n.subjectType, n.reason, n.unread ? "unread" : "read",
              IssueJSON.timestamp(n.updatedAt), n.title,
            ].map { ControlCharacters.visible($0.replacingOccurrences(of: "\t", with: " ")) }
              .joined(separator: "\t") + "\n")
        }
      }
      output.flush()
    }

    /// The inbox screen, until the person leaves it; a thread read from it opens its
    /// repository's browser on the issue, and leaving the reader comes back.
    @MainActor
    func showScreen() async throws {
      let syncs = try hosts.hosts().map { try hosts.inbox($0) }
      let network: BrowserHost.Network = offline ? .offline : .github(timeout: hosts.timeout)
      let options = try screen.options(configPath: hosts.config)
      var session = try Terminal.takeSession()
      let host = InboxHost(
        inboxes: syncs, network: network, size: session.size, options: options)
      while true {
        switch await host.run(in: session) {
        case .quit: return
        case .interrupted: throw ExitCode(130)
        case .read(let server, let repository, let number):
          let cache: IssueCache
          do {
            cache = try Terminal.openCache(
              at: IssueCache.defaultURL(for: repository, host: server))
          } catch {
            session = try Terminal.takeSession()
            host.browser.show(message: "\(error)")
            continue
          }
          if !offline, try cache.issue(number: number) == nil {
            // Not cached yet: fetched, so that the reader has it.
            let client = Syncing.client(
              host: server, token: try TokenDiscovery.token(for: server), timeout: hosts.timeout)
            if let issue = try? await client.issue(number, of: repository) {
              try? cache.confirm(issue)
            }
          }
          let reading = try Terminal.takeSession()
          let ending = await BrowserHost(
            cache: cache, repository: repository, host: server, network: network,
            session: reading,
            syncStatus: .cached(lastSynced: try? cache.lastSyncedAt()), reading: number,
            options: options
          ).run()
          if ending == .interrupted { throw ExitCode(130) }
          session = try Terminal.takeSession()
        }
      }
    }
  }

  /// Triages one thread: queued, shown at once, sent now when GitHub can be reached.
  static func triage(_ kind: GitHubClient.Triage, id: String, hosts: HostOptions) async throws {
    for host in try hosts.hosts() {
      let sync = try hosts.inbox(host)
      guard try sync.store.threads().contains(where: { $0.id == id }) else { continue }
      let done =
        switch kind {
        case .read: "Marked \(id) read"
        case .done: "Marked \(id) done"
        case .unsubscribe: "Unsubscribed from \(id)"
        }
      switch try await sync.triageNow(kind, thread: id) {
      case .landed:
        print("\(done).")
      case .refused(let reason):
        throw CommandFailure(
          ControlCharacters.visible("Not \(done.lowercased()): \(reason). Nothing is queued."))
      case .queued(let stopped):
        Terminal.standardError(
          ControlCharacters.visible(
            "Queued: \(done.lowercased()) — \(stopped?.summary() ?? "GitHub could not be reached")"
              + ". Shown now; sent, once, by the next run that reaches GitHub.") + "\n")
      }
      return
    }
    throw CommandFailure("No thread \(ControlCharacters.visible(id)) in the inbox: list it first.")
  }

  /// `issues inbox read ID`.
  struct Read: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "read", abstract: "Mark a thread read.")
    @Argument(help: "The thread's id, as the inbox lists it.") var id: String
    @OptionGroup var hosts: HostOptions
    func run() async throws { try await InboxCommand.triage(.read, id: id, hosts: hosts) }
  }

  /// `issues inbox done ID`.
  struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "done", abstract: "Mark a thread done: it leaves the inbox.")
    @Argument(help: "The thread's id, as the inbox lists it.") var id: String
    @OptionGroup var hosts: HostOptions
    func run() async throws { try await InboxCommand.triage(.done, id: id, hosts: hosts) }
  }

  /// `issues inbox unsubscribe ID`.
  struct Unsubscribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unsubscribe", abstract: "Unsubscribe from a thread: it leaves the inbox.")
    @Argument(help: "The thread's id, as the inbox lists it.") var id: String
    @OptionGroup var hosts: HostOptions
    func run() async throws { try await InboxCommand.triage(.unsubscribe, id: id, hosts: hosts) }
  }
}
