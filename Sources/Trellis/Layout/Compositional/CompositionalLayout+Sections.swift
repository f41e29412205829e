// How a compositional layout lays out sections: boundary items, groups repeated along the scroll
// axis or in one orthogonal row, and decorations.

extension CompositionalLayout {
  /// The scroll axis: the layout computes along it (main) and across it (cross).
  var axis: LayoutAxis { configuration.scrollDirection }

  /// The container's extent across the scroll axis.
  var crossExtent: Double { axis.cross(context.containerSize) }

  mutating func layOut(fromSection first: Int) {
    var position = sections.last.map { $0.end } ?? headerEnd
    for section in first..<context.itemCounts.count {
      if section > 0 { position += configuration.interSectionSpacing }
      position = layOut(section: section, at: position)
    }
    for boundary in configuration.boundarySupplementaryItems where !boundary.alignment.isBefore {
      position = appendBoundary(
        boundary, before: position, after: position, crossStart: 0, crossLength: crossExtent,
        indexPath: IndexPath(item: 0, section: 0))
    }
    // Offsets kept across a new layout, within how far each row now scrolls.
    offsets = (0..<sections.count).map { section in
      section < offsets.count ? Swift.min(offsets[section], maximumOrthogonalOffset(section)) : 0
    }
    contentSize = axis.size(main: position, cross: crossExtent)
  }

  /// Places a boundary supplementary at `before` (before-alignments, or after-alignments that
  /// extend the boundary) or ending at `after` (after-alignments that overlay the content), across
  /// a band from `crossStart`; returns the position after it along the scroll axis.
  mutating func appendBoundary(
    _ boundary: BoundarySupplementaryItem, before: Double, after: Double, crossStart: Double,
    crossLength: Double, indexPath: IndexPath
  ) -> Double {
    let container = context.containerSize
    var size = boundary.size.resolve(
      in: axis.size(main: axis.main(container), cross: crossLength))
    // A self-sizing header or footer: its reported size, else the measuring closure's.
    let widthEstimated = boundary.size.width.isEstimated
    let heightEstimated = boundary.size.height.isEstimated
    if widthEstimated || heightEstimated,
      let reported = measured[boundary.kind, indexPath]
        ?? context.measureSupplementary?(boundary.kind, indexPath, size)
    {
      measured[boundary.kind, indexPath] = reported
      if widthEstimated { size.width = reported.width }
      if heightEstimated { size.height = reported.height }
    }
    let mainLength = axis.main(size)
    let length = axis.cross(size)
    let cross: Double =
      switch boundary.alignment {
      case .topLeading, .bottomLeading: crossStart
      case .topTrailing, .bottomTrailing: crossStart + crossLength - length
      case .top, .bottom, .leading, .trailing: crossStart + (crossLength - length) / 2
      }
    let main = boundary.alignment.isBefore || boundary.extendsBoundary ? before : after - mainLength
    let frame = axis.rect(main: main, cross: cross, mainLength: mainLength, crossLength: length)
      .offsetBy(dx: boundary.offset.x, dy: boundary.offset.y)
    store.appendSupplementary(
      LayoutAttributes(
        category: .supplementary(kind: boundary.kind), indexPath: indexPath, frame: frame,
        zIndex: boundary.zIndex))
    return boundary.extendsBoundary ? before + mainLength : before
  }

  /// Lays out one section from `start` along the scroll axis and returns where it ends.
  mutating func layOut(section: Int, at start: Double) -> Double {
    let container = context.containerSize
    let definition = sectionProvider(
      section, LayoutEnvironment(containerSize: container, effectiveContentSize: container))
    let insets = definition.contentInsets
    let (mainBefore, mainAfter) = axis.mainInsets(insets)
    let (crossBefore, crossAfter) = axis.crossInsets(insets)
    // Insets wider than the container leave it empty, never negative.
    let effectiveCross = Swift.max(0, crossExtent - crossBefore - crossAfter)
    let groupContainer = axis.size(main: axis.main(container), cross: effectiveCross)
    let follows = definition.supplementariesFollowContentInsets
    let supplementaryStart = follows ? crossBefore : 0
    let supplementaryLength = follows ? effectiveCross : crossExtent
    let orthogonal = definition.orthogonalScrollingBehavior != .none
    store.beginSection(scrollsOrthogonally: orthogonal)
    var position = start
    let sectionPath = IndexPath(item: 0, section: section)

    for boundary in definition.boundarySupplementaryItems where boundary.alignment.isBefore {
      position = appendBoundary(
        boundary, before: position, after: position, crossStart: supplementaryStart,
        crossLength: supplementaryLength, indexPath: sectionPath)
    }
    let contentStart = position
    position += mainBefore

    // Groups go into the store as they are laid out; the background, which needs the content's
    // extent, follows them.
    let groups = placeGroups(
      of: definition, section: section, from: position, crossBefore: crossBefore,
      groupSize: definition.group.size.resolve(in: groupContainer), orthogonal: orthogonal)
    position = groups.end
    position += mainAfter
    let contentEnd = position

    for decoration in definition.decorationItems {
      let frame = axis.rect(
        main: contentStart, cross: 0, mainLength: contentEnd - contentStart,
        crossLength: crossExtent
      )
      .inset(by: decoration.contentInsets)
      store.appendSupplementary(
        LayoutAttributes(
          category: .decoration(kind: decoration.kind), indexPath: sectionPath, frame: frame,
          zIndex: decoration.zIndex))
    }
    for boundary in definition.boundarySupplementaryItems where !boundary.alignment.isBefore {
      position = appendBoundary(
        boundary, before: position, after: contentEnd, crossStart: supplementaryStart,
        crossLength: supplementaryLength, indexPath: sectionPath)
    }
    sections.append(
      SectionGeometry(
        start: start, contentStart: contentStart, contentEnd: contentEnd, end: position,
        behavior: definition.orthogonalScrollingBehavior, groupLeadingEdges: groups.leadingEdges,
        groupWidths: groups.lengths,
        scrollWidth: orthogonal ? groups.crossEnd + crossAfter : crossExtent,
        viewWidth: crossExtent,
        leadingInset: crossBefore,
        pinnedHeaderKinds: definition.boundarySupplementaryItems.filter {
          $0.pinToVisibleBounds && $0.alignment.isBefore
        }
        .map(\.kind),
        pinnedFooterKinds: definition.boundarySupplementaryItems.filter {
          $0.pinToVisibleBounds && !$0.alignment.isBefore
        }
        .map(\.kind)))
    return position
  }

  /// Where a section's groups ended up: the position after them along the scroll axis, and for
  /// an orthogonal row each group's leading edge and length across it and where the row ends.
  struct PlacedGroups {
    var end: Double
    var leadingEdges: [Double]
    var lengths: [Double]
    var crossEnd: Double
  }

  /// Places a section's groups from `start` along the scroll axis — stacked, or in one row that
  /// scrolls across it — appending their cells, separators and supplementaries to the store.
  mutating func placeGroups(
    of definition: LayoutSection, section: Int, from start: Double, crossBefore: Double,
    groupSize: Size, orthogonal: Bool
  ) -> PlacedGroups {
    var position = start
    var leadingEdges: [Double] = []
    var lengths: [Double] = []
    var next = 0
    var placedGroups = 0
    let count = context.itemCounts[section]
    var cross = crossBefore
    var rowThickness = 0.0
    let axis = axis
    let template = groupTemplate(of: definition, section: section, groupSize: groupSize)
    let templateCells = template?.cells
    if !orthogonal, definition.itemSeparator == nil, let template, let templateCells,
      template.holds > 0
    {
      let (groups, end) = appendFullGroups(
        template, cells: templateCells, count: count, from: position, crossBefore: crossBefore,
        spacing: definition.interGroupSpacing)
      if groups > 0 {
        position = end
        next += groups * template.holds
        placedGroups += groups
      }
    }
    func appendCell(_ frame: Rect, item: Int) {
      self.appendCell(
        frame, item: item, of: definition, section: section, count: count, orthogonal: orthogonal)
    }
    while next < count {
      let before = next
      let elements: [LayoutAttributes]
      let actual: Size
      // Template elements number items from 0; laid-out ones carry their real numbers.
      var renumbering = 0
      var repeatsTemplate = false
      if let template, template.holds > 0, count - next >= template.holds {
        repeatsTemplate = true
        renumbering = before
        elements = template.elements
        actual = template.size
        next += template.holds
      } else {
        (elements, actual) = layOut(
          group: definition.group, size: groupSize, section: section, next: &next, count: count)
      }
      guard next > before else { break }  // A group that holds nothing would loop forever.
      let origin: Point
      if orthogonal {
        if placedGroups > 0 { cross += definition.interGroupSpacing }
        origin = axis.point(main: position, cross: cross)
        leadingEdges.append(cross - crossBefore)
        lengths.append(axis.cross(actual))
        cross += axis.cross(actual)
        rowThickness = Swift.max(rowThickness, axis.main(actual))
      } else {
        if placedGroups > 0 { position += definition.interGroupSpacing }
        origin = axis.point(main: position, cross: crossBefore)
        position += axis.main(actual)
      }
      placedGroups += 1
      if repeatsTemplate, let templateCells {
        for (offset, frame) in templateCells.enumerated() {
          appendCell(frame.offsetBy(dx: origin.x, dy: origin.y), item: before + offset)
        }
        continue
      }
      for element in elements {
        let frame = element.frame.offsetBy(dx: origin.x, dy: origin.y)
        if element.category == .cell {
          appendCell(frame, item: element.indexPath.item + renumbering)
        } else {
          var moved = element
          moved.frame = frame
          moved.indexPath.item += renumbering
          store.appendSupplementary(moved, movesWithItems: orthogonal)
        }
      }
    }
    if orthogonal { position += rowThickness }
    return PlacedGroups(
      end: position, leadingEdges: leadingEdges, lengths: lengths, crossEnd: cross)
  }

  /// A section's group laid out once, to repeat while groups are full.
  struct GroupTemplate {
    /// The group's elements, items numbered from 0.
    var elements: [LayoutAttributes]
    var size: Size
    /// How many items one group holds.
    var holds: Int
    /// The elements' frames when they are all cells (the common case): repeating the group then
    /// copies frames, not attributes.
    var cells: [Rect]?
  }

  /// The template of a section's group, or `nil` when the group has estimated sizes.
  ///
  /// A group without estimated sizes lays out the same way every time it is full, so it is laid
  /// out once and repeated, leaving only a last, partly filled group to lay out.
  mutating func groupTemplate(
    of definition: LayoutSection, section: Int, groupSize: Size
  ) -> GroupTemplate? {
    guard !Self.hasEstimates(.group(definition.group)) else { return nil }
    var held = 0
    let (elements, actual) = layOut(
      group: definition.group, size: groupSize, section: section, next: &held, count: Int.max / 2)
    let cells = elements.allSatisfy({ $0.category == .cell }) ? elements.map(\.frame) : nil
    return GroupTemplate(elements: elements, size: actual, holds: held, cells: cells)
  }

  /// Appends every full group of cells of a section whose groups stack along the scroll axis, in
  /// a tight loop: the same steps as the general one in ``placeGroups``, without its per-group
  /// bookkeeping.
  ///
  /// - Returns: How many groups were appended, and where the last one ends along the axis
  ///   (`start` when none was).
  mutating func appendFullGroups(
    _ template: GroupTemplate, cells templateCells: [Rect], count: Int, from start: Double,
    crossBefore: Double, spacing: Double
  ) -> (groups: Int, end: Double) {
    let axis = axis
    let step = axis.main(template.size)
    let holds = template.holds
    let groups = count / holds
    guard groups > 0 else { return (0, start) }
    // The template's cells along and across the axis, offset by each group's start: the same
    // sums, in the same order, as offsetting each cell's rectangle.
    let cells = templateCells.map {
      (
        main: axis.main($0.origin), mainLength: axis.main($0.size),
        cross: axis.cross($0.origin), crossLength: axis.cross($0.size)
      )
    }
    var groupStart = start  // The section's first group.
    var cell = 0
    store.appendItems(count: groups * holds) { _ in
      if cell == holds {
        cell = 0
        groupStart += step
        groupStart += spacing
      }
      let placed = cells[cell]
      cell += 1
      return (
        placed.main + groupStart, placed.mainLength, placed.cross + crossBefore,
        placed.crossLength
      )
    }
    return (groups, groupStart + step)
  }

  /// Appends a cell, and the separator under it unless it is the section's last.
  mutating func appendCell(
    _ frame: Rect, item: Int, of definition: LayoutSection, section: Int, count: Int,
    orthogonal: Bool
  ) {
    store.appendItem(frame)
    guard let separator = definition.itemSeparator, item < count - 1 else { return }
    store.appendSupplementary(
      LayoutAttributes(
        category: .decoration(kind: separator.kind),
        indexPath: IndexPath(item: item, section: section),
        frame: separator.frame(under: frame, axis: axis), zIndex: separator.zIndex),
      movesWithItems: orthogonal)
  }

}
