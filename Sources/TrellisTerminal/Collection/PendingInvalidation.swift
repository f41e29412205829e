import Trellis

/// What the layout must redo before the next frame, accumulated over batch updates.
enum PendingInvalidation: Equatable {
  case none
  /// Only items appended at the ends of sections: the new count of each such section.
  case appended([Int: Int])
  case bounds
  case everything

  /// The invalidation a batch update needs: appends alone keep the rest of the layout.
  init(_ update: BatchUpdate, oldCounts: [Int], newCounts: [Int]) {
    let onlyInserts =
      update.sectionDeletes.isEmpty && update.sectionInserts.isEmpty
      && update.sectionMoves.isEmpty && update.sectionReloads.isEmpty
      && update.itemDeletes.isEmpty && update.itemMoves.isEmpty
    guard onlyInserts, oldCounts.count == newCounts.count else {
      self = .everything
      return
    }
    var sections: [Int: Int] = [:]
    for indexPath in update.itemInserts {
      // An insert before the old end moves items: not an append.
      guard indexPath.item >= oldCounts[indexPath.section] else {
        self = .everything
        return
      }
      sections[indexPath.section] = newCounts[indexPath.section]
    }
    // Reloads and reconfigures change no geometry unless sizes are measured (then the owner
    // reports them); appends need only their sections.
    self = sections.isEmpty ? .none : .appended(sections)
  }

  /// Both invalidations, as one.
  func merged(with other: PendingInvalidation) -> PendingInvalidation {
    switch (self, other) {
    case (.none, let other), (let other, .none): other
    case (.everything, _), (_, .everything): .everything
    case (.bounds, .bounds): .bounds
    case (.bounds, _), (_, .bounds): .everything
    case (.appended(let lhs), .appended(let rhs)): .appended(lhs.merging(rhs) { max($0, $1) })
    }
  }
}
