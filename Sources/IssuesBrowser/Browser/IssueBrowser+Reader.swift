import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// The reader: an issue and its conversation, full screen, as a list of posts (the issue, then
// each comment) whose author headers stay pinned while a long post scrolls under them.

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

extension IssueBrowser {
  /// The post id of the line saying where the comments stand (loading, or why they are not).
  static let commentStatusPost: Int64 = -1

  /// Opens the focused issue in the reader, with the comments the cache holds, and asks the host
  /// for them (``BrowserEffect/fetchConversation(_:)``) unless they are current.
  func openReader() {
    guard let number = list.focusedItem,
      let issue = cacheRead("#\(number)", { try cache.issue(number: number) })
    else {
      return
    }
    state.mode = .reading
    conversation = ConversationState(number: number)
    let current =
      cacheRead("the comments of #\(number)") {
        try cache.commentsAreCurrent(of: number)
      } ?? false
    if issue.comments > 0 && !current {
      conversation?.fetch = .fetching
      pendingEffects.append(.fetchConversation(number))
    }
    rebuildReader(issue: issue, scrollingToTop: true)
    if savedDrafts.contains(number) {
      show(message: "A comment draft for #\(number) is saved: c opens it to send it.")
    }
  }

  /// Takes the host's answer to ``BrowserEffect/fetchConversation(_:)``: the reader shows what
  /// the cache now holds (only the lines that changed are drawn again), or why it could not.
  public func conversationFetched(_ number: Int, _ result: Result<Void, HostFailure>) {
    guard conversation?.number == number else { return }
    switch result {
    case .success: conversation?.fetch = .done
    case .failure(let failure): conversation?.fetch = .failed(failure.message)
    }
    guard case .reading = state.mode,
      let issue = cacheRead("#\(number)", { try cache.issue(number: number) })
    else { return }
    previews.forget([number])
    rebuildReader(issue: issue, scrollingToTop: false)
  }

  /// Reads the issue and its comments from the cache into the reader's snapshot.
  ///
  /// Markdown is rendered progressively: what fills the first screens (or, when the reader was
  /// already open, as many posts as it had rendered) now, the rest a batch per ``tick()`` or at
  /// once when a key scrolls toward it, so that opening a long thread costs its first screen.
  func rebuildReader(issue: CachedIssue, scrollingToTop: Bool) {
    let rendered = scrollingToTop ? 0 : readerPosts.count - 1
    var posts: [(Int64, ReaderPost)] = []
    posts.append(
      (
        0,
        ReaderPost(
          header: SectionHeaderCell(
            title: issue.author,
            detail: "opened \(RelativeAge.ago(issue.createdAt, now: now()))"),
          lines: focusedPreview(width: readerTextWidth) ?? [])
      ))
    cachedCommentCount =
      cacheRead("the comments of #\(issue.number)") { try cache.commentCount(of: issue.number) }
      ?? 0
    readerNextComment = 0
    readerEvents =
      (cacheRead("the events of #\(issue.number)") { try cache.timeline(of: issue.number) } ?? [])[
        ...]
    var lines = posts[0].1.lines.count
    // One screen now (Markdown costs a few hundred microseconds a comment); the rest later.
    let screens = max(1, readerArea.height) + 1
    // Read in batches, so that a long thread is not read whole to show its first screen.
    while readerNextComment < cachedCommentCount, lines < screens || posts.count <= rendered {
      let batch =
        cacheRead("the comments of #\(issue.number)") {
          try cache.comments(
            of: issue.number, offset: readerNextComment,
            limit: max(8, rendered - posts.count + 1))
        } ?? []
      guard !batch.isEmpty else { break }
      for comment in batch {
        let events = eventLines(before: comment.createdAt)
        posts[posts.count - 1].1.lines += events
        let post = readerPost(comment)
        lines += post.lines.count + events.count
        posts.append((comment.id, post))
      }
      readerNextComment += batch.count
    }
    if !hasReaderBacklog { posts[posts.count - 1].1.lines += eventLines(before: nil) }
    if !hasReaderBacklog, let status = commentStatus(issue: issue, cached: cachedCommentCount) {
      posts.append((Self.commentStatusPost, status))
    }
    readerPosts = Dictionary(uniqueKeysWithValues: posts)
    installReaderProviders()
    let snapshot = Snapshot(
      sections: posts.map { id, post in
        (id, post.lines.indices.map { ReaderLine(post: id, line: $0) })
      })
    if scrollingToTop {
      reader.dataSource.applySnapshotUsingReloadData(snapshot)
      reader.setContentOffset(.zero)
    } else {
      // Lines whose text changed (an edited comment) are redrawn; the rest move or stay.
      let old = reader.dataSource.snapshot()
      reader.dataSource.apply(snapshot) { line in
        old.contains(item: line) ? .reconfigure : nil
      }
      reader.setNeedsDisplay()
    }
  }

  /// Whether comments of the cache are not in the reader yet.
  var hasReaderBacklog: Bool { readerNextComment < cachedCommentCount }

  /// Renders up to `limit` more comments of the backlog (all when `nil`) and appends them.
  func renderReaderBacklog(limit: Int?) {
    guard hasReaderBacklog, let number = conversation?.number else { return }
    var snapshot = reader.dataSource.snapshot()
    let batch =
      cacheRead("the comments of #\(number)") {
        try cache.comments(of: number, offset: readerNextComment, limit: limit)
      } ?? []
    readerNextComment = batch.isEmpty ? cachedCommentCount : readerNextComment + batch.count
    for comment in batch where readerPosts[comment.id] == nil {
      appendEvents(before: comment.createdAt, to: &snapshot)
      let post = readerPost(comment)
      readerPosts[comment.id] = post
      snapshot.appendSections([comment.id])
      snapshot.appendItems(
        post.lines.indices.map { ReaderLine(post: comment.id, line: $0) }, toSection: comment.id)
    }
    if !hasReaderBacklog { appendEvents(before: nil, to: &snapshot) }
    if !hasReaderBacklog, let issue = cacheRead("#\(number)", { try cache.issue(number: number) }),
      let status = commentStatus(issue: issue, cached: cachedCommentCount)
    {
      readerPosts[Self.commentStatusPost] = status
      snapshot.appendSections([Self.commentStatusPost])
      snapshot.appendItems(
        status.lines.indices.map { ReaderLine(post: Self.commentStatusPost, line: $0) },
        toSection: Self.commentStatusPost)
    }
    installReaderProviders()
    reader.dataSource.apply(snapshot)
  }

  /// The lines of the timeline events not shown yet that happened before `date` (all of them
  /// when `nil`), followed by a blank line; none when there are none.
  func eventLines(before date: Date?) -> [StyledLine] {
    var lines: [StyledLine] = []
    while let event = readerEvents.first {
      if let date {
        // An event without a time waits for the end.
        guard let at = event.createdAt, at < date else { break }
      }
      readerEvents.removeFirst()
      let age = event.createdAt.map { " · \(RelativeAge.ago($0, now: now()))" } ?? ""
      lines.append([
        StyledRun("↳ ", Theme.dim), StyledRun(event.actor, Theme.dim.with(.bold)),
        StyledRun(" \(event.sentence)\(age)", Theme.dim),
      ])
    }
    return lines.isEmpty ? [] : lines + [[]]
  }

  /// Appends the events before `date` to the last post in the reader's snapshot.
  private func appendEvents(before date: Date?, to snapshot: inout Snapshot<Int64, ReaderLine>) {
    guard let last = snapshot.sectionIdentifiers.last(where: { $0 != Self.commentStatusPost }),
      var post = readerPosts[last]
    else { return }
    let lines = eventLines(before: date)
    guard !lines.isEmpty else { return }
    let start = post.lines.count
    post.lines += lines
    readerPosts[last] = post
    snapshot.appendItems(
      (start..<post.lines.count).map { ReaderLine(post: last, line: $0) }, toSection: last)
  }

  /// Renders the backlog as far as a scroll of `distance` lines needs (all of it for the end).
  func prepareReaderScroll(by distance: Int) {
    guard hasReaderBacklog else { return }
    let bottom = reader.viewport.maxY + Double(max(0, distance))
    let content = Double(reader.dataSource.snapshot().numberOfItems)
    if distance >= Int.max / 4 {
      renderReaderBacklog(limit: nil)
    } else if bottom + Double(readerArea.height) >= content {
      renderReaderBacklog(limit: max(10, distance / 2))
    }
  }

  private func installReaderProviders() {
    let posts = readerPosts
    readerCells.make = { _, line in
      TextLineCell(line: posts[line.post]?.lines[line.line] ?? [], indent: 2)
    }
    reader.dataSource.supplementaryProvider = { _, _, post in
      posts[post]?.header ?? SectionHeaderCell(title: "", detail: "")
    }
  }

  /// A comment's header and lines: Markdown at the reader's width, then its reactions.
  private func readerPost(_ comment: CachedComment) -> ReaderPost {
    var detail = "\(RelativeAge.ago(comment.createdAt, now: now()))"
    if let association = comment.authorAssociation, association != "NONE" {
      detail += " · \(association.lowercased())"
    }
    if comment.isEdited { detail += " · edited" }
    var lines = Markdown.render(comment.body, width: readerTextWidth)
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
  private func commentStatus(issue: CachedIssue, cached: Int) -> ReaderPost? {
    let text: String
    switch conversation?.fetch {
    case .fetching?:
      text = "Fetching \(issue.comments) comment\(issue.comments == 1 ? "" : "s")…"
    case .failed(let reason)?:
      text =
        "Could not fetch the comments: \(reason)"
        + (cached > 0 ? " (showing the \(cached) cached)" : "")
    case .done? where cached < issue.comments:
      text =
        "\(cached) of the \(issue.comments) comments the issue announces could be fetched: the "
        + "listing was incomplete, and nothing was deleted."
    case .idle?, nil:
      guard cached < issue.comments else { return nil }
      text =
        "\(cached) of the \(issue.comments) comments are in the cache: the others are fetched "
        + "when the issue is read online."
    case .done?:
      return nil
    }
    return ReaderPost(
      header: SectionHeaderCell(title: "Comments", detail: ""),
      lines: [[StyledRun(text, Theme.dim.with(.italic))]])
  }

}

/// The conversation the reader shows, and where fetching it stands.
struct ConversationState {
  enum Fetch: Hashable {
    case idle
    case fetching
    case done
    case failed(String)
  }

  var number: Int
  var fetch = Fetch.idle
}
