/// Item frames in structure-of-arrays form, chunked so that appending never copies: along the
/// scroll axis each item keeps its start and length (16 bytes); across it, a chunk whose items
/// share a few distinct positions and widths (columns, a grid's cells, a chip bar's row) keeps
/// them once and one byte per item, and any other chunk keeps both values per item.
///
/// Every value comes back exactly as it was stored: a frame is never rebuilt from rounded parts.
struct ItemFrames {
  /// The distinct cross-axis placements a chunk may share before it stores them per item.
  static var maximumLanes: Int { 16 }

  fileprivate struct Lane: Equatable {
    var start: Double
    var length: Double
  }

  /// How a chunk stores positions across the scroll axis.
  fileprivate enum Cross {
    /// A few shared placements, and which one each item has.
    case lanes([Lane], [UInt8])
    /// A start and a length per item.
    case explicit(starts: [Double], lengths: [Double])
  }

  fileprivate struct Chunk {
    var mainStarts: [Double] = []
    var mainLengths: [Double] = []
    var cross = Cross.lanes([], [])
    /// The lane of the last item, tried first.
    var lastLane = 0
  }

  let vertical: Bool
  private var chunks: [Chunk] = []
  private(set) var count = 0

  init(vertical: Bool) { self.vertical = vertical }

  private static var shift: Int { ChunkedArray<Double>.chunkShift }
  fileprivate static var capacity: Int { ChunkedArray<Double>.chunkCapacity }

  /// The start and end of an item along the scroll axis.
  func mainRange(at index: Int) -> (low: Double, high: Double) {
    let chunk = chunks[index &>> Self.shift]
    let offset = index & (Self.capacity - 1)
    let start = chunk.mainStarts[offset]
    return (start, start + chunk.mainLengths[offset])
  }

  subscript(index: Int) -> Rect {
    let chunk = chunks[index &>> Self.shift]
    let offset = index & (Self.capacity - 1)
    let main = chunk.mainStarts[offset]
    let mainLength = chunk.mainLengths[offset]
    let cross: Double
    let crossLength: Double
    switch chunk.cross {
    case .lanes(let lanes, let indices):
      let lane = lanes[Int(indices[offset])]
      cross = lane.start
      crossLength = lane.length
    case .explicit(let starts, let lengths):
      cross = starts[offset]
      crossLength = lengths[offset]
    }
    return vertical
      ? Rect(x: cross, y: main, width: crossLength, height: mainLength)
      : Rect(x: main, y: cross, width: mainLength, height: crossLength)
  }

  mutating func append(_ frame: Rect) {
    let offset = count & (Self.capacity - 1)
    if offset == 0 && count >> Self.shift == chunks.count {
      var chunk = Chunk()
      if !chunks.isEmpty {
        chunk.mainStarts.reserveCapacity(Self.capacity)
        chunk.mainLengths.reserveCapacity(Self.capacity)
        var indices: [UInt8] = []
        indices.reserveCapacity(Self.capacity)
        chunk.cross = .lanes([], indices)
      }
      chunks.append(chunk)
    }
    let last = count &>> Self.shift
    chunks[last].append(frame, vertical: vertical, reserveFull: last > 0)
    count += 1
  }

  /// Replaces the frame of an item.
  mutating func set(_ frame: Rect, at index: Int) {
    let offset = index & (Self.capacity - 1)
    let reserve = index >> Self.shift > 0
    chunks[index &>> Self.shift].set(frame, at: offset, vertical: vertical, reserveFull: reserve)
  }

  /// Keeps the first `newCount` frames.
  mutating func truncate(to newCount: Int) {
    precondition(newCount >= 0 && newCount <= count, "Truncating \(count) frames to \(newCount).")
    guard newCount < count else { return }
    let keptChunks = (newCount + Self.capacity - 1) >> Self.shift
    chunks.removeSubrange(keptChunks...)
    if keptChunks > 0 {
      chunks[keptChunks - 1].truncate(to: newCount - (keptChunks - 1) << Self.shift)
    }
    count = newCount
  }
}

extension ItemFrames.Chunk {
  fileprivate mutating func append(_ frame: Rect, vertical: Bool, reserveFull: Bool) {
    let main = vertical ? frame.minY : frame.minX
    let mainLength = vertical ? frame.height : frame.width
    mainStarts.append(main)
    mainLengths.append(mainLength)
    let lane = ItemFrames.Lane(
      start: vertical ? frame.minX : frame.minY, length: vertical ? frame.width : frame.height)
    switch cross {
    case .lanes(var lanes, var indices):
      cross = .lanes([], [])  // `indices` is now the only reference: appending does not copy it.
      if let index = laneIndex(of: lane, in: lanes) {
        indices.append(UInt8(truncatingIfNeeded: index))
        cross = .lanes(lanes, indices)
      } else if lanes.count < ItemFrames.maximumLanes {
        lanes.append(lane)
        lastLane = lanes.count - 1
        indices.append(UInt8(truncatingIfNeeded: lastLane))
        cross = .lanes(lanes, indices)
      } else {
        var (starts, lengths) = Self.expand(lanes, indices, reserveFull: reserveFull)
        starts.append(lane.start)
        lengths.append(lane.length)
        cross = .explicit(starts: starts, lengths: lengths)
      }
    case .explicit(var starts, var lengths):
      cross = .lanes([], [])
      starts.append(lane.start)
      lengths.append(lane.length)
      cross = .explicit(starts: starts, lengths: lengths)
    }
  }

  fileprivate mutating func set(_ frame: Rect, at offset: Int, vertical: Bool, reserveFull: Bool) {
    mainStarts[offset] = vertical ? frame.minY : frame.minX
    mainLengths[offset] = vertical ? frame.height : frame.width
    let lane = ItemFrames.Lane(
      start: vertical ? frame.minX : frame.minY, length: vertical ? frame.width : frame.height)
    switch cross {
    case .lanes(var lanes, var indices):
      cross = .lanes([], [])
      if let index = laneIndex(of: lane, in: lanes) {
        indices[offset] = UInt8(truncatingIfNeeded: index)
        cross = .lanes(lanes, indices)
      } else if lanes.count < ItemFrames.maximumLanes {
        lanes.append(lane)
        lastLane = lanes.count - 1
        indices[offset] = UInt8(truncatingIfNeeded: lastLane)
        cross = .lanes(lanes, indices)
      } else {
        var (starts, lengths) = Self.expand(lanes, indices, reserveFull: reserveFull)
        starts[offset] = lane.start
        lengths[offset] = lane.length
        cross = .explicit(starts: starts, lengths: lengths)
      }
    case .explicit(var starts, var lengths):
      cross = .lanes([], [])
      starts[offset] = lane.start
      lengths[offset] = lane.length
      cross = .explicit(starts: starts, lengths: lengths)
    }
  }

  /// The index of a lane already in the table: the last one used first, then the others.
  private mutating func laneIndex(of lane: ItemFrames.Lane, in lanes: [ItemFrames.Lane]) -> Int? {
    if lastLane < lanes.count && lanes[lastLane] == lane { return lastLane }
    for index in lanes.indices where lanes[index] == lane {
      lastLane = index
      return index
    }
    return nil
  }

  private static func expand(
    _ lanes: [ItemFrames.Lane], _ indices: [UInt8], reserveFull: Bool
  ) -> ([Double], [Double]) {
    var starts: [Double] = []
    var lengths: [Double] = []
    let capacity = reserveFull ? ItemFrames.capacity : indices.count + 1
    starts.reserveCapacity(capacity)
    lengths.reserveCapacity(capacity)
    for index in indices {
      starts.append(lanes[Int(index)].start)
      lengths.append(lanes[Int(index)].length)
    }
    return (starts, lengths)
  }

  fileprivate mutating func truncate(to newCount: Int) {
    mainStarts.removeSubrange(newCount...)
    mainLengths.removeSubrange(newCount...)
    switch cross {
    case .lanes(let lanes, var indices):
      cross = .lanes([], [])
      indices.removeSubrange(newCount...)
      cross = .lanes(lanes, indices)
    case .explicit(var starts, var lengths):
      cross = .lanes([], [])
      starts.removeSubrange(newCount...)
      lengths.removeSubrange(newCount...)
      cross = .explicit(starts: starts, lengths: lengths)
    }
  }
}
