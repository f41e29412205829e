/// Up to ``capacity`` item frames in structure-of-arrays form (see ``ItemFrames``), in buffers of
/// their own so that appending is a few stores.
///
/// Along the scroll axis each item has a start; its length is kept once while every item of the
/// chunk has the same (rows of a list, cells of a grid, chips of one height), and per item from the
/// first that differs. Across it, items share placements (a start and a length: a column, a grid
/// cell's position in its row) from a table of at most ``maximumLanes``, one byte each; the first
/// item with a placement that does not fit turns the chunk into one with a start and a length per
/// item. The chunk is a class for its buffers;
/// ``ItemFrames`` copies one before writing to it when it is shared.
final class FrameChunk {
  static let capacity = 4096
  static let maximumLanes = 16

  struct Lane {
    var start: Double
    var length: Double

    /// Whether two lanes are the same to the bit (so -0 and 0 stay apart, and a lane is stored
    /// exactly as it came).
    @inline(__always)
    func isIdentical(to other: Lane) -> Bool {
      start.bitPattern == other.start.bitPattern && length.bitPattern == other.length.bitPattern
    }
  }

  /// How the chunk stores lengths along the scroll axis.
  private enum MainLengths {
    /// No item has been written yet.
    case none
    /// Every item written so far has this length (compared to the bit).
    case uniform(Double)
    /// A length per item.
    case explicit(UnsafeMutablePointer<Double>)
  }

  /// How the chunk stores positions across the scroll axis.
  private enum Cross {
    /// In the lane table, with one lane index per item.
    case lanes
    /// A start and a length per item.
    case explicit(starts: UnsafeMutablePointer<Double>, lengths: UnsafeMutablePointer<Double>)
  }

  private(set) var count = 0
  private var capacity: Int
  private var mainStarts: UnsafeMutablePointer<Double>
  private var mainLengths = MainLengths.none
  private var laneIndices: UnsafeMutablePointer<UInt8>
  private let lanes = UnsafeMutablePointer<Lane>.allocate(capacity: FrameChunk.maximumLanes)
  private var laneCount = 0
  private var lastLane = 0
  private var crossStorage = Cross.lanes

  /// A chunk with room for `capacity` frames before it has to grow.
  init(capacity: Int) {
    self.capacity = capacity
    mainStarts = .allocate(capacity: capacity)
    laneIndices = .allocate(capacity: capacity)
  }

  deinit {
    mainStarts.deallocate()
    if case .explicit(let lengths) = mainLengths { lengths.deallocate() }
    laneIndices.deallocate()
    lanes.deallocate()
    if case .explicit(let starts, let lengths) = crossStorage {
      starts.deallocate()
      lengths.deallocate()
    }
  }

  /// A copy with the same frames and at least the same room.
  func copy() -> FrameChunk {
    let copy = FrameChunk(capacity: capacity)
    copy.mainStarts.update(from: mainStarts, count: count)
    switch mainLengths {
    case .none, .uniform: copy.mainLengths = mainLengths
    case .explicit(let lengths):
      let copied = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
      copied.update(from: lengths, count: count)
      copy.mainLengths = .explicit(copied)
    }
    copy.laneIndices.update(from: laneIndices, count: count)
    copy.lanes.update(from: lanes, count: laneCount)
    copy.laneCount = laneCount
    copy.lastLane = lastLane
    copy.count = count
    if case .explicit(let starts, let lengths) = crossStorage {
      let copiedStarts = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
      let copiedLengths = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
      copiedStarts.update(from: starts, count: count)
      copiedLengths.update(from: lengths, count: count)
      copy.crossStorage = .explicit(starts: copiedStarts, lengths: copiedLengths)
    }
    return copy
  }

  /// An item's start and length along the scroll axis.
  @inline(__always)
  func main(at index: Int) -> (start: Double, length: Double) {
    precondition(index >= 0 && index < count, "Frame \(index) of \(count).")
    switch mainLengths {
    case .none: preconditionFailure("A chunk with frames and no lengths.")
    case .uniform(let length): return (mainStarts[index], length)
    case .explicit(let lengths): return (mainStarts[index], lengths[index])
    }
  }

  /// An item's start and length across the scroll axis.
  @inline(__always)
  func cross(at index: Int) -> Lane {
    precondition(index >= 0 && index < count, "Frame \(index) of \(count).")
    switch crossStorage {
    case .lanes: return lanes[Int(laneIndices[index])]
    case .explicit(let starts, let lengths):
      return Lane(start: starts[index], length: lengths[index])
    }
  }

  /// Whether another frame fits without growing.
  var isFull: Bool { count == FrameChunk.capacity }

  @inline(__always)
  func append(main: Double, mainLength: Double, cross lane: Lane) {
    if count == capacity { grow() }
    mainStarts[count] = main
    count += 1
    write(mainLength: mainLength, at: count - 1)
    write(lane, at: count - 1)
  }

  /// Appends `count` frames, `frame(k)` giving the `k`th: the same as appending them one by
  /// one, with the storage forms read once while they hold (every frame's length as the
  /// chunk's one length or one per item, its placement across among the lanes the chunk has).
  @inline(__always)
  func append(
    count added: Int, _ frame: (Int) -> (main: Double, mainLength: Double, cross: Lane)
  ) {
    precondition(count + added <= FrameChunk.capacity, "\(added) frames appended to \(count).")
    while capacity < count + added { grow() }
    var next = 0
    while next < added { next = appendWhileFormsHold(from: next, to: added, frame) }
  }

  /// Appends frames from `first` on while the chunk's storage forms hold them; returns where it
  /// stopped.
  ///
  /// A frame holds when its length and lane are among the ones the chunk stores already; the
  /// first that does not is appended alone, which changes the forms. `frame` is called once per
  /// frame: a layout's closure may advance its own state (a waterfall's column bottoms).
  @inline(__always)
  private func appendWhileFormsHold(
    from first: Int, to end: Int, _ frame: (Int) -> (main: Double, mainLength: Double, cross: Lane)
  ) -> Int {
    var uniformBits: UInt64? = nil
    var lengths: UnsafeMutablePointer<Double>? = nil
    if case .lanes = crossStorage, laneCount > 0 {
      switch mainLengths {
      case .none: break
      case .uniform(let length): uniformBits = length.bitPattern
      case .explicit(let perItem): lengths = perItem
      }
    }
    guard uniformBits != nil || lengths != nil else {
      let placed = frame(first)
      append(main: placed.main, mainLength: placed.mainLength, cross: placed.cross)
      return first + 1
    }
    var next = first
    var index = count
    var lane = lastLane
    let lastLaneIndex = laneCount - 1
    while next < end {
      let placed = frame(next)
      var holds = true
      if let lengths {
        lengths[index] = placed.mainLength
      } else if placed.mainLength.bitPattern != uniformBits {
        holds = false
      }
      if holds && !lanes[lane].isIdentical(to: placed.cross) {
        // Columns and grid cells come round in turn.
        let following = lane < lastLaneIndex ? lane + 1 : 0
        if lanes[following].isIdentical(to: placed.cross) {
          lane = following
        } else {
          holds = false
        }
      }
      guard holds else {
        count = index
        lastLane = lane
        append(main: placed.main, mainLength: placed.mainLength, cross: placed.cross)
        return next + 1
      }
      mainStarts[index] = placed.main
      laneIndices[index] = UInt8(truncatingIfNeeded: lane)
      index += 1
      next += 1
    }
    count = index
    lastLane = lane
    return next
  }

  func set(main: Double, mainLength: Double, cross lane: Lane, at index: Int) {
    precondition(index >= 0 && index < count, "Frame \(index) of \(count) replaced.")
    mainStarts[index] = main
    write(mainLength: mainLength, at: index)
    write(lane, at: index)
  }

  func truncate(to newCount: Int) {
    precondition(newCount >= 0 && newCount <= count, "Truncating \(count) frames to \(newCount).")
    count = newCount
  }

  @inline(__always)
  private func write(mainLength: Double, at index: Int) {
    switch mainLengths {
    case .explicit(let lengths): lengths[index] = mainLength
    case .uniform(let length) where length.bitPattern == mainLength.bitPattern: return
    case .none: mainLengths = .uniform(mainLength)
    case .uniform(let length): spreadMainLengths(length, writing: mainLength, at: index)
    }
  }

  /// Turns a uniform length into one per item, then writes an item's own.
  @inline(never)
  private func spreadMainLengths(_ length: Double, writing mainLength: Double, at index: Int) {
    let lengths = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
    lengths.initialize(repeating: length, count: count)
    lengths[index] = mainLength
    mainLengths = .explicit(lengths)
  }

  @inline(__always)
  private func write(_ lane: Lane, at index: Int) {
    switch crossStorage {
    case .explicit(let starts, let lengths):
      starts[index] = lane.start
      lengths[index] = lane.length
    case .lanes:
      if lastLane < laneCount && lanes[lastLane].isIdentical(to: lane) {
        laneIndices[index] = UInt8(truncatingIfNeeded: lastLane)
        return
      }
      // Columns and grid cells come round in turn: the lane after the last one is likely next.
      let following = lastLane + 1 < laneCount ? lastLane + 1 : 0
      if following < laneCount && lanes[following].isIdentical(to: lane) {
        lastLane = following
        laneIndices[index] = UInt8(truncatingIfNeeded: following)
        return
      }
      var found = 0
      while found < laneCount && !lanes[found].isIdentical(to: lane) { found += 1 }
      if found < laneCount {
        lastLane = found
        laneIndices[index] = UInt8(truncatingIfNeeded: found)
      } else if laneCount < FrameChunk.maximumLanes {
        (lanes + laneCount).initialize(to: lane)
        lastLane = laneCount
        laneCount += 1
        laneIndices[index] = UInt8(truncatingIfNeeded: lastLane)
      } else {
        let starts = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let lengths = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        // The item being written has no lane yet (it may be a new one).
        for item in 0..<count where item != index {
          let shared = lanes[Int(laneIndices[item])]
          starts[item] = shared.start
          lengths[item] = shared.length
        }
        starts[index] = lane.start
        lengths[index] = lane.length
        crossStorage = .explicit(starts: starts, lengths: lengths)
      }
    }
  }

  /// Doubles the room (only a layout's first chunk starts small).
  @inline(never)
  private func grow() {
    precondition(capacity < FrameChunk.capacity, "A full chunk of frames appended to.")
    let newCapacity = Swift.min(FrameChunk.capacity, Swift.max(16, capacity * 2))
    func moved<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
      let new = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
      new.moveInitialize(from: old, count: count)
      old.deallocate()
      return new
    }
    mainStarts = moved(mainStarts)
    if case .explicit(let lengths) = mainLengths { mainLengths = .explicit(moved(lengths)) }
    laneIndices = moved(laneIndices)
    if case .explicit(let starts, let lengths) = crossStorage {
      crossStorage = .explicit(starts: moved(starts), lengths: moved(lengths))
    }
    capacity = newCapacity
  }
}
