/// A layout whose frames live in a ``LayoutStore``, answering its queries through the plumbing
/// written once here.
///
/// Every such layout answers the same way: a query over the store with pinned elements swapped
/// in, single items and supplementaries, right-to-left mirroring, sideways offsets of
/// orthogonal sections. A layout supplies its store, direction and, where it has them, pinned
/// elements, sideways offsets and its own supplementary lookup.
protocol StoreBackedLayout: CollectionLayout {
  /// The prepared frames.
  var store: LayoutStore { get }
  /// Whether items run left to right or right to left.
  var direction: LayoutDirection { get }
  /// The sideways offset of each section, when any orthogonal section is scrolled.
  var orthogonalShifts: [Double]? { get }
  /// The elements displaced by pinning for a viewport, in the store's (unmirrored) coordinates.
  func pinnedSupplementaries(for viewport: Rect) -> [LayoutAttributes]
  /// A supplementary in the store's coordinates, unmirrored.
  func storedSupplementary(ofKind kind: String, at indexPath: IndexPath) -> LayoutAttributes?
}

extension StoreBackedLayout {
  var orthogonalShifts: [Double]? { nil }

  func pinnedSupplementaries(for viewport: Rect) -> [LayoutAttributes] { [] }

  /// Section-level supplementaries (item 0 of their section's index path).
  func storedSupplementary(ofKind kind: String, at indexPath: IndexPath) -> LayoutAttributes? {
    store.supplementary(ofKind: kind, section: indexPath.section)
  }

  /// An element placed for the layout's direction.
  func mirror(_ attributes: LayoutAttributes) -> LayoutAttributes {
    attributes.placed(for: direction, inWidth: contentSize.width)
  }

  /// The elements whose frames intersect a rectangle, pinned ones placed for `viewport` in
  /// place of their unpinned selves.
  ///
  /// - Complexity: O(log *n* + *k*) for the *k* items returned, plus O(*L* log *s* + *k*) for
  ///   supplementaries in *L* layers.
  func storeAttributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    let mirrored = direction == .rightToLeft
    let rect = mirrored ? rect.mirrored(inWidth: contentSize.width) : rect
    let viewport = mirrored ? viewport.mirrored(inWidth: contentSize.width) : viewport
    var result: [LayoutAttributes] = []
    result.reserveCapacity(64)
    let pinned = pinnedSupplementaries(for: viewport)
    if pinned.isEmpty {
      store.forEach(in: rect, shifts: orthogonalShifts) { result.append($0) }
    } else {
      store.forEach(in: rect, shifts: orthogonalShifts) { attributes in
        if pinned.contains(where: {
          $0.category == attributes.category && $0.indexPath == attributes.indexPath
        }) {
          return
        }
        result.append(attributes)
      }
      result += pinned.filter { $0.frame.intersects(rect) }
    }
    return mirrored ? result.map(mirror) : result
  }

  /// The cell of an item, moved by its section's sideways offset and mirrored.
  ///
  /// - Complexity: O(1).
  func storeAttributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
    store.item(at: indexPath).map {
      mirror(
        LayoutAttributes(
          category: .cell, indexPath: indexPath, frame: shifted($0, section: indexPath.section)))
    }
  }

  /// A supplementary of a kind at its unpinned position, mirrored.
  ///
  /// - Complexity: O(1) on average.
  func storeAttributesForSupplementary(ofKind kind: String, at indexPath: IndexPath)
    -> LayoutAttributes?
  {
    storedSupplementary(ofKind: kind, at: indexPath).map(mirror)
  }

  /// A frame moved by its section's sideways offset, across the scroll axis.
  func shifted(_ frame: Rect, section: Int) -> Rect {
    guard let shifts = orthogonalShifts, section < shifts.count, shifts[section] != 0 else {
      return frame
    }
    return scrollAxis.offset(frame, cross: -shifts[section])
  }

  /// Every element at its unpinned position, mirrored: for checks and pictures.
  var storeAllAttributes: [LayoutAttributes] {
    store.allAttributes(shifts: orthogonalShifts).map(mirror)
  }
}
