import Foundation
import GitHubIssues
import TrellisTerminal

/// What the preview pane and the reader show of an issue.
enum IssuePreview {
  /// The lines describing an issue: title, facts, labels, then its body.
  static func lines(
    of issue: CachedIssue, width: Int, milestones: [Int: GitHubMilestone],
    labelColors: [String: Color], now: Date
  ) -> [StyledLine] {
    var lines: [StyledLine] = []
    let stateStyle = issue.state == .open ? Theme.open : Theme.closed
    let kind = issue.isPullRequest ? "pull request" : "issue"
    lines += Markdown.wrap(
      [
        StyledRun("#\(issue.number) ", Theme.dim), StyledRun(issue.title, Style(attributes: .bold)),
      ],
      width: width, first: "", rest: "")
    var facts = [
      StyledRun("\(issue.state == .open ? "● open" : "✔ closed") \(kind)", stateStyle),
      StyledRun(" · \(issue.author)", Style(foreground: .cyan)),
      StyledRun(
        " · opened \(LocalTime.day(issue.createdAt)) · updated \(RelativeAge.ago(issue.updatedAt, now: now))",
        Theme.dim),
    ]
    if issue.comments > 0 { facts.append(StyledRun(" · 💬 \(issue.comments)", Theme.dim)) }
    lines += Markdown.wrap(facts, width: width, first: "", rest: "")
    if let number = issue.milestoneNumber, let milestone = milestones[number] {
      lines.append([StyledRun("◆ " + milestone.title, Style(foreground: .yellow))])
    }
    if !issue.labels.isEmpty {
      var runs: [StyledRun] = []
      for label in issue.labels {
        if !runs.isEmpty { runs.append(StyledRun(" ")) }
        runs.append(StyledRun(label, Style(foreground: labelColors[label] ?? .yellow)))
      }
      lines += Markdown.wrap(runs, width: width, first: "", rest: "")
    }
    lines.append([StyledRun(String(repeating: "─", count: max(0, width)), Theme.dim)])
    let body = issue.body ?? ""
    if body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      lines.append([StyledRun("No description provided.", Theme.dim.with(.italic))])
    } else {
      lines += Markdown.render(body, width: width)
    }
    return lines
  }
}
