import Foundation

/// Where a walk through cursors stands, for a later listing to go on from: the query's `since`,
/// the cursor to ask after, and the items just after that cursor (each with the `updated_at` it
/// was stored with), one of which the next page must hold.
public struct ListingResumePoint: Codable, Sendable, Equatable {
  /// The `since` of the query the walk is in.
  public var since: Date?
  /// The cursor the next page is asked for after.
  public var after: String
  /// The items just after that cursor, by identifier, each with the `updated_at` it was stored
  /// with.
  public var witnesses: [Int64: Date]
}
