import Testing
import TrellisTestSupport

@testable import Trellis

/// The layout store's parts against plain arrays and brute-force filters, at sizes that cross
/// chunk (4,096) and block (32) boundaries.
@Suite struct LayoutStoreTests {
  @Test(arguments: 0..<6 as Range<UInt64>)
  func chunkedArrayEqualsAnArray(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var chunked = ChunkedArray<Int>()
    var plain: [Int] = []
    for step in 0..<40 {
      switch Int.random(in: 0..<4, using: &rng) {
      case 0, 1:
        for _ in 0..<Int.random(in: 0...6000, using: &rng) {
          let value = Int.random(in: 0...1_000_000, using: &rng)
          chunked.append(value)
          plain.append(value)
        }
      case 2:
        let count = Int.random(in: 0...plain.count, using: &rng)
        chunked.truncate(to: count)
        plain.removeSubrange(count...)
      default:
        for _ in 0..<min(plain.count, 50) {
          let index = Int.random(in: 0..<plain.count, using: &rng)
          chunked[index] = -index
          plain[index] = -index
        }
      }
      #expect(chunked.count == plain.count, "seed \(seed), step \(step)")
      #expect((0..<chunked.count).map { chunked[$0] } == plain, "seed \(seed), step \(step)")
      #expect(chunked.last == plain.last, "seed \(seed), step \(step)")
    }
  }

  /// Random frames: a few columns (lanes), or anything, with awkward values (0.1, -0.0, huge);
  /// with `sameLengths`, lengths along the axis mostly one value (rows of a list), sometimes its
  /// negative zero twin.
  private func randomFrame(
    _ rng: inout SplitMix64, lanes: Int, sameLengths: Bool = false
  ) -> Rect {
    let awkward: [Double] = [0.1, 0.2, 1e-300, 1e300, -0.0, 123_456_789.123]
    let cross =
      lanes > 0
      ? Double(Int.random(in: 0..<lanes, using: &rng)) * 10.1
      : Double(Int.random(in: -1000...1000, using: &rng)) / 7
    let main =
      Int.random(in: 0..<20, using: &rng) == 0
      ? awkward[Int.random(in: 0..<awkward.count, using: &rng)]
      : Double(Int.random(in: 0...100_000, using: &rng)) / 3
    let length =
      sameLengths
      ? [0.0, 32, 32, 32, 32, 32, 32, 32, 32, -0.0][Int.random(in: 0..<10, using: &rng)]
      : main / 5 + 0.1
    return Rect(x: cross, y: main, width: lanes > 0 ? 10 : cross / 3, height: length)
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func itemFramesGiveBackExactlyWhatWasStored(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for axis in [LayoutAxis.vertical, .horizontal] {
      var frames = ItemFrames(axis: axis)
      var plain: [Rect] = []
      // A copy taken along the way, which writes to the original must leave as it was.
      var saved: (frames: ItemFrames, plain: [Rect])?
      for step in 0..<30 {
        // Phases of few lanes and of many, so chunks switch from shared lanes to explicit, and of
        // one length along the axis or many, so chunks switch from one length to one per item.
        let lanes = [3, 16, 17, 0][Int.random(in: 0..<4, using: &rng)]
        let sameLengths = Int.random(in: 0..<3, using: &rng) > 0
        if Int.random(in: 0..<6, using: &rng) == 0 { saved = (frames, plain) }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0, 1:
          let count = Int.random(in: 0...5000, using: &rng)
          if Bool.random(using: &rng) {
            for _ in 0..<count {
              let frame = randomFrame(&rng, lanes: lanes, sameLengths: sameLengths)
              frames.append(frame)
              plain.append(frame)
            }
          } else {
            // The batch append, as a flow layout's line uses it.
            let batch = (0..<count).map { _ in
              randomFrame(&rng, lanes: lanes, sameLengths: sameLengths)
            }
            // Each frame asked for once, in order: a waterfall's closure advances its columns.
            var asked: [Int] = []
            frames.append(count: count) { index in
              asked.append(index)
              return (
                axis.main(batch[index].origin), axis.main(batch[index].size),
                FrameChunk.Lane(
                  start: axis.cross(batch[index].origin), length: axis.cross(batch[index].size))
              )
            }
            #expect(asked == Array(0..<count), "seed \(seed), step \(step)")
            plain += batch
          }
        case 2:
          let count = Int.random(in: 0...plain.count, using: &rng)
          frames.truncate(to: count)
          plain.removeSubrange(count...)
        default:
          for _ in 0..<min(plain.count, 100) {
            let index = Int.random(in: 0..<plain.count, using: &rng)
            let frame = randomFrame(&rng, lanes: lanes, sameLengths: sameLengths)
            frames.set(frame, at: index)
            plain[index] = frame
          }
        }
        #expect(frames.count == plain.count, "seed \(seed), step \(step)")
        let stored = (0..<frames.count).map { frames[$0] }
        // Bit for bit: a frame must never come back rounded.
        #expect(
          zip(stored, plain).allSatisfy { $0.bits == $1.bits }, "seed \(seed), step \(step)")
        if let saved {
          #expect(saved.frames.count == saved.plain.count, "seed \(seed), step \(step)")
          let kept = (0..<saved.frames.count).map { saved.frames[$0] }
          #expect(
            zip(kept, saved.plain).allSatisfy { $0.bits == $1.bits },
            "seed \(seed), step \(step): a copy changed")
        }
      }
    }
  }

  /// Intervals roughly in order (a layout's), with long ones, empty ones and NaN among them.
  private func randomInterval(_ rng: inout SplitMix64, near position: Double) -> (Double, Double) {
    switch Int.random(in: 0..<40, using: &rng) {
    case 0: return (.nan, position)
    case 1: return (position, position)
    case 2: return (position + 5, position)
    case 3: return (position - 2000, position + 5000)
    default:
      let start = position + Double(Int.random(in: -30...30, using: &rng))
      return (start, start + Double(Int.random(in: 1...80, using: &rng)))
    }
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func blockCandidatesIncludeEveryOverlappingInterval(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var blocks = BandBlocks()
    var intervals: [(low: Double, high: Double)] = []
    var position = 0.0
    for step in 0..<30 {
      switch Int.random(in: 0..<6, using: &rng) {
      case 5:
        // Batches of entries summarized by the caller, as a layout's batch append does.
        var left = Int.random(in: 0...3000, using: &rng)
        while left > 0 {
          let batch = min(left, Int.random(in: 1...blocks.roomInOpenBlock, using: &rng))
          var low = Double.infinity
          var high = -Double.infinity
          for _ in 0..<batch {
            position += Double(Int.random(in: 0...20, using: &rng))
            let interval = randomInterval(&rng, near: position)
            if interval.0 < interval.1 {
              low = min(low, interval.0)
              high = max(high, interval.1)
            }
            intervals.append(interval)
          }
          blocks.append(entries: batch, low: low, high: high)
          left -= batch
        }
      case 0, 1, 2:
        for _ in 0..<Int.random(in: 0...3000, using: &rng) {
          position += Double(Int.random(in: 0...20, using: &rng))
          var interval = randomInterval(&rng, near: position)
          blocks.append(low: interval.0, high: interval.1)
          if Int.random(in: 0..<50, using: &rng) == 0 {
            let extra = randomInterval(&rng, near: position)
            blocks.extendLast(low: extra.0, high: extra.1)
            if extra.0 < extra.1 {
              interval =
                interval.0 < interval.1
                ? (min(interval.0, extra.0), max(interval.1, extra.1)) : extra
            }
          }
          intervals.append(interval)
        }
      case 3:
        let count = Int.random(in: 0...intervals.count, using: &rng)
        intervals.removeSubrange(count...)
        blocks.truncate(to: count) { intervals[$0] }
        position = intervals.last.map { $0.low.isNaN ? position : $0.low } ?? 0
      default:
        guard !intervals.isEmpty else { continue }
        let start = Int.random(in: 0..<intervals.count, using: &rng)
        let end = min(intervals.count, start + Int.random(in: 1...200, using: &rng))
        for index in start..<end {
          intervals[index] = randomInterval(
            &rng, near: Double(Int.random(in: 0...60_000, using: &rng)))
        }
        blocks.refresh(entries: start..<end) { intervals[$0] }
      }
      #expect(blocks.count == intervals.count)
      for _ in 0..<20 {
        let low = Double(Int.random(in: -3000...70_000, using: &rng))
        let high = low + Double(Int.random(in: 0...2000, using: &rng))
        var candidates = Set<Int>()
        blocks.forEachCandidate(low: low, high: high) { candidates.insert($0) }
        let overlapping = intervals.indices.filter {
          intervals[$0].low < intervals[$0].high && intervals[$0].low < high
            && intervals[$0].high > low
        }
        #expect(
          overlapping.allSatisfy(candidates.contains),
          "seed \(seed), step \(step): \(low)..<\(high) misses an interval")
      }
    }
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func layersFindExactlyTheOverlappingIntervals(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var layers = IntervalLayers()
    var intervals: [(reference: Int, low: Double, high: Double)] = []
    var next = 0
    var position = 0.0
    for step in 0..<30 {
      if Int.random(in: 0..<4, using: &rng) == 0 {
        let first = Int.random(in: 0...next, using: &rng)
        layers.removeReferences(from: first)
        intervals.removeAll { $0.reference >= first }
        next = first
      } else {
        for _ in 0..<Int.random(in: 0...800, using: &rng) {
          position += Double(Int.random(in: 0...10, using: &rng))
          let (low, high) = randomInterval(&rng, near: position)
          layers.insert(next, low: low, high: high)
          intervals.append((next, low, high))
          next += 1
        }
      }
      for _ in 0..<20 {
        let low = Double(Int.random(in: -3000...40_000, using: &rng))
        let high = low + Double(Int.random(in: 0...2000, using: &rng))
        var found: [Int] = []
        layers.forEach(overlapping: low, high) { found.append($0) }
        // An empty range overlaps nothing, as an empty rectangle intersects nothing.
        let expected = intervals.filter {
          low < high && $0.low < $0.high && $0.low < high && $0.high > low
        }
        #expect(found.count == Set(found).count, "seed \(seed), step \(step): found twice")
        #expect(
          Set(found) == Set(expected.map(\.reference)),
          "seed \(seed), step \(step): \(low)..<\(high)")
      }
    }
  }

  @Test func overlappingIntervalsThatDoNotNestShareALayer() {
    // 1,000 rows of a five-column grid, each item's badge at the same height as its row's.
    var layers = IntervalLayers()
    for row in 0..<1000 {
      for column in 0..<5 {
        let top = Double(row) * 80 - 4
        layers.insert(row * 5 + column, low: top, high: top + 16)
      }
    }
    #expect(layers.layerCount == 1)
    var found: [Int] = []
    layers.forEach(overlapping: 800, 900) { found.append($0) }
    // Rows 10 (its badges at 796..<812) and 11 (876..<892).
    #expect(found == Array(50..<60))
  }

  @Test func nestedSpansTakeOneLayerPerLevelNotPerInterval() {
    // A layout-wide background, then 1,000 sections each with a background and 20 badges.
    var layers = IntervalLayers()
    var reference = 0
    layers.insert(reference, low: 0, high: 1_000_000)
    for section in 0..<1000 {
      let start = Double(section) * 1000
      reference += 1
      layers.insert(reference, low: start, high: start + 900)
      for badge in 0..<20 {
        reference += 1
        layers.insert(
          reference, low: start + Double(badge) * 40, high: start + Double(badge) * 40 + 30)
      }
    }
    #expect(layers.layerCount == 3)
    var found: [Int] = []
    layers.forEach(overlapping: 500_010, 500_020) { found.append($0) }
    // The layout-wide span, section 500's background and its first badge.
    #expect(Set(found) == [0, 1 + 500 * 21, 2 + 500 * 21])
  }
}

extension Rect {
  /// The bit patterns of the four values, to compare without Double's `==` (which equates 0 and -0).
  fileprivate var bits: [UInt64] {
    [minX.bitPattern, minY.bitPattern, width.bitPattern, height.bitPattern]
  }
}
