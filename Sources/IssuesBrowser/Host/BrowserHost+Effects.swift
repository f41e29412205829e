import Foundation
import GitHubIssues
import TrellisTerminal

// One method per effect the browser asks for. Network work runs detached and reports back as a
// message on the loop; nothing here waits on GitHub.

extension BrowserHost {
  /// Does what the browser asked; `q` and Ctrl-C leave it.
  func perform(_ effect: BrowserEffect) -> Ending? {
    switch effect {
    case .quit: return .quit
    case .interrupted: return .interrupted
    case .refresh: refresh()
    case .open(let url): open(url)
    case .copy(let text): copy(text)
    case .fetchConversation(let number): fetchConversation(number)
    case .edit(let request): act(request)
    case .comment(let request): comment(request)
    case .sendQueue: sendQueueIfDue(now: true)
    case .lookUpViewer: lookUpViewer()
    case .newIssue: newIssue()
    case .showDiff(let number, let title): showDiff(number, title: title)
    case .rewriteNewIssue(let key, let title, let body):
      // What will be filed, the form's answers with it; the row's words if the queue has none.
      let waiting = (try? cache.waitingNewIssue(key: key)) ?? nil
      formToShow = FormToShow(
        templates: ((try? cache.issueTemplates()) ?? nil)?.templates ?? IssueTemplates(),
        note: nil, rewriting: (key, waiting ?? NewIssue(title: title, body: body)))
    case .run(let run):
      let events = events
      if let said = CommandRunner.start(run, session: session, report: { events.send(.said($0)) }) {
        browser.show(message: said)
      }
    }
    return nil
  }

  /// Syncs now, unless there is no network or a sync is running.
  func refresh() {
    if let reason = network.offlineReason {
      browser.show(message: "No sync: \(reason).")
    } else if syncTask != nil {
      browser.show(message: "A sync is already running.")
    } else {
      startSync()
    }
  }

  /// Starts a sync in the background; its pages reach the list through the cache.
  func startSync() {
    guard case .github(let timeout) = network, syncTask == nil else { return }
    browser.syncStatus = .syncing(nil)
    let (events, host, repository, cache) = (events, browser.host, browser.repository, cache)
    syncTask = Task.detached {
      do throws(GitHubError) {
        let summary = try await Syncing.run(
          host: host, repository: repository, cache: cache, full: false, timeout: timeout,
          progress: { events.send(.progress($0)) }, waiting: { events.send(.waiting($0)) })
        events.send(.synced(.success(summary)))
      } catch {
        events.send(.synced(.failure(error)))
      }
    }
  }

  /// Opens a URL in the web browser.
  func open(_ url: String) {
    browser.show(message: Desktop.open(url))
  }

  /// Puts text on the clipboard: with a clipboard tool, or else through the terminal (OSC 52,
  /// which works over SSH).
  func copy(_ text: String) {
    if let done = Desktop.copy(text) {
      browser.show(message: done)
    } else {
      try? session.write(Desktop.terminalClipboardSequence(text))
      browser.show(message: "Copied \(text) through the terminal (OSC 52)")
    }
  }

  /// Fetches an issue's conversation into the cache; the reader shows it when it lands.
  func fetchConversation(_ number: Int) {
    guard case .github(let timeout) = network else {
      if let reason = network.offlineReason {
        browser.conversationFetched(number, .failure(HostFailure(reason)))
      }
      return
    }
    let (events, host, repository, cache) = (events, browser.host, browser.repository, cache)
    Task.detached {
      do {
        let token = try TokenDiscovery.token(for: host)
        let client = Syncing.client(host: host, token: token, timeout: timeout)
        _ = try await ConversationFetcher(client: client, cache: cache, repository: repository)
          .fetch(number)
        events.send(.conversation(number, .success(())))
      } catch {
        events.send(.conversation(number, .failure(HostFailure("\(error)"))))
      }
    }
  }

  /// Queues an edit (shown in the cache at once: the list moves before anything is sent) and
  /// sends it, saying how it went: landed, refused and taken back, or waiting in the queue
  /// because GitHub cannot be reached (offline mode, or the network) — sent later, once.
  func act(_ request: EditRequest) {
    guard case .allowed = browser.writeAccess.queueing else {
      browser.actionFinished(request.id, .failure(HostFailure("no token to write with")))
      return
    }
    let number = request.number
    var queued: [QueuedAction] = []
    do {
      // Committed on the input path, synced to the disk off it (below, and by the send, which
      // marks the action with a synced write before its request leaves).
      for change in request.changes {
        queued.append(try cache.enqueue(.change(change), onIssue: number, durability: .deferred))
      }
    } catch {
      for action in queued { _ = try? cache.cancelQueuedAction(action.id) }
      browser.actionFinished(request.id, .failure(HostFailure("\(error)")))
      return
    }
    // The commit's list was left by the observer before the write returned: the row shows the
    // change in this key press's frame, patched as written rather than read again.
    browser.showQueued(queued, on: number)
    _ = receive(.listChanged)
    let (events, cache, titles) = (events, cache, browser.milestoneTitles)
    Task.detached { cache.syncWrites() }
    let what = queued.map { $0.operation.describe(issue: number, milestoneTitles: titles) }
      .joined(separator: ", ")
    guard let writeClient else {
      browser.actionFinished(
        request.id,
        .success(
          ControlCharacters.visible(
            "Queued: \(what) (\(network.offlineReason ?? "offline")): sent, once, when GitHub "
              + "can be reached.")))
      return
    }
    var quick = writeClient
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(
      client: quick, cache: cache, repository: browser.repository, viewer: nil)
    Task.detached {
      let result: Result<String, HostFailure>
      switch await replayer.sendNow(queued) {
      case .landed:
        result = .success(Self.done(request, (try? cache.issue(number: number)) ?? nil, titles))
      case .refused(let refusal):
        result = .failure(
          HostFailure(
            ControlCharacters.visible(
              refusal.sentence(milestoneTitles: titles, audience: .screen()))))
      case .queued(let waiting, let because):
        result = .success(
          ControlCharacters.visible(
            ActionReplayer.Settlement.queuedSentence(
              waiting, because: because, milestoneTitles: titles, audience: .screen())))
      }
      events.send(.acted(request.id, result))
    }
  }

  /// Lends the terminal to the person's editor on the issue's comment draft, then hands the text
  /// to the outbox (the draft goes: the queue is its record) and sends it, as every write is sent.
  func comment(_ request: CommentRequest) {
    guard case .allowed = browser.writeAccess.queueing else {
      browser.actionFinished(request.id, .failure(HostFailure("no token to write with")))
      return
    }
    let number = request.number
    do {
      let file = try drafts.openBuffer(for: number)
      // Lending asks the loop for a full redraw when the editor gives the terminal back.
      try session.lend { () throws -> Void in try Editor.edit(file) }
    } catch {
      browser.actionFinished(request.id, .failure(HostFailure("\(error)")))
      return
    }
    let action: QueuedAction
    do {
      guard let draft = try drafts.closeBuffer(for: number) else {
        try? drafts.remove(number)
        browser.savedDrafts.remove(number)
        browser.actionFinished(request.id, .success("Nothing written: no comment was sent."))
        return
      }
      action = try cache.enqueueComment(draft.body, onIssue: number)
      try? drafts.remove(number)
      browser.savedDrafts.remove(number)
    } catch {
      browser.savedDrafts.insert(number)
      browser.actionFinished(
        request.id,
        .failure(HostFailure("Could not queue the comment (the draft is kept): \(error)")))
      return
    }
    guard let writeClient else {
      // Offline mode: the queue keeps it (durably, in the cache) and sends it later, once.
      browser.actionFinished(
        request.id,
        .success(
          "Queued: the comment on #\(number) (\(network.offlineReason ?? "offline")): sent, "
            + "once, when GitHub can be reached."))
      return
    }
    var quick = writeClient
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: cache, repository: browser.repository)
    let events = events
    Task.detached {
      let result: Result<String, HostFailure> =
        switch await replayer.sendNow([action]) {
        case .landed: .success("Commented on #\(number).")
        case .refused(let refusal):
          .failure(
            HostFailure(
              ControlCharacters.visible(
                refusal.sentence(audience: .screen(opening: "C opens it")))))
        case .queued(let waiting, let because):
          .success(
            ControlCharacters.visible(
              ActionReplayer.Settlement.queuedSentence(
                waiting, because: because, audience: .screen())))
        }
      events.send(.acted(request.id, result))
    }
  }

  /// Asks GitHub (or the cache, for a token asked before) who `@me` is.
  func lookUpViewer() {
    let offline = network.offlineReason != nil
    let timeout: Double? = if case .github(let timeout) = network { timeout } else { nil }
    let resolver = MeResolver(
      host: browser.host, cache: cache, offline: offline, timeout: timeout)
    let events = events
    Task.detached {
      do {
        events.send(.viewer(.success(try await resolver.login(SearchQuery.me) ?? "")))
      } catch {
        events.send(.viewer(.failure(HostFailure("\(error)"))))
      }
    }
  }

  /// What the status line says when an edit landed.
  nonisolated static func done(
    _ request: EditRequest, _ issue: CachedIssue?, _ titles: [Int: String]
  ) -> String {
    let number = request.number
    let title = ControlCharacters.visible(String((issue?.title ?? "").prefix(40)))
    switch request.changes.first {
    case .close(.notPlanned)?: return "Closed #\(number) “\(title)” as not planned."
    case .close?: return "Closed #\(number) “\(title)”."
    case .reopen?: return "Reopened #\(number) “\(title)”."
    case .setMilestone(let milestone)?:
      let name = ControlCharacters.visible(titles[milestone] ?? "its milestone")
      return "Moved #\(number) to \(name)."
    case .removeMilestone?: return "Took #\(number) out of its milestone."
    default: return "Changed #\(number)."
    }
  }
}
