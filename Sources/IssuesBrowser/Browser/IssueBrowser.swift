import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The issues browser's screen: the milestone chip bar, the issue list in sections, the preview,
/// and the status bar — everything but the terminal and the network, so tests drive it directly.
///
/// Data flows one way: the filter and the cache make the chip and list snapshots, the collection
/// views diff them in, and keys change the filter. The host feeds events, calls ``tick()``
/// about ten times a second (debounced search, spinner), performs the ``BrowserEffect``s it
/// returns, sets ``syncStatus`` as syncs progress, and hands it the lists it observes in the cache
/// (``apply(_:)``).
@MainActor
public final class IssueBrowser {
  /// The repository shown.
  public let repository: RepositoryName
  let cache: IssueCache

  /// What the list shows.
  var filter = IssueFilter()

  /// Where the cache stands against GitHub; the status bar shows it.
  public var syncStatus: SyncStatus {
    didSet { updatePlaceholder() }
  }

  /// The screen size, in cells.
  public private(set) var size: TerminalSize

  /// The clock; tests set a fixed one.
  var now: () -> Date

  let chips: CollectionView<Int, MilestoneFilter>
  // The providers, replaced when the data they draw from changes.
  let chipCells = CellSource<MilestoneFilter>()
  let rowCells = CellSource<Int>()
  let labelCells = CellSource<String>()
  let list: CollectionView<ListSection, Int>
  /// Rows loaded from the cache, by number; filled around what the list draws.
  var rows: [Int: CachedIssue] = [:]
  var milestones: [Int: GitHubMilestone] = [:]
  /// The milestones in chip order: open ones by due date, then closed ones.
  var milestoneOrder: [GitHubMilestone] = []
  var labelColors: [String: Color] = [:]
  var labelNames: [String] = []
  /// The labels as last read, to tell whether an observed list changed them.
  var labelList: [GitHubLabel] = []
  var chipCounts: [MilestoneFilter: Int] = [:]
  var chipOrder: [MilestoneFilter] = []
  /// The position of each chip in `chipOrder`.
  var chipIndex: [MilestoneFilter: Int] = [:]
  /// The list the observed filter selects in every milestone, as last read or observed: chip
  /// counts come from it, and the list is it filtered by the selected chip.
  var allEntries: [IssueListEntry] = []
  /// Sections a person collapsed, shown as their header alone; kept in the cache.
  var collapsedSections: Set<ListSection> = []
  /// The sub-issues of every issue that has some, by parent number.
  var subIssues: [Int: [Int]] = [:]
  /// Parents whose sub-issues a person opened.
  var expandedParents: Set<Int> = []
  /// The sections in which sub-issues nest under their parents, as trees.
  var sectionTrees: [ListSection: SectionSnapshot<Int>] = [:]
  var numberWidth = 4
  /// The item count of each list section, for the headers.
  var sectionCounts: [ListSection: Int] = [:]
  var totalShown = 0

  /// What the keyboard is talking to.
  enum Mode: Equatable {
    case browsing
    /// Typing a search; the draft is applied after a pause in typing.
    case searching
    /// The label picker is open.
    case pickingLabel
    /// The list of keys is shown.
    case help
    /// The focused issue's body, full screen, scrolled by `offset` lines.
    case reading(offset: Int)
  }

  var mode = Mode.browsing
  var searchDraft = ""
  /// When the search draft is applied, if typing has paused.
  var searchDeadline: Date?
  let labelPicker: CollectionView<Int, String>
  /// What was typed in the label picker to narrow it.
  var labelQuery = ""
  /// A message shown in the status bar until it expires.
  var flash: (text: String, until: Date)?
  var loadError: String?
  /// The focused issue's preview lines at a width, kept until the focus, the width or the data
  /// change (Markdown is rendered once per issue, not once per frame).
  var preview: (number: Int, width: Int, lines: [StyledLine])?
  /// How far the side preview is scrolled (by the wheel over it); back to the top on a new issue.
  var previewOffset = 0

  /// The debounce delay of the search field.
  var searchDelay: TimeInterval = 0.15

  /// Opens the browser on a repository's cache, drawing into a screen of `size`.
  public init(
    cache: IssueCache, repository: RepositoryName, size: TerminalSize,
    syncStatus: SyncStatus = .cached(lastSynced: nil), now: @escaping () -> Date = Date.init
  ) {
    self.cache = cache
    self.repository = repository
    self.size = size
    self.syncStatus = syncStatus
    self.now = now
    let chipCells = chipCells
    let rowCells = rowCells
    let labelCells = labelCells
    chips = CollectionView(layout: Self.chipLayout(), selection: .single()) {
      chipCells.make($0, $1)
    }
    list = CollectionView(layout: Self.listLayout(), selection: .none) { rowCells.make($0, $1) }
    labelPicker = CollectionView(layout: Self.listLayout(headers: false), selection: .single()) {
      labelCells.make($0, $1)
    }
    configureViews()
    place()
    loadCollapsedSections()
    reload()
  }

  // MARK: Layouts

  static func chipLayout() -> CompositionalLayout {
    var section = LayoutSection.chips(height: 1, estimatedWidth: 10, spacing: 1)
    section.contentInsets = EdgeInsets(leading: 1, trailing: 1)
    return CompositionalLayout(section: section)
  }

  static func listLayout(headers: Bool = true) -> CompositionalLayout {
    var section = LayoutSection.rows(height: 1)
    if headers {
      section.boundarySupplementaryItems = [
        .header(height: 1, pinned: true)
      ]
    }
    return CompositionalLayout(section: section)
  }

  // MARK: Views

  private func configureViews() {
    chips.navigationKeys = .standard
    list.navigationKeys = .standardAndVim
    // Letters narrow the labels, so only the standard keys move in the picker.
    labelPicker.navigationKeys = .standard
    chips.onSelect = { [weak self] chip in self?.select(chip) }
    list.onFocusChange = { [weak self] _ in self?.previewOffset = 0 }
    // A click on a row focuses it (the preview follows); Enter, handled by the browser, reads it.
    labelPicker.onSelect = { [weak self] label in self?.pickLabel(label) }
    list.onSupplementaryClick = { [weak self] _, section in self?.toggleSection(section) }
  }

  /// The chip and list views' data sources, rebuilt with fresh providers over current data.
  private func installProviders() {
    let counts = chipCounts
    let milestones = self.milestones
    let order = chipOrder
    chipCells.make = { _, chip in
      ChipCell(
        title: Self.title(of: chip, milestones: milestones), count: counts[chip] ?? 0,
        isClosed: {
          if case .number(let number) = chip {
            milestones[number]?.state == .closed
          } else {
            false
          }
        }())
    }
    chips.measure = { indexPath, proposed in
      guard indexPath.item < order.count else { return proposed }
      let chip = order[indexPath.item]
      return Size(
        width: Double(
          ChipCell.width(
            title: Self.title(of: chip, milestones: milestones), count: counts[chip] ?? 0)),
        height: 1)
    }
  }

  static func title(of chip: MilestoneFilter, milestones: [Int: GitHubMilestone]) -> String {
    switch chip {
    case .all: "All"
    case .withMilestone: "Any milestone"
    case .withoutMilestone: "No milestone"
    case .number(let number): milestones[number]?.title ?? "Milestone \(number)"
    }
  }

  /// Lays the views out for the screen size: title, chips, a rule, the list (and the preview
  /// beside it when there is room), the status bar.
  func place() {
    let width = size.columns
    chips.frame = CellRect(x: 0, y: 1, width: width, height: 1)
    let listHeight = max(0, size.rows - 4)
    list.frame = CellRect(x: 0, y: 3, width: listWidth, height: listHeight)
    // The picker and its border stay inside the screen, down to nothing on a tiny one: its list
    // never draws where its border is.
    let pickerWidth = min(48, max(0, width - 4))
    let pickerHeight = min(max(0, size.rows - 6), max(1, labelNames.count + 1))
    labelPicker.frame = CellRect(
      x: (width - pickerWidth) / 2, y: 4, width: pickerWidth, height: pickerHeight)
  }

  /// Where the label picker's list is, inside its border.
  var labelPickerFrame: CellRect { labelPicker.frame }

  /// The list's width: all of it, or what the preview leaves when the screen is wide.
  var listWidth: Int { hasPreviewPane ? size.columns * 3 / 5 : size.columns }

  /// Whether the preview shows beside the list.
  var hasPreviewPane: Bool { size.columns >= 110 && size.rows >= 12 }

  /// Adapts to a new terminal size; the focused issue stays in view.
  public func resize(_ size: TerminalSize) {
    self.size = size
    place()
  }

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
    preview = nil
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
    var everyMilestone = filter
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
    if !order.contains(filter.milestone) { filter.milestone = .all }
    if chips.selection.selectedIdentifiers != [filter.milestone] {
      chips.selection.select(filter.milestone)
    }
    if chips.focusedItem == nil { chips.focus(filter.milestone) }
  }

  /// Queries the list for the filter and applies it; the focus goes to the first issue when the
  /// filter changed, and stays on its issue otherwise.
  func reloadList(focusFirst: Bool, entries given: [IssueListEntry]? = nil) throws {
    let entries = try given ?? cache.listEntries(filter)
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
    switch filter.milestone {
    case .all, .withMilestone:
      entry.milestoneNumber.map { .milestone(number: $0) } ?? .noMilestone
    case .withoutMilestone, .number: entry.isOpen ? .open : .closed
    }
  }

  /// Whether the selected chip shows an entry.
  func chipShows(_ entry: IssueListEntry) -> Bool {
    filter.milestone.matches(milestoneNumber: entry.milestoneNumber)
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
    let state = filter.state
    let collapsed = collapsedSections
    list.dataSource.supplementaryProvider = { _, _, section in
      let count = counts[section] ?? 0
      var header = Self.header(
        of: section, count: count, state: state, milestones: milestones)
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
    if let loaded = try? cache.issues(numbers: Array(wanted)) {
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
    list.focusedItem.flatMap { try? cache.issue(number: $0) }
  }

  /// The numbers the list shows, in order.
  var shownNumbers: [Int] { list.dataSource.snapshot().itemIdentifiers }

  /// The selected chip.
  var selectedChip: MilestoneFilter { filter.milestone }

  // MARK: Changing the filter

  func select(_ chip: MilestoneFilter) {
    guard chip != filter.milestone else { return }
    filter.milestone = chip
    reloadListReportingErrors()
  }

  func setState(_ state: IssueStateFilter) {
    filter.state = state
    reloadListReportingErrors(countsChanged: true)
  }

  /// Shows the list for the current filter; when what the chips count changed (state, kind,
  /// label, search), their counts first, so that chips and list always agree.
  func reloadListReportingErrors(countsChanged: Bool = false) {
    do {
      if countsChanged {
        try reloadChipsAndList(focusFirst: true)
      } else {
        try reloadList(focusFirst: true)
      }
      loadError = nil
    } catch {
      loadError = "Could not read the cache: \(error)"
      updatePlaceholder()
    }
  }

  func pickLabel(_ label: String) {
    filter.label = label.isEmpty ? nil : label
    mode = .browsing
    reloadListReportingErrors(countsChanged: true)
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
    let emptyCache = (try? cache.syncState().itemCount) == 0
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
    var parts: [String] = []
    if filter.text != nil { parts.append("matching “\(filter.text ?? "")”") }
    if let label = filter.label { parts.append("labelled \(label)") }
    let what = filter.kind == .issues ? "issues" : "issues or pull requests"
    let scope = Self.title(of: filter.milestone, milestones: milestones)
    var message = "No \(filter.state == .all ? "" : filter.state.name + " ")\(what)"
    message += filter.milestone == .all ? "" : " in \(scope)"
    if !parts.isEmpty { message += " " + parts.joined(separator: ", ") }
    message += "."
    var hints: [String] = []
    if filter.state != .all { hints.append("s: state") }
    if filter.label != nil { hints.append("l: label") }
    if filter.text != nil { hints.append("/: search") }
    if filter.milestone != .all { hints.append("←→ Enter: milestone") }
    if !hints.isEmpty { message += "\nChange " + hints.joined(separator: " · ") }
    return message
  }
}
