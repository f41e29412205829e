import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The dashboard screen: a tab per section with its count, and the focused section's items from
/// every repository it reads — everything but the terminal and the network, so tests drive it
/// directly.
///
/// Every section's answer is kept, so that switching tabs draws at once and every count is
/// current; when a cache changes (a sync anywhere, in this process or another), the host calls
/// ``refresh()`` and every section is asked again, the list moving through a staged update
/// with the focus kept on its item.
@MainActor
package final class DashboardBrowser: Screen {
  /// The repositories, read as one.
  package let dashboard: Dashboard
  /// The sections, their answers, the one shown, the message: the screen's state as a value.
  package internal(set) var model: DashboardModel
  /// The sections, in tab order.
  package var sections: [DashboardSection] { model.sections }
  /// The section shown.
  package var selected: Int { model.selected }
  /// Each section's items, in its order.
  package var answers: [[DashboardEntry]] { model.answers }
  /// What the title bar says beside the name: sync progress, or where the caches stand.
  package var status: String {
    get { model.status }
    set { model.status = newValue }
  }
  /// The screen size.
  package private(set) var size: TerminalSize
  /// The `?` overlay, while it is open.
  package var help: HelpOverlay? { model.help }
  /// The keys: the standard ones, or the person's.
  package var keys = DashboardKeys.standard
  let now: () -> Date
  /// The section tabs.
  let tabs: CollectionView<Int, Int>
  /// The focused section's items.
  let list: CollectionView<DashboardGroup, DashboardRow>
  private let rowCells = CellSource<DashboardRow>()
  private let tabCells = CellSource<Int>()
  let chipCells = CellSource<MilestoneFilter>()
  /// A section's milestone chips, when it reads one repository.
  let chips: CollectionView<Int, MilestoneFilter>
  /// Each repository's milestones, in the cache's order.
  var milestones: [Int: [GitHubMilestone]] = [:]
  /// Rows read from the caches, by repository and number; filled around what the list draws.
  private var rows: [DashboardRow: CachedIssue] = [:]
  private var labelColors: [Int: [String: Color]] = [:]

  /// A dashboard screen of `size`, answering every section at once.
  package init(
    dashboard: Dashboard, sections: [DashboardSection], size: TerminalSize,
    now: @escaping () -> Date = Date.init
  ) {
    self.dashboard = dashboard
    model = DashboardModel(sections: sections)
    self.size = size
    self.now = now
    let tabCells = tabCells
    tabs = CollectionView(layout: Self.tabLayout(), selection: .single()) { tabCells.make($0, $1) }
    let rowCells = rowCells
    list = CollectionView(layout: Self.listLayout(), selection: .none) { rowCells.make($0, $1) }
    list.navigationKeys = .standardAndVim
    tabs.navigationKeys = .standard
    let chipCells = chipCells
    chips = CollectionView(layout: Self.tabLayout(), selection: .single()) {
      chipCells.make($0, $1)
    }
    tabs.onSelect = { [weak self] index in self?.select(index) }
    chips.navigationKeys = .standard
    chips.onSelect = { [weak self] filter in self?.chooseChip(filter) }
    for (index, repository) in dashboard.repositories.enumerated() {
      milestones[index] = (try? repository.cache.milestones()) ?? []
      let labels = (try? repository.cache.labels()) ?? []
      labelColors[index] = Dictionary(
        labels.compactMap { label in label.color.flatMap(Color.init(hex:)).map { (label.name, $0) }
        }
      ) { first, _ in first }
    }
    place()
    // The section shown first; the others' counts on the first tick, so that the first frame
    // waits for one query, not one per section.
    answer(selected)
    showTabs()
    showChips()
    showList(focusFirst: false)
  }

  /// Reads one section's answer.
  private func answer(_ index: Int) {
    do {
      model.answer(index, with: try dashboard.entries(sections[index].query))
    } catch {
      show(message: "Could not read the caches: \(error)")
    }
  }

  static func tabLayout() -> CompositionalLayout {
    var section = LayoutSection.chips(height: 1, estimatedWidth: 12, spacing: 1)
    section.contentInsets = EdgeInsets(leading: 1, trailing: 1)
    return CompositionalLayout(section: section)
  }

  static func listLayout() -> CompositionalLayout {
    var section = LayoutSection.rows(height: 1)
    section.boundarySupplementaryItems = [.header(height: 1, pinned: true)]
    return CompositionalLayout(section: section)
  }

  /// How the section shown arranges its items.
  package var grouping: DashboardSection.Grouping { model.grouping }

  /// The item focused in the list.
  package var focusedRow: DashboardRow? { list.focusedItem }

  // MARK: Data

  /// Asks every section again (a cache changed), and shows the result: the counts in the tabs,
  /// the list by a staged update that keeps the focused item where it is.
  package func refresh() {
    for index in sections.indices { answer(index) }
    rows.removeAll(keepingCapacity: true)
    for (index, repository) in dashboard.repositories.enumerated() {
      milestones[index] = (try? repository.cache.milestones()) ?? milestones[index]
    }
    showTabs()
    showChips()
    showList(focusFirst: false)
    list.setNeedsDisplay()
  }

  /// Shows another section.
  package func select(_ index: Int) {
    guard sections.indices.contains(index), index != selected || list.focusedItem == nil else {
      return
    }
    model.select(index)
    if model.stale.contains(index) {
      answer(index)
      showTabs()
    }
    if tabs.selection.selectedIdentifiers != [index] { tabs.selection.select(index) }
    tabs.focus(index)
    showChips()
    showList(focusFirst: true)
  }

  private func showTabs() {
    let counts = model.tabCounts
    let titles = sections.map(\.title)
    tabCells.make = { _, index in
      ChipCell(title: titles[index], count: counts[index], isClosed: false)
    }
    tabs.measure = { indexPath, proposed in
      guard titles.indices.contains(indexPath.item) else { return proposed }
      return Size(
        width: Double(ChipCell.width(title: titles[indexPath.item], count: counts[indexPath.item])),
        height: 1)
    }
    var snapshot = Snapshot<Int, Int>(sections: [(0, Array(sections.indices))])
    snapshot.reconfigureItems(
      Array(sections.indices).filter { tabs.dataSource.indexPath(for: $0) != nil })
    tabs.layout = Self.tabLayout()
    tabs.dataSource.apply(snapshot)
    if tabs.selection.selectedIdentifiers != [selected] { tabs.selection.select(selected) }
    if tabs.focusedItem == nil { tabs.focus(selected) }
  }

  /// The list's snapshot for the section shown.
  func snapshot() -> Snapshot<DashboardGroup, DashboardRow> {
    model.snapshot(under: milestoneFilter)
  }

  func showList(focusFirst: Bool) {
    let snapshot = snapshot()
    let spans =
      Set(answers[selected].map(\.source)).count > 1
      || grouping == .none && dashboard.repositories.count > 1
    let names = dashboard.repositories.map { "\($0.source)" }
    let numberWidth =
      answers[selected].map { entry in
        (spans && grouping == .none ? names[entry.source].count : 0) + String(entry.number).count
      }.max() ?? 3
    let colors = labelColors
    let grouped = grouping == .repository
    rowCells.make = { [unowned self] indexPath, row in
      IssueRowCell(
        issue: self.row(row, at: indexPath), labelColors: colors[row.source] ?? [:],
        now: self.now(), numberWidth: max(3, numberWidth),
        repository: spans && !grouped ? names[row.source] : nil)
    }
    let counts = Dictionary(
      snapshot.sectionIdentifiers.map { ($0, snapshot.numberOfItems(inSection: $0)) }
    ) { a, _ in a }
    let query = sections[selected].query.text
    list.dataSource.supplementaryProvider = { _, _, group in
      switch group {
      case .all: SectionHeaderCell(title: "\(counts[group] ?? 0) items", detail: query)
      case .repository(let source):
        SectionHeaderCell(title: names[source], detail: "\(counts[group] ?? 0)")
      }
    }
    list.placeholder =
      snapshot.numberOfItems == 0
      ? .empty(
        "Nothing matches \(query)"
          + (dashboard.repositories.isEmpty ? " (no repository has been synced)" : "."))
      : nil
    if focusFirst || list.dataSource.snapshot().numberOfItems == 0 {
      list.dataSource.applySnapshotUsingReloadData(snapshot)
      list.setContentOffset(.zero)
      list.focus(snapshot.itemIdentifiers.first)
    } else {
      list.dataSource.apply(snapshot)
      if list.focusedItem == nil { list.focus(snapshot.itemIdentifiers.first) }
    }
  }

  /// A row from its cache, loading its neighbours in the list with it.
  private func row(_ row: DashboardRow, at indexPath: Trellis.IndexPath) -> CachedIssue {
    if let loaded = rows[row] { return loaded }
    let items = list.dataSource.snapshot().itemIdentifiers(inSectionAt: indexPath.section)
    let screen = max(20, list.frame.height)
    let start = max(0, indexPath.item - screen)
    let end = min(items.count, indexPath.item + 2 * screen)
    var bySource: [Int: [Int]] = [:]
    for item in items[start..<end] where rows[item] == nil {
      bySource[item.source, default: []].append(item.number)
    }
    if rows.count > 20_000 { rows.removeAll(keepingCapacity: true) }
    for (source, numbers) in bySource {
      guard let loaded = try? dashboard.repositories[source].cache.issues(numbers: numbers) else {
        continue
      }
      for issue in loaded { rows[DashboardRow(source: source, number: issue.number)] = issue }
    }
    return rows[row]
      ?? CachedIssue(
        key: IssueKey(rawValue: 0), id: 0, number: row.number, title: "(missing from the cache)",
        state: .open, author: "",
        milestoneNumber: nil, labels: [], comments: 0, createdAt: now(), updatedAt: now(),
        closedAt: nil, isPullRequest: false, htmlURL: nil, body: nil)
  }

  /// The focused item's issue, read from its cache.
  var focusedIssue: (DashboardSource, CachedIssue)? {
    guard let focused = list.focusedItem,
      let issue = try? dashboard.repositories[focused.source].cache.issue(number: focused.number)
    else { return nil }
    return (dashboard.repositories[focused.source].source, issue)
  }

  // MARK: Events

  /// Handles a key or the mouse, and returns what the host should do.
  package func handle(_ event: InputEvent) -> [DashboardEffect] {
    if var help {
      // The overlay takes every event but Ctrl-C; any other key closes it.
      if case .key(let key) = event, keys.command(for: key) == .interrupt {
        return [.interrupted]
      }
      model.help = help.handle(event, on: size) ? help : nil
      return []
    }
    switch event {
    case .key(let key):
      if let command = keys.command(for: key) { return perform(command) }
    case .mouse(let mouse):
      if tabs.frame.contains(x: mouse.x, y: mouse.y) {
        _ = tabs.handle(event)
      } else if chips.frame.height > 0, chips.frame.contains(x: mouse.x, y: mouse.y) {
        _ = chips.handle(event)
      } else {
        _ = list.handle(event)
      }
    case .paste, .focusGained, .focusLost: break
    }
    return []
  }

  /// Performs a command, whatever key sent it.
  package func perform(_ command: DashboardCommand) -> [DashboardEffect] {
    switch command {
    case .quit: return [.quit]
    case .interrupt: return [.interrupted]
    case .refresh: return [.refresh]
    case .nextSection: select(model.nextSection)
    case .previousSection: select(model.previousSection)
    case .section(let index):
      if sections.indices.contains(index) {
        select(index)
      } else {
        show(message: "There are \(sections.count) sections.")
      }
    case .moveInList(let move): list.moveFocus(move)
    case .showHelp: model.help = HelpOverlay(lines: DashboardKeys.helpLines(keys))
    case .previousMilestone: moveAlongChips(by: -1)
    case .nextMilestone: moveAlongChips(by: 1)
    case .toggleGrouping:
      model.toggleGrouping()
      showList(focusFirst: false)
      list.setNeedsDisplay()
    case .read:
      guard let (source, issue) = focusedIssue else { return [] }
      return [.read(source, issue.number)]
    case .openInBrowser:
      return focusedIssue.map { [.open(Self.url(of: $1, in: $0))] } ?? []
    case .copyNumber: return focusedIssue.map { [.copy("\($0.repository)#\($1.number)")] } ?? []
    case .copyURL: return focusedIssue.map { [.copy(Self.url(of: $1, in: $0))] } ?? []
    case .run(let command):
      guard let focused = list.focusedItem, let (source, issue) = focusedIssue else {
        show(message: "“\(command.title)” runs on an item: none is focused.")
        return []
      }
      let cache = dashboard.repositories[focused.source].cache
      let branch =
        issue.isPullRequest ? (try? cache.pullRequestDetails(number: issue.number))??.headRef : nil
      return [
        .run(
          CommandRun(
            command, host: source.host, repository: source.repository, number: issue.number,
            title: issue.title, url: Self.url(of: issue, in: source),
            isPullRequest: issue.isPullRequest, branch: branch))
      ]
    }
    return []
  }

  static func url(of issue: CachedIssue, in source: DashboardSource) -> String {
    issue.htmlURL
      ?? "https://\(source.host.name)/\(source.repository)/"
      + (issue.isPullRequest ? "pull" : "issues") + "/\(issue.number)"
  }

  /// Moves time on: expires the message, reads the sections still to be read.
  @discardableResult
  package func tick() -> [DashboardEffect] {
    model.tick(now: now())
    if !model.stale.isEmpty {
      for index in model.stale.sorted() { answer(index) }
      showTabs()
    }
    list.tick()
    return []
  }

  /// Shows a message on the status line for a few seconds.
  package func show(message text: String) {
    model.message = StatusMessage(text, now: now())
  }

  /// Adapts to a new terminal size.
  package func resize(_ size: TerminalSize) {
    self.size = size
    place()
  }

  func place() {
    tabs.frame = CellRect(x: 0, y: 1, width: size.columns, height: 1)
    let chipRows = chips.dataSource.snapshot().numberOfItems > 0 ? 1 : 0
    chips.frame = CellRect(x: 0, y: 2, width: size.columns, height: chipRows)
    list.frame = CellRect(
      x: 0, y: 2 + chipRows, width: size.columns, height: max(0, size.rows - 3 - chipRows))
  }

  // MARK: Drawing

  /// Draws the whole screen into a buffer of the screen's size.
  package func render(into screen: inout CellBuffer) {
    if screen.width != size.columns || screen.height != size.rows {
      screen = CellBuffer(width: size.columns, height: size.rows)
    }
    guard !ScreenBars.tooSmall(&screen, size: size, rows: 5, columns: 20) else { return }
    ScreenBars.title(
      &screen,
      name: "dashboard · \(dashboard.repositories.count) repositor"
        + (dashboard.repositories.count == 1 ? "y" : "ies"), status: status)
    tabs.render(into: &screen)
    if chips.frame.height > 0 { chips.render(into: &screen) }
    list.render(into: &screen)
    ScreenBars.statusLine(&screen, message: model.message, hints: keys.hints)
    help?.draw(into: &screen)
  }

  /// Where the accessible mode puts the terminal's cursor: the focused item, or the section's
  /// tab when the section is empty.
  package var cursorPosition: CellPoint? {
    if help != nil { return HelpOverlay.cursor }
    return list.focusedCell ?? tabs.focusedCell
  }

  /// The focus in words: the focused item and its repository, or the empty section.
  package var focusDescription: String? {
    if help != nil { return "the list of keys" }
    guard let (source, issue) = focusedIssue else {
      return "section \(sections[selected].title), empty"
    }
    return IssueBrowser.describe(issue) + ", in \(source.repository)"
  }

  /// A new frame of the screen.
  package func render() -> CellBuffer {
    var screen = CellBuffer(width: size.columns, height: size.rows)
    render(into: &screen)
    return screen
  }
}
