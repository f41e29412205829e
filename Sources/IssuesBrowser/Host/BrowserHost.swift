import Foundation
import GitHubIssues
import TrellisTerminal

/// The browser in a terminal: the event loop, the background sync, and one method per effect
/// the browser asks for (open, copy, refresh, act, comment, fetch a conversation, look up `@me`).
///
/// The browser decides; the host does what reaches outside the screen — the network, the
/// clipboard, the editor — off the input path, and hands the answers back as messages on the
/// same loop as the keys, so that a slow GitHub never holds a key press.
@MainActor
package final class BrowserHost: ScreenDriver {
  /// How the host reaches GitHub.
  package enum Network: Sendable {
    /// Not at all (the demo), for this reason, as the keys say it.
    case none(reason: String)
    /// Offline mode: GitHub is not asked; with a token, changes wait in the queue and are sent
    /// by the next session, sync or `issues queue send` that can reach GitHub.
    case offline
    /// Through the host's API, with a token from the usual places.
    case github(timeout: Double?)

    /// Why GitHub is not asked, when it is not.
    package var offlineReason: String? {
      switch self {
      case .none(let reason): reason
      case .offline: "offline mode"
      case .github: nil
      }
    }
  }

  /// How the browser was left.
  package enum Ending: Sendable {
    /// By `q`.
    case quit
    /// By Ctrl-C: the command exits with status 130, as a shell expects of an interrupted program.
    case interrupted
  }

  /// What the work started off the loop reports back to it.
  enum Message: Sendable {
    case progress(SyncProgress)
    case waiting(Int32?)
    case synced(Result<SyncSummary, GitHubError>)
    /// The cache committed a change to the list shown: take it from the follower.
    case listChanged
    case viewer(Result<String, HostFailure>)
    case conversation(Int, Result<Void, HostFailure>)
    /// An action the browser asked for was answered: what to say.
    case acted(Int, Result<String, HostFailure>)
    /// The queue was sent in the background: what to say, if anything.
    case queueSent(String?)
    /// The token was looked for, after the first frame: what was found.
    case token(String?)
    /// Something to say on the status line (a background command ended).
    case said(String)
    /// The repository's templates were read from GitHub; with `opening`, the form waits on them.
    case templatesRead(Result<IssueTemplates, HostFailure>, opening: Bool)
    /// A pull request's diff was read for `d`: shown once read.
    case diffRead(Int, title: String, Result<Void, HostFailure>)
  }

  let browser: IssueBrowser
  var screen: IssueBrowser { browser }
  let session: TerminalSession
  let options: ScreenOptions
  let cache: IssueCache
  let network: Network
  /// The client writes go through: `nil` without a token, or until it is found.
  var writeClient: GitHubClient?
  let drafts: CommentDrafts
  let events: AppEvents<Message>
  let follower: ListFollower
  var syncTask: Task<Void, Never>?
  /// The queue being sent in the background.
  var queueTask: Task<Void, Never>?
  /// When the queue was last sent in the background.
  var lastQueueSend = Date.distantPast
  /// Whether the first frame is on screen: the list follows the cache only then (reading the
  /// whole list again on the writer's connection would compete with the first frame).
  var hasStarted = false
  /// The new-issue form `n` asked for, shown over the browser once the key is handled.
  var formToShow: FormToShow?
  /// The pull request whose diff `d` asked for, shown over the browser after the event.
  var diffToShow: (number: Int, title: String)?
  /// The diff being read before it is shown.
  var diffTask: Task<Void, Never>?
  /// The templates being read from GitHub.
  var templatesTask: Task<Void, Never>?

  /// A host for the browser of a repository's cache, drawing in `session`; with `reading`,
  /// the browser opens on that issue in the reader, and leaving the reader leaves it (the
  /// dashboard opens issues this way).
  package init(
    cache: IssueCache, repository: RepositoryName, host: GitHubHost, network: Network,
    session: TerminalSession, syncStatus: SyncStatus, reading: Int? = nil,
    options: ScreenOptions = .fromEnvironment()
  ) {
    self.cache = cache
    self.session = session
    self.network = network
    browser = IssueBrowser(
      cache: cache, repository: repository, host: host, size: session.size,
      syncStatus: syncStatus)
    self.options = options
    browser.keys = options.config.browserKeys
    writeClient = nil
    // The token is looked for after the first frame (`gh auth token` takes tens of
    // milliseconds): until then a write says so and waits for nothing.
    switch network {
    case .none(let reason): browser.writeAccess = .unavailable(reason: reason)
    case .offline, .github: browser.writeAccess = .lookingForToken
    }
    drafts = CommentDrafts(
      cache: cache, directory: CommentDrafts.defaultDirectory(for: repository, host: host))
    let events = AppEvents<Message>(session.events, tick: .milliseconds(100))
    self.events = events
    follower = ListFollower(cache: cache) { events.send(.listChanged) }
    rememberDrafts()
    if let reading {
      browser.returnsAfterReading = true
      browser.read(number: reading)
    }
  }

  /// Runs the browser until the person leaves it, then gives the terminal back.
  package func run() async -> Ending {
    let ending = await ScreenHost(options: options).run(self, in: session, events: events)
    follower.stop()
    syncTask?.cancel()
    queueTask?.cancel()
    session.restore()
    return ending ?? .quit
  }

  /// After the first frame: the token is looked for, the list follows the cache as syncs
  /// commit page by page, and the sync starts.
  func started() {
    hasStarted = true
    follower.follow(browser.observedFilter)
    switch network {
    case .none: break
    case .offline, .github:
      let (events, host) = (events, browser.host)
      Task.detached {
        events.send(.token((try? TokenDiscovery.token(for: host)) ?? nil))
      }
    }
    startSync()
  }

  func tick() { sendQueueIfDue() }

  func willPresent() {
    if hasStarted { follower.follow(browser.observedFilter) }
  }

  /// Takes what the token lookup found: writes are sent with it, queued with it (offline), or
  /// refused with the advice.
  func tokenFound(_ token: String?) {
    let host = browser.host
    switch network {
    case .none: break
    case .offline:
      browser.writeAccess =
        token == nil ? .needsToken(advice: host.tokenAdvice) : .queued(reason: "offline mode")
    case .github(let timeout):
      writeClient = token.map { Syncing.client(host: host, token: $0, timeout: timeout) }
      browser.writeAccess = writeClient == nil ? .needsToken(advice: host.tokenAdvice) : .allowed
    }
  }

  /// Takes a report of work done off the loop.
  func receive(_ message: Message) -> Ending? {
    switch message {
    case .token(let token): tokenFound(token)
    case .said(let text): browser.show(message: text)
    case .templatesRead(let result, let opening): templatesRead(result, opening: opening)
    case .diffRead(let number, let title, let result): diffRead(number, title: title, result)
    case .progress(let progress): browser.syncStatus = .syncing(progress)
    case .waiting(let pid): browser.show(message: Syncing.waitingNote(pid))
    case .synced(let result):
      syncTask = nil
      switch result {
      // The list already shows every committed page: only the status changes.
      case .success: browser.syncStatus = .upToDate(Date())
      case .failure(let error):
        let lastSynced = try? cache.lastSyncedAt()
        browser.syncStatus = SyncStatus(error, hadToken: error.sentToken, lastSynced: lastSynced)
      }
    case .listChanged:
      switch follower.take() {
      case .success(let list): browser.apply(list)
      case .failure(let error): browser.show(message: "Stopped following the cache: \(error)")
      case nil: break
      }
    case .viewer(let result): browser.setViewer(result)
    case .conversation(let number, let result): browser.conversationFetched(number, result)
    case .acted(let id, let result):
      rememberDrafts()
      browser.actionFinished(id, result)
    case .queueSent(let said):
      queueTask = nil
      if let said { browser.show(message: said) }
    }
    return nil
  }

  /// Sends what waits in the queue, every half minute while some does and GitHub may be
  /// reached (a sync sends it too): an action taken offline lands once the network is back.
  func sendQueueIfDue(now: Bool = false) {
    guard let writeClient, queueTask == nil, syncTask == nil,
      !browser.listPane.queued.isEmpty, now || Date().timeIntervalSince(lastQueueSend) >= 30
    else { return }
    lastQueueSend = Date()
    let replayer = ActionReplayer(
      client: writeClient, cache: cache, repository: browser.repository, viewer: nil)
    let events = events
    queueTask = Task.detached {
      let summary = await replayer.replay()
      let landed = summary.sent + summary.foundLanded + summary.alreadyHeld
      var said: String?
      if summary.conflicts > 0 {
        said =
          "\(summary.conflicts) queued action\(summary.conflicts == 1 ? "" : "s") conflict with "
          + "GitHub's version and wait for you: issues queue lists them."
      } else if landed > 0 {
        said = "\(landed) queued action\(landed == 1 ? "" : "s") reached GitHub."
      }
      events.send(.queueSent(said))
    }
  }

  /// Tells the browser which issues have a comment draft saved.
  func rememberDrafts() {
    do {
      browser.savedDrafts = Set(try drafts.all().map(\.issue))
    } catch {
      browser.show(message: "Could not read the comment drafts: \(error)")
    }
  }
}
