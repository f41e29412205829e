import Foundation

/// Where a walk through a block of items updated in one second stands, for a later listing to go
/// on from: the query's `since`, the position in it, and the items just before that position
/// (each with the `updated_at` it was stored with), one of which the next page must hold.
public struct ListingResumePoint: Codable, Sendable, Equatable {
  /// Where in its query a walk stands.
  public enum Position: Sendable, Equatable {
    /// The next page is asked for after this cursor (GraphQL's edges).
    case after(cursor: String)
    /// The first `covered` items of the query were walked in windows (REST's `per_page` and
    /// `page`) of at most `pageSize` items.
    case covered(Int, pageSize: Int)
  }

  /// The `since` of the query the walk is in.
  package var since: Date?
  /// Where the walk stands in that query.
  public var position: Position
  /// The items just before that position, by identifier, each with the `updated_at` it was
  /// stored with.
  package var witnesses: [Int64: Date]

  /// Creates a resume point: where a walk through a block stands in the query from `since`, and
  /// the items one of which the next page must hold.
  public init(since: Date?, position: Position, witnesses: [Int64: Date]) {
    self.since = since
    self.position = position
    self.witnesses = witnesses
  }

  private enum CodingKeys: String, CodingKey {
    case since, after, covered, pageSize, witnesses
  }

  // A cursor is stored under `after`, as before positions existed, so points stored then still
  // read.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    since = try container.decodeIfPresent(Date.self, forKey: .since)
    witnesses = try container.decode([Int64: Date].self, forKey: .witnesses)
    if let cursor = try container.decodeIfPresent(String.self, forKey: .after) {
      position = .after(cursor: cursor)
    } else {
      position = .covered(
        try container.decode(Int.self, forKey: .covered),
        pageSize: try container.decode(Int.self, forKey: .pageSize))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(since, forKey: .since)
    try container.encode(witnesses, forKey: .witnesses)
    switch position {
    case .after(let cursor):
      try container.encode(cursor, forKey: .after)
    case .covered(let covered, let pageSize):
      try container.encode(covered, forKey: .covered)
      try container.encode(pageSize, forKey: .pageSize)
    }
  }
}
