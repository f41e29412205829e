/// Finds the section that holds an item position in constant time for the usual layouts: a
/// table of the section at the start of each block of positions, then a short walk.
///
/// A snapshot keeps its items per section, so reading the item at a table position means
/// finding its section first; a binary search over a hundred sections' offsets is seven
/// dependent, poorly predicted steps, and a diff or a build does it for every comparison. Blocks
/// are about half a section long on average, so the walk from a block's first section takes
/// one step or none unless sections are very uneven; a walk that runs long falls back to the
/// binary search, which bounds every lookup by O(log *s*).
@usableFromInline
struct SectionFinder {
  /// `offsets[i]` is the position of section `i`'s first item; one more than there are sections.
  @usableFromInline let offsets: [Int]
  /// The section holding the first position of each block.
  @usableFromInline let blockSections: [Int32]
  @usableFromInline let blockShift: Int

  /// A finder over sections with these offsets (as ``Snapshot``'s `_offsets`).
  @inlinable
  init(offsets: [Int]) {
    self.offsets = offsets
    let sections = offsets.count &- 1
    let total = offsets[offsets.count &- 1]
    var shift = 0
    // Blocks at most half the average section: at least twice as many blocks as sections.
    while sections > 1 && (total >> (shift &+ 1)) >= sections &* 2 { shift &+= 1 }
    blockShift = shift
    guard sections > 1, total > 0 else {
      blockSections = []
      return
    }
    let blocks = ((total &- 1) >> shift) &+ 1
    var table = [Int32](repeating: 0, count: blocks)
    var section = 0
    for block in 0..<blocks {
      let start = block << shift
      // The last section that starts at or before `start` (empty ones start where the next does).
      while section &+ 1 < sections && offsets[section &+ 1] <= start { section &+= 1 }
      table[block] = Int32(truncatingIfNeeded: section)
    }
    blockSections = table
  }

  /// The index of the section that holds the item at `position`.
  ///
  /// - Complexity: O(1) when sections are about even in size; O(log *s*) at worst, where *s* is
  ///   the number of sections.
  @inlinable @inline(__always)
  func section(atPosition position: Int) -> Int {
    if blockSections.isEmpty { return 0 }
    var section = Int(blockSections[position >> blockShift])
    var steps = 0
    while offsets[section &+ 1] <= position {
      section &+= 1
      steps &+= 1
      if steps == 8 {
        return Snapshot<Int, Int>._section(atPosition: position, offsets: offsets)
      }
    }
    return section
  }
}
