import Foundation
import GitHubIssues
import TrellisTerminal

/// The inbox in a terminal: the event loop, each host's inbox kept current as GitHub asks (a
/// poll when its interval has passed, `304` when nothing changed), triage sent as it is taken.
///
/// Like the dashboard it outlives a terminal session: Enter leaves for the thread's repository
/// browser, and ``run(in:)`` is called again on the way back.
@MainActor
package final class InboxHost: ScreenDriver {
  /// How a session ended.
  package enum Ending: Sendable, Equatable {
    /// `q`.
    case quit
    /// Ctrl-C.
    case interrupted
    /// Enter: read an issue or pull request of a host's repository, then come back.
    case read(GitHubHost, RepositoryName, Int)
  }

  enum Message: Sendable {
    case synced(Int, InboxSync.Outcome)
    /// Something to say on the status line (a background command ended).
    case said(String)
  }

  /// The screen.
  package let browser: InboxBrowser
  var screen: InboxBrowser { browser }
  let options: ScreenOptions
  let syncs: [InboxSync]?
  let network: BrowserHost.Network
  /// The runs under way, by host.
  var running: Set<Int> = []
  /// When each host's next poll is due.
  var due: [Int: Date] = [:]
  var events: AppEvents<Message>?
  /// The session running, while one is.
  var session: TerminalSession?
  /// What each host last said went wrong.
  var problems: [Int: String] = [:]

  /// A host over these inboxes (each with the client that reaches it), polling when `network`
  /// allows.
  package init(
    inboxes: [InboxSync], network: BrowserHost.Network, size: TerminalSize,
    options: ScreenOptions = .fromEnvironment()
  ) {
    self.options = options
    defer { browser.keys = options.config.inboxKeys }
    browser = InboxBrowser(inboxes: inboxes.map { ($0.client.host, $0.store) }, size: size)
    // The subjects' live state, from the caches of the repositories that have one.
    var opened: [String: IssueCache?] = [:]
    browser.subject = { host, repository, number in
      let url = IssueCache.defaultURL(for: repository, host: host)
      if opened[url.path] == nil {
        opened[url.path] =
          FileManager.default.fileExists(atPath: url.path) ? try? IssueCache(path: url.path) : nil
      }
      guard let cache = opened[url.path] ?? nil else { return nil }
      return try? cache.issues(numbers: [number]).first
    }
    self.network = network
    syncs = network.offlineReason == nil ? inboxes : nil
    browser.status = network.offlineReason.map { "offline: \($0)" } ?? "from the inbox"
  }

  /// Runs the inbox until the person leaves it or reads a thread.
  package func run(in session: TerminalSession) async -> Ending {
    let events = AppEvents<Message>(session.events, tick: .milliseconds(100))
    self.events = events
    self.session = session
    browser.reload()
    let ending = await ScreenHost(options: options).run(self, in: session, events: events)
    self.events = nil
    self.session = nil
    session.restore()
    return ending ?? .quit
  }

  func tick() { pollDue(force: false) }

  func receive(_ message: Message) -> Ending? {
    switch message {
    case .synced(let index, let outcome): receive(index, outcome)
    case .said(let text): browser.show(message: text)
    }
    return nil
  }

  func perform(_ effect: InboxEffect) -> Ending? {
    switch effect {
    case .quit: return .quit
    case .interrupted: return .interrupted
    case .read(let host, let repository, let number):
      return .read(browser.inboxes[host].host, repository, number)
    case .sendTriage(let host):
      if syncs == nil {
        browser.show(message: "Queued: sent, once, when GitHub can be reached.")
      } else {
        start(host, force: false)
      }
    case .refresh:
      if let reason = network.offlineReason {
        browser.show(message: "Not asked: \(reason).")
      } else {
        pollDue(force: true)
      }
    case .open(let url): browser.show(message: Desktop.open(url))
    case .run(let run):
      let events = events
      if let said = CommandRunner.start(run, session: session, report: { events?.send(.said($0)) })
      {
        browser.show(message: said)
      }
    }
    return nil
  }

  /// Starts a run for every host whose poll is due (all with `force`).
  func pollDue(force: Bool) {
    guard let syncs else { return }
    let now = Date()
    for index in syncs.indices where force || (due[index] ?? .distantPast) <= now {
      start(index, force: force)
    }
  }

  private func start(_ index: Int, force: Bool) {
    guard let syncs, !running.contains(index), let events else { return }
    running.insert(index)
    // Not due again until this run says when.
    due[index] = .distantFuture
    let sync = syncs[index]
    Task.detached {
      let outcome = await sync.run(force: force)
      events.send(.synced(index, outcome))
    }
  }

  func receive(_ index: Int, _ outcome: InboxSync.Outcome) {
    running.remove(index)
    due[index] =
      outcome.stopped == nil
      ? max(outcome.nextPoll, Date()) : Date().addingTimeInterval(30)
    if let stopped = outcome.stopped {
      problems[index] = "\(browser.inboxes[index].host.name): \(stopped.summary())"
    } else {
      problems[index] = nil
    }
    if outcome.changed || outcome.triaged > 0 { browser.reload() }
    let time = LocalTime.time(Date())
    browser.status =
      problems.isEmpty
      ? "up to date · \(time)" : problems.values.sorted().joined(separator: " · ")
  }
}
