import Trellis

/// Sections and their items as plain arrays: what a view shows, for replaying batch updates.
public struct SectionedData<SectionID: Hashable, ItemID: Hashable>: Equatable,
  CustomStringConvertible
{
  /// The section identifiers, in order.
  public var sections: [SectionID]
  /// The items of each section, parallel to ``sections``.
  public var items: [[ItemID]]

  /// Creates data from sections and their items.
  public init(sections: [SectionID], items: [[ItemID]]) {
    precondition(sections.count == items.count, "Sections and item lists differ in count")
    self.sections = sections
    self.items = items
  }

  /// The structure of a snapshot, without its reload marks.
  public init(_ snapshot: Snapshot<SectionID, ItemID>) {
    self.init(
      sections: snapshot.sectionIdentifiers,
      items: snapshot.sectionIdentifiers.map { snapshot.itemIdentifiers(inSection: $0) })
  }

  /// The data a stage leaves the view showing.
  public init(_ stage: Changeset<SectionID, ItemID>) {
    self.init(sections: stage.sectionIdentifiers, items: stage.itemIdentifiers)
  }

  public var description: String {
    zip(sections, items).map { "\($0): \($1)" }.joined(separator: " | ")
  }
}
