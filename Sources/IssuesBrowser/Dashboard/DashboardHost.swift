import Foundation
import GitHubIssues
import Synchronization
import TrellisTerminal

/// The dashboard in a terminal: the event loop, the caches watched for changes, the scheduler
/// syncing every repository, and the effects the dashboard asks for.
///
/// It outlives a terminal session: reading an item leaves the dashboard's session for the
/// repository's browser, and ``run(in:)`` is called again on the way back, with the tabs, the
/// focus and the sync where they were.
@MainActor
package final class DashboardHost: ScreenDriver {
  /// How a session of the dashboard ended.
  package enum Ending: Sendable, Equatable {
    /// `q`.
    case quit
    /// Ctrl-C.
    case interrupted
    /// Enter on an item: read it in its repository's browser, then come back.
    case read(DashboardSource, Int)
  }

  enum Message: Sendable {
    case sync(DashboardSyncScheduler.Report)
    /// Something to say on the status line (a background command ended).
    case said(String)
  }

  /// The screen.
  package let browser: DashboardBrowser
  var screen: DashboardBrowser { browser }
  let options: ScreenOptions
  /// The session running, while one is.
  var session: TerminalSession?
  let repositories: [(DashboardSource, IssueCache)]
  let network: BrowserHost.Network
  /// Where the messages of work off the loop go: the session running now, or kept for the
  /// next one while an item is being read.
  let relay = MessageRelay()

  /// Hands messages to the loop of the session running, keeping them between sessions.
  final class MessageRelay: Sendable {
    private struct State {
      var events: AppEvents<Message>?
      /// What arrived between sessions, oldest first (the latest 200).
      var kept: [Message] = []
    }
    private let state = Mutex(State())

    func attach(_ events: AppEvents<Message>) {
      state.withLock { state in
        state.events = events
        for message in state.kept { events.send(message) }
        state.kept = []
      }
    }

    func detach() { state.withLock { $0.events = nil } }

    func send(_ message: Message) {
      state.withLock { state in
        if let events = state.events {
          events.send(message)
        } else {
          state.kept.append(message)
          if state.kept.count > 200 { state.kept.removeFirst(state.kept.count - 200) }
        }
      }
    }
  }
  var syncTask: Task<Void, Never>?
  /// Each cache's files as last seen (modification time and size of the database and its
  /// write-ahead log): a change is a commit, by this process or another.
  var seen: [String]
  var lastRefresh = Date.distantPast
  var changedSinceRefresh = false
  var progressBySource: [DashboardSource: String] = [:]
  /// How many sessions ran (the second and later come back from reading an item).
  var sessions = 0

  /// A host for a dashboard over `repositories`, syncing them when `network` allows.
  package init(
    dashboard: Dashboard, sections: [DashboardSection], network: BrowserHost.Network,
    size: TerminalSize, notes: [String], options: ScreenOptions = .fromEnvironment()
  ) {
    self.options = options
    defer { browser.keys = options.config.dashboardKeys }
    repositories = dashboard.repositories.map { ($0.source, $0.cache) }
    browser = DashboardBrowser(dashboard: dashboard, sections: sections, size: size)
    self.network = network
    seen = []
    seen = repositories.map { Self.signature(of: $0.1) }
    if let note = notes.first {
      browser.show(message: note + (notes.count > 1 ? " (and \(notes.count - 1) more)" : ""))
    }
    browser.status = Self.cachedStatus(repositories.count)
  }

  static func cachedStatus(_ count: Int) -> String {
    count == 0 ? "no repository synced yet" : "from the caches"
  }

  /// Runs the dashboard in a session until the person leaves it or opens an item; the session
  /// is restored either way.
  package func run(in session: TerminalSession) async -> Ending {
    let events = AppEvents<Message>(session.events, tick: .milliseconds(100))
    relay.attach(events)
    self.session = session
    sessions += 1
    // Back from reading an item: it may have changed.
    if sessions > 1 { refreshIfChanged(force: true) }
    let ending = await ScreenHost(options: options).run(self, in: session, events: events)
    relay.detach()
    self.session = nil
    if case .read = ending {
      // The scheduler goes on while the item is read; its reports wait for the way back.
    } else {
      // Leaving for good: the scheduler stops (each cache keeps what it committed).
      syncTask?.cancel()
      syncTask = nil
    }
    session.restore()
    return ending ?? .quit
  }

  /// The first session only starts the sync: coming back from reading an item does not sync
  /// everything again (`r` does).
  func started() {
    if sessions == 1 { startSync() }
  }

  func tick() { refreshIfChanged(force: false) }

  func receive(_ message: Message) -> Ending? {
    switch message {
    case .sync(let report): receive(report)
    case .said(let text): browser.show(message: text)
    }
    return nil
  }

  func perform(_ effect: DashboardEffect) -> Ending? {
    switch effect {
    case .quit: return .quit
    case .interrupted: return .interrupted
    case .read(let source, let number): return .read(source, number)
    case .open(let url): browser.show(message: Desktop.open(url))
    case .copy(let text):
      if let done = Desktop.copy(text) {
        browser.show(message: done)
      } else {
        try? session?.write(Desktop.terminalClipboardSequence(text))
        browser.show(message: "Copied \(text) through the terminal (OSC 52)")
      }
    case .refresh:
      if let reason = network.offlineReason {
        browser.show(message: "No sync: \(reason).")
      } else if syncTask != nil {
        browser.show(message: "A sync is already running.")
      } else {
        startSync()
      }
    case .run(let run):
      let relay = relay
      if let said = CommandRunner.start(run, session: session, report: { relay.send(.said($0)) }) {
        browser.show(message: said)
      }
    }
    return nil
  }

  /// Starts the scheduler over every repository; its reports reach the loop of the session
  /// running at the time.
  func startSync() {
    guard case .github(let timeout) = network, !repositories.isEmpty else { return }
    let scheduler = DashboardSyncScheduler(repositories: repositories, timeout: timeout)
    let relay = relay
    progressBySource = [:]
    browser.status = "syncing…"
    syncTask = Task.detached {
      await scheduler.run { report in
        relay.send(.sync(report))
      }
    }
  }

  func receive(_ report: DashboardSyncScheduler.Report) {
    switch report {
    case .progress(let source, let position, let count, let progress):
      browser.status =
        "syncing \(source) (\(position)/\(count)) · \(progress.items) item"
        + (progress.items == 1 ? "" : "s")
    case .turnEnded(let source, .failure(let error)):
      progressBySource[source] = error.summary()
      browser.show(message: "\(source): \(error.summary())")
    case .turnEnded: break
    case .roundFinished(let failures):
      syncTask = nil
      let time = LocalTime.time(Date())
      browser.status =
        failures == 0
        ? "up to date · \(time)"
        : "\(failures) of \(repositories.count) could not sync · \(time)"
      refreshIfChanged(force: true)
    }
  }

  /// Asks every section again when a cache changed, at most twice a second while a sync
  /// commits page after page (the last change is always shown).
  func refreshIfChanged(force: Bool) {
    let now = repositories.map { Self.signature(of: $0.1) }
    if now != seen {
      seen = now
      changedSinceRefresh = true
    }
    guard changedSinceRefresh || force else { return }
    guard force || Date().timeIntervalSince(lastRefresh) >= 0.5 else { return }
    changedSinceRefresh = false
    lastRefresh = Date()
    browser.refresh()
  }

  /// The modification times and sizes of a cache's database and write-ahead log.
  static func signature(of cache: IssueCache) -> String {
    guard let path = cache.path else { return "" }
    return [path, path + "-wal"].map { file -> String in
      var info = stat()
      guard stat(file, &info) == 0 else { return "-" }
      return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_size)"
    }.joined(separator: "|")
  }
}
