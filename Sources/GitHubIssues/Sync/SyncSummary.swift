import Foundation

/// What a finished sync did.
public struct SyncSummary: Hashable, Sendable {
  /// Whether everything was listed (the first sync, or a full one), or only changes.
  public var wasFull: Bool
  /// Pages fetched.
  public var pages: Int
  /// Issues and pull requests fetched and written.
  public var items: Int
  /// Whether the milestones changed (`false` when GitHub answered `304`).
  public var milestonesChanged: Bool
  /// Items deleted because a complete full listing no longer had them.
  public var deleted: Int = 0
  /// Items that could not be decoded and were skipped, with the field that failed.
  public var skipped: [SkippedItem] = []
  /// The repository's name on GitHub when it differs from the one asked for (renamed or
  /// transferred; GitHub redirected).
  public var renamedTo: String?
  /// Queued actions that reached GitHub before the listing (sent, or found there).
  public var queueSent = 0
  /// Queued actions still waiting afterwards (unreachable, or in conflict).
  public var queueWaiting = 0
}
