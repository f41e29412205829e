// What a compositional layout answers once prepared: elements in a rectangle, with pinned
// headers and footers placed for the viewport, and single elements.

extension CompositionalLayout {
  var shifts: [Double]? {
    offsets.contains { $0 != 0 } ? offsets : nil
  }

  func mirror(_ attributes: LayoutAttributes) -> LayoutAttributes {
    attributes.placed(for: direction, inWidth: contentSize.width)
  }

  /// The elements whose frames intersect a rectangle, pinned ones placed for `viewport`.
  ///
  /// - Complexity: O(log *n* + *k*) for the *k* items returned, plus O(*L* log *s* + *k*) for
  ///   supplementaries in *L* layers (their nesting depth).
  public func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    let mirrored = direction == .rightToLeft
    let rect = mirrored ? rect.mirrored(inWidth: contentSize.width) : rect
    let viewport = mirrored ? viewport.mirrored(inWidth: contentSize.width) : viewport
    var result: [LayoutAttributes] = []
    result.reserveCapacity(64)
    let pinned = pinnedSupplementaries(for: viewport)
    store.forEach(in: rect, shifts: shifts) { attributes in
      if pinned.contains(where: {
        $0.category == attributes.category && $0.indexPath == attributes.indexPath
      }) {
        return
      }
      result.append(attributes)
    }
    result += pinned.filter { $0.frame.intersects(rect) }
    return mirrored ? result.map(mirror) : result
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
    store.item(at: indexPath).map {
      mirror(
        LayoutAttributes(
          category: .cell, indexPath: indexPath, frame: shifted($0, section: indexPath.section)))
    }
  }

  /// A supplementary element of a kind for a section, at its unpinned position.
  ///
  /// - Complexity: O(1) on average.
  public func attributesForSupplementary(ofKind kind: String, at indexPath: IndexPath)
    -> LayoutAttributes?
  {
    guard var attributes = store.supplementary(ofKind: kind, at: indexPath) else { return nil }
    if store.supplementaryMovesWithItems(ofKind: kind, at: indexPath) {
      attributes.frame = shifted(attributes.frame, section: indexPath.section)
    }
    return mirror(attributes)
  }

  /// A frame moved by its section's orthogonal offset, across the scroll axis.
  func shifted(_ frame: Rect, section: Int) -> Rect {
    let offset = orthogonalOffset(forSection: section)
    return axis.offset(frame, cross: -offset)
  }

  /// Every element at its current sideways offset (unpinned), for checks and pictures.
  public var allAttributes: [LayoutAttributes] { store.allAttributes(shifts: shifts).map(mirror) }
}
