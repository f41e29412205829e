/// A section of a dashboard: a title, and the query whose items it lists.
public struct DashboardSection: Hashable, Sendable {
  /// How a section's items are arranged.
  public enum Grouping: String, Hashable, Sendable, CaseIterable {
    /// One list in the query's order.
    case none
    /// Under a header per repository, each in the query's order.
    case repository
  }

  /// What the section is called (its tab).
  public var title: String
  /// Which items, in which order.
  public var query: SearchQuery
  /// Whether items are grouped under their repositories.
  package var grouping: Grouping

  /// A section.
  public init(title: String, query: SearchQuery, grouping: Grouping = .none) {
    self.title = title
    self.query = query
    self.grouping = grouping
  }
}
