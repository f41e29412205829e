import Foundation

/// One issue's conversation fetched page by page after its listing: the entries so far and the
/// cursor to continue from, bounded by the `totalCount` GitHub announced.
struct ConversationPages {
  let number: Int
  /// The issue's `updatedAt` as cached: the conversation is complete as of it.
  let updatedAt: Date
  private(set) var cursor: String?
  private var entries: [MirrorNode.Lossy<MirrorNode.TimelineItem>] = []
  private var pages = 0
  private var announced: Int?

  /// How many times the conversation started over from its first page.
  private(set) var restarts = 0

  init(number: Int, updatedAt: Date) {
    self.number = number
    self.updatedAt = updatedAt
  }

  /// The conversation read again from its first page (GitHub stopped taking its cursor).
  func restarted() -> ConversationPages {
    var pages = ConversationPages(number: number, updatedAt: updatedAt)
    pages.restarts = restarts + 1
    return pages
  }

  enum Step {
    /// More pages to fetch.
    case more
    /// Complete.
    case complete(MirroredConversation)
    /// Cannot be completed now (changed meanwhile, gone, unreadable, or more pages than
    /// announced): the next sync tries again.
    case abandoned(String)
  }

  /// Takes the next page of the issue's timeline.
  mutating func take(_ answer: AliasedIssue?) -> Step {
    guard let answer, let timeline = answer.timelineItems else {
      return .abandoned("could not be read")
    }
    if let changed = answer.updatedAt, abs(changed.timeIntervalSince(updatedAt)) >= 0.001 {
      return .abandoned("changed while it was read; the next sync reads it again")
    }
    pages += 1
    announced = announced ?? timeline.totalCount
    entries += timeline.nodes
    let limit = (announced ?? 0) + ConversationFetcher.commentMargin
    guard entries.count <= limit, pages <= limit / 5 + 3 else {
      return .abandoned("had more entries than the \(announced ?? 0) announced")
    }
    if timeline.pageInfo?.hasNextPage == true {
      guard let next = timeline.pageInfo?.endCursor, next != cursor else {
        return .abandoned("had a next page without a new cursor")
      }
      cursor = next
      return .more
    }
    guard
      let conversation = Self.complete(
        number: number, updatedAt: updatedAt, total: timeline.totalCount, entries: entries)
    else { return .abandoned("held fewer entries than the \(timeline.totalCount) announced") }
    return .complete(conversation)
  }

  /// The conversation of all of an issue's timeline entries, when they are all there: every
  /// entry read, and at least as many (distinct) as announced.
  static func complete(
    number: Int, updatedAt: Date, total: Int, entries: [MirrorNode.Lossy<MirrorNode.TimelineItem>]
  ) -> MirroredConversation? {
    var comments: [GitHubComment] = []
    var events: [GitHubTimelineEvent] = []
    var seenComments: Set<Int64> = []
    var count = 0
    for entry in entries {
      guard let item = entry.node else { return nil }
      if let comment = item.comment {
        // A cursor that shifted may serve one twice.
        guard seenComments.insert(comment.id).inserted else { continue }
        comments.append(comment)
      } else if let event = item.event {
        events.append(event)
      }
      count += 1
    }
    guard count >= total else { return nil }
    return MirroredConversation(
      number: number, issueUpdatedAt: updatedAt, comments: comments, events: events)
  }
}
