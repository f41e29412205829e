// What a compositional layout answers once prepared: elements in a rectangle, with pinned
// headers and footers placed for the viewport, and single elements.

extension CompositionalLayout: StoreBackedLayout {
  var orthogonalShifts: [Double]? {
    offsets.contains { $0 != 0 } ? offsets : nil
  }

  /// The elements whose frames intersect a rectangle, pinned ones placed for `viewport`.
  ///
  /// - Complexity: O(log *n* + *k*) for the *k* items returned, plus O(*L* log *s* + *k*) for
  ///   supplementaries in *L* layers (their nesting depth).
  public func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    storeAttributes(in: rect, viewport: viewport)
  }

  /// The boundary items displaced by pinning for a viewport: the headers of the section under
  /// its start, stopped by the end of that section's content, and the footers of the section
  /// under its end, stopped by the start of that section's content.
  func pinnedSupplementaries(for viewport: Rect) -> [LayoutAttributes] {
    let (top, bottom) = axis.mainRange(of: viewport)
    func pinned(_ attributes: LayoutAttributes, at start: Double) -> LayoutAttributes {
      var attributes = attributes
      attributes.frame = axis.moving(attributes.frame, mainTo: start)
      attributes.zIndex = Swift.max(attributes.zIndex, 1000)
      attributes.isPinned = true
      return attributes
    }
    var result: [LayoutAttributes] = []
    if let low = sections.lastIndex(keyedBy: \.start, notAfter: top),
      top > sections[low].start, top < sections[low].contentEnd
    {
      let geometry = sections[low]
      for kind in geometry.pinnedHeaderKinds {
        guard let header = store.supplementary(ofKind: kind, section: low) else { continue }
        let (start, length) = (axis.main(header.frame.origin), axis.main(header.frame.size))
        result.append(
          pinned(header, at: Swift.max(start, Swift.min(top, geometry.contentEnd - length))))
      }
    }
    // The section the viewport's end falls in (a section starting exactly there is below it).
    if var high = sections.lastIndex(keyedBy: \.start, notAfter: bottom) {
      if high > 0 && sections[high].start == bottom { high -= 1 }
      let geometry = sections[high]
      for kind in geometry.pinnedFooterKinds {
        guard let footer = store.supplementary(ofKind: kind, section: high) else { continue }
        let (start, length) = (axis.main(footer.frame.origin), axis.main(footer.frame.size))
        guard bottom > geometry.contentStart, bottom < start + length else { continue }
        result.append(pinned(footer, at: Swift.max(geometry.contentStart, bottom - length)))
      }
    }
    return result
  }

  /// The cell of an item.
  ///
  /// - Complexity: O(1).
  public func attributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
    storeAttributesForItem(at: indexPath)
  }

  /// A supplementary element of a kind for a section, at its unpinned position.
  ///
  /// - Complexity: O(1) on average.
  public func attributesForSupplementary(ofKind kind: String, at indexPath: IndexPath)
    -> LayoutAttributes?
  {
    storeAttributesForSupplementary(ofKind: kind, at: indexPath)
  }

  /// A supplementary by its own index path (a group's or an item's are not item 0), moved
  /// sideways with its section's items when it scrolls with them.
  func storedSupplementary(ofKind kind: String, at indexPath: IndexPath) -> LayoutAttributes? {
    guard var attributes = store.supplementary(ofKind: kind, at: indexPath) else { return nil }
    if store.supplementaryMovesWithItems(ofKind: kind, at: indexPath) {
      attributes.frame = shifted(attributes.frame, section: indexPath.section)
    }
    return attributes
  }

  /// Every element at its current sideways offset (unpinned), for checks and pictures.
  public var allAttributes: [LayoutAttributes] { storeAllAttributes }
}
