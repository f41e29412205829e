/// The order of a ``SearchQuery``'s results (`sort:updated-desc`, GitHub's default for
/// dashboards; `sort:created-asc`, `sort:comments-desc`).
public struct QuerySort: Hashable, Sendable {
  /// What is compared.
  public enum Key: String, Hashable, Sendable, CaseIterable {
    /// When the item last changed.
    case updated
    /// When it was opened.
    case created
    /// How many comments it has.
    case comments
  }

  /// Which way.
  public enum Direction: String, Hashable, Sendable {
    /// Largest or newest first.
    case descending = "desc"
    /// Smallest or oldest first.
    case ascending = "asc"
  }

  /// What is compared.
  public var key: Key
  /// Which way.
  package var direction: Direction

  /// A sort; most recently updated first by default.
  public init(_ key: Key = .updated, _ direction: Direction = .descending) {
    self.key = key
    self.direction = direction
  }

  /// Most recently updated first.
  package static let updatedDescending = QuerySort()

  /// As written in a query: `sort:updated-desc`.
  public var text: String { "sort:\(key.rawValue)-\(direction.rawValue)" }
}
