import Foundation

/// What a finished sync did.
package struct SyncSummary: Hashable, Sendable {
  /// Whether everything was listed (the first sync, or a full one), or only changes.
  package var wasFull: Bool
  /// Pages fetched.
  package var pages: Int
  /// Issues and pull requests fetched and written.
  package var items: Int
  /// Whether the milestones changed (`false` when GitHub answered `304`).
  package var milestonesChanged: Bool
  /// Items deleted because a complete full listing no longer had them.
  package var deleted: Int = 0
  /// Items that could not be decoded and were skipped, with the field that failed.
  package var skipped: [SkippedItem] = []
  /// The repository's name on GitHub when it differs from the one asked for (renamed or
  /// transferred; GitHub redirected).
  package var renamedTo: String?
  /// Queued actions that reached GitHub before the listing (sent, or found there).
  package var queueSent = 0
  /// Queued actions still waiting afterwards (unreachable, or in conflict).
  package var queueWaiting = 0
}
