import Trellis

/// What the layout must redo before the next frame, accumulated over batch updates.
enum PendingInvalidation: Equatable {
  case none
  /// Only items appended at the ends of sections: the new count of each such section.
  case appended([Int: Int])
  /// Items inserted, deleted or moved within and between a run of sections, the sections
  /// themselves unchanged.
  case sections(ClosedRange<Int>)
  case bounds
  case everything

  /// The invalidation a batch update needs: appends alone keep the rest of the layout, and item
  /// changes confined to a run of sections keep what comes before it (and, if the layout can,
  /// what comes after).
  init(_ update: BatchUpdate, oldCounts: [Int], newCounts: [Int]) {
    let sectionsKept =
      update.sectionDeletes.isEmpty && update.sectionInserts.isEmpty
      && update.sectionMoves.isEmpty && update.sectionReloads.isEmpty
      && oldCounts.count == newCounts.count
    guard sectionsKept else {
      self = .everything
      return
    }
    // An insert before the old end moves items: not an append.
    let appendsOnly =
      update.itemDeletes.isEmpty && update.itemMoves.isEmpty
      && update.itemInserts.allSatisfy { $0.item >= oldCounts[$0.section] }
    guard appendsOnly else {
      // With no section inserted, deleted or moved, source and target section indexes agree.
      let touched =
        update.itemDeletes.map(\.section) + update.itemInserts.map(\.section)
        + update.itemMoves.flatMap { [$0.source.section, $0.target.section] }
      guard let low = touched.min(), let high = touched.max() else {
        self = .everything
        return
      }
      self = .sections(low...high)
      return
    }
    var sections: [Int: Int] = [:]
    for indexPath in update.itemInserts {
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
    case (.sections(let lhs), .sections(let rhs)):
      .sections(lhs.covering([rhs.lowerBound, rhs.upperBound]))
    case (.sections(let run), .appended(let appended)),
      (.appended(let appended), .sections(let run)):
      .sections(run.covering(appended.keys))
    }
  }
}

extension ClosedRange<Int> {
  /// The smallest run that holds this one and every index of `indexes`.
  fileprivate func covering(_ indexes: some Collection<Int>) -> ClosedRange<Int> {
    let low = Swift.min(lowerBound, indexes.min() ?? lowerBound)
    let high = Swift.max(upperBound, indexes.max() ?? upperBound)
    return low...high
  }
}
