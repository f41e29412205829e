/// How far a sync has come, reported after every page.
public struct SyncProgress: Hashable, Sendable {
  /// What is being fetched.
  public enum Phase: Hashable, Sendable {
    /// Milestones.
    case milestones
    /// Labels.
    case labels
    /// Issues and pull requests.
    case issues
    /// Pull requests, as rows (a mirror lists them after the issues).
    case pullRequests
    /// Conversations that did not fit their issue's page (a mirror).
    case conversations
    /// Sub-issue lists of parents (a mirror).
    case subIssues
    /// Writing to the cache.
    case saving
  }

  /// What is being fetched.
  package var phase: Phase
  /// Pages fetched so far, all phases.
  public var pages: Int
  /// Issues and pull requests fetched so far (conversations, in that phase).
  public var items: Int
  /// GraphQL points spent so far and left, for a sync that uses GraphQL.
  package var points: (spent: Int, left: Int?)? {
    get { pointsSpent.map { ($0, pointsLeft) } }
    set {
      pointsSpent = newValue?.spent
      pointsLeft = newValue?.left
    }
  }
  private var pointsSpent: Int?
  private var pointsLeft: Int?

  /// Creates a progress report.
  public init(phase: Phase, pages: Int, items: Int, points: (spent: Int, left: Int?)? = nil) {
    self.phase = phase
    self.pages = pages
    self.items = items
    self.points = points
  }
}
