// What a compositional layout answers once prepared: elements in a rectangle, with pinned
// headers placed for the viewport, and single elements.

extension CompositionalLayout {
  var shifts: [Double]? {
    offsets.contains { $0 != 0 } ? offsets : nil
  }

  func mirror(_ attributes: LayoutAttributes) -> LayoutAttributes {
    attributes.placed(for: direction, inWidth: contentSize.width)
  }

  public func attributes(in rect: Rect, viewport: Rect) -> [LayoutAttributes] {
    let mirrored = direction == .rightToLeft
    let rect = mirrored ? rect.mirrored(inWidth: contentSize.width) : rect
    let viewport = mirrored ? viewport.mirrored(inWidth: contentSize.width) : viewport
    var result: [LayoutAttributes] = []
    let pinned = pinnedHeaders(for: viewport)
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

  /// The headers displaced by pinning for a viewport.
  func pinnedHeaders(for viewport: Rect) -> [LayoutAttributes] {
    let top = vertical ? viewport.minY : viewport.minX
    guard let low = sections.lastIndex(keyedBy: \.start, notAfter: top) else { return [] }
    let geometry = sections[low]
    guard top > geometry.start, top < geometry.contentEnd else { return [] }
    return geometry.pinnedKinds.compactMap { kind in
      guard var header = store.supplementary(ofKind: kind, section: low) else { return nil }
      if vertical {
        header.frame.origin.y = Swift.max(
          header.frame.minY, Swift.min(top, geometry.contentEnd - header.frame.height))
      } else {
        header.frame.origin.x = Swift.max(
          header.frame.minX, Swift.min(top, geometry.contentEnd - header.frame.width))
      }
      header.zIndex = Swift.max(header.zIndex, 1000)
      header.isPinned = true
      return header
    }
  }

  public func attributesForItem(at indexPath: IndexPath) -> LayoutAttributes? {
    store.item(at: indexPath).map {
      mirror(
        LayoutAttributes(
          category: .cell, indexPath: indexPath, frame: shifted($0, section: indexPath.section)))
    }
  }

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
    return vertical ? frame.offsetBy(dx: -offset, dy: 0) : frame.offsetBy(dx: 0, dy: -offset)
  }

  /// Every element at its current sideways offset (unpinned), for checks and pictures.
  public var allAttributes: [LayoutAttributes] { store.allAttributes(shifts: shifts).map(mirror) }
}
