/// Frames of a prepared layout and the index that answers "what is in this rectangle".
///
/// Items are kept in ``ItemFrames`` (9 bytes each where a chunk's items share one length along the
/// scroll axis and a few placements across it, 17 where lengths differ, at most 33), their index
/// paths implied by their flat position, and summarized 32 at a time along the scroll axis
/// (``BandBlocks``, one byte per item). Supplementaries and decorations — headers, backgrounds that
/// span a whole section, layout-wide boundary items — are kept apart in ``IntervalLayers``, so that
/// a long element never makes a query scan what it spans. A section that scrolls orthogonally
/// indexes its items across the scroll axis (``OrthogonalRun``). A query is O(log *n* + *k*) for
/// items and O(*L* log *n* + *k*) for the *L* layers of supplementaries (their nesting depth);
/// every store is chunked, so an append costs what it appends, however large the layout already is.
struct LayoutStore {
  /// A supplementary or decoration and where it stands among the items, in one 64-byte line:
  /// its kind is a number in the store's ``kinds`` and its index path two 32-bit halves, so that a
  /// query reads one cache line for each it returns (attributes with their kind's string took two).
  private struct Supplementary {
    /// What a supplementary is besides its frame and place.
    struct Traits: OptionSet {
      var rawValue: UInt8
      /// A decoration rather than a supplementary view.
      static let decoration = Traits(rawValue: 1)
      /// Appended pinned (``LayoutAttributes/isPinned``).
      static let pinned = Traits(rawValue: 2)
      /// Moves with its section's items when they scroll sideways.
      static let movesWithItems = Traits(rawValue: 4)
    }

    var frame: Rect
    var zIndex: Int
    /// How many items were appended before it: it is listed after them.
    var precedingItems: Int
    var item: Int32
    var section: Int32
    /// Its section's orthogonal run when it moves with that run's items, or -1.
    var runNumber: Int32
    /// Its kind, as a position in the store's ``kinds``.
    var kind: UInt16
    var traits: Traits

    var indexPath: IndexPath { IndexPath(item: Int(item), section: Int(section)) }
    var movesWithItems: Bool { traits.contains(.movesWithItems) }
    /// Its section's orthogonal run, when it moves with that run's items.
    var run: Int? { runNumber >= 0 ? Int(runNumber) : nil }
  }

  let axis: LayoutAxis
  /// The flat index of each section's first item (the last section ends with the items).
  private var sectionStarts: [Int] = []
  /// Per section: where its supplementaries begin, and its orthogonal run if it has one.
  private var sectionSupplementaryStarts: [Int] = []
  private var sectionRuns: [Int?] = []

  private var items: ItemFrames
  /// Items along the scroll axis; items of orthogonal runs are counted but not summarized.
  private var itemBlocks = BandBlocks()
  private var supplementaries = ChunkedArray<Supplementary>()
  /// The kinds of the supplementaries, each once, and the number of each.
  private var kinds: [String] = []
  private var kindNumbers: [String: UInt16] = [:]
  /// For each kind, the supplementary index of each index path (item 0 for section-level ones).
  private var supplementaryIndex: [String: [IndexPath: Int]] = [:]
  /// Supplementaries that do not move sideways, along the scroll axis.
  private var fixedSupplementaries = IntervalLayers()
  private var runs: [OrthogonalRun] = []
  /// The runs' extents along the scroll axis.
  private var runBlocks = BandBlocks()

  init(axis: LayoutAxis) {
    self.axis = axis
    items = ItemFrames(axis: axis)
  }

  var sectionCount: Int { sectionStarts.count }

  /// The flat index after a section's last item.
  private func sectionEnd(_ section: Int) -> Int {
    section + 1 < sectionStarts.count ? sectionStarts[section + 1] : items.count
  }

  /// Starts a new section; items and supplementaries appended next belong to it.
  ///
  /// The items of a section that scrolls orthogonally are indexed across the scroll axis too.
  mutating func beginSection(scrollsOrthogonally: Bool = false) {
    sectionSupplementaryStarts.append(supplementaries.count)
    sectionStarts.append(items.count)
    if scrollsOrthogonally {
      runs.append(OrthogonalRun(section: sectionCount - 1, firstItem: items.count))
      runBlocks.append(low: .infinity, high: -.infinity)
      sectionRuns.append(runs.count - 1)
    } else {
      sectionRuns.append(nil)
    }
  }

  @inline(__always)
  mutating func appendItem(_ frame: Rect) {
    precondition(sectionCount > 0, "An item appended before any section.")
    let main = mainRange(frame)
    if let run = sectionRuns.last ?? nil {
      runs[run].items = runs[run].items.lowerBound..<(items.count + 1)
      let cross = crossRange(frame)
      runs[run].crossBlocks.append(low: cross.low, high: cross.high)
      runs[run].include(low: main.low, high: main.high)
      runBlocks.extendLast(low: main.low, high: main.high)
      itemBlocks.append(low: .infinity, high: -.infinity)
    } else {
      itemBlocks.append(low: main.low, high: main.high)
    }
    items.append(frame)
  }

  /// Appends `count` items of the current section, `frame(k)` giving the `k`th along the scroll
  /// axis (start and length) and across it; the same as appending each as a rectangle, without
  /// building one and with the store's checks made once for the batch.
  ///
  /// `frame` is called once per item, in order, so it may carry state from one item to the next
  /// (a waterfall's column bottoms).
  @inline(__always)
  mutating func appendItems(
    count: Int,
    _ frame: (Int) -> (main: Double, mainLength: Double, cross: Double, crossLength: Double)
  ) {
    precondition(sectionCount > 0, "An item appended before any section.")
    guard sectionRuns[sectionCount - 1] == nil else {
      for index in 0..<count {
        let placed = frame(index)
        appendItem(
          axis.rect(
            main: placed.main, cross: placed.cross, mainLength: placed.mainLength,
            crossLength: placed.crossLength))
      }
      return
    }
    // A block of the summaries at a time, its interval kept in locals.
    var next = 0
    while next < count {
      let batch = Swift.min(count - next, itemBlocks.roomInOpenBlock)
      var low = Double.infinity
      var high = -Double.infinity
      let first = next
      items.append(count: batch) { index in
        let placed = frame(first + index)
        let end = placed.main + placed.mainLength
        // As the summaries count them: empty intervals leave no trace.
        if placed.main < end {
          if placed.main < low { low = placed.main }
          if end > high { high = end }
        }
        return (
          placed.main, placed.mainLength,
          FrameChunk.Lane(start: placed.cross, length: placed.crossLength)
        )
      }
      itemBlocks.append(entries: batch, low: low, high: high)
      next += batch
    }
  }

  mutating func appendSupplementary(_ attributes: LayoutAttributes, movesWithItems: Bool = false) {
    let index = supplementaries.count
    // Layout-wide boundary items may come before the first section.
    let run = movesWithItems && sectionCount > 0 ? sectionRuns[sectionCount - 1] : nil
    supplementaries.append(
      entry(
        attributes, precedingItems: items.count, movesWithItems: movesWithItems, run: run))
    if case .supplementary(let kind) = attributes.category {
      supplementaryIndex[kind, default: [:]][attributes.indexPath] = index
    }
    indexSupplementary(index)
  }

  /// The stored form of a supplementary's attributes, its kind numbered in this store.
  private mutating func entry(
    _ attributes: LayoutAttributes, precedingItems: Int, movesWithItems: Bool, run: Int?
  ) -> Supplementary {
    var traits: Supplementary.Traits = []
    let kind: String
    switch attributes.category {
    case .supplementary(let name): kind = name
    case .decoration(let name):
      kind = name
      traits.insert(.decoration)
    case .cell: preconditionFailure("A cell appended as a supplementary.")
    }
    if attributes.isPinned { traits.insert(.pinned) }
    if movesWithItems { traits.insert(.movesWithItems) }
    guard let item = Int32(exactly: attributes.indexPath.item),
      let section = Int32(exactly: attributes.indexPath.section)
    else {
      preconditionFailure("A supplementary at \(attributes.indexPath), beyond 32-bit indexes.")
    }
    return Supplementary(
      frame: attributes.frame, zIndex: attributes.zIndex, precedingItems: precedingItems,
      item: item, section: section, runNumber: Int32(truncatingIfNeeded: run ?? -1),
      kind: number(ofKind: kind), traits: traits)
  }

  /// The number of a kind in ``kinds``, given it the first time it is seen.
  private mutating func number(ofKind kind: String) -> UInt16 {
    // Supplementaries come in runs of one kind (a grid's badges): the last kind numbered is
    // checked before the table.
    if let last = kinds.last, last == kind { return UInt16(truncatingIfNeeded: kinds.count - 1) }
    if let number = kindNumbers[kind] { return number }
    precondition(kinds.count <= Int(UInt16.max), "More than 65,536 kinds of supplementary.")
    let number = UInt16(truncatingIfNeeded: kinds.count)
    kinds.append(kind)
    kindNumbers[kind] = number
    return number
  }

  /// The attributes a supplementary was appended with.
  private func attributes(of entry: Supplementary) -> LayoutAttributes {
    let kind = kinds[Int(entry.kind)]
    return LayoutAttributes(
      category: entry.traits.contains(.decoration)
        ? .decoration(kind: kind) : .supplementary(kind: kind),
      indexPath: entry.indexPath, frame: entry.frame, zIndex: entry.zIndex,
      isPinned: entry.traits.contains(.pinned))
  }

  /// The kind of a supplementary view, or `nil` for a decoration.
  private func supplementaryKind(of entry: Supplementary) -> String? {
    entry.traits.contains(.decoration) ? nil : kinds[Int(entry.kind)]
  }

  /// Puts a supplementary into the index that finds it.
  private mutating func indexSupplementary(_ index: Int) {
    let entry = supplementaries[index]
    let main = mainRange(entry.frame)
    if let run = entry.run {
      let cross = crossRange(entry.frame)
      runs[run].supplementaries.insert(index, low: cross.low, high: cross.high)
      runs[run].include(low: main.low, high: main.high)
      runBlocks.extendLast(low: main.low, high: main.high)
    } else {
      fixedSupplementaries.insert(index, low: main.low, high: main.high)
    }
  }

  private func mainRange(_ frame: Rect) -> (low: Double, high: Double) {
    axis.mainRange(of: frame)
  }

  private func crossRange(_ frame: Rect) -> (low: Double, high: Double) {
    axis.crossRange(of: frame)
  }

  /// An item's extent along the scroll axis as its summary counts it (none for run items).
  private func itemInterval(_ item: Int) -> (low: Double, high: Double) {
    isInRun(item: item) ? (.infinity, -.infinity) : items.mainRange(at: item)
  }

  private func isInRun(item: Int) -> Bool {
    guard !runs.isEmpty else { return false }
    return sectionRuns[indexPath(ofItem: item).section] != nil
  }

  // MARK: Removing and replacing

  /// Removes everything from a section on, to lay it out again.
  mutating func truncate(fromSection section: Int) {
    guard section < sectionCount else { return }
    let itemCount = sectionStarts[section]
    let supplementaryCount = sectionSupplementaryStarts[section]
    for index in supplementaryCount..<supplementaries.count {
      let removed = supplementaries[index]
      if let kind = supplementaryKind(of: removed) {
        supplementaryIndex[kind]?[removed.indexPath] = nil
      }
    }
    supplementaries.truncate(to: supplementaryCount)
    fixedSupplementaries.removeReferences(from: supplementaryCount)
    let keptRuns = sectionRuns[..<section].lazy.compactMap { $0 }.last.map { $0 + 1 } ?? 0
    if keptRuns < runs.count {
      runs.removeSubrange(keptRuns...)
      let kept = runs
      runBlocks.truncate(to: keptRuns) { (kept[$0].low, kept[$0].high) }
    }
    sectionStarts.removeSubrange(section...)
    sectionSupplementaryStarts.removeSubrange(section...)
    sectionRuns.removeSubrange(section...)
    items.truncate(to: itemCount)
    var blocks = itemBlocks
    itemBlocks = BandBlocks()
    blocks.truncate(to: itemCount) { self.itemInterval($0) }
    itemBlocks = blocks
  }

  /// Removes the supplementaries of a kind appended last (the last section's footer), so that
  /// more items can be appended to that section.
  mutating func removeTrailingSupplementaries(ofKind kind: String) {
    var count = supplementaries.count
    while count > 0, count > sectionSupplementaryStarts.last ?? 0 {
      let last = supplementaries[count - 1]
      guard last.precedingItems == items.count, supplementaryKind(of: last) == kind else { break }
      supplementaryIndex[kind]?[last.indexPath] = nil
      count -= 1
    }
    guard count < supplementaries.count else { return }
    if let run = sectionRuns.last ?? nil {
      runs[run].supplementaries.removeReferences(from: count)
    }
    fixedSupplementaries.removeReferences(from: count)
    supplementaries.truncate(to: count)
  }

  /// Puts `scratch` — sections `range` laid out again in a store of their own, so their item and
  /// supplementary indexes count from zero, ending where they ended — in place of those sections.
  ///
  /// When the sections hold as many items and supplementaries as before and none scrolls
  /// orthogonally (an item moved between two sections of a list), their frames are written in
  /// place: it costs what they hold, plus re-indexing the supplementaries after them; otherwise
  /// what follows them is appended again.
  mutating func replaceSections(_ range: ClosedRange<Int>, with scratch: LayoutStore) {
    let first = range.lowerBound
    let last = range.upperBound
    // The last section is followed by what the layout appends after all sections (its footer),
    // which a scratch store does not hold: lay out from the range's start instead.
    precondition(
      first >= 0 && last + 1 < sectionCount && scratch.sectionCount == range.count,
      "Sections \(range) of \(sectionCount) replaced by \(scratch.sectionCount) laid out again.")
    let itemBase = sectionStarts[first]
    let itemEnd = sectionEnd(last)
    let supplementaryBase = sectionSupplementaryStarts[first]
    let supplementaryEnd =
      last + 1 < sectionCount ? sectionSupplementaryStarts[last + 1] : supplementaries.count
    let inPlace =
      scratch.items.count == itemEnd - itemBase
      && scratch.supplementaries.count == supplementaryEnd - supplementaryBase
      && scratch.runs.isEmpty && !sectionRuns[range].contains { $0 != nil }
    guard inPlace else {
      let old = self
      truncate(fromSection: first)
      for section in 0..<scratch.sectionCount { appendSection(section, of: scratch) }
      for section in (last + 1)..<old.sectionCount { appendSection(section, of: old) }
      return
    }
    for offset in 0..<scratch.items.count {
      items.set(scratch.items[offset], at: itemBase + offset)
    }
    var blocks = itemBlocks
    itemBlocks = BandBlocks()
    blocks.refresh(entries: itemBase..<itemEnd) { self.itemInterval($0) }
    itemBlocks = blocks
    for offset in 0..<scratch.supplementaries.count {
      let index = supplementaryBase + offset
      let removed = supplementaries[index]
      if let kind = supplementaryKind(of: removed) {
        supplementaryIndex[kind]?[removed.indexPath] = nil
      }
    }
    for offset in 0..<scratch.supplementaries.count {
      // Numbered again: the scratch store numbers kinds in its own table.
      let scratchEntry = scratch.supplementaries[offset]
      let attributes = scratch.attributes(of: scratchEntry)
      let index = supplementaryBase + offset
      supplementaries[index] = entry(
        attributes, precedingItems: scratchEntry.precedingItems + itemBase,
        movesWithItems: scratchEntry.movesWithItems, run: scratchEntry.run)
      if case .supplementary(let kind) = attributes.category {
        supplementaryIndex[kind, default: [:]][attributes.indexPath] = index
      }
    }
    for section in 0..<range.count {
      sectionStarts[first + section] = itemBase + scratch.sectionStarts[section]
      sectionSupplementaryStarts[first + section] =
        supplementaryBase + scratch.sectionSupplementaryStarts[section]
    }
    // The replaced supplementaries may have moved: index them, and the fixed ones after them,
    // again (layers keep references in order).
    fixedSupplementaries.removeReferences(from: supplementaryBase)
    for index in supplementaryBase..<supplementaries.count where supplementaries[index].run == nil {
      let frame = supplementaries[index].frame
      let main = mainRange(frame)
      fixedSupplementaries.insert(index, low: main.low, high: main.high)
    }
  }

  /// Appends a section of another store, element by element, in the order it was laid out.
  private mutating func appendSection(_ section: Int, of other: LayoutStore) {
    beginSection(scrollsOrthogonally: other.sectionRuns[section] != nil)
    let itemRange = other.sectionStarts[section]..<other.sectionEnd(section)
    let supplementaryEnd =
      section + 1 < other.sectionCount
      ? other.sectionSupplementaryStarts[section + 1] : other.supplementaries.count
    var supplementary = other.sectionSupplementaryStarts[section]
    for item in itemRange {
      while supplementary < supplementaryEnd
        && other.supplementaries[supplementary].precedingItems <= item
      {
        let entry = other.supplementaries[supplementary]
        appendSupplementary(other.attributes(of: entry), movesWithItems: entry.movesWithItems)
        supplementary += 1
      }
      appendItem(other.items[item])
    }
    while supplementary < supplementaryEnd {
      let entry = other.supplementaries[supplementary]
      appendSupplementary(other.attributes(of: entry), movesWithItems: entry.movesWithItems)
      supplementary += 1
    }
  }

  // MARK: Lookups

  func item(at indexPath: IndexPath) -> Rect? {
    guard indexPath.section >= 0, indexPath.section < sectionCount else { return nil }
    let flat = sectionStarts[indexPath.section] + indexPath.item
    guard indexPath.item >= 0, flat < sectionEnd(indexPath.section) else { return nil }
    return items[flat]
  }

  func supplementary(ofKind kind: String, section: Int) -> LayoutAttributes? {
    supplementary(ofKind: kind, at: IndexPath(item: 0, section: section))
  }

  func supplementary(ofKind kind: String, at indexPath: IndexPath) -> LayoutAttributes? {
    supplementaryIndex[kind]?[indexPath].map { attributes(of: supplementaries[$0]) }
  }

  /// Whether a supplementary moves with its section's items when they scroll sideways.
  func supplementaryMovesWithItems(ofKind kind: String, at indexPath: IndexPath) -> Bool {
    supplementaryIndex[kind]?[indexPath].map { supplementaries[$0].movesWithItems } ?? false
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

  // MARK: Queries

  /// Calls `visit` for every element whose frame intersects `rect`, in the order they were
  /// appended; `shifts`, when given, moves each orthogonally scrolling section's items (and the
  /// supplementaries that move with them) across the scroll axis first.
  func forEach(
    in rect: Rect, shifts: [Double]? = nil, _ visit: (consuming LayoutAttributes) -> Void
  ) {
    guard !rect.isEmpty else { return }
    let (low, high) = mainRange(rect)
    // Room for a screenful, so that a query allocates once. Each hit keeps the frame read to
    // test it, so that the frames are read once.
    var itemHits: [(item: Int, frame: Rect)] = []
    itemHits.reserveCapacity(128)
    var supplementaryHits: [Int] = []

    // Items outside orthogonal runs; a block wholly inside a run is skipped with the run.
    var block = itemBlocks.firstBlock(reaching: low)
    var nextRun = firstRun(endingAfter: block << BandBlocks.blockShift)
    while itemBlocks.continues(at: block, before: high) {
      let entries = itemBlocks.entries(ofBlock: block)
      while nextRun < runs.count && runs[nextRun].items.upperBound <= entries.lowerBound {
        nextRun += 1
      }
      if nextRun < runs.count && runs[nextRun].items.lowerBound <= entries.lowerBound
        && runs[nextRun].items.upperBound >= entries.upperBound
      {
        block = runs[nextRun].items.upperBound >> BandBlocks.blockShift
        continue
      }
      if itemBlocks.overlaps(block: block, low: low, high: high) {
        var skipped = nextRun
        for item in entries {
          while skipped < runs.count && runs[skipped].items.upperBound <= item { skipped += 1 }
          if skipped < runs.count && runs[skipped].items.lowerBound <= item { continue }
          let frame = items[item]
          if frame.intersects(rect) { itemHits.append((item, frame)) }
        }
      }
      block += 1
    }
    var itemsInOrder = true
    runBlocks.forEachCandidate(low: low, high: high) { index in
      let run = runs[index]
      guard run.low < high && run.high > low else { return }
      let shift = shifts?[run.section] ?? 0
      let cross = crossRange(rect)
      let before = itemHits.count
      run.crossBlocks.forEachCandidate(low: cross.low + shift, high: cross.high + shift) { local in
        let item = run.items.lowerBound + local
        let frame = items[item]
        if shifted(frame, by: shift).intersects(rect) { itemHits.append((item, frame)) }
      }
      if itemHits.count > before { itemsInOrder = false }
      run.supplementaries.forEach(overlapping: cross.low + shift, cross.high + shift) { index in
        if shifted(supplementaries[index].frame, by: shift).intersects(rect) {
          supplementaryHits.append(index)
        }
      }
    }
    fixedSupplementaries.forEach(overlapping: low, high) { index in
      if supplementaries[index].frame.intersects(rect) {
        supplementaryHits.append(index)
      }
    }
    if !itemsInOrder { itemHits.sort { $0.item < $1.item } }
    supplementaryHits.sort()
    var next = 0
    // The hits' section, found again only when they pass its end.
    var section = -1
    var sectionEnd = 0
    for hit in itemHits {
      while next < supplementaryHits.count
        && supplementaries[supplementaryHits[next]].precedingItems <= hit.item
      {
        visit(supplementary(supplementaryHits[next], shifts: shifts))
        next += 1
      }
      if hit.item >= sectionEnd {
        section = indexPath(ofItem: hit.item).section
        sectionEnd = self.sectionEnd(section)
      }
      visit(item(hit.item, in: section, frame: hit.frame, shifts: shifts))
    }
    while next < supplementaryHits.count {
      visit(supplementary(supplementaryHits[next], shifts: shifts))
      next += 1
    }
  }

  /// The first run whose items end after a flat index.
  private func firstRun(endingAfter flat: Int) -> Int {
    var first = 0
    var upper = runs.count
    while first < upper {
      let middle = (first + upper) / 2
      if runs[middle].items.upperBound <= flat { first = middle + 1 } else { upper = middle }
    }
    return first
  }

  private func item(_ flat: Int, shifts: [Double]?) -> LayoutAttributes {
    item(flat, in: indexPath(ofItem: flat).section, frame: items[flat], shifts: shifts)
  }

  /// The cell of an item of `section` whose stored frame is `frame`.
  @inline(__always)
  private func item(_ flat: Int, in section: Int, frame: Rect, shifts: [Double]?)
    -> LayoutAttributes
  {
    var frame = frame
    if let shifts, sectionRuns[section] != nil {
      frame = shifted(frame, by: shifts[section])
    }
    return LayoutAttributes(
      category: .cell, indexPath: IndexPath(item: flat - sectionStarts[section], section: section),
      frame: frame)
  }

  private func supplementary(_ index: Int, shifts: [Double]?) -> LayoutAttributes {
    let entry = supplementaries[index]
    var attributes = attributes(of: entry)
    if let shifts, let run = entry.run {
      attributes.frame = shifted(attributes.frame, by: shifts[runs[run].section])
    }
    return attributes
  }

  private func shifted(_ frame: Rect, by amount: Double) -> Rect {
    guard amount != 0 else { return frame }
    return axis.offset(frame, cross: -amount)
  }

  /// Every element in the order it was appended, for brute-force checks and pictures, with
  /// orthogonally scrolling sections shifted by `shifts`.
  func allAttributes(shifts: [Double]?) -> [LayoutAttributes] {
    var result: [LayoutAttributes] = []
    result.reserveCapacity(items.count + supplementaries.count)
    var next = 0
    for item in 0..<items.count {
      while next < supplementaries.count && supplementaries[next].precedingItems <= item {
        result.append(supplementary(next, shifts: shifts))
        next += 1
      }
      result.append(self.item(item, shifts: shifts))
    }
    while next < supplementaries.count {
      result.append(supplementary(next, shifts: shifts))
      next += 1
    }
    return result
  }

  /// Every element at its unshifted position.
  var allAttributes: [LayoutAttributes] { allAttributes(shifts: nil) }

  /// The first broken invariant, or `nil`; see ``checkInvariants()``.
  ///
  /// - Complexity: O(*n* + *s*) for *n* items and *s* supplementaries.
  func invariantViolation() -> String? {
    guard sectionSupplementaryStarts.count == sectionStarts.count,
      sectionRuns.count == sectionStarts.count
    else { return "per-section tables differ in count" }
    for section in sectionStarts.indices {
      guard sectionStarts[section] <= sectionEnd(section) else {
        return "section \(section) starts after it ends"
      }
      if section > 0,
        sectionSupplementaryStarts[section] < sectionSupplementaryStarts[section - 1]
      {
        return "section \(section)'s supplementaries start before the previous section's"
      }
    }
    if let first = sectionStarts.first, first != 0 { return "the first section starts at \(first)" }
    if let last = sectionSupplementaryStarts.last, last > supplementaries.count {
      return "a section's supplementaries start past the end"
    }
    guard itemBlocks.count == items.count else {
      return "\(itemBlocks.count) item summaries for \(items.count) items"
    }
    if let problem = itemBlocks.violation(itemInterval) {
      return "items: " + problem
    }
    for (number, run) in runs.enumerated() {
      guard sectionRuns.indices.contains(run.section), sectionRuns[run.section] == number else {
        return "run \(number) is not its section's"
      }
      guard run.items.lowerBound >= sectionStarts[run.section],
        run.items.upperBound <= sectionEnd(run.section)
      else { return "run \(number)'s items leave its section" }
      guard run.crossBlocks.count == run.items.count else {
        return "run \(number) summarizes \(run.crossBlocks.count) of \(run.items.count) items"
      }
      let across = run.crossBlocks.violation { entry in
        let frame = items[run.items.lowerBound + entry]
        return crossRange(frame)
      }
      if let across { return "run \(number) across: " + across }
      for item in run.items {
        let (low, high) = items.mainRange(at: item)
        if low < high && (low < run.low || high > run.high) {
          return "item \(item) leaves run \(number)'s extent"
        }
      }
    }
    guard runBlocks.count == runs.count else { return "run summaries differ from the runs" }
    var preceding = 0
    for index in 0..<supplementaries.count {
      let entry = supplementaries[index]
      guard entry.precedingItems >= preceding, entry.precedingItems <= items.count else {
        return "supplementary \(index) is listed out of order among the items"
      }
      preceding = entry.precedingItems
      guard Int(entry.kind) < kinds.count, kindNumbers[kinds[Int(entry.kind)]] == entry.kind
      else { return "supplementary \(index) has kind number \(entry.kind), not in the table" }
      if let kind = supplementaryKind(of: entry),
        supplementaryIndex[kind]?[entry.indexPath] != index
      {
        return "supplementary \(index) (\(kind) at \(entry.indexPath)) is not indexed"
      }
    }
    guard kinds.count == kindNumbers.count,
      kinds.indices.allSatisfy({ kindNumbers[kinds[$0]] == UInt16(truncatingIfNeeded: $0) })
    else { return "the kind table and its numbers differ" }
    for (kind, paths) in supplementaryIndex {
      for (path, index) in paths {
        guard index < supplementaries.count,
          supplementaries[index].indexPath == path,
          supplementaryKind(of: supplementaries[index]) == kind
        else { return "the index of \(kind) at \(path) points at another element" }
      }
    }
    return nil
  }

}
