import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues pr review`: drafts line comments into a pull request's pending review, and submits
/// the review through the outbox as one write — gh's flags for the verdict and the summary.
struct PullRequestReviewCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "review",
    abstract: "Review a pull request: line comments, then a verdict, with gh pr review's flags.",
    discussion: """
      With --line PATH:LINE (or PATH:FIRST-LAST, PATH:L12 for the base's side) and a body, \
      drafts a comment on those lines into the pull request's pending review, kept in the \
      cache — offline too, on the diff `issues pr diff` read. With --approve, --comment or \
      --request-changes, submits the review with every drafted comment as one write through \
      the queue: offline it waits and is sent once; a lost answer is settled by reading the \
      pull request's reviews before anything is sent again. --reply ID answers a thread of line \
      comments (the same queue, settled by listing the line comments); --resolve ID and \
      --unresolve ID mark a thread resolved or not (the thread's state is read on GitHub \
      before every send). --pending lists the drafts, --discard drops them. A review or a \
      reply GitHub refuses (or that is cancelled in the queue) is drafted again, its line \
      comments, summary and words kept: given without a body, --approve, --comment, \
      --request-changes and --reply ID send the summary or the reply kept.
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Flag(name: [.customShort("a"), .long], help: "Approve the pull request.")
  var approve = false

  @Flag(name: [.customShort("r"), .long], help: "Ask for changes (a body is required).")
  var requestChanges = false

  @Flag(name: [.customShort("c"), .long], help: "Comment without a verdict (a body is required).")
  var comment = false

  @Option(
    name: [.customShort("b"), .long], help: "The review's summary, or a line comment's text.")
  var body: String?

  @Option(
    name: [.customShort("F"), .long],
    help: ArgumentHelp("Read the body from a file (`-` for standard input).", valueName: "file"))
  var bodyFile: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Draft a comment on PATH:LINE, PATH:FIRST-LAST, or PATH:L12 for the base's side.",
      valueName: "path:line"))
  var line: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Reply to the thread that starts with this line comment (its id, as `pr view --json "
        + "reviewThreads` gives it), with --body.", valueName: "comment-id"))
  var reply: Int64?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Mark resolved the thread that starts with this line comment.", valueName: "comment-id"))
  var resolve: Int64?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Mark unresolved the thread that starts with this line comment.", valueName: "comment-id"))
  var unresolve: Int64?

  @Flag(
    name: .long,
    help: "List the pending review's drafted comments, and a summary or replies kept as drafts.")
  var pending = false

  @Flag(name: .long, help: "Drop the pending review's drafts: comments, summary and replies.")
  var discard = false

  var verdict: ReviewSubmission.Verdict? {
    approve ? .approve : requestChanges ? .requestChanges : comment ? .comment : nil
  }

  func validate() throws {
    let verdicts = [approve, requestChanges, comment].count { $0 }
    if verdicts > 1 {
      throw ValidationError("Give one of --approve, --request-changes and --comment.")
    }
    if body != nil, bodyFile != nil {
      throw ValidationError("Give --body or --body-file, not both.")
    }
    let modes = [
      verdicts == 1, line != nil, reply != nil, resolve != nil, unresolve != nil, pending, discard,
    ].count { $0 }
    if modes != 1 {
      throw ValidationError(
        "Give a verdict (--approve, --request-changes, --comment), --line, --reply, --resolve, "
          + "--unresolve, --pending or --discard.")
    }
    if let line, Self.parse(line) == nil {
      throw ValidationError(
        "--line takes PATH:LINE, PATH:FIRST-LAST or PATH:L12 (the base's side), not “\(line)”.")
    }
  }

  /// `PATH:LINE`, `PATH:FIRST-LAST`, `PATH:L12` or `PATH:L10-12`: the last `:` splits.
  static func parse(_ text: String) -> (
    path: String, first: Int?, last: Int, side: DraftLineComment.Side
  )? {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    let path = String(text[..<colon])
    var range = Substring(text[text.index(after: colon)...])
    var side = DraftLineComment.Side.right
    if range.first == "L" || range.first == "R" {
      side = range.first == "L" ? .left : .right
      range = range.dropFirst()
    }
    let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
    guard !path.isEmpty, (1...2).contains(bounds.count),
      let last = Int(bounds[bounds.count - 1]), last > 0
    else { return nil }
    if bounds.count == 2 {
      guard let first = Int(bounds[0]), first > 0, first <= last else { return nil }
      return (path, first == last ? nil : first, last, side)
    }
    return (path, nil, last, side)
  }

  func text() throws -> String? {
    if let body { return body }
    guard let bodyFile else { return nil }
    return try BodyFile.read(bodyFile, what: "a review")
  }

  func run() async throws {
    if pending || discard {
      let (host, repository) = try issue.applied(to: options).resolve()
      let cache = try Terminal.openCache(at: IssueCache.defaultURL(for: repository, host: host))
      // The review's summary and the replies given back by a refusal are drafts of the pull
      // request too: listed and dropped with its line comments.
      let kept = try cache.drafts(onIssue: issue.number).filter {
        switch $0.words {
        case .review, .reply: true
        case .comment, .newIssue: false
        }
      }
      if discard {
        let dropped = try cache.discardPendingReview(of: issue.number)
        for draft in kept { try cache.discardDraft(draft.id) }
        print(
          "Dropped \(dropped) drafted comment\(dropped == 1 ? "" : "s") of #\(issue.number)"
            + (kept.isEmpty ? "." : " and \(kept.count) other draft\(kept.count == 1 ? "" : "s")."))
      } else {
        func firstLine(_ text: String) -> String {
          ControlCharacters.visible(String(text.split(whereSeparator: \.isNewline).first ?? ""))
        }
        for draft in kept {
          switch draft.words {
          case .review(let verdict, let body):
            print("review (\(verdict.words))\t\(firstLine(body))")
          case .reply(let reply): print("reply to \(reply.commentID)\t\(firstLine(reply.body))")
          case .comment, .newIssue: break
          }
        }
        for draft in try cache.pendingReview(of: issue.number) {
          print(
            ControlCharacters.visible(draft.comment.location) + "\t"
              + firstLine(draft.comment.body))
        }
      }
      return
    }
    let acting = try Acting(issue: issue, options: options)
    if let line, let place = Self.parse(line) {
      try await draft(place, acting)
    } else if let reply {
      // Without a body, the reply a refusal kept as a draft.
      let kept = try acting.cache.drafts(onIssue: acting.number).first {
        if case .reply(let kept) = $0.words { kept.commentID == reply } else { false }
      }
      var body = try text() ?? ""
      var fromDraft: Draft?
      if body.isEmpty, let kept, case .reply(let words) = kept.words {
        body = words.body
        fromDraft = kept
      }
      try await send(ThreadReply(commentID: reply, body: body), acting)
      // Sent or queued: the queue holds the words now (a refusal threw, the draft kept).
      if let fromDraft { try? acting.cache.discardDraft(fromDraft.id) }
    } else if let thread = resolve ?? unresolve {
      try await send(
        ThreadResolution(commentID: thread, change: resolve != nil ? .resolve : .unresolve),
        acting)
    } else if let verdict {
      try await submit(verdict, acting)
    }
  }

  /// Drafts a line comment, on the diff kept (read first when online and not kept, or pushed).
  private func draft(
    _ place: (path: String, first: Int?, last: Int, side: DraftLineComment.Side), _ acting: Acting
  ) async throws {
    let number = acting.number
    guard let text = try text(), !CommentDraft.normalized(text).isEmpty else {
      throw CommandFailure("A line comment needs a body: give --body or --body-file.")
    }
    var diff = try acting.cache.pullRequestDiff(number)
    // A push since is read first; offline, the diff kept is what the comment is placed on.
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, diff == nil ? 2 : 0)
    do {
      diff = try await PullRequestDiffFetcher(
        client: quick, cache: acting.cache, repository: acting.repository
      ).fetch(number)
    } catch {
      // Offline, the diff read before: what the comment is placed on.
      guard diff != nil, error.status == nil || error.code == .serverError else {
        if error.code == .notFound {
          throw CommandFailure(
            "\(acting.repository)#\(number) is not a pull request, or the token cannot see it.")
        }
        throw CommandFailure(
          ControlCharacters.visible(
            "\(Terminal.failure(error, repository: acting.repository)) The diff of #\(number) "
              + "is not cached, so the line cannot be placed: nothing was drafted."))
      }
    }
    guard let diff else { throw CommandFailure("The diff of #\(number) could not be read.") }
    let comment = DraftLineComment(
      path: place.path, line: place.last, side: place.side, startLine: place.first, body: text)
    if let problem = diff.problem(placing: comment) {
      throw CommandFailure(
        ControlCharacters.visible("Cannot comment there: \(problem). Nothing was drafted."))
    }
    _ = try await acting.cachedIssue()
    do {
      try acting.cache.draftLineComment(comment, onPullRequest: number, commitID: diff.headSHA)
    } catch let error as ReviewDraftError {
      throw CommandFailure(ControlCharacters.visible("\(error). Nothing was drafted."))
    } catch let error as OverlongText {
      throw CommandFailure("\(error) Nothing was drafted.")
    }
    let count = try acting.cache.pendingReview(of: number).count
    print(
      ControlCharacters.visible(
        "Drafted a comment on \(comment.location) for #\(number)'s review (\(count) drafted): "
          + "submit it with `issues pr review \(number) --comment -b …` (or --approve, "
          + "--request-changes)."))
  }

  /// Replies to a thread, through the outbox.
  private func send(_ reply: ThreadReply, _ acting: Acting) async throws {
    let number = acting.number
    guard !CommentDraft.normalized(reply.body).isEmpty else {
      throw CommandFailure("A reply needs a body: give --body or --body-file.")
    }
    try await sendThroughTheQueue(
      .reply(reply), acting, landed: "Replied on #\(number) to comment \(reply.commentID).")
  }

  /// Resolves or unresolves a thread, through the outbox.
  private func send(_ resolution: ThreadResolution, _ acting: Acting) async throws {
    let number = acting.number
    try await sendThroughTheQueue(
      .resolveThread(resolution), acting,
      landed: "\(resolution.change == .resolve ? "Resolved" : "Unresolved") the thread of "
        + "comment \(resolution.commentID) on #\(number).")
  }

  /// Queues `operation` on the pull request and sends it at once: says it landed, was refused
  /// (taken back, its words drafted again), or waits for GitHub.
  private func sendThroughTheQueue(
    _ operation: QueuedAction.Operation, _ acting: Acting, landed: String
  ) async throws {
    let number = acting.number
    let cached = try await acting.cachedIssue()
    guard cached.isPullRequest else {
      throw CommandFailure("#\(number) is an issue, not a pull request: it has no line comments.")
    }
    let action: QueuedAction
    do {
      action = try acting.cache.enqueue(operation, onIssue: number)
    } catch {
      throw CommandFailure(ControlCharacters.visible("\(error). Nothing was sent."))
    }
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: acting.cache, repository: acting.repository)
    switch await replayer.sendNow([action]) {
    case .landed: print(landed)
    case .refused(let refusal):
      throw CommandFailure(ControlCharacters.visible(refusal.sentence(audience: .command)))
    case .queued(let waiting, let because):
      Terminal.standardError(
        ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(
            waiting, because: because, audience: .command)) + "\n")
    }
  }

  /// Submits the review with every drafted comment, through the outbox.
  private func submit(_ verdict: ReviewSubmission.Verdict, _ acting: Acting) async throws {
    let number = acting.number
    // Without a body, the summary a refusal kept as a draft.
    let kept = try acting.cache.drafts(onIssue: number).first {
      if case .review = $0.words { true } else { false }
    }
    var summary = try text() ?? ""
    var fromDraft: Int64?
    if summary.isEmpty, let kept, case .review(_, let body) = kept.words {
      summary = body
      fromDraft = kept.id
    }
    if verdict.needsBody, CommentDraft.normalized(summary).isEmpty {
      throw CommandFailure(
        "A review that \(verdict == .comment ? "comments" : "requests changes") needs a body: "
          + "give --body or --body-file.")
    }
    let cached = try await acting.cachedIssue()
    guard cached.isPullRequest else {
      throw CommandFailure("#\(number) is an issue, not a pull request: it takes no review.")
    }
    let drafts = try acting.cache.pendingReview(of: number)
    let head = try acting.cache.pullRequestDiff(number)?.headSHA
    let action: QueuedAction
    do {
      action = try acting.cache.enqueueReview(
        verdict, body: summary, onPullRequest: number, headSHA: drafts.first?.commitID ?? head,
        replacingDraft: fromDraft)
    } catch {
      throw CommandFailure(ControlCharacters.visible("\(error). Nothing was sent."))
    }
    let comments =
      drafts.isEmpty ? "" : " with \(drafts.count) line comment\(drafts.count == 1 ? "" : "s")"
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: acting.cache, repository: acting.repository)
    switch await replayer.sendNow([action]) {
    case .landed:
      let said =
        switch verdict {
        case .approve: "Approved pull request"
        case .requestChanges: "Requested changes to pull request"
        case .comment: "Reviewed pull request"
        }
      print(ControlCharacters.visible("\(said) \(acting.repository)#\(number)\(comments)."))
    case .refused(let refusal):
      var said = refusal.sentence(audience: .command)
      if !drafts.isEmpty {
        said +=
          " Its \(drafts.count) line comment\(drafts.count == 1 ? " is" : "s are") drafted "
          + "again (`issues pr review \(number) --pending` lists them)."
      }
      throw CommandFailure(ControlCharacters.visible(said))
    case .queued(let waiting, let because):
      Terminal.standardError(
        ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(
            waiting, because: because, audience: .command)) + "\n")
    }
  }
}
