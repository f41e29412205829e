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
/// post written before them.
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

  init(number: Int) { self.number = number }

  /// Whether comments of the cache are not in the reader yet.
  var hasBacklog: Bool { nextComment < cachedCommentCount }

  /// How many posts the reader has built.
  var postCount: Int { posts.count }

  /// Starts again from the issue's own post: the comments and events are placed anew.
  mutating func restart(
    issue: CachedIssue, lines: [StyledLine], commentCount: Int,
    events: [CachedTimelineEvent], now: Date
  ) -> Snapshot<Int64, ReaderLine> {
    posts = [:]
    nextComment = 0
    cachedCommentCount = commentCount
    self.events = events[...]
    var snapshot = Snapshot<Int64, ReaderLine>()
    add(
      0,
      ReaderPost(
        header: SectionHeaderCell(
          title: issue.author, detail: "opened \(RelativeAge.ago(issue.createdAt, now: now))"),
        lines: lines), to: &snapshot)
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
      appendEvents(before: comment.createdAt, to: &snapshot, now: now)
      add(comment.id, Self.post(comment, width: width, now: now), to: &snapshot)
    }
  }

  /// Ends the conversation once the backlog is placed: the events left, then a line saying
  /// where the comments stand when they are not all there.
  mutating func finish(
    issue: CachedIssue, to snapshot: inout Snapshot<Int64, ReaderLine>, now: Date
  ) {
    guard !hasBacklog else { return }
    appendEvents(before: nil, to: &snapshot, now: now)
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

  /// Appends the events before `date` (all when `nil`) to the last post, then a blank line.
  private mutating func appendEvents(
    before date: Date?, to snapshot: inout Snapshot<Int64, ReaderLine>, now: Date
  ) {
    var lines: [StyledLine] = []
    while let event = events.first {
      // An event without a time waits for the end.
      if let date { guard let at = event.createdAt, at < date else { break } }
      events.removeFirst()
      let age = event.createdAt.map { " · \(RelativeAge.ago($0, now: now))" } ?? ""
      lines.append([
        StyledRun("↳ ", Theme.dim), StyledRun(event.actor, Theme.dim.with(.bold)),
        StyledRun(" \(event.sentence)\(age)", Theme.dim),
      ])
    }
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
