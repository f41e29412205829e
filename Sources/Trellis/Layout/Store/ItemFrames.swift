/// Item frames in structure-of-arrays form, in chunks of ``FrameChunk/capacity`` so that
/// appending never copies: along the scroll axis each item keeps its start, and its length unless
/// every item of the chunk has the same (8 or 16 bytes); across it, a chunk whose items share a few
/// placements (columns, a grid's cells, a chip bar's row) keeps them once and one byte per item,
/// and any other chunk keeps both values per item (33 bytes an item at most).
///
/// Every value comes back exactly as it was stored: a frame is never rebuilt from rounded parts.
/// Copies share chunks; writing to a shared chunk copies that chunk only.
struct ItemFrames {
  let axis: LayoutAxis
  /// Full chunks, then the one being filled (kept apart so that appending reaches it directly).
  private var full: [FrameChunk] = []
  private var open = FrameChunk(capacity: 16)
  private(set) var count = 0

  init(axis: LayoutAxis) { self.axis = axis }

  private static var shift: Int { 12 }
  private static var mask: Int { FrameChunk.capacity - 1 }

  @inline(__always)
  private func chunk(_ index: Int) -> FrameChunk {
    let number = index &>> Self.shift
    return number < full.count ? full[number] : open
  }

  /// The start and end of an item along the scroll axis.
  @inline(__always)
  func mainRange(at index: Int) -> (low: Double, high: Double) {
    let main = chunk(index).main(at: index & Self.mask)
    return (main.start, main.start + main.length)
  }

  @inline(__always)
  subscript(index: Int) -> Rect {
    let chunk = chunk(index)
    let main = chunk.main(at: index & Self.mask)
    let cross = chunk.cross(at: index & Self.mask)
    return axis.rect(
      main: main.start, cross: cross.start, mainLength: main.length, crossLength: cross.length)
  }

  @inline(__always)
  mutating func append(_ frame: Rect) {
    if open.isFull {
      full.append(open)
      // Only the first chunk starts small and grows: a small layout stays small.
      open = FrameChunk(capacity: FrameChunk.capacity)
    } else if !isKnownUniquelyReferenced(&open) {
      open = open.copy()
    }
    open.append(
      main: axis.main(frame.origin), mainLength: axis.main(frame.size),
      cross: FrameChunk.Lane(start: axis.cross(frame.origin), length: axis.cross(frame.size)))
    count += 1
  }

  /// Appends `count` frames given along and across the scroll axis, `frame(k)` giving the `k`th
  /// (asked once each, in order); the same as appending them one by one, with one uniqueness
  /// check per chunk instead of one per frame, and the chunk's storage forms read once per run of
  /// frames they hold (``FrameChunk/append(count:_:)``).
  @inline(__always)
  mutating func append(
    count: Int,
    _ frame: (Int) -> (main: Double, mainLength: Double, cross: FrameChunk.Lane)
  ) {
    var next = 0
    while next < count {
      if open.isFull {
        full.append(open)
        open = FrameChunk(capacity: FrameChunk.capacity)
      } else if !isKnownUniquelyReferenced(&open) {
        open = open.copy()
      }
      let end = Swift.min(count, next + FrameChunk.capacity - open.count)
      let first = next
      open.append(count: end - next) { frame(first + $0) }
      next = end
    }
    self.count += count
  }

  /// Replaces the frame of an item.
  mutating func set(_ frame: Rect, at index: Int) {
    precondition(index >= 0 && index < count, "Frame \(index) of \(count) replaced.")
    let main = axis.main(frame.origin)
    let mainLength = axis.main(frame.size)
    let lane = FrameChunk.Lane(start: axis.cross(frame.origin), length: axis.cross(frame.size))
    let number = index &>> Self.shift
    if number < full.count {
      if !isKnownUniquelyReferenced(&full[number]) { full[number] = full[number].copy() }
      full[number].set(main: main, mainLength: mainLength, cross: lane, at: index & Self.mask)
    } else {
      if !isKnownUniquelyReferenced(&open) { open = open.copy() }
      open.set(main: main, mainLength: mainLength, cross: lane, at: index & Self.mask)
    }
  }

  /// Keeps the first `newCount` frames.
  mutating func truncate(to newCount: Int) {
    precondition(newCount >= 0 && newCount <= count, "Truncating \(count) frames to \(newCount).")
    guard newCount < count else { return }
    // The chunk holding the last kept frame (or, at a chunk boundary, the full one before it)
    // becomes the open one.
    let kept = newCount &>> Self.shift
    if kept < full.count {
      open = full[kept]
      full.removeSubrange(kept...)
    }
    if !isKnownUniquelyReferenced(&open) { open = open.copy() }
    open.truncate(to: newCount - kept << Self.shift)
    count = newCount
  }
}
