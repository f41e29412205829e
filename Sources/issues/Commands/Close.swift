import ArgumentParser
import Foundation
import GitHubIssues
import TrellisTerminal

/// `issues close NUMBER`: closes an issue, as `gh issue close` does.
struct Close: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "close",
    abstract: "Close an issue.",
    discussion: """
      The cache shows it closed at once; if GitHub refuses, it is taken back and the reason \
      said. When GitHub cannot be reached it waits in the queue and is sent, once, when it \
      can (`issues queue`). Needs a token with write access.
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Option(
    name: [.customShort("r"), .long],
    help: ArgumentHelp(
      "Why: completed (the default) or \"not planned\".", valueName: "reason"))
  var reason: String?

  @Option(name: [.customShort("c"), .long], help: "Leave a comment before closing it.")
  var comment: String?

  func validate() throws {
    _ = try Self.closeReason(reason)
  }

  /// gh's reasons, written with a space, a dash or an underscore.
  static func closeReason(_ text: String?) throws -> IssueChange.CloseReason {
    guard let text else { return .completed }
    let key = text.lowercased().replacingOccurrences(of: "-", with: " ")
      .replacingOccurrences(of: "_", with: " ")
    switch key {
    case "completed", "complete", "done": return .completed
    case "not planned", "notplanned", "wontfix", "won't fix": return .notPlanned
    default:
      throw ValidationError(
        "--reason must be completed or \"not planned\", not “\(ControlCharacters.visible(text))”.")
    }
  }

  func run() async throws {
    let acting = try Acting(issue: issue, options: options)
    if let comment {
      try await CommentCommand.send(comment, acting: acting)
    }
    let reason = try Self.closeReason(reason)
    let closed: GitHubIssue?
    do {
      closed = try await acting.perform([.close(reason)])
    } catch let failure as CommandFailure where comment != nil {
      // The comment is on GitHub: "Nothing changed" would not be true.
      let said = failure.description.replacingOccurrences(
        of: " Nothing changed.", with: " The issue was not closed.")
      throw CommandFailure(said + " The comment was posted.")
    }
    // Queued: said on standard error.
    guard let closed else { return }
    print(
      ControlCharacters.visible(
        "Closed #\(closed.number) “\(closed.title)”"
          + (reason == .notPlanned ? " as not planned." : ".")))
  }
}
