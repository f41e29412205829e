// Sections that scroll across the layout's scroll axis on their own: offsets and resting points.

extension CompositionalLayout {
  /// Whether a section has an orthogonal scrolling behaviour.
  ///
  /// - Complexity: O(1).
  public func scrollsOrthogonally(section: Int) -> Bool {
    section < sections.count && sections[section].behavior != .none
  }

  /// The configuration's scroll direction.
  public var scrollAxis: ScrollDirection { configuration.scrollDirection }

  /// How far a section's row is scrolled sideways.
  ///
  /// - Complexity: O(1).
  public func orthogonalOffset(forSection section: Int) -> Double {
    section < offsets.count ? offsets[section] : 0
  }

  /// Scrolls a section's row sideways, clamped to its scrollable range; no effect on sections
  /// without orthogonal scrolling.
  ///
  /// - Complexity: O(1).
  public mutating func setOrthogonalOffset(_ offset: Double, forSection section: Int) {
    guard section < sections.count, sections[section].behavior != .none else { return }
    offsets[section] = Swift.min(Swift.max(0, offset), maximumOrthogonalOffset(section))
  }

  /// The length of a section's scrolling row across the layout's scroll axis (its width in a
  /// vertical layout), insets included.
  ///
  /// - Complexity: O(1).
  public func orthogonalContentLength(forSection section: Int) -> Double {
    section < sections.count ? sections[section].scrollWidth : 0
  }

  func maximumOrthogonalOffset(_ section: Int) -> Double {
    Swift.max(0, sections[section].scrollWidth - sections[section].viewWidth)
  }

  /// Where a sideways scroll comes to rest for the section's behaviour, given where it would stop
  /// and which way it was moving (positive: towards the trailing side).
  ///
  /// - Complexity: O(log *n*) in the section's groups: only the boundaries near the stop and the
  ///   current offset are looked at.
  public func targetOrthogonalOffset(forSection section: Int, proposed: Double, velocity: Double)
    -> Double
  {
    guard section < sections.count else { return 0 }
    let geometry = sections[section]
    let maximum = maximumOrthogonalOffset(section)
    func clamp(_ value: Double) -> Double { Swift.min(Swift.max(0, value), maximum) }
    func nearest(_ candidates: [Double]) -> Double {
      let current = orthogonalOffset(forSection: section)
      let directed =
        velocity > 0
        ? candidates.filter { $0 > current + 1e-9 }
        : velocity < 0 ? candidates.filter { $0 < current - 1e-9 } : candidates
      let pool = directed.isEmpty ? candidates : directed
      return pool.min { abs($0 - proposed) < abs($1 - proposed) } ?? proposed
    }
    switch geometry.behavior {
    case .none:
      return 0
    case .continuous:
      return clamp(proposed)
    case .continuousGroupLeadingBoundary:
      return clamp(
        geometry.groupLeadingEdges.min { abs($0 - proposed) < abs($1 - proposed) } ?? proposed)
    case .paging:
      let page = geometry.viewWidth
      let ratio = page > 0 ? maximum / page : 0
      // Past 2^52 pages, page boundaries are not representable: the row scrolls freely.
      guard ratio.isFinite, ratio < 0x1p52 else { return clamp(proposed) }
      // Whole pages needed to reach the end (no libm: the core links nothing).
      let pages = Int(ratio) + (Double(Int(ratio)) < ratio ? 1 : 0)
      /// The page a position falls in, within the row.
      func pageIndex(_ position: Double) -> Int {
        let ratio = position / page
        guard ratio > 0 else { return 0 }
        return ratio < Double(pages) ? Int(ratio) : pages
      }
      // The boundaries around where the scroll would stop and around where it is: the nearest
      // one ahead, behind or anywhere is among them (not every page: a long row has many).
      let current = pageIndex(orthogonalOffset(forSection: section))
      let stop = pageIndex(proposed)
      let indexes = Set([current - 1, current, current + 1, stop, stop + 1])
        .filter { $0 >= 0 && $0 <= pages }.sorted()
      return clamp(nearest(indexes.map { Double($0) * page }))
    case .groupPaging:
      return clamp(nearest(geometry.groupLeadingEdges))
    case .groupPagingCentered:
      // Offsets that put a group's centre at the centre of the view (its edges are measured from
      // the content's leading inset, which the view also starts after).
      let centres = zip(geometry.groupLeadingEdges, geometry.groupWidths).map { edge, width in
        edge + geometry.leadingInset + width / 2 - geometry.viewWidth / 2
      }
      return clamp(nearest(centres))
    }
  }
}
