import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues comment NUMBER`: writes a comment, as `gh issue comment` does, through the outbox:
/// queued durably before anything is sent, sent once, and settled by reading GitHub when an answer
/// is lost.
struct CommentCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "comment",
    abstract: "Comment on an issue.",
    discussion: """
      The text goes to the queue (the cache's outbox) before it is sent, and is sent once. When \
      GitHub cannot be reached it waits there (`issues queue` lists it) and is sent later. When \
      an answer is lost (killed, dropped, GitHub fails after writing), GitHub is read to see \
      whether it landed: a comment counts as landed only with its text, by the token's account, \
      newer than every comment the issue had right before the send. It is never sent twice by \
      one run; running the same command again settles it instead of queuing a second copy. \
      Text written in the editor is kept as a draft (under XDG_STATE_HOME) until it is queued: \
      `issues comment N` with no text offers it again (--send-draft sends it as it is).
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Option(name: [.customShort("b"), .long], help: "The comment's text.")
  var body: String?

  @Option(
    name: [.customShort("F"), .customLong("body-file")],
    help: ArgumentHelp("Read the text from a file (`-` for standard input).", valueName: "file"))
  var bodyFile: String?

  @Flag(
    name: [.customShort("e"), .long],
    help: "Write it in $VISUAL or $EDITOR (with the saved draft, if any).")
  var editor = false

  @Flag(help: "Send the saved draft, or the comment waiting in the queue, as it is.")
  var sendDraft = false

  @Flag(help: "Delete the saved draft, or cancel the comment waiting in the queue, unsent.")
  var discardDraft = false

  func validate() throws {
    let sources = [body != nil, bodyFile != nil, editor, sendDraft, discardDraft].count { $0 }
    if sources > 1 {
      throw ValidationError(
        "Give one of --body, --body-file, --editor, --send-draft and --discard-draft.")
    }
    if let body, CommentDraft.normalized(body).isEmpty {
      throw ValidationError("The comment is empty.")
    }
  }

  func run() async throws {
    let acting = try Acting(issue: issue, options: options)
    let drafts = Self.drafts(acting)
    let number = acting.number
    let saved = try drafts.draft(for: number)
    if discardDraft {
      if saved != nil {
        try drafts.remove(number)
        print("Deleted the draft for #\(number).")
        return
      }
      guard let waiting = try acting.cache.waitingComments(onIssue: number).last else {
        throw CommandFailure("There is no draft for #\(number).")
      }
      do {
        try acting.cache.cancelQueuedAction(waiting.id)
        // Discarded on purpose: the words the cancel gave back go too.
        try drafts.remove(number)
      } catch {
        throw CommandFailure(ControlCharacters.visible("Could not cancel it: \(error)."))
      }
      print("Cancelled the comment waiting on #\(number); it was not sent.")
      return
    }
    if let text = try readBody() {
      if let saved, CommentDraft.normalized(saved.body) != CommentDraft.normalized(text) {
        // Never write over words that were not sent.
        throw CommandFailure(
          "An unsent draft for #\(number) is saved (\(Self.describe(saved))): "
            + "`issues comment \(number) --send-draft` sends it, `--editor` edits it, "
            + "`--discard-draft` deletes it.")
      }
      try await Self.send(text, acting: acting)
      return
    }
    if sendDraft {
      if let saved {
        try await Self.send(saved.body, acting: acting)
        return
      }
      guard let waiting = try acting.cache.waitingComments(onIssue: number).last else {
        throw CommandFailure("There is no draft for #\(number).")
      }
      try await Self.send(waiting, acting: acting)
      return
    }
    let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    guard editor || interactive else {
      if let saved {
        throw CommandFailure(
          "A draft for #\(number) is saved (\(Self.describe(saved))): "
            + "`--send-draft` sends it, `--discard-draft` deletes it.")
      }
      throw CommandFailure("Give the text: --body TEXT, --body-file FILE, or --editor.")
    }
    if saved != nil {
      Terminal.standardError(
        "The saved draft for #\(number) opens in the editor; it stays saved until sent.\n")
    }
    let file = try drafts.openBuffer(for: number)
    try Self.edit(file)
    guard let written = try drafts.closeBuffer(for: number) else {
      try? drafts.remove(number)
      print("The comment is empty: nothing was sent.")
      return
    }
    try await Self.send(written.body, acting: acting)
  }

  /// The text from --body or --body-file, if given.
  private func readBody() throws -> String? {
    if let body { return body }
    guard let bodyFile else { return nil }
    let text = try BodyFile.read(bodyFile, what: "a comment")
    guard !CommentDraft.normalized(text).isEmpty else {
      throw CommandFailure("The comment is empty.")
    }
    return text
  }

  static func drafts(_ acting: Acting) -> CommentDrafts {
    CommentDrafts(
      cache: acting.cache,
      directory: CommentDrafts.defaultDirectory(for: acting.repository, host: acting.host))
  }

  static func describe(_ draft: CommentDraft) -> String {
    let first = CommentDraft.normalized(draft.body).split(separator: "\n").first.map(String.init)
    let preview = ControlCharacters.visible(String((first ?? "").prefix(40)))
    let formatter = ISO8601DateFormatter()
    return "“\(preview)…”, saved \(formatter.string(from: draft.savedAt))"
  }

  /// Queues `text` (or finds the same comment waiting already), drops the editor's draft — the
  /// queue holds it now — and sends it.
  static func send(_ text: String, acting: Acting) async throws {
    _ = try await acting.cachedIssue()
    let action: QueuedAction
    do {
      action = try acting.cache.enqueueComment(text, onIssue: acting.number)
    } catch {
      throw CommandFailure(
        ControlCharacters.visible("Could not queue the comment: \(error). Nothing was sent."))
    }
    try? drafts(acting).remove(acting.number)
    try await send(action, acting: acting)
  }

  /// Sends a queued comment now and says how it came out: the comment's URL once it landed;
  /// why, with exit status 1, when GitHub refused it (nothing stays queued); that it waits in
  /// the queue when GitHub could not be reached or did not answer.
  static func send(_ action: QueuedAction, acting: Acting) async throws {
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    let replayer = ActionReplayer(client: quick, cache: acting.cache, repository: acting.repository)
    let number = acting.number
    switch await replayer.sendNow([action]) {
    case .landed:
      let posted = try? acting.cache.postedComment(ofAction: action.id)
      print(posted?.htmlURL.map { ControlCharacters.visible($0) } ?? "Commented on #\(number).")
    case .refused(let refusal):
      // Nothing stays queued: the words went back to the drafts, so that none are lost.
      throw CommandFailure(
        ControlCharacters.visible(
          refusal.sentence(
            why: refusal.error.map { "\(Terminal.failure($0, repository: acting.repository))" },
            audience: .command)))
    case .queued(let waiting, let because):
      Terminal.standardError(
        ControlCharacters.visible(
          ActionReplayer.Settlement.queuedSentence(
            waiting, because: because, audience: .command)) + "\n")
    }
  }

  /// Runs the person's editor on a file and waits for it; a failure is the command's.
  static func edit(_ file: URL) throws {
    do throws(HostFailure) {
      try Editor.edit(file)
    } catch {
      throw CommandFailure(error.message)
    }
  }
}
