import Foundation
import GitHubIssues
import TrellisTerminal

/// The diff screen in a terminal, on the one ``ScreenHost`` loop, over the browser.
///
/// It performs the screen's effects: the editor is lent the terminal for a line comment or a
/// review's summary; drafts and viewed marks go to the cache; a review goes through the outbox
/// like every write; the diff is read again in the background and shown as a staged update.
@MainActor
public final class DiffHost: ScreenDriver {
  /// How the screen ended.
  package enum Ending: Sendable, Equatable {
    /// Back to the list.
    case back
    /// Ctrl-C.
    case interrupted
  }

  /// The screen.
  package let screen: DiffScreen
  let cache: IssueCache
  /// The client writes and reads go through; `nil` offline or without a token.
  let client: GitHubClient?
  /// Why GitHub is not asked, when it is not.
  let offlineReason: String?
  let options: ScreenOptions
  var session: TerminalSession?
  private var reading: Task<Void, Never>?
  /// Whether the pull request's base branch merges through a merge queue, as GitHub said when
  /// `M` read it: a merge then adds it to the queue.
  private var throughMergeQueue = false

  /// A host showing pull request `number`'s diff kept in `cache`.
  package init(
    screen: DiffScreen, cache: IssueCache, client: GitHubClient?, offlineReason: String?,
    options: ScreenOptions = .fromEnvironment()
  ) {
    self.screen = screen
    self.cache = cache
    self.client = client
    self.offlineReason = offlineReason
    self.options = options
    screen.keys = options.config.diffKeys
    screen.mergeState = (try? cache.pullRequestDetails(number: screen.number))??.mergeSummary
    if let client {
      // The merge methods the repository allows, for `M` to offer only those.
      let repository = screen.repository
      Task { [weak screen] in
        let methods = try? await client.repository(repository).mergeMethods
        screen?.mergeMethods = methods
      }
    }
  }

  /// The model of the diff kept for pull request `number`, with its threads, drafts and marks;
  /// `nil` when no diff of it is kept.
  public static func model(
    of number: Int, in cache: IssueCache, previous: DiffModel? = nil
  ) throws -> DiffModel? {
    guard let diff = try cache.pullRequestDiff(number) else { return nil }
    let resolved = try cache.resolvedThreads(of: number)
    let threads = try cache.reviews(of: number).flatMap(\.threads).map { thread in
      var thread = thread
      thread.isResolved = thread.comments.first.map { resolved.contains($0.id) } ?? false
      return thread
    }
    return DiffModel(
      diff: diff, threads: threads,
      drafts: try cache.pendingReview(of: number), viewed: try cache.viewedFiles(of: number),
      previous: previous)
  }

  /// Runs the screen over another's, on its events, until the person goes back.
  func run<Message: Sendable>(
    covering events: AppEvents<Message>, in session: TerminalSession, host: ScreenHost,
    below: @escaping @MainActor (Message) -> Void
  ) async -> Ending {
    self.session = session
    let ending = await host.run(self, covering: events, in: session, below: below)
    self.session = nil
    reading?.cancel()
    return ending ?? .back
  }

  /// Runs the screen on its own (a test, or a command): until the person goes back.
  package func run(in session: TerminalSession) async -> Ending {
    let events = AppEvents<Never>(session.events, tick: .milliseconds(100))
    self.session = session
    let ending = await ScreenHost(options: options).run(self, in: session, events: events)
    self.session = nil
    session.restore()
    return ending ?? .back
  }

  func receive(_ message: Never) -> Ending? {}

  func perform(_ effect: DiffEffect) -> Ending? {
    switch effect {
    case .back: return .back
    case .interrupted: return .interrupted
    case .draft(let comment, let head): draft(comment, head: head)
    case .discardDraft(let id):
      do {
        try cache.discardPendingReview(of: screen.number, only: [id])
        screen.show(message: "Draft dropped.")
      } catch {
        screen.show(message: "Could not drop the draft: \(error)")
      }
      reload()
    case .setViewed(let path, let mark):
      do {
        try cache.setViewed(mark, path: path, of: screen.number)
      } catch {
        screen.show(message: "Could not keep the mark: \(error)")
      }
    case .submit(let verdict): submit(verdict)
    case .reply(let comment): reply(to: comment)
    case .resolveThread(let resolution): resolve(resolution)
    case .readMergeState: readMergeState()
    case .merge(let method): merge(method)
    case .refresh: refresh()
    case .open(let url): screen.show(message: Desktop.open(url))
    case .run(let run):
      if let said = CommandRunner.start(run, session: session, report: { _ in }) {
        screen.show(message: said)
      }
    }
    return nil
  }

  /// Reads the pull request's details and checks from GitHub for the merge question, which
  /// says them as soon as they are read — or says that the cache's are as last read.
  func readMergeState() {
    let number = screen.number
    let cached = { [cache] in (try? cache.pullRequestDetails(number: number))??.mergeSummary }
    guard let client else {
      screen.showMergeState(cached(), freshness: .asLastRead(offlineReason ?? "offline"))
      return
    }
    let fetcher = PullRequestFetcher(client: client, cache: cache, repository: screen.repository)
    let repository = screen.repository
    Task { [weak self] in
      let read = await fetcher.fetch(number, reviews: nil, lineComments: false)
      // A base branch that merges through a merge queue takes the pull request into it.
      let queue = try? await client.mergeQueueState(ofPullRequest: number, in: repository)
      guard let self else { return }
      self.throughMergeQueue = queue?.queueEnabled == true
      let summary = [cached(), self.throughMergeQueue ? "through the merge queue" : nil]
        .compactMap { $0 }.joined(separator: "; ")
      self.screen.showMergeState(
        summary.isEmpty ? nil : summary,
        freshness: read ? .current : .asLastRead("GitHub did not answer"))
    }
  }

  /// Reads the model again from the cache (drafts, marks, a diff read) and shows it in place.
  func reload() {
    do {
      if let model = try Self.model(of: screen.number, in: cache, previous: screen.model) {
        screen.show(model)
      }
      screen.mergeState = try cache.pullRequestDetails(number: screen.number)?.mergeSummary
    } catch {
      screen.show(message: "Could not read the diff from the cache: \(error)")
    }
  }

  /// The person's text from the editor, or `nil` when the editor did not finish.
  private func write(_ text: String, what: String) -> String? {
    guard let session else {
      screen.show(message: "Writing \(what) needs the terminal.")
      return nil
    }
    do {
      return try Editor.write(text, in: session, naming: "review")
    } catch {
      screen.show(message: "The editor did not finish: \(error)")
      return nil
    }
  }

  /// Drafts a comment on a line, written in the editor, into the pending review.
  private func draft(_ place: DraftLineComment, head: String) {
    guard let text = write("", what: "a comment"),
      !CommentDraft.normalized(text).isEmpty
    else {
      screen.show(message: "Nothing was drafted.")
      return
    }
    var comment = place
    comment.body = text
    do {
      try cache.draftLineComment(comment, onPullRequest: screen.number, commitID: head)
      let count = (try? cache.pendingReview(of: screen.number).count) ?? 0
      screen.show(
        message: "Drafted on \(comment.location) (\(count) drafted): a, R or C submits the review.")
    } catch {
      screen.show(message: ControlCharacters.visible("Not drafted: \(error)."))
    }
    reload()
  }

  /// Replies to a thread, written in the editor, through the outbox.
  private func reply(to comment: Int64) {
    guard let text = write("", what: "a reply"), !CommentDraft.normalized(text).isEmpty else {
      screen.show(message: "Nothing was sent.")
      return
    }
    let body = text
    let action: QueuedAction
    do {
      action = try cache.enqueue(
        .reply(ThreadReply(commentID: comment, body: body)), onIssue: screen.number)
    } catch {
      screen.show(message: ControlCharacters.visible("Not sent: \(error)."))
      return
    }
    send(action, landed: "Replied.", queued: "Queued: the reply")
  }

  /// Resolves or unresolves a thread through the outbox: shown at once (the queue's waiting
  /// resolutions are drawn over what GitHub last said), sent now when GitHub can be reached.
  private func resolve(_ resolution: ThreadResolution) {
    let action: QueuedAction
    do {
      action = try cache.enqueue(.resolveThread(resolution), onIssue: screen.number)
    } catch {
      screen.show(message: ControlCharacters.visible("Not changed: \(error)."))
      return
    }
    reload()
    let done = resolution.change == .resolve ? "Resolved" : "Unresolved"
    send(
      action, landed: "\(done) the thread.",
      queued: "Queued: \(resolution.change.rawValue) the thread",
      then: { [weak self] in
        self?.reload()
      })
  }

  /// Merges the pull request at the head shown, through the outbox: GitHub refuses it if the
  /// branch moved since (the merge then waits in the queue, said).
  private func merge(_ method: PullRequestMerge.Method) {
    let number = screen.number
    let merging = PullRequestMerge(method: method, headSHA: screen.model.headSHA)
    let action: QueuedAction
    do {
      action = try cache.enqueue(
        throughMergeQueue ? .enqueue(merging) : .merge(merging), onIssue: number)
    } catch {
      screen.show(message: ControlCharacters.visible("Not merged: \(error)."))
      return
    }
    if throughMergeQueue {
      send(
        action, landed: "Added #\(number) to the merge queue.",
        queued: "Queued: add #\(number) to the merge queue")
    } else {
      send(
        action, landed: "Merged #\(number) (\(method.rawValue)).",
        queued: "Queued: merge #\(number)")
    }
  }

  /// Sends a queued action now, saying how it went; offline it waits in the queue.
  private func send(
    _ action: QueuedAction, landed: String, queued: String,
    then: @escaping @MainActor () -> Void = {}
  ) {
    guard var quick = client else {
      screen.show(
        message: "\(queued) (\(offlineReason ?? "offline")): sent once when GitHub can be reached.")
      return
    }
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: cache, repository: screen.repository)
    Task { [weak self] in
      let said: String
      switch await replayer.sendNow([action]) {
      case .landed: said = landed
      case .refused(let refusal):
        said = ControlCharacters.visible(
          refusal.sentence(audience: .screen(opening: "the pending review holds it")))
        self?.reload()
      case .queued(let waiting, let because):
        said = ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(waiting, because: because, audience: .screen()))
      }
      self?.screen.show(message: said)
      then()
    }
  }

  /// Submits the review with the drafted comments, its summary written in the editor.
  private func submit(_ verdict: ReviewSubmission.Verdict) {
    let drafts = (try? cache.pendingReview(of: screen.number)) ?? []
    if verdict == .comment, drafts.isEmpty {
      screen.show(message: "No comment is drafted: c drafts one on the focused line.")
      return
    }
    // A summary a refusal kept is where the editor starts.
    let kept = ((try? cache.drafts(onIssue: screen.number)) ?? []).first {
      if case .review = $0.words { true } else { false }
    }
    var start = ""
    if let kept, case .review(_, let body) = kept.words { start = body }
    guard let text = write(start, what: "the review's summary") else { return }
    let summary = CommentDraft.normalized(text)
    if verdict.needsBody, summary.isEmpty {
      screen.show(message: "Not submitted: a review that \(verdict.words)s needs a summary.")
      return
    }
    let action: QueuedAction
    do {
      action = try cache.enqueueReview(
        verdict, body: summary, onPullRequest: screen.number, headSHA: screen.model.headSHA,
        replacingDraft: kept?.id)
    } catch {
      screen.show(message: ControlCharacters.visible("Not submitted: \(error)."))
      return
    }
    reload()
    let comments =
      drafts.isEmpty ? "" : " with \(drafts.count) comment\(drafts.count == 1 ? "" : "s")"
    if client != nil { screen.show(message: "Submitting the review\(comments)…") }
    send(
      action, landed: "Reviewed #\(screen.number) (\(verdict.words))\(comments).",
      queued: "Queued: review #\(screen.number) (\(verdict.words))\(comments)")
  }

  /// Reads the diff again in the background; a push shows as a staged update.
  func refresh() {
    guard let client else {
      screen.show(message: "Not read again: \(offlineReason ?? "offline").")
      return
    }
    guard reading == nil else { return }
    screen.status = "reading…"
    let fetcher = PullRequestDiffFetcher(
      client: client, cache: cache, repository: screen.repository)
    let number = screen.number
    let repository = screen.repository
    let cache = cache
    reading = Task { [weak self] in
      let failure: String?
      do {
        _ = try await fetcher.fetch(number)
        // Which threads are resolved (GraphQL: REST does not say); kept only from a complete
        // read, and a failure here leaves what was kept.
        if let threads = try? await client.reviewThreads(ofPullRequest: number, in: repository) {
          try? cache.keepThreadStates(threads, ofPullRequest: number)
        }
        failure = nil
      } catch let error as GitHubError {
        failure = error.summary()
      } catch {
        failure = "\(error)"
      }
      guard let self else { return }
      self.reading = nil
      self.screen.status = ""
      if let failure {
        self.screen.show(message: ControlCharacters.visible("Not read again: \(failure)."))
      } else {
        self.reload()
      }
    }
  }
}
