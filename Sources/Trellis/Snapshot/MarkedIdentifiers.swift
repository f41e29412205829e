/// Identifiers marked for an update (reload or reconfigure), in the order they were first marked.
@usableFromInline
struct MarkedIdentifiers<ID: Hashable>: Equatable {
  @usableFromInline private(set) var ordered: [ID] = []
  @usableFromInline private(set) var members: Set<ID> = []

  @usableFromInline init() {}

  @inlinable var isEmpty: Bool { ordered.isEmpty }

  mutating func insert(_ id: ID) {
    if members.insert(id).inserted { ordered.append(id) }
  }

  /// Removes every identifier for which `shouldRemove` is true.
  mutating func removeAll(where shouldRemove: (ID) -> Bool) {
    guard !members.isEmpty else { return }
    ordered.removeAll(where: shouldRemove)
    if ordered.count != members.count { members = Set(ordered) }
  }

  @inlinable func contains(_ id: ID) -> Bool { members.contains(id) }

  @usableFromInline static func == (lhs: Self, rhs: Self) -> Bool { lhs.members == rhs.members }
}

extension MarkedIdentifiers: Sendable where ID: Sendable {}
