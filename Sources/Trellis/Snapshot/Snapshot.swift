/// An ordered list of sections, each an ordered list of items, identified by hashable values.
///
/// A snapshot is the complete state of what a collection shows, described by identifiers only: the
/// content for an identifier lives in your model. It has the API of UIKit's
/// `NSDiffableDataSourceSnapshot`, value semantics (copies are cheap until one is mutated), and
/// answers every lookup by identifier in O(1) on average.
///
/// Build a snapshot from sections and their items in one expression, so that no item can land in
/// the wrong section:
///
///     let snapshot = Snapshot(sections: [
///       (.open, [12, 9]),
///       (.closed, [3]),
///     ])
///     snapshot.itemIdentifiers(inSection: .closed)  // [3]
///     snapshot.indexOfItem(3)                       // 2
///
/// Each item costs its identifier in the section arrays and 8 to 16 bytes in the table that finds
/// it (a 32-bit position per slot, the table at most half full); two snapshots with the same
/// identifiers compare equal, and diff to nothing, after one pass over the identifier arrays.
///
/// Identifiers must be unique across the whole snapshot, sections and items separately. Using an
/// identifier that is absent or already present is a programming error and traps with a message
/// naming it, as UIKit does. For identifiers that come from outside (a network response, a file),
/// validate first with ``init(validating:)``, which throws a ``SnapshotValidationError`` listing
/// every duplicate and where it was.
public struct Snapshot<SectionID: Hashable, ItemID: Hashable> {
  /// Where an item is: its section's index and its index within that section.
  @usableFromInline
  struct Location: Hashable, Sendable {
    @usableFromInline var section: Int
    @usableFromInline var item: Int

    @inlinable init(section: Int, item: Int) {
      self.section = section
      self.item = item
    }
  }

  /// Section identifiers in order.
  @usableFromInline var _sections: [SectionID]
  /// The items of each section, parallel to `_sections`.
  @usableFromInline var _items: [[ItemID]]
  /// Each section's index in `_sections`.
  @usableFromInline var _sectionIndexes: [SectionID: Int]
  /// Each item's position in ``itemIdentifiers`` (all sections in order); see ``PositionTable``.
  @usableFromInline var _itemTable: PositionTable
  /// `_offsets[i]` is the number of items in sections before `i`; it has one element more than
  /// `_sections`, the last being the total item count.
  @usableFromInline var _offsets: [Int]

  @usableFromInline var _reloadedItems: MarkedIdentifiers<ItemID>
  @usableFromInline var _reconfiguredItems: MarkedIdentifiers<ItemID>
  @usableFromInline var _reloadedSections: MarkedIdentifiers<SectionID>

  /// Creates an empty snapshot, with no sections and no items.
  @inlinable
  public init() {
    _sections = []
    _items = []
    _sectionIndexes = [:]
    _itemTable = PositionTable()
    _offsets = [0]
    _reloadedItems = MarkedIdentifiers()
    _reconfiguredItems = MarkedIdentifiers()
    _reloadedSections = MarkedIdentifiers()
  }

  /// Creates a snapshot from sections paired with their items, in order.
  ///
  ///     let books = Snapshot(sections: [
  ///       (.reading, reading.map(\.id)),
  ///       (.finished, finished.map(\.id)),
  ///     ])
  ///
  /// This is the construction to prefer: each item is named with its section, so none can be
  /// appended to the wrong one.
  ///
  /// - Precondition: Section identifiers are unique, and item identifiers are unique across all
  ///   sections. Use ``init(validating:)`` for identifiers that come from outside the program.
  /// - Complexity: O(*n*) on average, where *n* is the number of sections and items: one hash
  ///   and one table insert per item, into a table allocated once; no temporary array per item
  ///   below 4 MiB of table (about 500,000 items). Integer identifiers hash in a few cycles,
  ///   others through their `Hashable` conformance. About 7 ns per item at 100,000 items and
  ///   11 at a million when the memory is already the process's, 24 to 30 when every page is
  ///   new to it (`trellis-bench peer-profile 1000000 build`, `trellis-bench peer`). A table
  ///   too large for the processor's caches is filled region by region, so that its writes
  ///   stay in them; that holds about 12 bytes per item until it ends.
  @inlinable
  public init(sections: some Sequence<(SectionID, [ItemID])>) {
    self.init(_arranging: sections)
    _rebuildItemTable(minimumCapacity: numberOfItems, addedInSections: true)
    checkInvariants()
  }

  /// The sections and their items, without the item table.
  @inlinable
  init(_arranging sections: some Sequence<(SectionID, [ItemID])>) {
    self.init()
    for (section, items) in sections {
      if let existing = _sectionIndexes.updateValue(_sections.count, forKey: section) {
        fatalError(
          "Section identifier \(section) occurs twice, at \(existing) and \(_sections.count); "
            + "section identifiers must be unique.")
      }
      _sections.append(section)
      _items.append(items)
      _offsets.append(_offsets[_offsets.count - 1] + items.count)
    }
  }

  /// ``init(sections:)``, also giving the low 32 bits of each item's table hash in position
  /// order, for a diff against another snapshot that follows at once
  /// (``DiffableDataSource/apply(sections:animatingDifferences:itemUpdate:completion:)``).
  @inlinable
  init(sections: some Sequence<(SectionID, [ItemID])>, recordingHashes hashes: inout [UInt32]) {
    self.init(_arranging: sections)
    let total = numberOfItems
    hashes = [UInt32](unsafeUninitializedCapacity: total) { buffer, initialized in
      _rebuildItemTable(
        minimumCapacity: total, addedInSections: true, recordingHashes: buffer.baseAddress)
      // A duplicate traps in the rebuild, so every hash was written.
      initialized = total
    }
    checkInvariants()
  }

  /// The number of sections.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var numberOfSections: Int { _sections.count }

  /// The number of items in all sections.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var numberOfItems: Int { _offsets[_offsets.count - 1] }

  /// The section identifiers, in order.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var sectionIdentifiers: [SectionID] { _sections }

  /// The identifiers of all items, section after section.
  ///
  /// - Complexity: O(*n*), where *n* is the number of items.
  @inlinable
  public var itemIdentifiers: [ItemID] {
    var result: [ItemID] = []
    result.reserveCapacity(numberOfItems)
    for items in _items { result.append(contentsOf: items) }
    return result
  }
}

extension Snapshot: Sendable where SectionID: Sendable, ItemID: Sendable {}

extension Snapshot: Equatable {
  /// Two snapshots are equal when they have the same sections and items in the same order and the
  /// same identifiers marked for reload and reconfiguration.
  public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
    lhs._sections == rhs._sections && lhs._items == rhs._items
      && lhs._reloadedItems == rhs._reloadedItems
      && lhs._reconfiguredItems == rhs._reconfiguredItems
      && lhs._reloadedSections == rhs._reloadedSections
  }
}

extension Snapshot: CustomStringConvertible {
  public var description: String {
    let sections = zip(_sections, _items).map { "\($0): \($1)" }
    return "Snapshot(\(sections.joined(separator: ", ")))"
  }
}
