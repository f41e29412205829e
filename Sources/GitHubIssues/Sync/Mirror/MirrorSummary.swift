/// What a mirror sync did.
public struct MirrorSummary: Hashable, Sendable {
  /// GraphQL queries sent.
  public var queries: Int
  /// REST requests sent (the repository, milestones, labels, and checks of unlisted items).
  public var restRequests: Int
  /// Issues and pull requests listed and written.
  public var items: Int
  /// Conversations made complete (fetched whole, or completed after their page).
  public var conversations: Int
  /// Sub-issue lists fetched.
  public var subIssueLists: Int
  /// GraphQL points this sync spent.
  public var pointsSpent: Int
  /// GraphQL points left, as GitHub last said.
  public var pointsLeft: Int?
  /// Items deleted because a complete listing no longer had them and GitHub confirmed it.
  public var deleted: Int
  /// What could not be read, with the reason: left as the cache had it.
  public var skipped: [SkippedItem]
  /// How much of the cache can now be read offline.
  public var coverage: MirrorCoverage
}
