import Foundation
import GitHubIssues
import TrellisTerminal

// `n`: the new-issue form over the browser, on the same loop and events, then the outbox — the
// same queue, landed check and messages as `issues create`.

extension BrowserHost {
  /// The templates the form starts from, and what to say with them.
  struct FormToShow {
    var templates: IssueTemplates
    var note: String?
    /// A new issue queued and not filed yet, to rewrite rather than file another.
    var rewriting: (key: IssueKey, issue: NewIssue)?
    /// A new issue's draft (GitHub refused it, or the form was left), to open as it was left.
    var restoring: Draft?
  }

  /// Templates older than this are read again (one conditional request) when the form opens.
  static let templatesFreshFor: TimeInterval = 600

  /// Shows the form from the templates the cache holds (read again in the background when
  /// they are old); the first time, reads them first when GitHub can be reached.
  func newIssue() {
    let cached: (templates: IssueTemplates, checkedAt: Date)?
    let draft: Draft?
    do {
      cached = try cache.issueTemplates()
      draft = try cache.drafts(onIssue: 0).first {
        if case .newIssue = $0.words { true } else { false }
      }
    } catch {
      browser.show(message: "Could not read the templates from the cache: \(error)")
      return
    }
    if let draft {
      // What was written and not filed opens first, as it was left.
      formToShow = FormToShow(
        templates: cached?.templates ?? IssueTemplates(),
        note: "Your draft, as you left it: file it, or Esc to keep it for later.",
        rewriting: nil, restoring: draft)
    } else if let cached {
      formToShow = FormToShow(templates: cached.templates, note: nil, rewriting: nil)
      if Date().timeIntervalSince(cached.checkedAt) > Self.templatesFreshFor {
        readTemplates(then: false)
      }
    } else if writeClient != nil {
      browser.show(message: "Reading the templates of \(browser.repository)…")
      readTemplates(then: true)
    } else {
      formToShow = FormToShow(
        templates: IssueTemplates(),
        note: "The templates were never read (\(network.offlineReason ?? "no token")): a blank "
          + "issue.", rewriting: nil)
    }
  }

  /// Reads the templates from GitHub into the cache; with `then`, the form opens on them.
  func readTemplates(then opening: Bool) {
    guard let writeClient, templatesTask == nil else { return }
    let fetcher = IssueTemplateFetcher(
      client: writeClient, cache: cache, repository: browser.repository)
    let events = events
    templatesTask = Task.detached {
      do throws(GitHubError) {
        let templates = try await fetcher.fetch()
        events.send(.templatesRead(.success(templates), opening: opening))
      } catch {
        events.send(.templatesRead(.failure(HostFailure(error.summary())), opening: opening))
      }
    }
  }

  /// Takes the templates read: the form opens on them when it waited for them.
  func templatesRead(_ result: Result<IssueTemplates, HostFailure>, opening: Bool) {
    templatesTask = nil
    guard opening else { return }
    switch result {
    case .success(let templates):
      formToShow = FormToShow(templates: templates, note: nil, rewriting: nil)
    case .failure(let failure):
      formToShow = FormToShow(
        templates: IssueTemplates(),
        note: ControlCharacters.visible(
          "The templates could not be read (\(failure.message)): a blank issue."),
        rewriting: nil)
    }
  }

  /// Runs the form over the browser when `n` asked for it; what is filed goes to the outbox.
  func presentCovering(
    with host: ScreenHost, in session: TerminalSession, events: AppEvents<Message>
  ) async -> CoverOutcome<Ending> {
    if diffToShow != nil { return await presentDiff(with: host, in: session, events: events) }
    guard let shown = formToShow else { return .nothingShown }
    formToShow = nil
    let form = IssueFormHost(
      repository: browser.repository, templates: shown.templates, size: session.size,
      options: options)
    if let note = shown.note { form.screen.show(message: note) }
    if let rewriting = shown.rewriting {
      form.screen.restore(rewriting.issue, rewriting: true)
    } else if let draft = shown.restoring, case .newIssue(let issue) = draft.words {
      form.screen.restore(issue)
    }
    let ending = await form.run(covering: events, in: session, host: host) { [weak self] in
      _ = self?.receive($0)
    }
    switch ending {
    case .file(let issue):
      if let rewriting = shown.rewriting {
        rewrite(rewriting.key, as: issue)
      } else {
        file(issue, replacing: shown.restoring)
      }
    case .cancelled:
      if shown.rewriting != nil {
        browser.show(message: "Not rewritten: it is filed as it was.")
      } else {
        keepDraft(of: form.screen.model, replacing: shown.restoring)
      }
    case .interrupted:
      if shown.rewriting == nil { keepDraft(of: form.screen.model, replacing: shown.restoring) }
      return .ended(.interrupted)
    }
    return .shown
  }

  /// Keeps what a form left unfiled holds as a new issue's draft, which the next `n` opens; a
  /// form left as it opened keeps none (and drops the draft it opened, when it was emptied).
  func keepDraft(of model: IssueFormModel, replacing draft: Draft?) {
    do {
      if model.isUntouched {
        if let draft { try cache.discardDraft(draft.id) }
        browser.show(
          message: draft == nil ? "Nothing was filed." : "Nothing was filed; the draft is dropped.")
        return
      }
      if let draft { try cache.discardDraft(draft.id) }
      try cache.saveDraft(.newIssue(model.filled), onIssue: 0)
      browser.show(message: "Nothing was filed; what you wrote is kept: n opens it.")
    } catch {
      browser.show(
        message: ControlCharacters.visible("Nothing was filed, and the draft not kept: \(error)."))
    }
  }

  /// Rewrites a queued new issue's title and body, unless it was sent meanwhile.
  func rewrite(_ key: IssueKey, as issue: NewIssue) {
    let title = ControlCharacters.visible(String(issue.title.prefix(40)))
    do {
      try cache.rewriteNewIssue(key: key, title: issue.title, body: issue.body, form: issue.form)
      browser.show(message: "Rewritten: “\(title)” is filed as it reads now.")
    } catch {
      browser.show(message: ControlCharacters.visible("Not rewritten: \(error)."))
    }
    _ = receive(.listChanged)
  }

  /// Queues a new issue (its provisional row shows at once, focused) and sends it, saying how
  /// it went: filed with its number, refused, or waiting in the queue.
  func file(_ issue: NewIssue, replacing draft: Draft? = nil) {
    // GitHub's answer names the author; until then the row says who, as far as is known.
    let author = browser.context.viewer.login ?? "you"
    let queued: QueuedAction
    do {
      queued = try cache.enqueueNewIssue(issue, author: author, replacingDraft: draft?.id)
    } catch {
      browser.show(
        message: ControlCharacters.visible("Could not queue “\(issue.title)”: \(error)."))
      return
    }
    if let key = queued.issueKey { browser.follow(newIssue: key, number: queued.issueNumber) }
    _ = receive(.listChanged)
    let title = ControlCharacters.visible(String(issue.title.prefix(40)))
    guard let writeClient else {
      browser.show(
        message: "Queued: file “\(title)” (\(network.offlineReason ?? "offline")): filed, once, "
          + "when GitHub can be reached.")
      return
    }
    browser.show(message: "Filing “\(title)”…")
    var quick = writeClient
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: cache, repository: browser.repository)
    let (events, cache) = (events, cache)
    Task.detached {
      let said: String
      switch await replayer.sendNow([queued]) {
      case .landed:
        let number = queued.issueKey.flatMap { try? cache.issue(key: $0) }?.number
        said = number.map { "Filed #\($0) “\(title)”." } ?? "Filed “\(title)”."
      case .refused(let refusal):
        said = ControlCharacters.visible(
          refusal.sentence(audience: .screen(opening: "n opens it filled")))
      case .queued(let waiting, let because):
        said = ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(waiting, because: because, audience: .screen()))
      }
      events.send(.said(said))
    }
  }
}
