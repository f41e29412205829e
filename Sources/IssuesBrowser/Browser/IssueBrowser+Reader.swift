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
    guard let number = list.focusedItem, let issue = try? cache.issue(number: number) else {
      return
    }
    state.mode = .reading
    conversation = ConversationState(number: number)
    let current = (try? cache.commentsAreCurrent(of: number)) ?? false
    if issue.comments > 0 && !current {
      conversation?.fetch = .fetching
      pendingEffects.append(.fetchConversation(number))
    }
    rebuildReader(issue: issue, scrollingToTop: true)
  }

  /// Takes the host's answer to ``BrowserEffect/fetchConversation(_:)``: the reader shows what
  /// the cache now holds (only the lines that changed are drawn again), or why it could not.
  public func conversationFetched(_ number: Int, _ result: Result<Void, HostFailure>) {
    guard conversation?.number == number else { return }
    switch result {
    case .success: conversation?.fetch = .done
    case .failure(let failure): conversation?.fetch = .failed(failure.message)
    }
    guard case .reading = state.mode, let issue = try? cache.issue(number: number) else { return }
    previews.forget([number])
    rebuildReader(issue: issue, scrollingToTop: false)
  }

  /// Reads the issue and its comments from the cache into the reader's snapshot.
  func rebuildReader(issue: CachedIssue, scrollingToTop: Bool) {
    let width = readerTextWidth
    var posts: [(Int64, ReaderPost)] = []
    posts.append(
      (
        0,
        ReaderPost(
          header: SectionHeaderCell(
            title: issue.author,
            detail: "opened \(RelativeAge.describe(issue.createdAt, now: now())) ago"),
          lines: focusedPreview(width: width) ?? [])
      ))
    let comments = (try? cache.comments(of: issue.number)) ?? []
    for comment in comments {
      var detail = "\(RelativeAge.describe(comment.createdAt, now: now())) ago"
      if let association = comment.authorAssociation, association != "NONE" {
        detail += " · \(association.lowercased())"
      }
      if comment.isEdited { detail += " · edited" }
      var lines = Markdown.render(comment.body, width: width)
      if !comment.reactions.isEmpty {
        lines.append(
          [
            StyledRun(
              comment.reactions.map {
                "\(Self.reactionSymbols[$0.content] ?? $0.content) \($0.count)"
              }
              .joined(separator: "  "), Theme.dim)
          ])
      }
      lines.append([])
      posts.append(
        (
          comment.id,
          ReaderPost(header: SectionHeaderCell(title: comment.author, detail: detail), lines: lines)
        ))
    }
    if let status = commentStatus(issue: issue, cached: comments.count) {
      posts.append(
        (
          Self.commentStatusPost,
          ReaderPost(
            header: SectionHeaderCell(title: "Comments", detail: ""),
            lines: [[StyledRun(status, Theme.dim.with(.italic))]])
        ))
    }
    readerPosts = Dictionary(uniqueKeysWithValues: posts)
    let posts_ = readerPosts
    readerCells.make = { _, line in
      TextLineCell(line: posts_[line.post]?.lines[line.line] ?? [], indent: 2)
    }
    reader.dataSource.supplementaryProvider = { _, _, post in
      posts_[post]?.header ?? SectionHeaderCell(title: "", detail: "")
    }
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

  /// The line under the comments while they are fetched or when they could not be.
  private func commentStatus(issue: CachedIssue, cached: Int) -> String? {
    switch conversation?.fetch {
    case .fetching?:
      return "Fetching \(issue.comments) comment\(issue.comments == 1 ? "" : "s")…"
    case .failed(let reason)?:
      return "Could not fetch the comments: \(reason)"
        + (cached > 0 ? " (showing the \(cached) cached)" : "")
    case .done?, .idle?, nil:
      return nil
    }
  }

  static let reactionSymbols: [String: String] = [
    "+1": "👍", "-1": "👎", "laugh": "😄", "hooray": "🎉", "confused": "😕", "heart": "❤️",
    "rocket": "🚀", "eyes": "👀",
  ]
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
