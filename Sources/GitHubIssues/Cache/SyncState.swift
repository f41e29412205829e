import Foundation

/// Where the cache stands against GitHub.
package struct SyncState: Hashable, Sendable {
  /// When the last sync finished.
  package var lastSyncedAt: Date?
  /// The latest `updated_at` seen; the next sync asks for changes since a little before it.
  package var highWaterMark: Date?
  /// How many issues and pull requests the cache holds.
  package var itemCount: Int
  /// A full listing that started and has not proved complete yet, or `nil`.
  package var pendingFullListing: PendingFullListing?

  /// Creates a sync state.
  package init(
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
package struct PendingFullListing: Hashable, Sendable {
  /// Pages up to this `updated_at` were written; `nil` when none was.
  package var resumeAfter: Date?
}
