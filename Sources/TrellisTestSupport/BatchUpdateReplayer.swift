import Trellis

/// A rule of UIKit's batch updates that a stage broke.
public struct BatchUpdateViolation: Error, CustomStringConvertible, Equatable {
  /// What was wrong, naming the index or index path.
  public var description: String

  /// Creates a violation with a message.
  public init(_ description: String) { self.description = description }
}

/// Applies batch updates to plain data the way UIKit's `performBatchUpdates` does, and rejects any
/// update UIKit would reject.
///
/// The view is given the data before the update and the data its data source reports after it.
/// Deletes and reloads name old positions, inserts new ones, moves go from old to new; untouched
/// sections and items keep their relative order and fill the remaining slots. On top of UIKit's
/// count checks, the replayer checks identity: every section and item that was not inserted must
/// land where the new data says it is, so a stage that "works" only because counts match fails.
public enum BatchUpdateReplayer {
  /// Applies one update to `old`, checking that it yields `new`.
  ///
  /// - Throws: ``BatchUpdateViolation`` naming the first broken rule.
  public static func apply<S: Hashable, I: Hashable>(
    _ update: BatchUpdate, to old: SectionedData<S, I>, expecting new: SectionedData<S, I>
  ) throws(BatchUpdateViolation) {
    let oldCount = old.sections.count
    let newCount = new.sections.count
    try requireUnique(new.sections, "section identifier in the new data")
    try requireUnique(new.items.flatMap { $0 }, "item identifier in the new data")

    // Sections.
    let deleted = try uniqueSet(update.sectionDeletes, "section delete", range: 0..<oldCount)
    let inserted = try uniqueSet(update.sectionInserts, "section insert", range: 0..<newCount)
    let reloaded = try uniqueSet(update.sectionReloads, "section reload", range: 0..<oldCount)
    let moveSources = try uniqueSet(
      update.sectionMoves.map(\.source), "section move source", range: 0..<oldCount)
    let moveTargets = try uniqueSet(
      update.sectionMoves.map(\.target), "section move target", range: 0..<newCount)
    if let section = deleted.intersection(moveSources).min() {
      throw BatchUpdateViolation("Section \(section) is both deleted and moved")
    }
    if let section = deleted.intersection(reloaded).min() {
      throw BatchUpdateViolation("Section \(section) is both deleted and reloaded")
    }
    if let section = reloaded.intersection(moveSources).min() {
      throw BatchUpdateViolation("Section \(section) is both reloaded and moved")
    }
    if let section = inserted.intersection(moveTargets).min() {
      throw BatchUpdateViolation("Section \(section) is both inserted and the target of a move")
    }
    guard newCount == oldCount - deleted.count + inserted.count else {
      throw BatchUpdateViolation(
        "The number of sections after the update (\(newCount)) must equal the number before "
          + "(\(oldCount)) minus deleted (\(deleted.count)) plus inserted (\(inserted.count))")
    }
    // Where each new section comes from: -1 for inserted, else its old index.
    var origin = [Int](repeating: -1, count: newCount)
    var moveSourceOf: [Int: Int] = [:]
    for move in update.sectionMoves { moveSourceOf[move.target] = move.source }
    var untouched = (0..<oldCount).filter { !deleted.contains($0) && !moveSources.contains($0) }
      .makeIterator()
    for section in 0..<newCount where !inserted.contains(section) {
      if let source = moveSourceOf[section] {
        origin[section] = source
      } else if let source = untouched.next() {
        origin[section] = source
      }
      guard origin[section] >= 0 else {
        throw BatchUpdateViolation("No old section is left for new section \(section)")
      }
      guard old.sections[origin[section]] == new.sections[section] else {
        throw BatchUpdateViolation(
          "New section \(section) comes from old section \(origin[section]) "
            + "(\(old.sections[origin[section]])) but the new data has \(new.sections[section]) there"
        )
      }
    }
    let newIndexOfOld = Dictionary(
      uniqueKeysWithValues: origin.enumerated().filter { $0.element >= 0 }.map {
        ($0.element, $0.offset)
      })
    let reloadedTargets = Set(reloaded.compactMap { newIndexOfOld[$0] })

    // Items: old side.
    func checkOld(_ path: IndexPath, _ what: String) throws(BatchUpdateViolation) {
      guard (0..<oldCount).contains(path.section),
        old.items[path.section].indices.contains(path.item)
      else { throw BatchUpdateViolation("\(what) \(path) is out of range of the old data") }
      guard !deleted.contains(path.section) else {
        throw BatchUpdateViolation(
          "\(what) \(path) is in section \(path.section), which is being deleted")
      }
      guard !reloaded.contains(path.section) else {
        throw BatchUpdateViolation(
          "\(what) \(path) is in section \(path.section), which is being reloaded")
      }
    }
    func checkNew(_ path: IndexPath, _ what: String) throws(BatchUpdateViolation) {
      guard (0..<newCount).contains(path.section), path.item >= 0 else {
        throw BatchUpdateViolation("\(what) \(path) is out of range of the new data")
      }
      guard !inserted.contains(path.section) else {
        throw BatchUpdateViolation(
          "\(what) \(path) is in section \(path.section), which is being inserted")
      }
      guard !reloadedTargets.contains(path.section) else {
        throw BatchUpdateViolation(
          "\(what) \(path) is in section \(path.section), which is being reloaded")
      }
    }
    var oldTouched: [IndexPath: String] = [:]
    func claimOld(_ path: IndexPath, _ what: String) throws(BatchUpdateViolation) {
      try checkOld(path, what)
      if let previous = oldTouched[path] {
        throw BatchUpdateViolation("Index path \(path) is both \(previous) and \(what)")
      }
      oldTouched[path] = what
    }
    for path in update.itemDeletes { try claimOld(path, "item delete") }
    for path in update.itemReloads { try claimOld(path, "item reload") }
    for path in update.itemReconfigures { try claimOld(path, "item reconfigure") }
    for move in update.itemMoves { try claimOld(move.source, "item move source") }

    // Items: new side.
    var newClaimed: [IndexPath: String] = [:]
    func claimNew(_ path: IndexPath, _ what: String) throws(BatchUpdateViolation) {
      try checkNew(path, what)
      if let previous = newClaimed[path] {
        throw BatchUpdateViolation("Index path \(path) is both \(previous) and \(what)")
      }
      newClaimed[path] = what
    }
    for path in update.itemInserts { try claimNew(path, "item insert") }
    var movedIn: [IndexPath: IndexPath] = [:]
    for move in update.itemMoves {
      try claimNew(move.target, "item move target")
      movedIn[move.target] = move.source
    }

    // How many items leave each old section and arrive in each new one, and the highest new
    // index claimed in each, counted once rather than per section.
    var leavingCount = [Int](repeating: 0, count: oldCount)
    for path in update.itemDeletes { leavingCount[path.section] += 1 }
    var arrivingCount = [Int](repeating: 0, count: newCount)
    for path in update.itemInserts { arrivingCount[path.section] += 1 }
    for move in update.itemMoves {
      leavingCount[move.source.section] += 1
      arrivingCount[move.target.section] += 1
    }
    var highestClaimed: [Int: IndexPath] = [:]
    for path in newClaimed.keys where path.item > highestClaimed[path.section]?.item ?? -1 {
      highestClaimed[path.section] = path
    }

    // Build every kept new section and compare it, item by item, with the new data.
    for section in 0..<newCount {
      let source = origin[section]
      guard source >= 0, !reloaded.contains(source) else { continue }
      let newItems = new.items[section]
      let leaving = leavingCount[source]
      let arriving = arrivingCount[section]
      let expected = old.items[source].count - leaving + arriving
      guard newItems.count == expected else {
        throw BatchUpdateViolation(
          "The number of items in section \(section) after the update (\(newItems.count)) must "
            + "equal the number before (\(old.items[source].count)) minus deleted or moved out "
            + "(\(leaving)) plus inserted or moved in (\(arriving))")
      }
      var remaining = old.items[source].indices.filter {
        oldTouched[IndexPath(item: $0, section: source)].map {
          $0 == "item delete" || $0 == "item move source"
        } != true
      }.makeIterator()
      for index in newItems.indices {
        let path = IndexPath(item: index, section: section)
        let oldPath: IndexPath
        if newClaimed[path] == "item insert" {
          continue
        } else if let moved = movedIn[path] {
          oldPath = moved
        } else if let next = remaining.next() {
          oldPath = IndexPath(item: next, section: source)
        } else {
          throw BatchUpdateViolation("No old item is left for new index path \(path)")
        }
        let oldItem = old.items[oldPath.section][oldPath.item]
        guard oldItem == newItems[index] else {
          throw BatchUpdateViolation(
            "New index path \(path) receives old item \(oldPath) (\(oldItem)) but the new data has "
              + "\(newItems[index]) there")
        }
      }
      if let path = highestClaimed[section], path.item >= newItems.count {
        throw BatchUpdateViolation(
          "\(newClaimed[path] ?? "") \(path) is out of range of the new data")
      }
    }
  }

  /// Applies every stage of a changeset to `source` in order, checking each against the data it
  /// carries, and returns the data the last stage leaves.
  ///
  /// - Throws: ``BatchUpdateViolation`` naming the stage and the first broken rule.
  public static func replay<S: Hashable, I: Hashable>(
    _ changeset: StagedChangeset<S, I>, from source: SectionedData<S, I>
  ) throws(BatchUpdateViolation) -> SectionedData<S, I> {
    var current = source
    for (number, stage) in changeset.enumerated() {
      let next = SectionedData(stage)
      do {
        try apply(stage.update, to: current, expecting: next)
      } catch {
        throw BatchUpdateViolation("Stage \(number) (\(stage.kind)): \(error.description)")
      }
      current = next
    }
    return current
  }

  private static func uniqueSet(
    _ values: [Int], _ what: String, range: Range<Int>
  ) throws(BatchUpdateViolation) -> Set<Int> {
    var set = Set<Int>()
    for value in values {
      guard range.contains(value) else {
        throw BatchUpdateViolation(
          "\(what) \(value) is out of range \(range.lowerBound) ..< \(range.upperBound)")
      }
      guard set.insert(value).inserted else {
        throw BatchUpdateViolation("\(what) \(value) appears twice")
      }
    }
    return set
  }

  private static func requireUnique<T: Hashable>(_ values: [T], _ what: String)
    throws(BatchUpdateViolation)
  {
    var seen = Set<T>()
    for value in values where !seen.insert(value).inserted {
      throw BatchUpdateViolation("\(what) \(value) appears twice")
    }
  }
}
