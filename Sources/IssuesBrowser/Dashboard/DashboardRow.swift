/// A row of the dashboard's list: an item of one of its repositories.
package struct DashboardRow: Hashable, Sendable {
  /// The repository, as an index into the dashboard's repositories.
  package var source: Int
  /// The item's number there.
  package var number: Int
}

/// A section of the dashboard's list: the whole list, or one repository's items when the
/// section is grouped by repository.
package enum DashboardGroup: Hashable, Sendable {
  /// Every item, in the query's order.
  case all
  /// One repository's items, in the query's order.
  case repository(Int)
}
