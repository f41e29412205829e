/// Every duplicate identifier found while building a snapshot from data that came from outside
/// the program, and where each occurrence was.
///
///     do {
///       let snapshot = try Snapshot(validating: response.sections)
///     } catch {
///       print(error)
///       // 2 duplicate identifiers: item 42 at [0, 3], [1, 0]; section "Done" at 1, 2
///     }
public struct SnapshotValidationError<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>:
  Error, CustomStringConvertible
{
  /// A section identifier that occurs more than once.
  public struct DuplicateSection: Hashable, Sendable {
    /// The repeated identifier.
    public var identifier: SectionID
    /// Every position where it occurs, in the order given (at least two).
    public var indexes: [Int]

    /// Creates a description of a repeated section identifier.
    public init(identifier: SectionID, indexes: [Int]) {
      self.identifier = identifier
      self.indexes = indexes
    }
  }

  /// An item identifier that occurs more than once, in one section or across several.
  public struct DuplicateItem: Hashable, Sendable {
    /// The repeated identifier.
    public var identifier: ItemID
    /// Every position where it occurs, in the order given (at least two).
    public var indexPaths: [IndexPath]

    /// Creates a description of a repeated item identifier.
    public init(identifier: ItemID, indexPaths: [IndexPath]) {
      self.identifier = identifier
      self.indexPaths = indexPaths
    }
  }

  /// Repeated section identifiers, in order of their first occurrence.
  public var duplicateSections: [DuplicateSection]
  /// Repeated item identifiers, in order of their first occurrence.
  public var duplicateItems: [DuplicateItem]

  public var description: String {
    let items = duplicateItems.map { duplicate in
      "item \(duplicate.identifier) at \(duplicate.indexPaths.map(\.description).joined(separator: ", "))"
    }
    let sections = duplicateSections.map { duplicate in
      "section \(duplicate.identifier) at \(duplicate.indexes.map(String.init).joined(separator: ", "))"
    }
    let count = items.count + sections.count
    return "\(count) duplicate identifier\(count == 1 ? "" : "s"): "
      + (items + sections).joined(separator: "; ")
  }
}

extension Snapshot where SectionID: Sendable, ItemID: Sendable {
  /// Creates a snapshot from sections paired with their items, or throws an error that lists every
  /// duplicate identifier and where it occurs.
  ///
  /// Use this for identifiers that come from outside the program, so that bad data becomes an
  /// error you can show instead of a trap.
  ///
  /// - Throws: ``SnapshotValidationError`` when a section or an item identifier occurs twice.
  /// - Complexity: O(*n*) on average, where *n* is the number of sections and items.
  public init(
    validating sections: some Sequence<(SectionID, [ItemID])>
  ) throws(SnapshotValidationError<SectionID, ItemID>) {
    let sections = Array(sections)
    var sectionIndexes: [SectionID: [Int]] = [:]
    var sectionOrder: [SectionID] = []
    var itemPaths: [ItemID: [IndexPath]] = [:]
    var itemOrder: [ItemID] = []
    for (sectionIndex, (section, items)) in sections.enumerated() {
      if sectionIndexes[section, default: []].isEmpty { sectionOrder.append(section) }
      sectionIndexes[section, default: []].append(sectionIndex)
      for (itemIndex, item) in items.enumerated() {
        let path = IndexPath(item: itemIndex, section: sectionIndex)
        if itemPaths[item, default: []].isEmpty { itemOrder.append(item) }
        itemPaths[item, default: []].append(path)
      }
    }
    typealias Failure = SnapshotValidationError<SectionID, ItemID>
    let duplicateSections = sectionOrder.compactMap { section -> Failure.DuplicateSection? in
      guard let indexes = sectionIndexes[section], indexes.count > 1 else { return nil }
      return Failure.DuplicateSection(identifier: section, indexes: indexes)
    }
    let duplicateItems = itemOrder.compactMap { item -> Failure.DuplicateItem? in
      guard let paths = itemPaths[item], paths.count > 1 else { return nil }
      return Failure.DuplicateItem(identifier: item, indexPaths: paths)
    }
    guard duplicateSections.isEmpty, duplicateItems.isEmpty else {
      throw SnapshotValidationError(
        duplicateSections: duplicateSections, duplicateItems: duplicateItems)
    }
    self.init(sections: sections)
  }
}
