import Foundation

/// Everything one sync writes, applied in a single transaction by ``IssueCache/apply(_:)``.
public struct CacheUpdate: Sendable {
  /// The repository's description, when fetched.
  public var repository: GitHubRepository?
  /// Issues and pull requests to insert or update.
  public var issues: [GitHubIssue]
  /// Whether `issues` is the complete list: items the cache has and `issues` lacks are removed
  /// (deleted or transferred on GitHub).
  public var isComplete: Bool
  /// The complete list of milestones, or `nil` when unchanged (a `304`).
  public var milestones: [GitHubMilestone]?
  /// The complete list of labels, or `nil` when unchanged.
  public var labels: [GitHubLabel]?
  /// Entity tags to remember, by URL.
  package var etags: [String: String]
  /// When the sync finished.
  package var syncedAt: Date

  /// Creates an update.
  public init(
    repository: GitHubRepository? = nil, issues: [GitHubIssue] = [], isComplete: Bool = false,
    milestones: [GitHubMilestone]? = nil,
    labels: [GitHubLabel]? = nil, etags: [String: String] = [:], syncedAt: Date = Date()
  ) {
    self.repository = repository
    self.issues = issues
    self.isComplete = isComplete
    self.milestones = milestones
    self.labels = labels
    self.etags = etags
    self.syncedAt = syncedAt
  }
}
