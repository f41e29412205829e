import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// A line of the reader: line `line` of post `post` (the issue is post 0, a comment its id).
struct ReaderLine: Hashable, Sendable {
  var post: Int64
  var line: Int
}

/// What the reader shows of one post.
struct ReaderPost {
  var header: SectionHeaderCell
  var lines: [StyledLine]
}

/// The conversation in the reader as a value: the issue, where fetching its comments stands,
/// the posts built so far, and what of the cache is not in them yet.
///
/// Posts are built a batch at a time into the reader's snapshot (a section per post, a row per
/// line), so that a long thread costs its first screen to open; timeline events go under the
/// post written before them. A pull request's checks follow its description, and its reviews
/// (each with its threads of line comments) are posts among the comments, in time order.
struct ReaderModel {
  /// Where fetching the conversation from GitHub stands.
  enum Fetch: Hashable {
    case idle
    case fetching
    case done
    case failed(String)
  }

  /// The post id of the line saying where the comments stand (loading, or why they are not).
  static let commentStatusPost: Int64 = -1
  /// The post id of a pull request's checks.
  static let checksPost: Int64 = -2
  /// The post id of the issue's actions waiting in the queue.
  static let queuePost: Int64 = -3

  /// The post id of a review: negative, apart from comments' ids and the posts above.
  static func post(ofReview id: Int64) -> Int64 {
    id > 0 ? -1_000 &- id &* 2 : -1_001 &- (0 &- id) &* 2
  }

  /// The issue read.
  let number: Int
  var fetch = Fetch.idle
  /// What the reader shows, by post.
  private(set) var posts: [Int64: ReaderPost] = [:]
  /// The position of the first cached comment not in the reader yet.
  private(set) var nextComment = 0
  /// How many comments the cache held when the reader was built.
  private(set) var cachedCommentCount = 0
  /// The timeline events not placed yet, oldest first.
  private var events: ArraySlice<CachedTimelineEvent> = []
  /// The reviews not placed yet, oldest first.
  private var reviews: ArraySlice<PullRequestReview> = []

  init(number: Int) { self.number = number }

  /// Whether comments of the cache are not in the reader yet.
  var hasBacklog: Bool { nextComment < cachedCommentCount }

  /// How many posts the reader has built.
  var postCount: Int { posts.count }

  /// Starts again from the issue's own post: the comments and events are placed anew.
  mutating func restart(
    issue: CachedIssue, lines: [StyledLine], commentCount: Int,
    events: [CachedTimelineEvent], reviews: [PullRequestReview] = [],
    checks: (checks: [PullRequestCheck], announced: Int)? = nil, queued: [QueuedAction] = [],
    milestoneTitles: [Int: String] = [:], now: Date
  ) -> Snapshot<Int64, ReaderLine> {
    posts = [:]
    nextComment = 0
    cachedCommentCount = commentCount
    self.events = events[...]
    self.reviews = reviews[...]
    var snapshot = Snapshot<Int64, ReaderLine>()
    // What waits in the queue comes first: the person may have to choose.
    if !queued.isEmpty {
      add(Self.queuePost, Self.post(queued, titles: milestoneTitles), to: &snapshot)
    }
    add(
      0,
      ReaderPost(
        header: SectionHeaderCell(
          title: issue.author, detail: "opened \(RelativeAge.ago(issue.createdAt, now: now))"),
        lines: lines), to: &snapshot)
    if let checks, !checks.checks.isEmpty {
      add(Self.checksPost, Self.post(checks.checks, announced: checks.announced), to: &snapshot)
    }
    return snapshot
  }

  /// Appends a batch of comments read from the cache (from ``nextComment``), each after the
  /// events that came before it.
  mutating func append(
    _ batch: [CachedComment], to snapshot: inout Snapshot<Int64, ReaderLine>, width: Int,
    now: Date
  ) {
    nextComment = batch.isEmpty ? cachedCommentCount : nextComment + batch.count
    for comment in batch where posts[comment.id] == nil {
      appendTimeline(before: comment.createdAt, to: &snapshot, width: width, now: now)
      add(comment.id, Self.post(comment, width: width, now: now), to: &snapshot)
    }
  }

  /// Ends the conversation once the backlog is placed: the events left, then a line saying
  /// where the comments stand when they are not all there.
  mutating func finish(
    issue: CachedIssue, to snapshot: inout Snapshot<Int64, ReaderLine>, width: Int, now: Date
  ) {
    guard !hasBacklog else { return }
    appendTimeline(before: nil, to: &snapshot, width: width, now: now)
    if let status = commentStatus(announced: issue.comments) {
      add(Self.commentStatusPost, status, to: &snapshot)
    }
  }

  private mutating func add(
    _ id: Int64, _ post: ReaderPost, to snapshot: inout Snapshot<Int64, ReaderLine>
  ) {
    posts[id] = post
    snapshot.appendSections([id])
    snapshot.appendItems(post.lines.indices.map { ReaderLine(post: id, line: $0) }, toSection: id)
  }

  /// Places what happened before `date` (all when `nil`), oldest first: events as lines under
  /// the last post (then a blank line), reviews as posts of their own.
  private mutating func appendTimeline(
    before date: Date?, to snapshot: inout Snapshot<Int64, ReaderLine>, width: Int, now: Date
  ) {
    // Something without a time waits for the end.
    func due(_ at: Date?) -> Bool {
      guard let date else { return true }
      guard let at else { return false }
      return at < date
    }
    var lines: [StyledLine] = []
    while true {
      let event = events.first.flatMap { due($0.createdAt) ? $0 : nil }
      let review = reviews.first.flatMap { due($0.submittedAt) ? $0 : nil }
      if let event,
        review == nil
          || (event.createdAt ?? .distantFuture) <= (review?.submittedAt ?? .distantFuture)
      {
        events.removeFirst()
        let age = event.createdAt.map { " · \(RelativeAge.ago($0, now: now))" } ?? ""
        lines.append([
          StyledRun("↳ ", Theme.dim), StyledRun(event.actor, Theme.dim.with(.bold)),
          StyledRun(" \(event.sentence)\(age)", Theme.dim),
        ])
      } else if let review {
        reviews.removeFirst()
        appendToLastPost(lines, to: &snapshot)
        lines = []
        add(
          Self.post(ofReview: review.id), Self.post(review, width: width, now: now),
          to: &snapshot)
      } else {
        break
      }
    }
    appendToLastPost(lines, to: &snapshot)
  }

  /// Appends event lines, then a blank line, to the last post.
  private mutating func appendToLastPost(
    _ lines: [StyledLine], to snapshot: inout Snapshot<Int64, ReaderLine>
  ) {
    guard !lines.isEmpty,
      let last = snapshot.sectionIdentifiers.last(where: { $0 != Self.commentStatusPost }),
      var post = posts[last]
    else { return }
    let start = post.lines.count
    post.lines += lines + [[]]
    posts[last] = post
    snapshot.appendItems(
      (start..<post.lines.count).map { ReaderLine(post: last, line: $0) }, toSection: last)
  }

  /// A review's header and lines: its summary, then each thread of line comments under the
  /// file and line it is on and the end of the diff it points at.
  static func post(_ review: PullRequestReview, width: Int, now: Date) -> ReaderPost {
    var detail = review.verdict
    if let at = review.submittedAt { detail += " · \(RelativeAge.ago(at, now: now))" }
    if let association = review.authorAssociation, association != "NONE" {
      detail += " · \(association.lowercased())"
    }
    var lines: [StyledLine] = []
    let verdictStyle: Style =
      switch review.state {
      case "APPROVED": Theme.open
      case "CHANGES_REQUESTED": Theme.failure
      default: Theme.dim
      }
    if !review.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      lines += Markdown.render(review.body, width: width)
    } else if review.threads.isEmpty {
      lines.append([StyledRun(review.verdict, verdictStyle.with(.italic))])
    }
    let inner = max(10, width - 2)
    for thread in review.threads {
      guard let first = thread.comments.first else { continue }
      if !lines.isEmpty { lines.append([]) }
      let place = first.line.map { "\(first.path):\($0)" } ?? "\(first.path) (outdated)"
      lines.append([StyledRun("▸ \(place)", Theme.dim.with(.bold))])
      // The hunk ends at the line commented on: its last lines are the context.
      // One that cannot be read shows as it came, plainly.
      let hunk =
        (try? Patch(parsing: first.diffHunk, lastHunkMayEndEarly: true))?.hunks.last?.lines
        .suffix(3)
        ?? first.diffHunk.split(separator: "\n").suffix(3).map {
          DiffLine(kind: .context, text: String($0.dropFirst()))
        }[...]
      for line in hunk {
        let style: Style =
          switch line.kind {
          case .added: Theme.open
          case .removed: Theme.failure
          case .context, .noNewline: Theme.dim
          }
        lines.append(
          [StyledRun("  " + String(line.patchText.prefix(max(1, width - 2))), style)])
      }
      for comment in thread.comments {
        lines.append([
          StyledRun("│ ", Theme.dim), StyledRun(comment.author, Style().with(.bold)),
          StyledRun(" · \(RelativeAge.ago(comment.createdAt, now: now))", Theme.dim),
        ])
        for line in Markdown.render(comment.body, width: inner) {
          lines.append([StyledRun("│ ", Theme.dim)] + line)
        }
      }
    }
    lines.append([])
    return ReaderPost(
      header: SectionHeaderCell(title: review.author, detail: detail), lines: lines)
  }

  /// The issue's actions waiting in the queue, and what the person can do about them.
  static func post(_ queued: [QueuedAction], titles: [Int: String]) -> ReaderPost {
    var lines: [StyledLine] = queued.map { action in
      let what = action.operation.describe(issue: action.issueNumber, milestoneTitles: titles)
      switch action.status {
      case .conflict(let reason):
        return [
          StyledRun("! ", Theme.failure.with(.bold)), StyledRun(what),
          StyledRun(" — \(reason)", Theme.failure),
        ]
      case .sending:
        return [
          StyledRun("⇡ ", Theme.warning), StyledRun(what),
          StyledRun(" — sent without an answer: checked on GitHub before any resend", Theme.dim),
        ]
      default:
        return [
          StyledRun("⇡ ", Theme.warning), StyledRun(what),
          StyledRun(" — sent when GitHub can be reached", Theme.dim),
        ]
      }
    }
    let conflicts = queued.contains {
      if case .conflict = $0.status { return true }
      return false
    }
    lines.append([
      StyledRun(
        (conflicts ? "F sends those in conflict anyway · " : "") + "U cancels those not sent",
        Theme.dim.with(.italic))
    ])
    lines.append([])
    return ReaderPost(
      header: SectionHeaderCell(
        title: "Queued", detail: "\(queued.count) action\(queued.count == 1 ? "" : "s")"),
      lines: lines)
  }

  /// The checks of a pull request's head commit: failing first, then pending, passing, and
  /// those without a verdict.
  static func post(_ checks: [PullRequestCheck], announced: Int) -> ReaderPost {
    let order: [PullRequestCheck.State] = [.failing, .pending, .passing, .neutral]
    let sorted = checks.enumerated().sorted {
      let (left, right) = (
        order.firstIndex(of: $0.element.state) ?? 0, order.firstIndex(of: $1.element.state) ?? 0
      )
      return (left, $0.offset) < (right, $1.offset)
    }.map(\.element)
    var counts: [String] = []
    for state in order {
      let count = checks.count { $0.state == state }
      guard count > 0 else { continue }
      counts.append("\(count) \(state.rawValue)")
    }
    var lines: [StyledLine] = sorted.map { check in
      let (symbol, style): (String, Style) =
        switch check.state {
        case .passing: ("✓", Theme.open)
        case .failing: ("✗", Theme.failure)
        case .pending: ("●", Theme.warning)
        case .neutral: ("–", Theme.dim)
        }
      return [StyledRun("\(symbol) ", style), StyledRun(check.name)]
    }
    if announced > checks.count {
      lines.append([
        StyledRun("… and \(announced - checks.count) more on GitHub", Theme.dim.with(.italic))
      ])
    }
    lines.append([])
    return ReaderPost(
      header: SectionHeaderCell(title: "Checks", detail: counts.joined(separator: " · ")),
      lines: lines)
  }

  /// A comment's header and lines: Markdown at the reader's width, then its reactions.
  static func post(_ comment: CachedComment, width: Int, now: Date) -> ReaderPost {
    var detail = "\(RelativeAge.ago(comment.createdAt, now: now))"
    if let association = comment.authorAssociation, association != "NONE" {
      detail += " · \(association.lowercased())"
    }
    if comment.isEdited { detail += " · edited" }
    var lines = Markdown.render(comment.body, width: width)
    if !comment.reactions.isEmpty {
      let counts = comment.reactions.map {
        "\(GitHubComment.reactionSymbols[$0.content] ?? $0.content) \($0.count)"
      }
      lines.append([StyledRun(counts.joined(separator: "  "), Theme.dim)])
    }
    lines.append([])
    return ReaderPost(
      header: SectionHeaderCell(title: comment.author, detail: detail), lines: lines)
  }

  /// The post under the comments while they are fetched or when they could not be.
  func commentStatus(announced: Int) -> ReaderPost? {
    let cached = cachedCommentCount
    let text: String
    switch fetch {
    case .fetching where announced == 0: text = "Fetching the conversation…"
    case .fetching: text = "Fetching \(announced) comment\(announced == 1 ? "" : "s")…"
    case .failed(let reason):
      text =
        "Could not fetch the comments: \(reason)"
        + (cached > 0 ? " (showing the \(cached) cached)" : "")
    case .done where cached < announced:
      text =
        "\(cached) of the \(announced) comments the issue announces could be fetched: the "
        + "listing was incomplete, and nothing was deleted."
    case .idle:
      guard cached < announced else { return nil }
      text =
        "\(cached) of the \(announced) comments are in the cache: the others are fetched "
        + "when the issue is read online."
    case .done: return nil
    }
    return ReaderPost(
      header: SectionHeaderCell(title: "Comments", detail: ""),
      lines: [[StyledRun(text, Theme.dim.with(.italic))]])
  }
}
