import Foundation
import GitHubIssues
import TrellisTerminal

/// What the preview pane and the reader show of an issue.
enum IssuePreview {
  /// The lines describing an issue: title, facts, labels, then its body; a pull request's
  /// branches, size, mergeability and reviewers when its `details` were fetched.
  static func lines(
    of issue: CachedIssue, width: Int, milestones: [Int: GitHubMilestone],
    labelColors: [String: Color], now: Date, details: PullRequestDetails? = nil
  ) -> [StyledLine] {
    var lines: [StyledLine] = []
    let stateStyle = issue.state == .open ? Theme.open : Theme.closed
    let kind = issue.isPullRequest ? "pull request" : "issue"
    lines += Markdown.wrap(
      [
        StyledRun(issue.isProvisional ? "new, not filed yet: " : "#\(issue.number) ", Theme.dim),
        StyledRun(issue.title, Style(attributes: .bold)),
      ],
      width: width, first: "", rest: "")
    let state =
      switch (issue.state, issue.isDraft, issue.mergedAt != nil) {
      case (.open, true, _): "◌ draft"
      case (.open, false, _): "● open"
      case (.closed, _, true): "⇄ merged"
      case (.closed, _, false): "✔ closed"
      }
    var facts = [
      StyledRun("\(state) \(kind)", issue.isDraft ? Theme.dim : stateStyle),
      StyledRun(" · \(issue.author)", Theme.accent),
      StyledRun(
        " · opened \(LocalTime.day(issue.createdAt)) · updated \(RelativeAge.ago(issue.updatedAt, now: now))",
        Theme.dim),
    ]
    if issue.comments > 0 { facts.append(StyledRun(" · 💬 \(issue.comments)", Theme.dim)) }
    lines += Markdown.wrap(facts, width: width, first: "", rest: "")
    if issue.isPullRequest, issue.reviewDecision != nil || issue.checks != nil {
      var review: [StyledRun] = []
      if let decision = issue.reviewDecision {
        review.append(Self.review(decision))
      }
      if let checks = issue.checks {
        if !review.isEmpty { review.append(StyledRun(" · ", Theme.dim)) }
        review.append(Self.checks(checks))
      }
      lines += Markdown.wrap(review, width: width, first: "", rest: "")
    }
    if let details {
      lines += Markdown.wrap(Self.branches(details), width: width, first: "", rest: "  ")
    }
    if let number = issue.milestoneNumber, let milestone = milestones[number] {
      lines.append([StyledRun("◆ " + milestone.title, Theme.warning)])
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

  /// `feature → main · +12 −3 · conflicts · asks mona, acme/core`: where a pull request goes,
  /// how big it is, whether it merges, and who is asked to review.
  static func branches(_ details: PullRequestDetails) -> [StyledRun] {
    var runs = [
      StyledRun(details.headRef, Theme.accent), StyledRun(" → ", Theme.dim),
      StyledRun(details.baseRef, Theme.accent), StyledRun(" · ", Theme.dim),
      StyledRun("+\(details.additions)", Theme.open),
      StyledRun(" −\(details.deletions)", Theme.failure),
    ]
    switch details.mergeable {
    case .conflicting: runs.append(StyledRun(" · conflicts", Theme.failure))
    case .mergeable, .unknown: break
    }
    if !details.requestedReviewers.isEmpty {
      runs.append(
        StyledRun(" · asks " + details.requestedReviewers.joined(separator: ", "), Theme.dim))
    }
    return runs
  }

  /// A review decision, said with its colour.
  static func review(_ decision: PullRequestDetails.ReviewDecision) -> StyledRun {
    switch decision {
    case .approved: StyledRun("✓ approved", Theme.open)
    case .changesRequested: StyledRun("± changes requested", Theme.failure)
    case .reviewRequired: StyledRun("◷ review required", Theme.warning)
    }
  }

  /// A checks rollup, said with its colour.
  static func checks(_ checks: PullRequestDetails.Checks) -> StyledRun {
    switch checks {
    case .passing: StyledRun("✓ checks passing", Theme.open)
    case .failing: StyledRun("✗ checks failing", Theme.failure)
    case .pending: StyledRun("● checks pending", Theme.warning)
    }
  }
}
