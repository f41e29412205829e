/// One item a dashboard query selects: which repository it is in, its number, and what a list
/// needs to place it (state, milestone, kind) and to merge it in order with other repositories'.
public struct DashboardEntry: Hashable, Sendable {
  /// The repository, as an index into ``Dashboard/sources``.
  public var source: Int
  /// The item's number in its repository.
  public var number: Int
  /// Whether it is open.
  package var isOpen: Bool
  /// Whether it is a pull request.
  public var isPullRequest: Bool
  /// Its milestone's number in its repository.
  package var milestoneNumber: Int?
  /// The sort's key: a date's digits (`20261125103000123`) or a comment count.
  var key: Int64
  /// The tie-breaker of a count: when it was updated, as digits.
  var secondKey: Int64

  /// Whether this entry comes before `other` in `sort`'s order: by key, then by number and
  /// repository, so that the order is total and a list merged from several caches is stable.
  func precedes(_ other: DashboardEntry, in direction: QuerySort.Direction) -> Bool {
    if key != other.key { return direction == .descending ? key > other.key : key < other.key }
    if secondKey != other.secondKey {
      return direction == .descending ? secondKey > other.secondKey : secondKey < other.secondKey
    }
    if number != other.number {
      return direction == .descending ? number > other.number : number < other.number
    }
    return source < other.source
  }

  /// The digits of a date as the cache stores it (`2026-11-25 10:30:00.123`), as one number
  /// that orders as the text does; 0 for no date.
  static func dateKey(_ text: String?) -> Int64 {
    guard var text else { return 0 }
    return text.withUTF8 { bytes in
      var value: Int64 = 0
      var digits = 0
      for byte in bytes where byte >= 48 && byte <= 57 && digits < 17 {
        value = value * 10 + Int64(byte - 48)
        digits += 1
      }
      // Dates without milliseconds (older rows) line up with those that have them.
      while digits < 17 {
        value *= 10
        digits += 1
      }
      return value
    }
  }
}
