import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// What `issues view` prints.
///
/// A readable page for a terminal, gh's `key:<tab>value` header and body for a pipe. Text from
/// GitHub is shown, never interpreted (control characters become their pictures).
enum IssueView {
  /// The issue (and its comments, when given) for a terminal of `width` columns, Markdown
  /// rendered and wrapped.
  static func terminal(
    _ issue: CachedIssue, comments: [CachedComment]?, milestones: [Int: GitHubMilestone],
    width: Int, now: Date
  ) -> String {
    let width = max(20, min(width, 100))
    var lines: [String] = []
    lines.append(visible("\(issue.title) #\(issue.number)"))
    var facts = [
      issue.state == .open ? "Open" : "Closed",
      "\(issue.author) opened \(RelativeAge.ago(issue.createdAt, now: now))",
      "\(issue.comments) comment\(issue.comments == 1 ? "" : "s")",
    ]
    if issue.isPullRequest { facts.insert("pull request", at: 1) }
    lines.append(visible(facts.joined(separator: " · ")))
    if !issue.labels.isEmpty {
      lines.append(visible("Labels: " + issue.labels.joined(separator: ", ")))
    }
    if !issue.assignees.isEmpty {
      lines.append(visible("Assignees: " + issue.assignees.joined(separator: ", ")))
    }
    if let number = issue.milestoneNumber {
      lines.append(visible("Milestone: " + (milestones[number]?.title ?? "\(number)")))
    }
    lines.append("")
    lines += markdown(issue.body, width: width)
    if let comments {
      for comment in comments {
        lines.append("")
        lines.append(String(repeating: "─", count: width))
        var header = "\(comment.author) · \(RelativeAge.ago(comment.createdAt, now: now))"
        if let association = comment.authorAssociation, association != "NONE" {
          header += " · \(association.lowercased())"
        }
        if comment.isEdited { header += " · edited" }
        lines.append(visible(header))
        lines.append("")
        lines += markdown(comment.body, width: width)
        if !comment.reactions.isEmpty {
          lines.append(
            visible(
              comment.reactions.map {
                "\(GitHubComment.reactionSymbols[$0.content] ?? $0.content) \($0.count)"
              }
              .joined(separator: "  ")))
        }
      }
    }
    if let url = issue.htmlURL {
      lines.append("")
      lines.append(visible("View this issue on GitHub: \(url)"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// gh's piped format: `title:`, `state:`, `author:`, `labels:`, `comments:`, `assignees:`,
  /// `projects:`, `milestone:`, `number:` lines, `--`, the body; with comments, as gh does,
  /// only the comments, each as `author:`, `association:`, `edited:`, `status:` lines, `--`,
  /// its body, `--`.
  static func piped(
    _ issue: CachedIssue, comments: [CachedComment]?, milestones: [Int: GitHubMilestone]
  ) -> String {
    if let comments { return piped(comments) }
    var text = ""
    let header: [(String, String)] = [
      ("title", issue.title), ("state", issue.state == .open ? "OPEN" : "CLOSED"),
      ("author", issue.author), ("labels", issue.labels.joined(separator: ", ")),
      ("comments", String(issue.comments)), ("assignees", issue.assignees.joined(separator: ", ")),
      ("projects", ""),
      ("milestone", issue.milestoneNumber.flatMap { milestones[$0]?.title } ?? ""),
      ("number", String(issue.number)),
    ]
    for (key, value) in header { text += "\(key):\t\(oneLine(value))\n" }
    text += "--\n" + piped(issue.body ?? "") + "\n"
    return text
  }

  /// The comment blocks of gh's piped format.
  private static func piped(_ comments: [CachedComment]) -> String {
    var text = ""
    for comment in comments {
      text += "author:\t\(oneLine(comment.author))\n"
      text += "association:\t\(oneLine((comment.authorAssociation ?? "none").lowercased()))\n"
      text += "edited:\t\(comment.isEdited)\nstatus:\tnone\n"
      text += "--\n" + piped(comment.body) + "\n--\n"
    }
    return text
  }

  private static func visible(_ text: String) -> String { ControlCharacters.visible(text) }

  /// A value on one line: white space runs are one space, controls shown.
  private static func oneLine(_ text: String) -> String {
    visible(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
  }

  /// Text as GitHub has it, for a pipe, as gh prints bodies.
  ///
  /// Tabs, carriage returns and line feeds are kept; only what a terminal would act on
  /// (escape, bell, the other C0 and C1 controls, DEL) is made visible.
  private static func piped(_ text: String) -> String {
    let kept: Set<UInt32> = [0x09, 0x0A, 0x0D]
    func acts(_ scalar: Unicode.Scalar) -> Bool {
      !kept.contains(scalar.value)
        && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }
    guard text.unicodeScalars.contains(where: acts) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if acts(scalar) {
        result += visible(String(scalar))
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Markdown rendered to plain lines at a width.
  private static func markdown(_ text: String?, width: Int) -> [String] {
    guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return ["No description provided."]
    }
    return Markdown.render(text, width: width).map { line in
      visible(line.map(\.text).joined())
    }
  }
}
