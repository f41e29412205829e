/// The sizes that estimated items reported, by index path, and what each invalidation does to
/// them — shared by the layouts that measure (flow and compositional).
struct MeasuredSizes {
  private struct SupplementaryKey: Hashable {
    var kind: String
    var indexPath: IndexPath
  }

  private var sizes: [IndexPath: Size] = [:]
  /// The sizes estimated headers and footers reported.
  private var supplementarySizes: [SupplementaryKey: Size] = [:]
  private var containerSize: Size?

  /// What a layout redoes for an invalidation, once the measurements are updated.
  enum Work {
    /// Lay everything out again.
    case prepare
    /// Lay out again from a section on; what comes before stands.
    case relayOut(fromSection: Int)
    /// Lay out these sections again; what comes before stands, and what follows only moves.
    case relayOutSections(ClosedRange<Int>)
  }

  subscript(indexPath: IndexPath) -> Size? {
    get { sizes[indexPath] }
    set { sizes[indexPath] = newValue }
  }

  /// The size a header or footer of a kind reported.
  subscript(kind: String, indexPath: IndexPath) -> Size? {
    get { supplementarySizes[SupplementaryKey(kind: kind, indexPath: indexPath)] }
    set { supplementarySizes[SupplementaryKey(kind: kind, indexPath: indexPath)] = newValue }
  }

  /// Called when preparing: sizes measured for another container may no longer hold.
  mutating func prepare(for container: Size) {
    if container != containerSize {
      sizes = [:]
      supplementarySizes = [:]
    }
    containerSize = container
  }

  /// Updates the measurements for an invalidation and says what to lay out again.
  mutating func apply(_ invalidation: LayoutInvalidation) -> Work {
    switch invalidation {
    case .everything:
      // Index paths may now name other items and sections.
      sizes = [:]
      supplementarySizes = [:]
      return .prepare
    case .boundsChanged:
      return .prepare
    case .itemsAppended(let section, _):
      return .relayOut(fromSection: section)
    case .itemsChanged(let sections):
      // Index paths in those sections may now name other items.
      guard sizes.isEmpty else {
        sizes = [:]
        return .prepare
      }
      return .relayOutSections(sections)
    case .preferredSize(let indexPath, let size):
      sizes[indexPath] = size
      return .relayOut(fromSection: indexPath.section)
    case .preferredSupplementarySize(let kind, let indexPath, let size):
      self[kind, indexPath] = size
      return .relayOut(fromSection: indexPath.section)
    }
  }
}
