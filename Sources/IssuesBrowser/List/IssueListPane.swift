import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The milestone chips and the issue list: the views, and the ``ListModel`` they show.
///
/// It reads the cache for a filter, takes the lists the cache observation yields, and applies
/// each change as a staged update of the rows it touches. The browser decides *what* to show
/// (the filter, the focus after an action); the pane keeps the views in step with the model.
@MainActor
final class IssueListPane {
  /// The milestone chips, one selected: the list's filter by milestone.
  let chips: CollectionView<Int, MilestoneFilter>
  /// The issues, in sections by milestone or state, sub-issues nested under their parents.
  let list: CollectionView<ListSection, ListItem>
  /// The data the views show.
  var model = ListModel()
  /// The focused issue's preview lines, rendered once per issue and width.
  let previews = PreviewMemo()
  // The providers, replaced when the data they draw from changes.
  private let chipCells = CellSource<MilestoneFilter>()
  private let rowCells = CellSource<ListItem>()
  /// Rows loaded from the cache, by list row; filled around what the list draws.
  private var rows: [ListItem: CachedIssue] = [:]
  /// The chips as last drawn, to redraw only those that change.
  private var chipsDrawn: [MilestoneFilter: ChipCell] = [:]
  /// The chip whose first row's preview was last rendered ahead, and that row.
  private var chipPrediction: (chip: MilestoneFilter, item: ListItem)?
  /// Rows this screen wrote (an action queued) and patched in memory as the cache has them:
  /// the next observed change keeps them rather than reading them again.
  var written: Set<IssueKey> = []
  /// The issues with actions waiting in the queue: their rows are marked.
  private(set) var queued: Set<Int> = []
  /// Those of them with an action in conflict, waiting for the person.
  private(set) var conflicted: Set<Int> = []
  let read: CacheReader
  private let now: () -> Date

  init(read: CacheReader, now: @escaping () -> Date) {
    self.read = read
    self.now = now
    let chipCells = chipCells
    let rowCells = rowCells
    chips = CollectionView(layout: Self.chipLayout(), selection: .single()) {
      chipCells.make($0, $1)
    }
    list = CollectionView(layout: Self.listLayout(), selection: .none) { rowCells.make($0, $1) }
    chips.navigationKeys = .standard
    list.navigationKeys = .standardAndVim
    model.collapsedSections = ListModel.sections(
      fromStorageKeys: read("the collapsed sections") { try $0.collapsedSections() } ?? [])
  }

  static func chipLayout() -> CompositionalLayout {
    var section = LayoutSection.chips(height: 1, estimatedWidth: 10, spacing: 1)
    section.contentInsets = EdgeInsets(leading: 1, trailing: 1)
    return CompositionalLayout(section: section)
  }

  static func listLayout(headers: Bool = true) -> CompositionalLayout {
    var section = LayoutSection.rows(height: 1)
    if headers { section.boundarySupplementaryItems = [.header(height: 1, pinned: true)] }
    return CompositionalLayout(section: section)
  }

  // MARK: Reading the cache

  /// Reads everything again: milestones, labels, sub-issues, the chips and the list, keeping the
  /// selection and focus where they still exist.
  func reloadAll(query: IssueFilter, filter: inout IssueFilter) {
    do {
      model.useMetadata(milestones: try read.cache.milestones(), labels: try read.cache.labels())
      model.subIssues = try read.cache.subIssues()
      try reload(query: query, filter: &filter, focusFirst: false)
      model.loadError = nil
    } catch {
      model.loadError = "Could not read the cache: \(error)"
    }
    forgetRows(nil)
    readQueue()
    list.setNeedsDisplay()
    chips.setNeedsDisplay()
  }

  /// Reads, in one query, what both the chips and the list need: every milestone's matching
  /// items, which give the chips' counts and, filtered by the selected chip, the list.
  func reload(query: IssueFilter, filter: inout IssueFilter, focusFirst: Bool) throws {
    var everyMilestone = query
    everyMilestone.milestone = .all
    model.entries = try read.cache.listEntries(everyMilestone)
    showChips(counts: ListModel.chipCounts(EntryCounts(model.entries)), selection: &filter)
    showList(model.entries(under: filter.milestone), filter: filter, focusFirst: focusFirst)
  }

  /// Shows the entries already read under another chip: a chip is selected without a query.
  func narrow(to filter: IssueFilter) {
    showList(model.entries(under: filter.milestone), filter: filter, focusFirst: true)
  }

  /// Reads the list alone (the order changed; the counts stay).
  func reloadList(query: IssueFilter, filter: IssueFilter) throws {
    showList(try read.cache.listEntries(query), filter: filter, focusFirst: true)
  }

  // MARK: Showing

  /// Shows the chips with their counts; the selection falls back to "All" when its milestone
  /// went away.
  func showChips(counts: [MilestoneFilter: Int], selection filter: inout IssueFilter) {
    model.useChips(counts: counts)
    installChipProviders()
    let order = model.chipOrder
    let before = chipsDrawn
    chipsDrawn = Dictionary(uniqueKeysWithValues: order.map { ($0, Self.chipCell($0, of: model)) })
    // Chips still shown that now read otherwise (a count, a renamed milestone).
    let changed = order.filter { chip in before[chip].map { $0 != chipsDrawn[chip] } ?? false }
    var snapshot = Snapshot(sections: [(0, order)])
    // A count that keeps its width (most do: one issue closed) redraws its chip where it is;
    // one that does not moves every chip after it: lay them out again.
    let resized = changed.contains { before[$0]?.width != chipsDrawn[$0]?.width }
    if resized {
      snapshot.reconfigureItems(changed)
      chips.layout = Self.chipLayout()
    }
    chips.dataSource.apply(snapshot)
    if !resized { for chip in changed { chips.setNeedsDisplay(item: chip) } }
    if model.chipIndex[filter.milestone] == nil { filter.milestone = .all }
    if chips.selection.selectedIdentifiers != [filter.milestone] {
      chips.selection.select(filter.milestone)
    }
    if chips.focusedItem == nil { chips.focus(filter.milestone) }
  }

  /// Shows the entries the selected chip shows; the focus goes to the first issue when
  /// `focusFirst` (another view of the list), and stays on its issue otherwise.
  func showList(_ entries: [IssueListEntry], filter: IssueFilter, focusFirst: Bool) {
    let snapshot = model.snapshot(of: entries, under: filter.milestone)
    installListProviders(filter: filter)
    // Another view of the list: the focus no longer follows an issue acted on in the last one.
    if focusFirst { model.acted = nil }
    if list.dataSource.snapshot().numberOfItems == 0 || focusFirst {
      list.dataSource.applySnapshotUsingReloadData(snapshot)
    } else {
      list.dataSource.apply(snapshot)
    }
    // The rows are the trees' visible items; a section's tree goes to the data source when a
    // node in it opens or closes (Space), not for every section up front.
    if focusFirst || list.focusedItem == nil {
      list.setContentOffset(.zero)
      list.focus(snapshot.itemIdentifiers.first)
    }
  }

  /// The chip a model draws for a filter.
  private static func chipCell(_ filter: MilestoneFilter, of model: ListModel) -> ChipCell {
    let closed =
      if case .number(let n) = filter { model.milestones[n]?.state == .closed } else { false }
    return ChipCell(
      title: model.title(of: filter), count: model.chipCounts[filter] ?? 0, isClosed: closed)
  }

  private func installChipProviders() {
    // What the cells draw, captured alone: the model's large arrays stay unshared.
    var chip = ListModel()
    chip.milestones = model.milestones
    chip.chipCounts = model.chipCounts
    let order = model.chipOrder
    chipCells.make = { _, filter in Self.chipCell(filter, of: chip) }
    chips.measure = { indexPath, proposed in
      guard indexPath.item < order.count else { return proposed }
      let filter = order[indexPath.item]
      let width = ChipCell.width(title: chip.title(of: filter), count: chip.chipCounts[filter] ?? 0)
      return Size(width: Double(width), height: 1)
    }
  }

  /// The rows and headers drawn from the current model.
  func installListProviders(filter: IssueFilter) {
    rowCells.make = { [unowned self] indexPath, item in
      let section = list.dataSource.sectionIdentifier(for: indexPath.section)
      // A row drawn needs its section's tree (its depth and marker): built the first time.
      if let section { self.model.ensureTree(of: section) }
      let (level, disclosure) = self.model.outline(of: item, in: section)
      let issue = row(item, at: indexPath)
      return IssueRowCell(
        issue: issue, labelColors: self.model.labelColors, now: now(),
        numberWidth: self.model.numberWidth, level: level, disclosure: disclosure,
        elsewhere: item.key == nil ? self.model.milestoneName(of: issue) : nil,
        queueMark: self.conflicted.contains(issue.number)
          ? .conflict : self.queued.contains(issue.number) ? .waiting : .none)
    }
    list.dataSource.supplementaryProvider = { [unowned self] _, _, section in
      model.header(of: section, state: filter.state)
    }
  }

  /// A row from the cache, loading its neighbours in the list with it: a screen above and two
  /// below, so that scrolling reads the cache once a screen or two, and a new list reads what it
  /// shows and little more.
  private func row(_ item: ListItem, at indexPath: Trellis.IndexPath) -> CachedIssue {
    if let row = rows[item] { return row }
    let items = list.dataSource.snapshot().itemIdentifiers(inSectionAt: indexPath.section)
    let screen = max(20, list.frame.height)
    let start = max(0, indexPath.item - screen)
    let end = min(items.count, indexPath.item + 2 * screen)
    var keys: [IssueKey] = []
    var subIssues: [(item: ListItem, number: Int)] = []
    for wanted in items[start..<end] where rows[wanted] == nil {
      switch wanted {
      case .issue(let key): keys.append(key)
      case .subIssue(let number, _): subIssues.append((wanted, number))
      }
    }
    if rows.count > 20_000 { rows.removeAll(keepingCapacity: true) }
    if let loaded = read("the list's rows", { try $0.issues(keys: keys) }) {
      for issue in loaded { rows[.issue(issue.key)] = issue }
    }
    if !subIssues.isEmpty,
      let loaded = read("the list's rows", { try $0.issues(numbers: subIssues.map(\.number)) })
    {
      let byNumber = Dictionary(loaded.map { ($0.number, $0) }) { first, _ in first }
      for (wanted, number) in subIssues { rows[wanted] = byNumber[number] }
    }
    return rows[item]
      ?? CachedIssue(
        key: item.key ?? IssueKey(rawValue: 0), id: 0, number: model.number(of: item) ?? 0,
        title: "(missing from the cache)", state: .open, author: "",
        milestoneNumber: nil, labels: [], comments: 0, createdAt: now(), updatedAt: now(),
        closedAt: nil, isPullRequest: false, htmlURL: nil, body: nil)
  }

  /// Marks the rows of the issues with queued actions as `marks` says; the rows whose mark
  /// changed are drawn again.
  func showQueue(_ marks: QueueMarks) {
    guard marks.waiting != queued || marks.conflicted != conflicted else { return }
    let changed = marks.waiting.symmetricDifference(queued)
      .union(marks.conflicted.symmetricDifference(conflicted))
    queued = marks.waiting
    conflicted = marks.conflicted
    // A sub-issue shows in rows of its own under other parents: those redraw everything.
    guard changed.count <= 32, !changed.contains(where: model.subIssueNumbers.contains) else {
      list.setNeedsDisplay()
      return
    }
    for number in changed {
      if let item = model.item(number: number) { list.setNeedsDisplay(item: item) }
    }
  }

  /// Reads the queue's marks (after the person changed the queue, or to start again).
  func readQueue() {
    let marks = read("the queue") {
      QueueMarks(waiting: try $0.queuedIssueNumbers(), conflicted: try $0.conflictedIssueNumbers())
    }
    if let marks { showQueue(marks) }
  }

  /// The row the list loaded for an item, if it did: what the list draws, without a read.
  func loadedRow(_ item: ListItem) -> CachedIssue? { rows[item] }

  /// Shows a row as this screen just wrote it in the cache, without reading it again: the
  /// next observed list, which this write makes, keeps it.
  func showWritten(_ issue: CachedIssue) {
    guard rows[.issue(issue.key)] != nil else { return }
    rows[.issue(issue.key)] = issue
    written.insert(issue.key)
    previews.forget([issue.key])
  }

  /// Forgets the loaded rows and previews of these issues (all of them when `nil`); sub-issue
  /// rows, named by number, are read again with them; those in `keeping` stay.
  func forgetRows(_ keys: Set<IssueKey>?, keeping: Set<IssueKey> = []) {
    if let keys {
      for key in keys where !keeping.contains(key) { rows[.issue(key)] = nil }
      for item in rows.keys where item.key == nil { rows[item] = nil }
      previews.forget(keys)
    } else {
      rows.removeAll(keepingCapacity: true)
      previews.clear()
    }
  }

  /// The focused issue's preview lines at a width, rendered once per issue and width.
  func focusedPreview(width: Int) -> [StyledLine]? {
    guard let item = list.focusedItem else { return nil }
    return previews.lines(of: item, width: width) {
      read.issue(of: item).map {
        IssuePreview.lines(
          of: $0, width: width, milestones: model.milestones, labelColors: model.labelColors,
          now: now(), details: read.pullRequestDetails($0))
      }
    }
  }

  /// Renders, ahead of the focus, the previews of the rows just above and below it, so that the
  /// next ↑, ↓ or `x` draws its preview without reading the cache.
  func preparePreviews(width: Int) {
    guard let item = list.focusedItem, let path = list.dataSource.indexPath(for: item) else {
      return
    }
    for neighbour in [neighbour(of: path, by: 1), neighbour(of: path, by: -1)] {
      if let neighbour { preparePreview(of: neighbour, width: width) }
    }
    // The focused row's stays the most recently used.
    _ = focusedPreview(width: width)
  }

  /// Renders the preview of the row a chip's list most likely starts with: the one Enter on the
  /// focused chip shows.
  func preparePreview(firstUnder chip: MilestoneFilter, width: Int) {
    // Asked after every frame, ticks included: the list is scanned again only for another chip,
    // or once the preview found last was forgotten (its issue changed, or others replaced it).
    if let last = chipPrediction, last.chip == chip, previews.contains(last.item, width: width) {
      return
    }
    guard let item = model.likelyFirstItem(under: chip) else { return }
    chipPrediction = (chip, item)
    preparePreview(of: item, width: width)
    _ = focusedPreview(width: width)
  }

  /// The longest body rendered ahead of the focus: a longer one (a pasted log, a dump from the
  /// network) is rendered only if the focus reaches it, so that the next key never waits for
  /// the Markdown of a row the person may not visit.
  static let longestBodyAhead = 64 * 1024

  private func preparePreview(of item: ListItem, width: Int) {
    guard !previews.contains(item, width: width), let issue = read.issue(of: item),
      (issue.body?.utf8.count ?? 0) <= Self.longestBodyAhead
    else { return }
    previews.remember(
      item, width: width,
      lines: IssuePreview.lines(
        of: issue, width: width, milestones: model.milestones, labelColors: model.labelColors,
        now: now(), details: read.pullRequestDetails(issue)))
  }

  /// The row `step` rows from `path`, across section boundaries.
  private func neighbour(of path: Trellis.IndexPath, by step: Int) -> ListItem? {
    let source = list.dataSource
    var section = path.section
    var item = path.item + step
    while section >= 0 && section < source.numberOfSections {
      let count = source.numberOfItems(inSection: section)
      if item >= 0 && item < count {
        return source.itemIdentifier(for: Trellis.IndexPath(item: item, section: section))
      }
      section += step
      guard section >= 0 && section < source.numberOfSections else { return nil }
      item = step > 0 ? 0 : source.numberOfItems(inSection: section) - 1
    }
    return nil
  }

  /// The section of the focused row.
  var focusedSection: ListSection? {
    guard let focused = list.focusedItem, let path = list.dataSource.indexPath(for: focused)
    else { return nil }
    return list.dataSource.sectionIdentifier(for: path.section)
  }

  /// Records the row the person acted on (the focus follows it), with its issue's number.
  func follow(_ item: ListItem, number: Int) {
    model.acted = ActedOnRow(item: item, number: number)
  }

  /// Forgets the row acted on: the person moved the focus.
  func unfollow() { model.acted = nil }

  /// Says why the list could not be read, in its place.
  func fail(_ error: Error) { model.loadError = "Could not read the cache: \(error)" }

  /// The list can be read again: its placeholder no longer says it could not.
  func clearFailure() { model.loadError = nil }
}
