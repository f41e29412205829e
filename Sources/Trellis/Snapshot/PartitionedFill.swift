/// Where ``PositionTable/fillPartitioned(_:with:key:recordingHashes:identifierAt:)`` stands: which
/// slots are initialized, which grouped entries are still in place at the top of the slots, the
/// queue of those moved aside, and the ring of filters near the inserts.
///
/// The entries sit where the slots will be; zeroing slots ahead of the inserts moves the entries
/// there to the queue first, so that ``nextEntry()`` always sees every entry not yet taken, in
/// order: the queue's, then those in place.
@usableFromInline
struct PartitionedFill {
  @usableFromInline let slots: UnsafeMutablePointer<UInt32>
  /// Entry `i` is the 8 bytes at offset `8 * i`, over slots `entryBase + 2 * i` and the next.
  @usableFromInline let entries: UnsafeMutableRawPointer
  @usableFromInline let entryBase: Int
  @usableFromInline let count: Int
  /// The filters of slots `windowStart..<windowStart + ringSize` that are below ``zeroed``, each
  /// at its slot modulo `ringSize`.
  @usableFromInline let ring: UnsafeMutablePointer<UInt16>
  @usableFromInline let ringSize: Int
  /// Slots below this are initialized.
  @usableFromInline var zeroed = 0
  /// Entries below this have been taken or moved aside.
  @usableFromInline var inPlace = 0
  @usableFromInline var windowStart = 0
  @usableFromInline var aside: UnsafeMutablePointer<UInt64>
  @usableFromInline var asideCapacity: Int
  @usableFromInline var asideHead = 0
  @usableFromInline var asideTail = 0

  @inlinable
  init(
    slots: UnsafeMutablePointer<UInt32>, entries: UnsafeMutableRawPointer, entryBase: Int,
    count: Int, ring: UnsafeMutablePointer<UInt16>, ringSize: Int, asideCapacity: Int
  ) {
    self.slots = slots
    self.entries = entries
    self.entryBase = entryBase
    self.count = count
    self.ring = ring
    self.ringSize = ringSize
    self.asideCapacity = Swift.max(16, asideCapacity)
    aside = .allocate(capacity: self.asideCapacity)
  }

  @inlinable func deallocate() { aside.deallocate() }

  /// Whether the ring holds the filter of `slot`.
  @inlinable @inline(__always)
  func ringHolds(_ slot: Int) -> Bool {
    UInt(bitPattern: slot &- windowStart) < UInt(ringSize)
  }

  /// Zeroes the slots from ``zeroed`` up to `end` (and their filters), moving the entries there
  /// aside first.
  @inlinable
  mutating func zero(upTo end: Int) {
    let reached = Swift.min(count, Swift.max(0, (end &- entryBase &+ 1) &>> 1))
    while inPlace < reached {
      if asideTail == asideCapacity { makeRoomAside() }
      aside[asideTail] = entries.loadUnaligned(fromByteOffset: inPlace &* 8, as: UInt64.self)
      asideTail &+= 1
      inPlace &+= 1
    }
    (slots + zeroed).initialize(repeating: 0, count: end &- zeroed)
    let ringMask = ringSize &- 1
    for slot in zeroed..<Swift.max(zeroed, Swift.min(end, windowStart &+ ringSize)) {
      ring[slot & ringMask] = 0
    }
    zeroed = end
  }

  /// Moves the queue to the front of its buffer, or doubles the buffer.
  @inlinable
  mutating func makeRoomAside() {
    if asideHead > 0 {
      (aside).update(from: aside + asideHead, count: asideTail &- asideHead)
      asideTail &-= asideHead
      asideHead = 0
      return
    }
    let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: asideCapacity &* 2)
    larger.initialize(from: aside, count: asideTail)
    aside.deallocate()
    aside = larger
    asideCapacity &*= 2
  }

  /// The next entry in grouped order.
  @inlinable @inline(__always)
  mutating func nextEntry() -> UInt64 {
    if asideHead < asideTail {
      let entry = aside[asideHead]
      asideHead &+= 1
      return entry
    }
    let entry = entries.loadUnaligned(fromByteOffset: inPlace &* 8, as: UInt64.self)
    inPlace &+= 1
    return entry
  }

  /// Starts the ring at `start`; returns the slots that entered it already initialized, whose
  /// filters the caller writes.
  @inlinable
  mutating func moveRing(to start: Int) -> Range<Int> {
    let first = Swift.max(windowStart &+ ringSize, start)
    windowStart = start
    return first..<Swift.max(first, Swift.min(start &+ ringSize, zeroed))
  }
}
