import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// The browser in the terminal: the event loop, the background sync, and the effects.
@MainActor
enum BrowserRunner {
  enum SyncPlan {
    case never
    case background(GitHubHost)
  }

  /// What the background sync reports.
  enum SyncMessage: Sendable {
    case progress(SyncProgress)
    case waiting(Int32?)
    case synced(Result<SyncSummary, GitHubError>)
    /// The cache committed a change to the list shown: take it from the follower.
    case listChanged
    /// Who `@me` is, or why that is not known.
    case viewer(Result<String, HostFailure>)
    /// An issue's conversation was fetched into the cache, or why it was not.
    case conversation(Int, Result<Void, HostFailure>)
    /// An action the browser asked for was answered: what to say.
    case acted(Int, Result<String, HostFailure>)
  }

  static func run(
    cache: IssueCache, repository: RepositoryName, host: GitHubHost, sync plan: SyncPlan,
    isDemo: Bool,
    timeout: Double? = nil
  ) async throws {
    let session: TerminalSession
    do {
      session = try TerminalSession(options: TerminalOptions(mouse: true))
    } catch {
      throw CommandFailure("Cannot use the terminal: \(error)")
    }
    let lastSynced = try? cache.syncState().lastSyncedAt
    let browser = IssueBrowser(
      cache: cache, repository: repository, host: host, size: session.size,
      syncStatus: isDemo ? .demo : .cached(lastSynced: lastSynced))
    // Writes need a token: found once here, so that the keys can say so at once.
    let writeClient: GitHubClient?
    switch plan {
    case .never:
      writeClient = nil
      browser.writeAccess = .unavailable(
        reason: isDemo ? "the demo has no network" : "offline mode")
    case .background(let host):
      let token = try? TokenDiscovery.token(for: host)
      writeClient = token.map { Syncing.client(host: host, token: $0, timeout: timeout) }
      browser.writeAccess =
        writeClient == nil ? .needsToken(advice: host.tokenAdvice) : .allowed
    }
    let drafts = CommentDrafts(
      directory: CommentDrafts.defaultDirectory(for: repository, host: host))
    browser.savedDrafts = Set(((try? drafts.all()) ?? []).map(\.issue))
    var renderer = FrameRenderer(
      colors: ColorSupport.detect(environment: ProcessInfo.processInfo.environment))
    var screen = CellBuffer(width: session.size.columns, height: session.size.rows)

    func present() {
      browser.render(into: &screen)
      try? session.write(renderer.render(screen))
    }
    present()

    // The terminal, a clock for the debounced search and the spinner, and the sync's reports.
    let events = AppEvents<SyncMessage>(session.events, tick: .milliseconds(100))
    var syncTask: Task<Void, Never>?
    func startSync() {
      guard case .background(let host) = plan, syncTask == nil else { return }
      browser.syncStatus = .syncing(nil)
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
    // The list and the chips follow the cache as syncs commit page by page.
    let follower = ListFollower(cache: cache) { events.send(.listChanged) }
    follower.follow(browser.observedFilter)
    startSync()
    present()

    var interrupted = false
    /// Does what the browser asked; `false` when it asked to quit.
    func perform(_ effects: [BrowserEffect]) -> Bool {
      for effect in effects {
        switch effect {
        case .quit: return false
        case .interrupted:
          interrupted = true
          return false
        case .refresh:
          if case .never = plan {
            browser.show(message: isDemo ? "The demo has no network." : "Offline mode: no sync.")
          } else if syncTask != nil {
            browser.show(message: "A sync is already running.")
          } else {
            startSync()
          }
        case .open(let url):
          browser.show(message: Desktop.open(url))
        case .copy(let text):
          if let done = Desktop.copy(text) {
            browser.show(message: done)
          } else {
            // No clipboard tool (over SSH, say): ask the terminal.
            try? session.write(Desktop.terminalClipboardSequence(text))
            browser.show(message: "Copied \(text) through the terminal (OSC 52)")
          }
        case .fetchConversation(let number):
          guard case .background(let host) = plan else {
            browser.conversationFetched(
              number,
              .failure(HostFailure(isDemo ? "the demo has no network" : "offline mode")))
            continue
          }
          let timeout = timeout
          Task.detached {
            do {
              let client = Syncing.client(
                host: host, token: try TokenDiscovery.token(for: host), timeout: timeout)
              _ = try await ConversationFetcher(
                client: client, cache: cache, repository: repository
              ).fetch(number)
              events.send(.conversation(number, .success(())))
            } catch {
              events.send(.conversation(number, .failure(HostFailure("\(error)"))))
            }
          }
        case .edit(let request):
          guard let writeClient else {
            browser.actionFinished(request.id, .failure(HostFailure("no token to write with")))
            continue
          }
          let editor = IssueEditor(client: writeClient, cache: cache, repository: repository)
          let shown: PendingEdit?
          do {
            // At once, on this thread: the list moves before anything is sent.
            shown = try editor.showLocally(request.changes, onIssue: request.number)
          } catch {
            browser.actionFinished(request.id, .failure(HostFailure("\(error)")))
            continue
          }
          Task.detached {
            do throws(IssueEditFailure) {
              let issue = try await editor.send(
                request.changes, onIssue: request.number, shown: shown)
              events.send(.acted(request.id, .success(Self.done(request, issue))))
            } catch {
              events.send(
                .acted(
                  request.id,
                  .failure(
                    HostFailure(
                      ControlCharacters.visible(
                        Acting.explain(
                          error, repository: repository, brief: true,
                          milestoneTitles: Acting.milestoneTitles(in: cache)))))))
            }
          }
        case .comment(let request):
          guard let writeClient else {
            browser.actionFinished(request.id, .failure(HostFailure("no token to write with")))
            continue
          }
          do {
            try drafts.prepareDirectory()
            let file = drafts.file(for: request.number)
            if !FileManager.default.fileExists(atPath: file.path) {
              try drafts.save("", for: request.number)
            }
            try session.lend { try CommentCommand.edit(file) }
            renderer.invalidate()
          } catch {
            renderer.invalidate()
            browser.actionFinished(request.id, .failure(HostFailure("\(error)")))
            continue
          }
          guard (try? drafts.draft(for: request.number)) != nil else {
            try? drafts.remove(request.number)
            browser.savedDrafts.remove(request.number)
            browser.actionFinished(request.id, .success("Nothing written: no comment was sent."))
            continue
          }
          browser.savedDrafts.insert(request.number)
          let poster = CommentPoster(
            client: writeClient, cache: cache, repository: repository, drafts: drafts)
          Task.detached {
            do throws(CommentPostFailure) {
              let outcome = try await poster.post(issue: request.number)
              let said =
                if case .foundPosted = outcome {
                  "The draft for #\(request.number) had been posted already; not posted again."
                } else {
                  "Commented on #\(request.number)."
                }
              events.send(.acted(request.id, .success(said)))
            } catch {
              events.send(
                .acted(
                  request.id,
                  .failure(
                    HostFailure(
                      ControlCharacters.visible(Self.explain(error, number: request.number))))))
            }
          }
        case .lookUpViewer:
          let offline: Bool
          if case .never = plan { offline = true } else { offline = false }
          let resolver = MeResolver(
            host: host, cache: cache, offline: offline, timeout: timeout)
          Task.detached {
            do {
              let login = try await resolver.login(SearchQuery.me) ?? ""
              events.send(.viewer(.success(login)))
            } catch {
              events.send(.viewer(.failure(HostFailure("\(error)"))))
            }
          }
        }
      }
      return true
    }

    loop: for await event in events.stream {
      switch event {
      case .tick:
        guard perform(browser.tick()) else { break loop }
      case .message(.progress(let progress)):
        browser.syncStatus = .syncing(progress)
      case .message(.waiting(let pid)):
        browser.show(message: Syncing.waitingNote(pid))
      case .message(.synced(let result)):
        syncTask = nil
        switch result {
        case .success:
          // The list already shows every committed page: only the status changes.
          browser.syncStatus = .upToDate(Date())
        case .failure(let error):
          browser.syncStatus = SyncStatus(
            error, hadToken: error.sentToken, lastSynced: try? cache.syncState().lastSyncedAt)
        }
      case .message(.listChanged):
        switch follower.take() {
        case .success(let list): browser.apply(list)
        case .failure(let error): browser.show(message: "Stopped following the cache: \(error)")
        case nil: break
        }
      case .message(.viewer(let result)):
        browser.setViewer(result)
      case .message(.conversation(let number, let result)):
        browser.conversationFetched(number, result)
      case .message(.acted(let id, let result)):
        browser.savedDrafts = Set(((try? drafts.all()) ?? []).map(\.issue))
        browser.actionFinished(id, result)
      case .terminal(.resize(let size)):
        browser.resize(size)
      case .terminal(.resumed):
        renderer.invalidate()
      case .terminal(.input(.key(let key)))
      where key.key == .character("z") && key.modifiers == .control:
        session.suspend()
        continue loop
      case .terminal(.input(let input)):
        guard perform(browser.handle(input)) else { break loop }
      }
      follower.follow(browser.observedFilter)
      present()
    }
    events.finish()
    follower.stop()
    syncTask?.cancel()
    session.restore()
    // Ctrl-C: the status a shell expects of an interrupted program (128 + SIGINT).
    if interrupted { throw ExitCode(130) }
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
