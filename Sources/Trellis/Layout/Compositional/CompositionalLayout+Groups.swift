// How a compositional layout lays out one group: its subitems along its axis, nested groups,
// custom groups and the supplementaries attached to items.

extension CompositionalLayout {
  /// Whether an element has an estimated dimension anywhere (its layout then depends on
  /// measurements, item by item).
  static func hasEstimates(_ element: LayoutElement) -> Bool {
    if element.size.width.isEstimated || element.size.height.isEstimated { return true }
    guard case .group(let group) = element else { return false }
    switch group.contents {
    case .subitems(let subitems): return subitems.contains(where: hasEstimates)
    case .repeating(let subitem, _): return hasEstimates(subitem)
    case .custom: return false
    }
  }

  func moved(
    _ elements: [LayoutAttributes], main: Double, cross: Double, _ axis: LayoutAxis
  ) -> [LayoutAttributes] {
    let offset = axis.point(main: main, cross: cross)
    return elements.map { element in
      var copy = element
      copy.frame = element.frame.offsetBy(dx: offset.x, dy: offset.y)
      return copy
    }
  }

  /// Lays out a group of a resolved size, taking items from `next`; frames relative to the group.
  ///
  /// The group's own supplementaries follow its items, anchored to its frame and numbered as its
  /// first item.
  mutating func layOut(
    group: LayoutGroup, size: Size, section: Int, next: inout Int, count: Int
  ) -> ([LayoutAttributes], Size) {
    let first = next
    var (elements, actual) = layOutContents(
      of: group, size: size, section: section, next: &next, count: count)
    guard next > first else { return (elements, actual) }
    let frame = Rect(origin: .zero, size: actual)
    for supplementary in group.supplementaryItems {
      let own = supplementary.size.resolve(in: actual)
      elements.append(
        LayoutAttributes(
          category: .supplementary(kind: supplementary.kind),
          indexPath: IndexPath(item: first, section: section),
          frame: supplementary.anchor.frame(of: own, in: frame), zIndex: supplementary.zIndex))
    }
    return (elements, actual)
  }

  /// Lays out a group's items and nested groups.
  private mutating func layOutContents(
    of group: LayoutGroup, size: Size, section: Int, next: inout Int, count: Int
  ) -> ([LayoutAttributes], Size) {
    switch group.contents {
    case .custom(let provider):
      var elements: [LayoutAttributes] = []
      var extent = size
      for frame in provider(size) where next < count {
        elements.append(
          LayoutAttributes(
            category: .cell, indexPath: IndexPath(item: next, section: section), frame: frame))
        next += 1
        if group.size.height.isEstimated { extent.height = Swift.max(extent.height, frame.maxY) }
        if group.size.width.isEstimated { extent.width = Swift.max(extent.width, frame.maxX) }
      }
      return (elements, extent)
    case .repeating(let element, let copies):
      return layOutCopies(
        of: element, copies: copies, in: group, size: size, section: section, next: &next,
        count: count)
    case .subitems(let subitems):
      guard !subitems.isEmpty else { return ([], size) }
      let entries = takeEntries(
        from: subitems, in: group, size: size, section: section, next: &next, count: count)
      return place(entries, in: group, size: size)
    }
  }

  /// A count-based group: `copies` copies of an element, each as long as the group's length less
  /// the spacing allows.
  private mutating func layOutCopies(
    of element: LayoutElement, copies: Int, in group: LayoutGroup, size: Size, section: Int,
    next: inout Int, count: Int
  ) -> ([LayoutAttributes], Size) {
    let axis = group.axis
    let spacing = group.interItemSpacing ?? .fixed(0)
    let length = (axis.main(size) - spacing.minimum * Double(copies - 1)) / Double(copies)
    var elements: [LayoutAttributes] = []
    var crossExtent = 0.0
    var end = 0.0
    for copy in 0..<copies where next < count {
      let own = element.size.resolve(in: size)
      let elementSize = axis.size(main: length, cross: axis.cross(own))
      let (laid, actual) = layOut(
        element: element, size: elementSize, section: section, next: &next, count: count)
      let position = Double(copy) * (length + spacing.minimum)
      elements += moved(laid, main: position, cross: 0, axis)
      crossExtent = Swift.max(crossExtent, axis.cross(actual))
      end = position + axis.main(actual)
    }
    return (
      elements,
      axis.size(
        main: group.size.dimension(along: axis).isEstimated ? end : axis.main(size),
        cross: group.size.dimension(along: axis.cross).isEstimated
          ? crossExtent : axis.cross(size))
    )
  }

  /// An element of a group laid out, with its edge spacing along and across the group's axis.
  struct GroupEntry {
    var elements: [LayoutAttributes]
    var size: Size
    var lead: LayoutSpacing?
    var trail: LayoutSpacing?
    var before: LayoutSpacing?
    var after: LayoutSpacing?
  }

  /// Lays out a group's subitems in turn while the next one fits ("repeat until the next one does
  /// not fit"), always at least one.
  private mutating func takeEntries(
    from subitems: [LayoutElement], in group: LayoutGroup, size: Size, section: Int,
    next: inout Int, count: Int
  ) -> [GroupEntry] {
    let axis = group.axis
    let spacing = group.interItemSpacing ?? .fixed(0)
    var entries: [GroupEntry] = []
    var cursor = 0.0
    var index = 0
    while next < count {
      let element = subitems[index % subitems.count]
      let proposed = element.size.resolve(in: size)
      let edge = element.edgeSpacing
      let (lead, trail) = edge?.along(axis) ?? (nil, nil)
      let gap = entries.isEmpty ? 0 : spacing.minimum
      let needed = gap + (lead?.minimum ?? 0) + axis.main(proposed) + (trail?.minimum ?? 0)
      // An entry that takes no length (a zero-sized container, say) fills a group alone:
      // otherwise a group would take every item there is, or loop without end.
      if !entries.isEmpty && (cursor + needed > axis.main(size) + 1e-9 || needed <= 0) {
        break
      }
      let held = next
      let (laid, actual) = layOut(
        element: element, size: proposed, section: section, next: &next, count: count)
      guard next > held || !laid.isEmpty else { break }
      entries.append(
        GroupEntry(
          elements: laid, size: actual, lead: lead, trail: trail,
          before: edge?.along(axis.cross).before, after: edge?.along(axis.cross).after))
      cursor += gap + (lead?.minimum ?? 0) + axis.main(actual) + (trail?.minimum ?? 0)
      index += 1
    }
    return entries
  }

  /// Positions a group's entries along its axis, sharing the spare length between flexible
  /// spacings, and across it by their edge spacing.
  private func place(_ entries: [GroupEntry], in group: LayoutGroup, size: Size)
    -> ([LayoutAttributes], Size)
  {
    let axis = group.axis
    let mainEstimated = group.size.dimension(along: axis).isEstimated
    let crossEstimated = group.size.dimension(along: axis.cross).isEstimated
    let spacing = group.interItemSpacing ?? .fixed(0)
    var slots = spacing.isFlexible ? Swift.max(0, entries.count - 1) : 0
    var used = 0.0
    for (position, entry) in entries.enumerated() {
      if entry.lead?.isFlexible == true { slots += 1 }
      if entry.trail?.isFlexible == true { slots += 1 }
      used +=
        (position > 0 ? spacing.minimum : 0) + (entry.lead?.minimum ?? 0) + axis.main(entry.size)
        + (entry.trail?.minimum ?? 0)
    }
    let spare = mainEstimated ? 0 : Swift.max(0, axis.main(size) - used)
    let share = slots > 0 ? spare / Double(slots) : 0
    let groupCross =
      crossEstimated
      ? entries.reduce(0) {
        Swift.max($0, ($1.before?.minimum ?? 0) + axis.cross($1.size) + ($1.after?.minimum ?? 0))
      }
      : axis.cross(size)
    var elements: [LayoutAttributes] = []
    var position = 0.0
    for (number, entry) in entries.enumerated() {
      if number > 0 { position += spacing.minimum + (spacing.isFlexible ? share : 0) }
      position += (entry.lead?.minimum ?? 0) + (entry.lead?.isFlexible == true ? share : 0)
      let free =
        groupCross - axis.cross(entry.size) - (entry.before?.minimum ?? 0)
        - (entry.after?.minimum ?? 0)
      let offset: Double
      switch (entry.before?.isFlexible == true, entry.after?.isFlexible == true) {
      case (true, true): offset = (entry.before?.minimum ?? 0) + free / 2
      case (true, false): offset = (entry.before?.minimum ?? 0) + free
      default: offset = entry.before?.minimum ?? 0
      }
      elements += moved(entry.elements, main: position, cross: offset, axis)
      position +=
        axis.main(entry.size) + (entry.trail?.minimum ?? 0)
        + (entry.trail?.isFlexible == true ? share : 0)
    }
    return (
      elements, axis.size(main: mainEstimated ? position : axis.main(size), cross: groupCross)
    )
  }

  /// Lays out an item or a nested group of a resolved size.
  mutating func layOut(
    element: LayoutElement, size: Size, section: Int, next: inout Int, count: Int
  ) -> ([LayoutAttributes], Size) {
    switch element {
    case .group(let group):
      return layOut(group: group, size: size, section: section, next: &next, count: count)
    case .item(let item):
      let path = IndexPath(item: next, section: section)
      next += 1
      var actual = size
      let widthEstimated = item.size.width.isEstimated
      let heightEstimated = item.size.height.isEstimated
      if widthEstimated || heightEstimated {
        let reported = measured[path] ?? context.measure?(path, size)
        if let reported {
          measured[path] = reported
          if widthEstimated { actual.width = reported.width }
          if heightEstimated { actual.height = reported.height }
        }
      }
      let insets = item.contentInsets
      let left = widthEstimated ? 0 : insets.leading
      let right = widthEstimated ? 0 : insets.trailing
      let top = heightEstimated ? 0 : insets.top
      let bottom = heightEstimated ? 0 : insets.bottom
      let frame = Rect(
        x: left, y: top, width: Swift.max(0, actual.width - left - right),
        height: Swift.max(0, actual.height - top - bottom))
      var result = [LayoutAttributes(category: .cell, indexPath: path, frame: frame)]
      for supplementary in item.supplementaryItems {
        let own = supplementary.size.resolve(in: frame.size)
        result.append(
          LayoutAttributes(
            category: .supplementary(kind: supplementary.kind), indexPath: path,
            frame: supplementary.anchor.frame(of: own, in: frame), zIndex: supplementary.zIndex))
      }
      return (result, actual)
    }
  }
}
