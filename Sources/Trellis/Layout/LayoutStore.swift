/// Frames of a prepared layout and the index that answers "what is in this rectangle".
///
/// Elements are appended in layout order, each with a *band* along the scroll axis that contains
/// its frame, band starts never decreasing. A query binary-searches the first element whose band
/// (running maximum of band ends) reaches the rectangle and the last whose band starts before its
/// end, then filters that run by frame: O(log *n* + *k*), where *k* is the number of elements whose
/// bands cross the rectangle. Appending keeps the order, so incremental layouts extend it in O(1).
struct LayoutStore {
  enum Axis {
    case vertical
    case horizontal
  }

  let axis: Axis
  /// The flat index of each section's first item, plus the total at the end.
  private(set) var sectionStarts: [Int] = [0]
  private(set) var itemFrames: [Rect] = []
  private(set) var supplementaries: [LayoutAttributes] = []
  /// Whether each supplementary moves with its section's items when they scroll sideways (a
  /// badge does; a section header does not).
  private var supplementaryMoves: [Bool] = []
  /// For each kind, the supplementary index of each index path (item 0 for section-level ones).
  private var supplementaryIndex: [String: [IndexPath: Int]] = [:]
  /// Per section: where its index entries and supplementaries begin.
  private var sectionEntryStarts: [Int] = []
  private var sectionSupplementaryStarts: [Int] = []

  private var bandStarts: [Double] = []
  /// The minimum band start of each entry and every entry after it: where a query can stop.
  private var suffixMinStarts: [Double] = []
  private var bandMaxEnds: [Double] = []
  /// An item's flat index (>= 0), or `-1 - i` for supplementary `i`.
  private var references: [Int32] = []

  init(axis: Axis) { self.axis = axis }

  var sectionCount: Int { sectionStarts.count - 1 }

  mutating func reserve(items: Int) {
    itemFrames.reserveCapacity(items)
    bandStarts.reserveCapacity(items + 16)
    suffixMinStarts.reserveCapacity(items + 16)
    bandMaxEnds.reserveCapacity(items + 16)
    references.reserveCapacity(items + 16)
  }

  /// Starts a new section; items and supplementaries appended next belong to it.
  mutating func beginSection() {
    sectionEntryStarts.append(references.count)
    sectionSupplementaryStarts.append(supplementaries.count)
    sectionStarts.append(itemFrames.count)
  }

  mutating func appendItem(_ frame: Rect, band: (start: Double, end: Double)) {
    itemFrames.append(frame)
    appendEntry(Int32(itemFrames.count - 1), band: band)
    sectionStarts[sectionStarts.count - 1] = itemFrames.count
  }

  mutating func appendSupplementary(
    _ attributes: LayoutAttributes, band: (start: Double, end: Double), movesWithItems: Bool = false
  ) {
    supplementaries.append(attributes)
    supplementaryMoves.append(movesWithItems)
    let index = supplementaries.count - 1
    if case .supplementary(let kind) = attributes.category {
      supplementaryIndex[kind, default: [:]][attributes.indexPath] = index
    }
    appendEntry(-1 - Int32(index), band: band)
  }

  private mutating func appendEntry(_ reference: Int32, band: (start: Double, end: Double)) {
    bandStarts.append(band.start)
    suffixMinStarts.append(band.start)
    // A band that starts before earlier ones (a header shifted upwards) lowers their suffix
    // minimum; layouts append in order, so this loop rarely runs.
    var index = suffixMinStarts.count - 2
    while index >= 0 && suffixMinStarts[index] > band.start {
      suffixMinStarts[index] = band.start
      index -= 1
    }
    bandMaxEnds.append(Swift.max(band.end, bandMaxEnds.last ?? band.end))
    references.append(reference)
  }

  /// Recomputes suffix minimums after the tail was removed.
  private mutating func repairSuffixMinimums() {
    var index = suffixMinStarts.count - 1
    var minimum = Double.infinity
    while index >= 0 {
      let repaired = Swift.min(bandStarts[index], minimum)
      if suffixMinStarts[index] == repaired && index < suffixMinStarts.count - 1 { break }
      suffixMinStarts[index] = repaired
      minimum = repaired
      index -= 1
    }
  }

  /// Removes everything from a section on, to lay it out again.
  mutating func truncate(fromSection section: Int) {
    guard section < sectionEntryStarts.count else { return }
    let entry = sectionEntryStarts[section]
    let supplementary = sectionSupplementaryStarts[section]
    for removed in supplementaries[supplementary...] {
      if case .supplementary(let kind) = removed.category {
        supplementaryIndex[kind]?[removed.indexPath] = nil
      }
    }
    itemFrames.removeSubrange(sectionStarts[section]...)
    supplementaries.removeSubrange(supplementary...)
    supplementaryMoves.removeSubrange(supplementary...)
    bandStarts.removeSubrange(entry...)
    suffixMinStarts.removeSubrange(entry...)
    bandMaxEnds.removeSubrange(entry...)
    references.removeSubrange(entry...)
    repairSuffixMinimums()
    sectionEntryStarts.removeSubrange(section...)
    sectionSupplementaryStarts.removeSubrange(section...)
    sectionStarts.removeSubrange((section + 1)...)
  }

  /// Puts `scratch` — sections `range` laid out again in a store of their own, so their item and
  /// supplementary indexes count from zero, ending where they ended — in place of those sections.
  ///
  /// Costs what the replaced sections hold, plus, when their element counts changed, one light
  /// pass over what follows them (indexes renumbered); a change that keeps the counts (an item
  /// moved between two sections of a list) leaves what follows as it is.
  mutating func replaceSections(_ range: ClosedRange<Int>, with scratch: LayoutStore) {
    let first = range.lowerBound
    let last = range.upperBound
    precondition(
      first >= 0 && last < sectionCount && scratch.sectionCount == range.count,
      "Sections \(range) of \(sectionCount) replaced by \(scratch.sectionCount) laid out again.")
    let itemBase = sectionStarts[first]
    let oldItemEnd = sectionStarts[last + 1]
    let entryBase = sectionEntryStarts[first]
    let oldEntryEnd = last + 1 < sectionCount ? sectionEntryStarts[last + 1] : references.count
    let supplementaryBase = sectionSupplementaryStarts[first]
    let oldSupplementaryEnd =
      last + 1 < sectionCount ? sectionSupplementaryStarts[last + 1] : supplementaries.count
    let itemDelta = scratch.itemFrames.count - (oldItemEnd - itemBase)
    let entryDelta = scratch.references.count - (oldEntryEnd - entryBase)
    let supplementaryDelta =
      scratch.supplementaries.count - (oldSupplementaryEnd - supplementaryBase)
    let oldRegionMaximum = oldEntryEnd > 0 ? bandMaxEnds[oldEntryEnd - 1] : -Double.infinity

    // The region itself.
    for removed in supplementaries[supplementaryBase..<oldSupplementaryEnd] {
      if case .supplementary(let kind) = removed.category {
        supplementaryIndex[kind]?[removed.indexPath] = nil
      }
    }
    itemFrames.replaceSubrange(itemBase..<oldItemEnd, with: scratch.itemFrames)
    supplementaries.replaceSubrange(
      supplementaryBase..<oldSupplementaryEnd, with: scratch.supplementaries)
    supplementaryMoves.replaceSubrange(
      supplementaryBase..<oldSupplementaryEnd, with: scratch.supplementaryMoves)
    bandStarts.replaceSubrange(entryBase..<oldEntryEnd, with: scratch.bandStarts)
    suffixMinStarts.replaceSubrange(entryBase..<oldEntryEnd, with: scratch.suffixMinStarts)
    bandMaxEnds.replaceSubrange(entryBase..<oldEntryEnd, with: scratch.bandMaxEnds)
    let itemOffset = Int32(truncatingIfNeeded: itemBase)
    let supplementaryOffset = Int32(truncatingIfNeeded: supplementaryBase)
    references.replaceSubrange(
      entryBase..<oldEntryEnd,
      with: scratch.references.lazy.map { $0 >= 0 ? $0 + itemOffset : $0 - supplementaryOffset })
    for (offset, attributes) in scratch.supplementaries.enumerated() {
      if case .supplementary(let kind) = attributes.category {
        supplementaryIndex[kind, default: [:]][attributes.indexPath] = supplementaryBase + offset
      }
    }
    for section in 0..<range.count {
      sectionStarts[first + section + 1] = itemBase + scratch.sectionStarts[section + 1]
      sectionEntryStarts[first + section] = entryBase + scratch.sectionEntryStarts[section]
      sectionSupplementaryStarts[first + section] =
        supplementaryBase + scratch.sectionSupplementaryStarts[section]
    }
    let newEntryEnd = entryBase + scratch.references.count
    let prefixMaximum = entryBase > 0 ? bandMaxEnds[entryBase - 1] : -Double.infinity
    for entry in entryBase..<newEntryEnd {
      bandMaxEnds[entry] = Swift.max(bandMaxEnds[entry], prefixMaximum)
    }

    // What follows: renumbered where counts changed.
    if last + 1 < sectionCount {
      for section in (last + 1)..<sectionCount {
        sectionStarts[section + 1] += itemDelta
        sectionEntryStarts[section] += entryDelta
        sectionSupplementaryStarts[section] += supplementaryDelta
      }
    }
    let tail = newEntryEnd..<references.count
    if itemDelta != 0 || supplementaryDelta != 0 {
      let items = Int32(truncatingIfNeeded: itemDelta)
      let supplementaries = Int32(truncatingIfNeeded: supplementaryDelta)
      for entry in tail {
        let reference = references[entry]
        references[entry] = reference >= 0 ? reference + items : reference - supplementaries
      }
    }
    if supplementaryDelta != 0 {
      for index in (supplementaryBase + scratch.supplementaries.count)..<supplementaries.count {
        if case .supplementary(let kind) = supplementaries[index].category {
          supplementaryIndex[kind]?[supplementaries[index].indexPath] = index
        }
      }
    }
    // Running maxima after the region: band ends are not kept, so each is raised to the region's
    // maximum. Where the old region's maximum dominated, that may overstate it, which only makes
    // a query start its scan a little earlier.
    let regionMaximum = newEntryEnd > 0 ? bandMaxEnds[newEntryEnd - 1] : -Double.infinity
    if regionMaximum != oldRegionMaximum {
      for entry in tail { bandMaxEnds[entry] = Swift.max(regionMaximum, bandMaxEnds[entry]) }
    }
    // Suffix minimums: through the region, then before it until they stop changing.
    var minimum = newEntryEnd < suffixMinStarts.count ? suffixMinStarts[newEntryEnd] : .infinity
    var entry = newEntryEnd - 1
    while entry >= 0 {
      let repaired = Swift.min(bandStarts[entry], minimum)
      if entry < entryBase && suffixMinStarts[entry] == repaired { break }
      suffixMinStarts[entry] = repaired
      minimum = repaired
      entry -= 1
    }
  }

  /// Removes the supplementaries of a kind appended last (the last section's footer), so that more
  /// items can be appended to that section.
  mutating func removeTrailingSupplementaries(ofKind kind: String) {
    while let last = references.last, last < 0 {
      let index = Int(-1 - last)
      guard index == supplementaries.count - 1,
        supplementaries[index].category == .supplementary(kind: kind)
      else {
        break
      }
      supplementaryIndex[kind]?[supplementaries[index].indexPath] = nil
      supplementaries.removeLast()
      supplementaryMoves.removeLast()
      bandStarts.removeLast()
      suffixMinStarts.removeLast()
      bandMaxEnds.removeLast()
      references.removeLast()
    }
    repairSuffixMinimums()
  }

  func item(at indexPath: IndexPath) -> Rect? {
    guard indexPath.section >= 0, indexPath.section < sectionCount else { return nil }
    let flat = sectionStarts[indexPath.section] + indexPath.item
    guard indexPath.item >= 0, flat < sectionStarts[indexPath.section + 1] else { return nil }
    return itemFrames[flat]
  }

  func supplementary(ofKind kind: String, section: Int) -> LayoutAttributes? {
    supplementary(ofKind: kind, at: IndexPath(item: 0, section: section))
  }

  func supplementary(ofKind kind: String, at indexPath: IndexPath) -> LayoutAttributes? {
    supplementaryIndex[kind]?[indexPath].map { supplementaries[$0] }
  }

  /// The index path of a flat item index.
  func indexPath(ofItem flat: Int) -> IndexPath {
    var low = 0
    var high = sectionCount - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if sectionStarts[middle] <= flat { low = middle } else { high = middle - 1 }
    }
    // Skip empty sections that start at the same flat index.
    while low + 1 < sectionCount && sectionStarts[low + 1] <= flat { low += 1 }
    return IndexPath(item: flat - sectionStarts[low], section: low)
  }

  /// Calls `visit` for every element whose frame intersects `rect`; `shifts`, when given, moves
  /// each section's items (and the supplementaries that move with them) across the scroll axis
  /// first — orthogonal scrolling.
  func forEach(in rect: Rect, shifts: [Double]? = nil, _ visit: (LayoutAttributes) -> Void) {
    let low = axis == .vertical ? rect.minY : rect.minX
    let high = axis == .vertical ? rect.maxY : rect.maxX
    // First entry whose running band end passes `low`.
    var first = 0
    var upper = bandMaxEnds.count
    while first < upper {
      let middle = (first + upper) / 2
      if bandMaxEnds[middle] <= low { first = middle + 1 } else { upper = middle }
    }
    var index = first
    while index < references.count && suffixMinStarts[index] < high {
      let reference = Int(references[index])
      if reference >= 0 {
        var frame = itemFrames[reference]
        if let shifts {
          let path = indexPath(ofItem: reference)
          frame = shifted(frame, by: shifts[path.section])
          if frame.intersects(rect) {
            visit(LayoutAttributes(category: .cell, indexPath: path, frame: frame))
          }
        } else if frame.intersects(rect) {
          visit(
            LayoutAttributes(category: .cell, indexPath: indexPath(ofItem: reference), frame: frame)
          )
        }
      } else {
        var attributes = supplementaries[-1 - reference]
        if let shifts, supplementaryMoves[-1 - reference] {
          attributes.frame = shifted(attributes.frame, by: shifts[attributes.indexPath.section])
        }
        if attributes.frame.intersects(rect) { visit(attributes) }
      }
      index += 1
    }
  }

  private func shifted(_ frame: Rect, by amount: Double) -> Rect {
    guard amount != 0 else { return frame }
    return axis == .vertical
      ? frame.offsetBy(dx: -amount, dy: 0) : frame.offsetBy(dx: 0, dy: -amount)
  }

  /// Whether a supplementary moves with its section's items when they scroll sideways.
  func supplementaryMovesWithItems(ofKind kind: String, at indexPath: IndexPath) -> Bool {
    supplementaryIndex[kind]?[indexPath].map { supplementaryMoves[$0] } ?? false
  }

  /// Every element, for brute-force checks and pictures, with sections shifted by `shifts`.
  func allAttributes(shifts: [Double]?) -> [LayoutAttributes] {
    var result: [LayoutAttributes] = []
    for reference in references {
      let reference = Int(reference)
      if reference >= 0 {
        let path = indexPath(ofItem: reference)
        let frame =
          shifts.map { shifted(itemFrames[reference], by: $0[path.section]) }
          ?? itemFrames[reference]
        result.append(LayoutAttributes(category: .cell, indexPath: path, frame: frame))
      } else {
        var attributes = supplementaries[-1 - reference]
        if let shifts, supplementaryMoves[-1 - reference] {
          attributes.frame = shifted(attributes.frame, by: shifts[attributes.indexPath.section])
        }
        result.append(attributes)
      }
    }
    return result
  }

  /// Every element at its unshifted position.
  var allAttributes: [LayoutAttributes] { allAttributes(shifts: nil) }
}
