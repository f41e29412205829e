import Foundation
import GitHubIssues
import IssuesBrowser
import TrellisTerminal

/// What `issues view` prints.
///
/// A readable page for a terminal, gh's `key:<tab>value` header and body for a pipe. Text from
/// GitHub is shown, never interpreted (control characters become their pictures).
enum IssueView {
  /// A post of the conversation: a comment, or a pull request's review with its threads.
  enum Post {
    case comment(CachedComment)
    case review(PullRequestReview)

    var date: Date {
      switch self {
      case .comment(let comment): comment.createdAt
      case .review(let review): review.submittedAt ?? .distantFuture
      }
    }

    /// Comments and reviews in the order they were written.
    static func merged(_ comments: [CachedComment], _ reviews: [PullRequestReview]) -> [Post] {
      var posts: [Post] = []
      var reviews = reviews.sorted {
        ($0.submittedAt ?? .distantFuture) < ($1.submittedAt ?? .distantFuture)
      }[...]
      for comment in comments {
        while let review = reviews.first, (review.submittedAt ?? .distantFuture) < comment.createdAt
        {
          posts.append(.review(review))
          reviews.removeFirst()
        }
        posts.append(.comment(comment))
      }
      return posts + reviews.map(Post.review)
    }
  }

  /// The issue (and its comments, with a pull request's reviews, when given) for a terminal of
  /// `width` columns, Markdown rendered and wrapped.
  static func terminal(
    _ issue: CachedIssue, comments: [CachedComment]?, reviews: [PullRequestReview] = [],
    milestones: [Int: GitHubMilestone], width: Int, now: Date
  ) -> String {
    let width = max(20, min(width, 100))
    var lines: [String] = []
    lines.append(visible("\(issue.title) #\(issue.number)"))
    var facts = [
      issue.state == .open ? "Open" : issue.mergedAt != nil ? "Merged" : "Closed",
      "\(ghLogin(issue.author)) opened \(RelativeAge.ago(issue.createdAt, now: now))",
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
    for post in comments.map({ Post.merged($0, reviews) }) ?? [] {
      switch post {
      case .review(let review):
        lines += terminal(review, width: width, now: now)
      case .comment(let comment):
        lines.append("")
        lines.append(String(repeating: "─", count: width))
        var header = "\(ghLogin(comment.author)) · \(RelativeAge.ago(comment.createdAt, now: now))"
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

  /// A review for a terminal: its verdict and summary, then each thread of line comments under
  /// the file and line it is on.
  private static func terminal(_ review: PullRequestReview, width: Int, now: Date) -> [String] {
    var lines = ["", String(repeating: "─", count: width)]
    var header = "\(ghLogin(review.author)) · \(review.verdict)"
    if let at = review.submittedAt { header += " · \(RelativeAge.ago(at, now: now))" }
    if let association = review.authorAssociation, association != "NONE" {
      header += " · \(association.lowercased())"
    }
    lines.append(visible(header))
    if !review.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      lines.append("")
      lines += markdown(review.body, width: width)
    }
    for thread in review.threads {
      guard let first = thread.comments.first else { continue }
      lines.append("")
      lines.append(
        visible("▸ " + (first.line.map { "\(first.path):\($0)" } ?? "\(first.path) (outdated)")))
      for comment in thread.comments {
        lines.append(
          visible("│ \(ghLogin(comment.author)) · \(RelativeAge.ago(comment.createdAt, now: now))"))
        lines += markdown(comment.body, width: max(10, width - 2)).map { "│ " + $0 }
      }
    }
    return lines
  }

  /// gh's piped format, the issue's header and body or, with comments, its conversation.
  ///
  /// The header is `title:`, `state:`, `author:`, `labels:`, `comments:`, `assignees:`,
  /// `projects:`, `milestone:`, `number:` lines, `--`, the body; with comments, as gh does,
  /// only the comments, each as `author:`, `association:`, `edited:`, `status:` lines, `--`,
  /// its body, `--`. A pull request's reviews are blocks among them with their verdict as
  /// `status:`, each line comment a block after its review with `status: line comment` and
  /// `path:` and `line:`.
  static func piped(
    _ issue: CachedIssue, comments: [CachedComment]?, reviews: [PullRequestReview] = [],
    milestones: [Int: GitHubMilestone]
  ) -> String {
    if let comments { return piped(Post.merged(comments, reviews)) }
    var text = ""
    let header: [(String, String)] = [
      ("title", issue.title), ("state", PullRequestJSON.state(issue)),
      ("author", ghLogin(issue.author)), ("labels", issue.labels.joined(separator: ", ")),
      ("comments", String(issue.comments)), ("assignees", issue.assignees.joined(separator: ", ")),
      ("projects", ""),
      ("milestone", issue.milestoneNumber.flatMap { milestones[$0]?.title } ?? ""),
      ("number", String(issue.number)),
    ]
    for (key, value) in header { text += "\(key):\t\(oneLine(value))\n" }
    text += "--\n" + piped(issue.body ?? "") + "\n"
    return text
  }

  /// A login as gh prints it in text: a bot without `[bot]` (GraphQL's `Bot.login`).
  static func ghLogin(_ login: String) -> String {
    login.hasSuffix("[bot]") ? String(login.dropLast("[bot]".count)) : login
  }

  /// A review's `status:` in gh's piped format: its state in words for approved, changes
  /// requested, commented and dismissed; `none` for any other (gh's `formatRawCommentStatus`).
  static func rawStatus(_ state: String) -> String {
    switch state {
    case "APPROVED": "approved"
    case "CHANGES_REQUESTED": "changes requested"
    case "COMMENTED": "commented"
    case "DISMISSED": "dismissed"
    default: "none"
    }
  }

  /// The comment blocks of gh's piped format.
  private static func piped(_ posts: [Post]) -> String {
    var text = ""
    func block(
      _ author: String, _ association: String?, edited: Bool, status: String,
      extra: [(String, String)] = [], _ body: String
    ) {
      text += "author:\t\(oneLine(ghLogin(author)))\n"
      text += "association:\t\(oneLine((association ?? "none").lowercased()))\n"
      text += "edited:\t\(edited)\nstatus:\t\(status)\n"
      for (key, value) in extra { text += "\(key):\t\(oneLine(value))\n" }
      text += "--\n" + piped(body) + "\n--\n"
    }
    for post in posts {
      switch post {
      case .comment(let comment):
        block(
          comment.author, comment.authorAssociation, edited: comment.isEdited, status: "none",
          comment.body)
      case .review(let review):
        block(
          review.author, review.authorAssociation, edited: false, status: rawStatus(review.state),
          review.body)
        for comment in review.threads.flatMap(\.comments) {
          block(
            comment.author, comment.authorAssociation, edited: false, status: "line comment",
            extra: [("path", comment.path), ("line", comment.line.map(String.init) ?? "outdated")],
            comment.body)
        }
      }
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
