import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

// Reading the cache into the chips and the list, for the state's filter.

extension IssueBrowser {
  // MARK: Data

  /// Reads everything again from the cache (when the browser opens): chips,
  /// counts and the list, keeping the selection and focus where they still exist.
  func reload() {
    do {
      try loadMetadata()
      try reloadChipsAndList(focusFirst: false)
      loadError = nil
    } catch {
      loadError = "Could not read the cache: \(error)"
    }
    rows.removeAll(keepingCapacity: true)
    previews.clear()
    list.setNeedsDisplay()
    chips.setNeedsDisplay()
    updatePlaceholder()
  }

  private func loadMetadata() throws {
    useMetadata(milestones: try cache.milestones(), labels: try cache.labels())
    subIssues = try cache.subIssues()
  }

  /// Takes milestones (in chip order) and labels read from the cache.
  func useMetadata(milestones order: [GitHubMilestone], labels: [GitHubLabel]) {
    milestoneOrder = order
    milestones = Dictionary(milestoneOrder.map { ($0.number, $0) }) { first, _ in first }
    labelList = labels
    labelNames = labels.map(\.name)
    labelColors = Dictionary(
      labels.compactMap { label in label.color.flatMap(Color.init(hex:)).map { (label.name, $0) } }
    ) {
      first, _ in first
    }
  }

  /// Reads, in one query, what both the chips and the list need: every milestone's matching
  /// items, which give the chips' counts and, filtered by the selected chip, the list.
  func reloadChipsAndList(focusFirst: Bool) throws {
    var everyMilestone = queryFilter
    everyMilestone.milestone = .all
    let entries = try cache.listEntries(everyMilestone)
    allEntries = entries
    try reloadChips(counts: Self.chipCounts(EntryCounts(entries)))
    try reloadList(focusFirst: focusFirst, entries: entries.filter(chipShows))
  }

  /// How many entries each chip selects, from the counts of a list across every milestone.
  static func chipCounts(_ counts: EntryCounts) -> [MilestoneFilter: Int] {
    var chips: [MilestoneFilter: Int] = [
      .all: counts.all, .withoutMilestone: counts.noMilestone,
    ]
    for (number, count) in counts.byMilestone { chips[.number(number)] = count }
    return chips
  }

  func reloadChips(counts: [MilestoneFilter: Int]) throws {
    var chipCounts: [MilestoneFilter: Int] = [
      .all: counts[.all] ?? 0, .withoutMilestone: counts[.withoutMilestone] ?? 0,
    ]
    var order: [MilestoneFilter] = [.all, .withoutMilestone]
    for milestone in milestoneOrder {
      let chip = MilestoneFilter.number(milestone.number)
      chipCounts[chip] = counts[chip] ?? 0
      order.append(chip)
    }
    let countsChanged = chipCounts != self.chipCounts
    self.chipCounts = chipCounts
    chipOrder = order
    chipIndex = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    installProviders()
    var snapshot = Snapshot(sections: [(0, order)])
    if countsChanged {
      // Counts are drawn in the chips and set their widths: lay out and redraw them all.
      snapshot.reconfigureItems(order.filter { chips.dataSource.indexPath(for: $0) != nil })
      chips.layout = Self.chipLayout()
    }
    chips.dataSource.apply(snapshot)
    if !order.contains(state.filter.milestone) { state.filter.milestone = .all }
    if chips.selection.selectedIdentifiers != [state.filter.milestone] {
      chips.selection.select(state.filter.milestone)
    }
    if chips.focusedItem == nil { chips.focus(state.filter.milestone) }
  }

  /// Queries the list for the filter and applies it; the focus goes to the first issue when the
  /// filter changed, and stays on its issue otherwise.
  func reloadList(focusFirst: Bool, entries given: [IssueListEntry]? = nil) throws {
    let entries = try given ?? cache.listEntries(queryFilter)
    let sections = sectionedItems(entries)
    sectionCounts = Dictionary(uniqueKeysWithValues: sections.map { ($0.0, $0.1.count) })
    totalShown = entries.count
    numberWidth = max(3, String(entries.map(\.number).max() ?? 0).count)
    // Sub-issues nest under their parents where both are listed in a section.
    sectionTrees = [:]
    for (section, items) in sections {
      if let tree = tree(of: items) { sectionTrees[section] = tree }
    }
    installListProviders()
    // Collapsed sections are shown empty, under their header.
    let snapshot = Snapshot(
      sections: sections.map { section, items in
        (
          section,
          collapsedSections.contains(section)
            ? [] : sectionTrees[section]?.visibleItems ?? items
        )
      })
    let previous = list.dataSource.snapshot()
    // Another view of the list: the focus no longer follows an issue acted on in the last one.
    if focusFirst { actedOn = nil }
    if previous.numberOfItems == 0 || focusFirst {
      list.dataSource.applySnapshotUsingReloadData(snapshot)
    } else {
      list.dataSource.apply(snapshot)
    }
    // The data source keeps each tree, for expanding and collapsing its nodes later.
    for (section, tree) in sectionTrees where !collapsedSections.contains(section) {
      list.dataSource.apply(tree, to: section)
    }
    if focusFirst || list.focusedItem == nil {
      list.setContentOffset(.zero)
      list.focus(snapshot.itemIdentifiers.first)
    }
    updatePlaceholder()
  }

  /// The section an entry is listed in: its milestone when the filter spans milestones, its
  /// state when it selects one (or none).
  func section(of entry: IssueListEntry) -> ListSection {
    switch state.filter.milestone {
    case .all, .withMilestone:
      entry.milestoneNumber.map { .milestone(number: $0) } ?? .noMilestone
    case .withoutMilestone, .number: entry.isOpen ? .open : .closed
    }
  }

  /// Whether the selected chip shows an entry.
  func chipShows(_ entry: IssueListEntry) -> Bool {
    state.filter.milestone.matches(milestoneNumber: entry.milestoneNumber)
  }

  /// The order of sections: milestones in chip order, then milestones the cache does not list
  /// (deleted since) by number, then no milestone; or open, then closed.
  func sectionRank(_ section: ListSection) -> (Int, Int) {
    switch section {
    case .milestone(let number):
      if let index = chipIndex[.number(number)] { return (0, index) }
      return (1, number)
    case .noMilestone: return (2, 0)
    case .open: return (0, 0)
    case .closed: return (1, 0)
    }
  }

  /// Entries grouped into sections, in section order, each in the entries' order; sections with
  /// no entries are left out.
  func sectionedItems(_ entries: [IssueListEntry]) -> [(ListSection, [Int])] {
    var bySection: [ListSection: [Int]] = [:]
    for entry in entries { bySection[section(of: entry), default: []].append(entry.number) }
    return bySection.sorted { sectionRank($0.key) < sectionRank($1.key) }.map { ($0.key, $0.value) }
  }

  func installListProviders() {
    rowCells.make = { [unowned self] indexPath, number in
      let (level, disclosure) = self.outline(
        of: number, in: self.list.dataSource.sectionIdentifier(for: indexPath.section))
      return IssueRowCell(
        issue: self.row(number, at: indexPath), labelColors: self.labelColors, now: self.now(),
        numberWidth: self.numberWidth, level: level, disclosure: disclosure)
    }
    let milestones = self.milestones
    let counts = sectionCounts
    let stateFilter = state.filter.state
    let collapsed = collapsedSections
    list.dataSource.supplementaryProvider = { _, _, section in
      let count = counts[section] ?? 0
      var header = Self.header(
        of: section, count: count, state: stateFilter, milestones: milestones)
      if collapsed.contains(section) {
        header.title = "▸ " + header.title
        header.detail += " · collapsed (z: expand all, or click)"
      }
      return header
    }
  }

  static func header(
    of section: ListSection, count: Int, state: IssueStateFilter,
    milestones: [Int: GitHubMilestone]
  ) -> SectionHeaderCell {
    switch section {
    case .milestone(let number):
      let milestone = milestones[number]
      var detail =
        "\(count) \(state == .all ? "" : state.name + " ")issue\(count == 1 ? "" : "s")"
      if let due = milestone?.dueOn { detail += " · due \(LocalTime.day(due))" }
      if milestone?.state == .closed { detail += " · closed" }
      return SectionHeaderCell(title: milestone?.title ?? "Milestone \(number)", detail: detail)
    case .noMilestone:
      return SectionHeaderCell(title: "No milestone", detail: "\(count)")
    case .open:
      return SectionHeaderCell(title: "Open", detail: "\(count)")
    case .closed:
      return SectionHeaderCell(title: "Closed", detail: "\(count)")
    }
  }

  /// A row from the cache, loading its neighbours in the list with it.
  func row(_ number: Int, at indexPath: Trellis.IndexPath) -> CachedIssue {
    if let row = rows[number] { return row }
    let items = list.dataSource.snapshot().itemIdentifiers(inSectionAt: indexPath.section)
    let start = max(0, indexPath.item - 100)
    let end = min(items.count, indexPath.item + 200)
    let wanted = items[start..<end].filter { rows[$0] == nil }
    if let loaded = cacheRead("the list's rows", { try cache.issues(numbers: Array(wanted)) }) {
      if rows.count > 20_000 { rows.removeAll(keepingCapacity: true) }
      for issue in loaded { rows[issue.number] = issue }
    }
    return rows[number]
      ?? CachedIssue(
        id: 0, number: number, title: "(missing from the cache)", state: .open, author: "",
        milestoneNumber: nil, labels: [], comments: 0, createdAt: now(), updatedAt: now(),
        closedAt: nil, isPullRequest: false, htmlURL: nil, body: nil)
  }

  /// The focused issue, with its body.
  var focusedIssue: CachedIssue? {
    list.focusedItem.flatMap { number in cacheRead("#\(number)") { try cache.issue(number: number) }
    }
  }

  /// The numbers the list shows, in order.
  var shownNumbers: [Int] { list.dataSource.snapshot().itemIdentifiers }

  /// The selected chip.
  var selectedChip: MilestoneFilter { state.filter.milestone }

  // MARK: Changing the filter

  /// Shows the list for the state's filter after a change: what the chips count first when it
  /// changed (state, kind, label, search), so that chips and list always agree, and the focus on
  /// the first issue.
  ///
  /// A search that says `@me` asks the host who that is, unless `askingForViewer` is false (the
  /// answer just came, and was a failure to show rather than a question to ask again).
  func reload(_ reload: ListReload, askingForViewer: Bool = true) {
    if reload != .nothing && askingForViewer { requestViewerIfNeeded() }
    do {
      switch reload {
      case .nothing: return
      case .list: try reloadList(focusFirst: true)
      case .countsAndList: try reloadChipsAndList(focusFirst: true)
      }
      loadError = nil
    } catch {
      loadError = "Could not read the cache: \(error)"
      updatePlaceholder()
    }
  }

  /// The placeholder for the list: loading while the first sync runs, empty with what to change,
  /// or the error.
  func updatePlaceholder() {
    if let loadError {
      list.placeholder = .failure(loadError)
      return
    }
    guard list.dataSource.snapshot().numberOfItems == 0 else {
      list.placeholder = nil
      return
    }
    let emptyCache = cacheRead("the sync state") { try cache.syncState().itemCount } == 0
    switch syncStatus {
    case .syncing where emptyCache:
      list.placeholder = .loading("Fetching the issues of \(repository)…")
    case .missingToken where emptyCache, .notFound where emptyCache, .failed where emptyCache,
      .offline where emptyCache, .rateLimited where emptyCache:
      list.placeholder = .failure(syncStatus.text(now: now()) + "\nPress r to try again.")
    default:
      list.placeholder = .empty(emptyMessage)
    }
  }

  private var emptyMessage: String {
    if isWaitingForViewer {
      if case .failed(let reason) = viewer {
        return "Could not tell who @me is: \(reason)\nChange /: search"
      }
      return "Asking GitHub who @me is…"
    }
    var parts: [String] = []
    if state.filter.text != nil { parts.append("matching “\(state.filter.text ?? "")”") }
    if !state.filter.labels.isEmpty {
      parts.append("labelled \(state.filter.labels.joined(separator: ", "))")
    }
    let what = state.filter.kind == .issues ? "issues" : "issues or pull requests"
    let scope = Self.title(of: state.filter.milestone, milestones: milestones)
    var message = "No \(state.filter.state == .all ? "" : state.filter.state.name + " ")\(what)"
    message += state.filter.milestone == .all ? "" : " in \(scope)"
    if !parts.isEmpty { message += " " + parts.joined(separator: ", ") }
    message += "."
    var commands: [BrowserCommand] = []
    if state.filter.state != .all { commands.append(.cycleState) }
    if !state.filter.labels.isEmpty { commands.append(.pickLabel) }
    if state.filter.text != nil { commands.append(.search) }
    if state.filter.milestone != .all { commands.append(.moveAlongChips(.left)) }
    let hints = commands.compactMap { KeyBindings.browsing.hint(for: $0) }
    if !hints.isEmpty { message += "\nChange " + hints.joined(separator: " · ") }
    return message
  }
}
