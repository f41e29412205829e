import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues comment NUMBER`: writes a comment, as `gh issue comment` does, from a draft that
/// survives anything until GitHub confirms it.
struct CommentCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "comment",
    abstract: "Comment on an issue.",
    discussion: """
      The text is saved as a draft (under XDG_STATE_HOME) before it is sent, and deleted only \
      when GitHub confirms the comment. If the send is interrupted (killed, offline, GitHub \
      fails), the draft stays: `issues comment N` with no text offers it again (in the editor \
      on a terminal; --send-draft sends it as it is), and first checks whether it landed, so it \
      is never posted twice.
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

  @Flag(help: "Send the saved draft as it is.")
  var sendDraft = false

  @Flag(help: "Delete the saved draft without sending it.")
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
      guard saved != nil else { throw CommandFailure("There is no draft for #\(number).") }
      try drafts.remove(number)
      print("Deleted the draft for #\(number).")
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
      try await Self.post(text, acting: acting)
      return
    }
    if sendDraft {
      guard saved != nil else { throw CommandFailure("There is no draft for #\(number).") }
      try await Self.send(acting: acting)
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
    try drafts.prepareDirectory()
    let file = drafts.file(for: number)
    if !FileManager.default.fileExists(atPath: file.path) { try drafts.save("", for: number) }
    try Self.edit(file)
    guard try drafts.draft(for: number) != nil else {
      try? drafts.remove(number)
      print("The comment is empty: nothing was sent.")
      return
    }
    try await Self.send(acting: acting)
  }

  /// The text from --body or --body-file, if given.
  private func readBody() throws -> String? {
    if let body { return body }
    guard let bodyFile else { return nil }
    let data: Data
    if bodyFile == "-" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: bodyFile))
      } catch {
        throw CommandFailure("Could not read \(bodyFile): \(error.localizedDescription)")
      }
    }
    guard data.count <= Self.maximumLength * 4 else {
      throw CommandFailure("\(bodyFile) is larger than a comment can be.")
    }
    let text = String(decoding: data, as: UTF8.self)
    guard !CommentDraft.normalized(text).isEmpty else {
      throw CommandFailure("The comment is empty.")
    }
    return text
  }

  /// GitHub's limit on a comment's length, in characters.
  static let maximumLength = 65_536

  static func drafts(_ acting: Acting) -> CommentDrafts {
    CommentDrafts(
      directory: CommentDrafts.defaultDirectory(for: acting.repository, host: acting.host))
  }

  static func describe(_ draft: CommentDraft) -> String {
    let first = CommentDraft.normalized(draft.body).split(separator: "\n").first.map(String.init)
    let preview = ControlCharacters.visible(String((first ?? "").prefix(40)))
    let formatter = ISO8601DateFormatter()
    return "“\(preview)…”, saved \(formatter.string(from: draft.savedAt))"
      + (draft.sentAt != nil ? ", sent without an answer" : "")
  }

  /// Saves `text` as the draft and sends it.
  static func post(_ text: String, acting: Acting) async throws {
    do {
      try drafts(acting).save(text, for: acting.number)
    } catch {
      throw CommandFailure("Could not save the draft: \(error.localizedDescription)")
    }
    try await send(acting: acting)
  }

  /// Sends the saved draft and prints the comment's URL; when GitHub cannot be reached, a draft
  /// never sent goes to the queue instead (sent once, later) and the command says so.
  static func send(acting: Acting) async throws {
    if try await queueIfUnreachable(acting: acting) { return }
    let poster = CommentPoster(
      client: acting.client, cache: acting.cache, repository: acting.repository,
      drafts: drafts(acting))
    do {
      let outcome = try await poster.post(issue: acting.number)
      if case .foundPosted = outcome {
        Terminal.standardError("The draft had already been posted; it was not posted again.\n")
      }
      print(
        outcome.comment.htmlURL.map { ControlCharacters.visible($0) }
          ?? "Commented on #\(acting.number).")
    } catch {
      switch error {
      case .refused(let github), .unconfirmed(let github):
        let reason = "\(Terminal.failure(github, repository: acting.repository))"
        let kept =
          if case .unconfirmed = error {
            " The draft is kept; `issues comment \(acting.number) --send-draft` checks whether "
              + "it landed before sending it again."
          } else {
            " The draft is kept: `issues comment \(acting.number) --send-draft` sends it."
          }
        throw CommandFailure(ControlCharacters.visible("Could not comment: \(reason)" + kept))
      case .noDraft, .local:
        throw CommandFailure(ControlCharacters.visible("Could not comment: \(error)"))
      }
    }
  }

  /// Moves a draft never sent to the queue when GitHub cannot be reached (a read of the issue
  /// fails to connect, times out, or meets a 5xx): nothing was sent, so nothing can be sent
  /// twice; the queue sends it once GitHub can be reached.
  ///
  /// - Returns: Whether it was queued.
  static func queueIfUnreachable(acting: Acting) async throws -> Bool {
    let drafts = drafts(acting)
    guard let draft = try? drafts.draft(for: acting.number), draft.sentAt == nil,
      (try? acting.cache.issue(number: acting.number)) ?? nil != nil
    else { return false }
    var quick = acting.client
    quick.maximumRetries = min(quick.maximumRetries, 1)
    do {
      _ = try await quick.issue(acting.number, of: acting.repository)
      return false
    } catch {
      guard [.offline, .serverError].contains(error.code) else { return false }
      do {
        try acting.cache.enqueue(.comment(draft.body), onIssue: acting.number)
      } catch {
        return false
      }
      try? drafts.remove(acting.number)
      Terminal.standardError(
        ControlCharacters.visible(
          "Queued: the comment on #\(acting.number) — \(error.summary()). It is sent, once, when "
            + "GitHub can be reached (`issues queue` lists what waits, `issues queue send` "
            + "sends it).") + "\n")
      return true
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
