import ArgumentParser
import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// `issues edit NUMBER`: changes an issue's milestone, labels and assignees, with gh's flags.
struct Edit: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit",
    abstract: "Change an issue's milestone, labels or assignees.",
    discussion: """
      Each change shows in the cache at once and is sent in order (milestone, labels added, \
      labels removed, assignees added, assignees removed). If one fails, the ones before it \
      stay (they are on GitHub) and the cache shows the issue as GitHub has it.
      """)

  @OptionGroup var issue: IssueArgument

  @OptionGroup var options: RepositoryOptions

  @Option(
    name: [.customShort("m"), .long],
    help: ArgumentHelp(
      "Put it in this milestone (its title or number; `none` to take it out).",
      valueName: "milestone"))
  var milestone: String?

  @Flag(help: "Take it out of its milestone.")
  var removeMilestone = false

  @Option(help: ArgumentHelp("Add a label (repeatable, or comma-separated).", valueName: "name"))
  var addLabel: [String] = []

  @Option(help: ArgumentHelp("Remove a label (repeatable, or comma-separated).", valueName: "name"))
  var removeLabel: [String] = []

  @Option(
    help: ArgumentHelp("Assign a login (repeatable, or comma-separated; @me).", valueName: "login"))
  var addAssignee: [String] = []

  @Option(
    help: ArgumentHelp(
      "Unassign a login (repeatable, or comma-separated; @me).", valueName: "login"))
  var removeAssignee: [String] = []

  func validate() throws {
    if milestone != nil && removeMilestone {
      throw ValidationError("Give --milestone or --remove-milestone, not both.")
    }
    if milestone == nil && !removeMilestone && addLabel.isEmpty && removeLabel.isEmpty
      && addAssignee.isEmpty && removeAssignee.isEmpty
    {
      throw ValidationError(
        "Nothing to change: give --milestone, --add-label, --remove-label, --add-assignee or "
          + "--remove-assignee.")
    }
    for login in Self.split(addAssignee + removeAssignee) where login != "@me" {
      guard SearchQuery.isLogin(login) else {
        throw ValidationError("“\(ControlCharacters.visible(login))” is not a GitHub login.")
      }
    }
    for label in Self.split(addLabel + removeLabel) where label.count > 100 {
      throw ValidationError("A label name is at most 100 characters: “\(label.prefix(20))…”.")
    }
  }

  static func split(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",") }.map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
  }

  func run() async throws {
    let acting = try Acting(issue: issue, options: options)
    var changes: [IssueChange] = []
    if removeMilestone {
      changes.append(.removeMilestone)
    } else if let milestone {
      if let number = try await acting.milestone(milestone) {
        changes.append(.setMilestone(number: number))
      } else {
        changes.append(.removeMilestone)
      }
    }
    let added = Self.split(addLabel)
    if !added.isEmpty { changes.append(.addLabels(added)) }
    for label in Self.split(removeLabel) { changes.append(.removeLabel(label)) }
    let assign = try await logins(Self.split(addAssignee), acting: acting)
    if !assign.isEmpty { changes.append(.addAssignees(assign)) }
    let unassign = try await logins(Self.split(removeAssignee), acting: acting)
    if !unassign.isEmpty { changes.append(.removeAssignees(unassign)) }
    guard let issue = try await acting.perform(changes) else { return }
    print(issue.htmlURL.map { ControlCharacters.visible($0) } ?? "Edited #\(issue.number).")
  }

  /// Logins with `@me` replaced by the token's owner.
  private func logins(_ logins: [String], acting: Acting) async throws -> [String] {
    let me = MeResolver(
      host: acting.host, cache: acting.cache, offline: false, timeout: options.timeout)
    var resolved: [String] = []
    for login in logins {
      resolved.append(try await me.login(login) ?? login)
    }
    return resolved
  }
}
