/// A hash table from identifiers to their positions in an ordered store, holding positions only.
///
/// A snapshot's items already sit in order in its section arrays; a table that copied them beside
/// their positions (as `Dictionary` would) doubles the memory and the cache lines an insert
/// touches. This one stores a 32-bit position per slot and reads the identifier back from the
/// store, through `identifier(at:)`, when it has to compare. Open addressing with linear probing,
/// at most half full: 4 bytes per slot, 8 to 16 per item.
///
/// A large empty table is filled region by region (``filled(minimumCapacity:with:recordingHashes:identifierAt:)``) rather
/// than in position order, whose writes to random slots wait for memory once the table outgrows
/// the caches.
///
/// Removals leave tombstones (or empty the slot when no probe passes through it); inserts never
/// reuse them, and a rebuild clears them.
///
/// Positions stay valid only while the store does not move items; a caller that moves them
/// renumbers the table (``shiftPositions(from:by:)``, ``renumber(_:)``) or rebuilds it. Every
/// comparison must see the store as the positions describe it.
@usableFromInline
struct PositionTable: Sendable {
  /// `0` is an empty slot, ``tombstone`` a removed entry, anything else a position plus one.
  @usableFromInline var slots: [UInt32]
  /// Live entries.
  @usableFromInline var count: Int
  /// Live entries and tombstones: what the probe sequences have to step over.
  @usableFromInline var occupied: Int
  /// The key of the integer hash (``integerHashKey``), copied so that hashing reads no global.
  @usableFromInline let key: UInt64

  @usableFromInline static var tombstone: UInt32 { .max }

  /// The largest position the table can hold.
  @usableFromInline static var maximumPosition: Int { Int(UInt32.max) - 2 }

  /// Creates a table with room for `capacity` entries before it has to grow.
  @inlinable
  init(minimumCapacity capacity: Int = 0) {
    slots = capacity > 0 ? [UInt32](repeating: 0, count: Self.slotCount(for: capacity)) : []
    count = 0
    occupied = 0
    key = integerHashKey
  }

  /// The number of slots for `capacity` entries: a power of two at least twice as large.
  @inlinable
  static func slotCount(for capacity: Int) -> Int {
    var slots = 16
    while slots < capacity * 2 { slots &<<= 1 }
    return slots
  }

  /// How many entries fit before the table has to grow.
  @inlinable
  var capacity: Int { slots.count / 2 }

  /// The hash that decides where an identifier lives; the same for every table in the process.
  ///
  /// Integer identifiers (the common case: database rows, issue numbers) are mixed with a
  /// multiply–xorshift function keyed by a per-process random value, a few cycles where the
  /// standard library's SipHash takes about 10 nanoseconds; every other type goes through its
  /// `Hashable` conformance with the standard library's per-process seed. Both are keyed, so
  /// which identifiers collide cannot be chosen from outside the process.
  @inlinable @inline(__always)
  func hash<ID: Hashable>(_ identifier: ID) -> Int { Self.hash(identifier, key: key) }

  /// ``hash(_:)`` with the integer key given: for loops that mutate the table.
  @inlinable @inline(__always)
  static func hash<ID: Hashable>(_ identifier: ID, key: UInt64) -> Int {
    if ID.self == Int.self {
      return mix(UInt64(UInt(bitPattern: unsafeBitCast(identifier, to: Int.self))), key: key)
    }
    if ID.self == UInt.self {
      return mix(UInt64(unsafeBitCast(identifier, to: UInt.self)), key: key)
    }
    if ID.self == Int64.self {
      return mix(UInt64(bitPattern: unsafeBitCast(identifier, to: Int64.self)), key: key)
    }
    if ID.self == UInt64.self { return mix(unsafeBitCast(identifier, to: UInt64.self), key: key) }
    if ID.self == Int32.self {
      return mix(UInt64(UInt32(bitPattern: unsafeBitCast(identifier, to: Int32.self))), key: key)
    }
    if ID.self == UInt32.self {
      return mix(UInt64(unsafeBitCast(identifier, to: UInt32.self)), key: key)
    }
    return identifier._rawHashValue(seed: 0)
  }

  /// Whether ``hash(_:)`` mixes `ID` in a few cycles (the integer types), so that hashing an
  /// identifier again costs less than remembering its hash.
  @inlinable
  static func hashesCheaply<ID: Hashable>(_: ID.Type) -> Bool {
    ID.self == Int.self || ID.self == UInt.self || ID.self == Int64.self
      || ID.self == UInt64.self || ID.self == Int32.self || ID.self == UInt32.self
  }

  /// Scatters a 64-bit integer over all 64 bits, keyed by `key`: two rounds of multiply and
  /// fold, so that the low bits a table uses depend on every bit of the integer.
  @inlinable @inline(__always)
  static func mix(_ integer: UInt64, key: UInt64) -> Int {
    var value = (integer ^ key) &* 0x9E37_79B9_7F4A_7C15
    value ^= value &>> 32
    value = value &* 0xD6E8_FEB8_6659_FD93
    value ^= value &>> 32
    return Int(truncatingIfNeeded: value)
  }

  /// The position of `identifier`, or `nil` when it is not in the table.
  @inlinable
  func position<ID: Hashable>(
    of identifier: ID, hash: Int, identifierAt: (Int) -> ID
  ) -> Int? {
    slots.withUnsafeBufferPointer { slots in
      Self.find(identifier, hash: hash, in: slots, identifierAt: identifierAt)?.position
    }
  }

  /// The slot holding `identifier` and its position, or `nil`: the probe every lookup shares.
  @inlinable @inline(__always)
  static func find<ID: Hashable>(
    _ identifier: ID, hash: Int, in slots: UnsafeBufferPointer<UInt32>,
    identifierAt: (Int) -> ID
  ) -> (bucket: Int, position: Int)? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count &- 1
    var bucket = hash & mask
    while true {
      let slot = slots[bucket]
      if slot == 0 { return nil }
      if slot != tombstone {
        let position = Int(slot &- 1)
        if identifierAt(position) == identifier { return (bucket, position) }
      }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Adds the identifiers at `positions`, in order, in one pass; returns `nil`, or the first
  /// duplicate found (its position and the position it already had), leaving the table partly
  /// filled.
  ///
  /// With `recordingHashes`, the low 32 bits of each identifier's ``hash(_:)`` are written there,
  /// indexed from `positions.lowerBound` (all of them unless a duplicate stops the insert), so
  /// that a diff that follows can look the items up without hashing them again.
  ///
  /// - Precondition: There is room for `positions.count` more entries.
  @inlinable @inline(__always)
  mutating func insertAll<ID: Hashable>(
    _ positions: Range<Int>, recordingHashes: UnsafeMutablePointer<UInt32>? = nil,
    identifierAt: (Int) -> ID
  ) -> (new: Int, existing: Int)? {
    if occupied == 0 && slots.count >= Self.partitionedMinimumSlots
      && positions.count >= Self.partitionedMinimumSlots / 4
    {
      let filled = Self.filled(
        minimumCapacity: capacity, with: positions, recordingHashes: recordingHashes,
        identifierAt: identifierAt)
      self = filled.table
      return filled.duplicate
    }
    let key = self.key
    var added = 0
    let duplicate: (new: Int, existing: Int)? = slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count &- 1
      // In batches: first every batch member's bucket is computed and its slot read, so the
      // cache misses overlap, then the members are inserted. A slot read early is only a hint;
      // the insert reads it again (a member inserted before may have taken it).
      let batchSize = 32
      return withUnsafeTemporaryAllocation(
        of: (bucket: Int, early: UInt32).self, capacity: batchSize
      ) {
        batch in
        var start = positions.lowerBound
        while start < positions.upperBound {
          let end = min(start &+ batchSize, positions.upperBound)
          for position in start..<end {
            let hash = Self.hash(identifierAt(position), key: key)
            recordingHashes?[position &- positions.lowerBound] = UInt32(truncatingIfNeeded: hash)
            let bucket = hash & mask
            batch[position &- start] = (bucket, slots[bucket])
          }
          for position in start..<end {
            let (home, early) = batch[position &- start]
            var bucket = home
            if early != 0 || slots[bucket] != 0 {
              let identifier = identifierAt(position)
              while true {
                let slot = slots[bucket]
                if slot == 0 { break }
                if slot != Self.tombstone && identifierAt(Int(slot &- 1)) == identifier {
                  return (position, Int(slot &- 1))
                }
                bucket = (bucket &+ 1) & mask
              }
            }
            slots[bucket] = UInt32(truncatingIfNeeded: position &+ 1)
            added &+= 1
          }
          start = end
        }
        return nil
      }
    }
    count += added
    occupied += added
    return duplicate
  }

  /// Reads, all at once, what looking up `identifiers` (whose ``hash(_:)`` values are `hashes`)
  /// will read — their home slots and the identifiers those slots name — so that lookups that
  /// follow find it in the caches; returns how many were found at home, which the caller keeps
  /// so that the reads are not optimized away.
  ///
  /// One lookup in a table larger than the caches waits for memory twice; lookups issued one
  /// after another wait in turn. Here the slot reads are independent of each other, and so are
  /// the identifier reads, so their waits overlap. Only worth it when ``outgrowsCaches``: a table
  /// that fits in the caches answers without waiting.
  @inlinable
  func warm<ID: Hashable>(
    _ identifiers: UnsafeBufferPointer<ID>, hashes: UnsafeBufferPointer<Int>,
    identifierAt: (Int) -> ID
  ) -> Int {
    guard !slots.isEmpty, !identifiers.isEmpty else { return 0 }
    let mask = slots.count &- 1
    return slots.withUnsafeBufferPointer { slots in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: identifiers.count) { occupants in
        for index in identifiers.indices { occupants[index] = Int(slots[hashes[index] & mask]) }
        var home = 0
        for index in identifiers.indices {
          let slot = occupants[index]
          if slot != 0 && slot != Int(Self.tombstone)
            && identifierAt(slot &- 1) == identifiers[index]
          {
            home &+= 1
          }
        }
        return home
      }
    }
  }

  /// From this many slots (1 MiB), a table is taken to outgrow the processor's own caches:
  /// lookups are then warmed in runs.
  @usableFromInline static var warmedMinimumSlots: Int { 1 << 18 }

  /// From this many slots (4 MiB), an empty table is filled region by region.
  ///
  /// Below it, the table's random writes hit the shared cache, and the plain insert is three
  /// times faster (0.7 against 2.2 ms for 100,000 items, `trellis-bench peer-profile 100000
  /// build`).
  @usableFromInline static var partitionedMinimumSlots: Int { 1 << 20 }

  /// Whether the table is large enough that reading a random slot waits for memory, so that
  /// lookups are warmed in runs.
  @inlinable var outgrowsCaches: Bool { slots.count >= Self.warmedMinimumSlots }

  /// A table with room for `minimumCapacity` entries, holding the identifiers at `positions`,
  /// and the first duplicate among them, as ``insertAll(_:recordingHashes:identifierAt:)``
  /// reports it.
  ///
  /// A large table is filled region by region (``fillPartitioned(_:with:key:recordingHashes:identifierAt:)``)
  /// into slots that are zeroed one region ahead of the inserts, instead of all at once first:
  /// each region is then written while it is still in the caches.
  @inlinable
  static func filled<ID: Hashable>(
    minimumCapacity: Int, with positions: Range<Int>,
    recordingHashes: UnsafeMutablePointer<UInt32>? = nil, identifierAt: (Int) -> ID
  ) -> (table: PositionTable, duplicate: (new: Int, existing: Int)?) {
    let slotCount = slotCount(for: Swift.max(minimumCapacity, positions.count))
    guard
      slotCount >= partitionedMinimumSlots && positions.count >= partitionedMinimumSlots / 4
    else {
      var table = PositionTable(minimumCapacity: Swift.max(minimumCapacity, positions.count))
      let duplicate = table.insertAll(
        positions, recordingHashes: recordingHashes, identifierAt: identifierAt)
      return (table, duplicate)
    }
    let key = integerHashKey
    var result: (added: Int, duplicate: (new: Int, existing: Int)?) = (0, nil)
    let slots = [UInt32](unsafeUninitializedCapacity: slotCount) { slots, initialized in
      result = fillPartitioned(
        slots, with: positions, key: key, recordingHashes: recordingHashes,
        identifierAt: identifierAt)
      initialized = slotCount
    }
    return (PositionTable(slots: slots, count: result.added, key: key), result.duplicate)
  }

  /// A table of `slots` filled elsewhere, `count` of them live and none removed.
  @inlinable
  init(slots: [UInt32], count: Int, key: UInt64) {
    self.slots = slots
    self.count = count
    occupied = count
    self.key = key
  }

  /// Fills `slots` — uninitialized, a power of two of them, at least twice `positions.count` —
  /// with the identifiers at `positions`, every pass over memory sequential or confined to a small
  /// region; returns how many were added and the first duplicate in position order.
  ///
  /// Inserting in position order writes to random slots: once the table outgrows the caches,
  /// nearly every insert waits for memory. Instead, the identifiers are hashed in order, their
  /// hashes and positions grouped by the region of slots they belong to (256 regions, each a few
  /// tens of kilobytes at a million items), and inserted region by region.
  ///
  /// The fill allocates almost nothing: on this kind of machine the first touch of a fresh page
  /// costs about as much as hashing 2,000 items, and a scratch buffer the size of the table cost
  /// more than the fill itself. The grouped entries (8 bytes each) are written into the top of
  /// `slots`, which has room for them (4 bytes for each of at least two slots per item). Slots are
  /// zeroed a region ahead of the inserts; an entry in the way is moved aside first, to a queue
  /// that holds about two regions' entries. Half of each filled slot's hash is kept, for the
  /// slots near the inserts, in a ring beside them, so that a probe compares identifiers only when
  /// those agree — the occupants' identifiers are read (at random) almost only for real
  /// duplicates.
  @inlinable
  static func fillPartitioned<ID: Hashable>(
    _ slots: UnsafeMutableBufferPointer<UInt32>, with positions: Range<Int>, key: UInt64,
    recordingHashes: UnsafeMutablePointer<UInt32>?, identifierAt: (Int) -> ID
  ) -> (added: Int, duplicate: (new: Int, existing: Int)?) {
    let count = positions.count
    let slotCount = slots.count
    precondition(
      slotCount.nonzeroBitCount == 1 && slotCount >= 2 &* count,
      "A partitioned fill needs a power of two of slots, at least two per item.")
    let mask = slotCount &- 1
    let slotBits = slotCount.trailingZeroBitCount
    let partitionBits = Swift.min(8, slotBits)
    let shift = slotBits &- partitionBits
    let partitionCount = 1 &<< partitionBits
    let regionSize = 1 &<< shift
    @inline(__always) func hashAt(_ index: Int) -> UInt32 {
      UInt32(truncatingIfNeeded: Self.hash(identifierAt(positions.lowerBound &+ index), key: key))
    }
    // How many hashes fall in each region (the low 32 bits of a hash: the bucket and the filter).
    var starts = [Int](repeating: 0, count: partitionCount &+ 1)
    starts.withUnsafeMutableBufferPointer { starts in
      for index in 0..<count {
        let hash = hashAt(index)
        recordingHashes?[index] = hash
        starts[((Int(hash) & mask) &>> shift) &+ 1] &+= 1
      }
    }
    for partition in 0..<partitionCount { starts[partition &+ 1] &+= starts[partition] }
    // Hash and index relative to `positions`, grouped by region, in position order within each,
    // at the top of `slots`: entry `i` is the 8 bytes from slot `entryBase + 2 * i`. Hashed again
    // rather than kept: a buffer of hashes would be pages to touch.
    guard let slotBase = slots.baseAddress else { return (0, nil) }
    let entries = UnsafeMutableRawPointer(slotBase + (slotCount &- 2 &* count))
    let entryBase = slotCount &- 2 &* count
    var next = starts
    next.withUnsafeMutableBufferPointer { next in
      for index in 0..<count {
        let hash = recordingHashes?[index] ?? hashAt(index)
        let partition = (Int(hash) & mask) &>> shift
        entries.storeBytes(
          of: UInt64(hash) &<< 32 | UInt64(index), toByteOffset: next[partition] &* 8,
          as: UInt64.self)
        next[partition] &+= 1
      }
    }
    // The filters' ring covers four regions from the one being filled: the region ahead, and
    // what long probe runs reach beyond it. A slot outside it is compared by identifier.
    let ringSize = Swift.min(slotCount, 4 &* regionSize)
    let ringMask = ringSize &- 1
    return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: ringSize) { ring in
      guard let ringBase = ring.baseAddress else {
        preconditionFailure("A temporary allocation of \(ringSize) filters has no address.")
      }
      var fill = PartitionedFill(
        slots: slotBase, entries: entries, entryBase: entryBase, count: count,
        ring: ringBase, ringSize: ringSize, asideCapacity: 2 &* regionSize)
      defer { fill.deallocate() }
      var duplicate: (new: Int, existing: Int)? = nil
      var added = 0
      for partition in 0..<partitionCount {
        let start = partition &<< shift
        if partition > 0 {
          // Slots entering the ring that are already initialized (reached by a long run while
          // outside it) get their filters now.
          for slot in fill.moveRing(to: start) {
            let occupant = slotBase[slot]
            fill.ring[slot & ringMask] =
              occupant == 0
              ? 0
              : UInt16(
                truncatingIfNeeded: hashAt(Int(occupant &- 1) &- positions.lowerBound) &>> 16)
          }
        }
        let ahead = Swift.min(slotCount, start &+ 2 &* regionSize)
        if fill.zeroed < ahead { fill.zero(upTo: ahead) }
        for _ in starts[partition]..<starts[partition &+ 1] {
          let entry = fill.nextEntry()
          let hash = UInt32(truncatingIfNeeded: entry &>> 32)
          let filter = UInt16(truncatingIfNeeded: hash &>> 16)
          let position = positions.lowerBound &+ Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
          var bucket = Int(hash) & mask
          var existing: Int? = nil
          while slotBase[bucket] != 0 {
            let occupant = Int(slotBase[bucket] &- 1)
            if (!fill.ringHolds(bucket) || fill.ring[bucket & ringMask] == filter)
              && identifierAt(occupant) == identifierAt(position)
            {
              existing = occupant
              break
            }
            bucket = (bucket &+ 1) & mask
            if bucket == fill.zeroed {
              // A probe run longer than the region ahead: zero one more.
              fill.zero(upTo: Swift.min(slotCount, fill.zeroed &+ regionSize))
            }
          }
          if let existing {
            // The first duplicate in position order, as an insert in that order finds it.
            if duplicate.map({ position < $0.new }) ?? true {
              duplicate = (position, existing)
            }
            continue
          }
          slotBase[bucket] = UInt32(truncatingIfNeeded: position &+ 1)
          if fill.ringHolds(bucket) { fill.ring[bucket & ringMask] = filter }
          added &+= 1
        }
      }
      if fill.zeroed < slotCount { fill.zero(upTo: slotCount) }
      return (added, duplicate)
    }
  }
}

extension PositionTable {
  /// Removes `identifier` and returns its position, or `nil` when it is not in the table.
  @inlinable
  mutating func remove<ID: Hashable>(
    _ identifier: ID, hash: Int, identifierAt: (Int) -> ID
  ) -> Int? {
    let removed: (position: Int, emptied: Bool)? = slots.withUnsafeMutableBufferPointer { slots in
      guard
        let found = Self.find(
          identifier, hash: hash, in: UnsafeBufferPointer(slots), identifierAt: identifierAt)
      else { return nil }
      // The next slot empty means no probe sequence passes through this one.
      let emptied = slots[(found.bucket &+ 1) & (slots.count &- 1)] == 0
      slots[found.bucket] = emptied ? 0 : Self.tombstone
      return (found.position, emptied)
    }
    guard let removed else { return nil }
    count -= 1
    if removed.emptied { occupied -= 1 }
    return removed.position
  }

  /// Whether `additional` more entries fit without growing.
  @inlinable
  func hasRoom(for additional: Int) -> Bool {
    occupied + additional <= capacity
  }

  /// Adds `delta` to every position at or after `start`.
  ///
  /// For when the store inserted (or, with a negative `delta`, removed) that many items at
  /// `start`. A sequential pass over the slots; no identifier is read.
  @inlinable
  mutating func shiftPositions(from start: Int, by delta: Int) {
    guard delta != 0, count > 0 else { return }
    let threshold = UInt32(truncatingIfNeeded: start &+ 1)
    let delta = UInt32(truncatingIfNeeded: delta)
    let tombstone = Self.tombstone
    // Without a branch, so that the pass over every slot is vectorized: a deletion near the top
    // of a long list renumbers almost all of it.
    slots.withUnsafeMutableBufferPointer { slots in
      for bucket in slots.indices {
        let slot = slots[bucket]
        let moves = (slot >= threshold) && (slot != tombstone)
        slots[bucket] = slot &+ (moves ? delta : 0)
      }
    }
  }

  /// Replaces every position with `transform(position)`: the store moved items around without
  /// adding or removing any that are still in the table.
  @inlinable
  mutating func renumber(_ transform: (Int) -> Int) {
    guard count > 0 else { return }
    slots.withUnsafeMutableBufferPointer { slots in
      for bucket in slots.indices {
        let slot = slots[bucket]
        if slot != 0 && slot != Self.tombstone {
          slots[bucket] = UInt32(truncatingIfNeeded: transform(Int(slot &- 1)) &+ 1)
        }
      }
    }
  }
}

/// The key of ``PositionTable/mix(_:key:)``: random per process (drawn from the standard library's
/// seeded `Hasher`), so that colliding integer identifiers cannot be picked in advance.
@usableFromInline
let integerHashKey: UInt64 = {
  var hasher = Hasher()
  hasher.combine(0x7472_656C_6C69_73)
  return UInt64(UInt(bitPattern: hasher.finalize()))
}()
