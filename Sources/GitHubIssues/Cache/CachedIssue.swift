import Foundation

/// An issue as the cache returns it: what a list row and its preview need.
public struct CachedIssue: Hashable, Sendable, Identifiable {
  /// The numeric identifier.
  public var id: Int64
  /// The number, as in `#123`.
  public var number: Int
  /// The title.
  public var title: String
  /// Open or closed.
  public var state: GitHubIssue.State
  /// The author's login.
  public var author: String
  /// The milestone's number, if any.
  public var milestoneNumber: Int?
  /// The label names, sorted.
  public var labels: [String]
  /// The number of comments.
  public var comments: Int
  /// When it was opened.
  public var createdAt: Date
  /// When it last changed.
  public var updatedAt: Date
  /// When it was closed.
  public var closedAt: Date?
  /// Whether it is a pull request.
  public var isPullRequest: Bool
  /// Its page on GitHub.
  public var htmlURL: String?
  /// The body, in Markdown; loaded only for a single issue.
  public var body: String?
  /// Its sub-issues, done and in all, when it has some.
  public var subIssues: SubIssueSummary?

  /// Creates an item as the cache stores it.
  public init(
    id: Int64, number: Int, title: String, state: GitHubIssue.State, author: String,
    milestoneNumber: Int?, labels: [String], comments: Int, createdAt: Date, updatedAt: Date,
    closedAt: Date?, isPullRequest: Bool, htmlURL: String?, body: String?,
    subIssues: SubIssueSummary? = nil
  ) {
    self.subIssues = subIssues
    self.id = id
    self.number = number
    self.title = title
    self.state = state
    self.author = author
    self.milestoneNumber = milestoneNumber
    self.labels = labels
    self.comments = comments
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.closedAt = closedAt
    self.isPullRequest = isPullRequest
    self.htmlURL = htmlURL
    self.body = body
  }
}

/// A milestone with the number of cached issues in it, for a chip and its badge.
public struct MilestoneSummary: Hashable, Sendable, Identifiable {
  /// The milestone.
  public var milestone: GitHubMilestone
  /// Cached issues (not pull requests) in it that match the state asked for.
  public var issueCount: Int

  public var id: Int64 { milestone.id }
}

/// Issue counts for the chip bar: all, no milestone, and each milestone.
public struct MilestoneCounts: Hashable, Sendable {
  /// Every issue.
  public var all: Int
  /// Issues in no milestone.
  public var none: Int
  /// Each milestone: open ones first by due date (undated last), then closed ones.
  public var milestones: [MilestoneSummary]
}

/// Where the cache stands against GitHub.
public struct SyncState: Hashable, Sendable {
  /// When the last sync finished.
  public var lastSyncedAt: Date?
  /// The latest `updated_at` seen; the next sync asks for changes since a little before it.
  public var highWaterMark: Date?
  /// How many issues and pull requests the cache holds.
  public var itemCount: Int
  /// A full listing that started and has not proved complete yet, or `nil`.
  public var pendingFullListing: PendingFullListing?

  /// Creates a sync state.
  public init(
    lastSyncedAt: Date?, highWaterMark: Date?, itemCount: Int,
    pendingFullListing: PendingFullListing? = nil
  ) {
    self.lastSyncedAt = lastSyncedAt
    self.highWaterMark = highWaterMark
    self.itemCount = itemCount
    self.pendingFullListing = pendingFullListing
  }
}

/// Where an unfinished full listing stands: the next sync resumes it from there.
public struct PendingFullListing: Hashable, Sendable {
  /// Pages up to this `updated_at` were written; `nil` when none was.
  public var resumeAfter: Date?
}

/// One item of a list, as much as grouping it into sections needs.
public struct IssueListEntry: Hashable, Sendable {
  /// The issue or pull request number.
  public var number: Int
  /// The number of its milestone, if any.
  public var milestoneNumber: Int?
  /// Whether it is open.
  public var isOpen: Bool

  /// Creates an entry.
  public init(number: Int, milestoneNumber: Int?, isOpen: Bool) {
    self.number = number
    self.milestoneNumber = milestoneNumber
    self.isOpen = isOpen
  }
}
