/// What a mirror sync did.
package struct MirrorSummary: Hashable, Sendable {
  /// GraphQL queries sent.
  package var queries: Int
  /// REST requests sent (the repository, milestones, labels, and checks of unlisted items).
  package var restRequests: Int
  /// Issues and pull requests listed and written.
  package var items: Int
  /// Conversations made complete (fetched whole, or completed after their page).
  package var conversations: Int
  /// Sub-issue lists fetched.
  package var subIssueLists: Int
  /// GraphQL points this sync spent.
  package var pointsSpent: Int
  /// GraphQL points left, as GitHub last said.
  package var pointsLeft: Int?
  /// Items deleted because a complete listing no longer had them and GitHub confirmed it.
  package var deleted: Int
  /// What could not be read, with the reason: left as the cache had it.
  package var skipped: [SkippedItem]
  /// How much of the cache can now be read offline.
  package var coverage: MirrorCoverage
}
