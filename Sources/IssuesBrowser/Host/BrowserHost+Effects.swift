import Foundation
import GitHubIssues
import TrellisTerminal

// One method per effect the browser asks for. Network work runs detached and reports back as a
// message on the loop; nothing here waits on GitHub.

extension BrowserHost {
  /// Does what the browser asked, in order, until it asks to be left.
  func perform(_ effects: [BrowserEffect]) {
    for effect in effects where ending == nil {
      switch effect {
      case .quit: ending = .quit
      case .interrupted: ending = .interrupted
      case .refresh: refresh()
      case .open(let url): open(url)
      case .copy(let text): copy(text)
      case .fetchConversation(let number): fetchConversation(number)
      case .edit(let request): act(request)
      case .comment(let request): comment(request)
      case .lookUpViewer: lookUpViewer()
      }
    }
  }

  /// Syncs now, unless there is no network or a sync is running.
  func refresh() {
    if case .none(let reason) = network {
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
      if case .none(let reason) = network {
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

  /// Shows an edit in the cache at once (the list moves before anything is sent), sends it, and
  /// says how it went; a refusal leaves the cache as GitHub has the issue.
  func act(_ request: EditRequest) {
    guard let writeClient else {
      browser.actionFinished(request.id, .failure(HostFailure("no token to write with")))
      return
    }
    let repository = browser.repository
    let editor = IssueEditor(client: writeClient, cache: cache, repository: repository)
    let shown: PendingEdit?
    do {
      shown = try editor.showLocally(request.changes, onIssue: request.number)
    } catch {
      browser.actionFinished(request.id, .failure(HostFailure("\(error)")))
      return
    }
    let (events, titles) = (events, cache.milestoneTitles())
    Task.detached {
      do throws(IssueEditFailure) {
        let issue = try await editor.send(request.changes, onIssue: request.number, shown: shown)
        events.send(.acted(request.id, .success(Self.done(request, issue))))
      } catch {
        let sentence = error.sentence(milestoneTitles: titles) { $0.summary() }
        events.send(.acted(request.id, .failure(HostFailure(ControlCharacters.visible(sentence)))))
      }
    }
  }

  /// Lends the terminal to the person's editor on the issue's comment draft, then posts it —
  /// checking first, for a draft whose earlier post may have landed, that it did not.
  func comment(_ request: CommentRequest) {
    guard let writeClient else {
      browser.actionFinished(request.id, .failure(HostFailure("no token to write with")))
      return
    }
    let number = request.number
    do {
      try drafts.prepareDirectory()
      let file = drafts.file(for: number)
      if !FileManager.default.fileExists(atPath: file.path) { try drafts.save("", for: number) }
      try session.lend { () throws -> Void in try Editor.edit(file) }
      renderer.invalidate()
    } catch {
      renderer.invalidate()
      browser.actionFinished(request.id, .failure(HostFailure("\(error)")))
      return
    }
    guard (try? drafts.draft(for: number)) != nil else {
      try? drafts.remove(number)
      browser.savedDrafts.remove(number)
      browser.actionFinished(request.id, .success("Nothing written: no comment was sent."))
      return
    }
    browser.savedDrafts.insert(number)
    let poster = CommentPoster(
      client: writeClient, cache: cache, repository: browser.repository, drafts: drafts)
    let events = events
    Task.detached {
      do throws(CommentPostFailure) {
        let said =
          if case .foundPosted = try await poster.post(issue: number) {
            "The draft for #\(number) had been posted already; not posted again."
          } else {
            "Commented on #\(number)."
          }
        events.send(.acted(request.id, .success(said)))
      } catch {
        let sentence = ControlCharacters.visible(Self.explain(error, number: number))
        events.send(.acted(request.id, .failure(HostFailure(sentence))))
      }
    }
  }

  /// Asks GitHub (or the cache, for a token asked before) who `@me` is.
  func lookUpViewer() {
    let offline = if case .none = network { true } else { false }
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

  /// What the status line says when a comment was not posted.
  nonisolated static func explain(_ failure: CommentPostFailure, number: Int) -> String {
    switch failure {
    case .refused(let error):
      "Could not comment on #\(number): \(error.summary()). The draft is kept: C sends it."
    case .unconfirmed(let error):
      "Could not confirm the comment on #\(number): \(error.summary()). The draft is kept: "
        + "C checks whether it landed before sending it again."
    case .noDraft, .local: "Could not comment on #\(number): \(failure)"
    }
  }

  /// What the status line says when an edit landed.
  nonisolated static func done(_ request: EditRequest, _ issue: GitHubIssue) -> String {
    let title = ControlCharacters.visible(String(issue.title.prefix(40)))
    switch request.changes.first {
    case .close(.notPlanned)?: return "Closed #\(issue.number) “\(title)” as not planned."
    case .close?: return "Closed #\(issue.number) “\(title)”."
    case .reopen?: return "Reopened #\(issue.number) “\(title)”."
    case .setMilestone?:
      let milestone = ControlCharacters.visible(issue.milestone?.title ?? "its milestone")
      return "Moved #\(issue.number) to \(milestone)."
    case .removeMilestone?: return "Took #\(issue.number) out of its milestone."
    default: return "Changed #\(issue.number)."
    }
  }
}
