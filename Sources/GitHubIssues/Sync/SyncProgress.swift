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
    /// Writing to the cache.
    case saving
  }

  /// What is being fetched.
  public var phase: Phase
  /// Pages fetched so far, all phases.
  public var pages: Int
  /// Issues and pull requests fetched so far.
  public var items: Int

  /// Creates a progress report.
  public init(phase: Phase, pages: Int, items: Int) {
    self.phase = phase
    self.pages = pages
    self.items = items
  }
}
