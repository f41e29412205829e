import Foundation
import GitHubIssues
import Trellis
import TrellisTerminal

/// The issue list's data as a value: the milestones and labels, what each chip counts, the
/// entries the observed filter selects, and how they fall into sections and sub-issue trees.
///
/// Everything here is computed from the cache's answers and the filter, without a view, so the
/// rules (which section an issue goes in, the order of sections, what a header says, how a
/// sync's changes edit the list) are tested the way ``BrowserState`` is. ``IssueListPane``
/// applies what it computes to the chip and list views.
struct ListModel {
  /// The milestones by number, and in chip order: open ones by due date, then closed ones.
  var milestones: [Int: GitHubMilestone] = [:]
  var milestoneOrder: [GitHubMilestone] = []
  /// The labels as last read, their names in order, and their colors by name.
  var labels: [GitHubLabel] = []
  var labelNames: [String] = []
  var labelColors: [String: Color] = [:]
  /// What each chip counts, the chips in order, and the position of each.
  var chipCounts: [MilestoneFilter: Int] = [:]
  var chipOrder: [MilestoneFilter] = []
  var chipIndex: [MilestoneFilter: Int] = [:]
  /// The list the observed filter selects in every milestone, as last read or observed: chip
  /// counts come from it, and the list is it filtered by the selected chip.
  var entries: [IssueListEntry] = []
  /// Sections a person collapsed, shown as their header alone; kept in the cache.
  var collapsedSections: Set<ListSection> = []
  /// The sub-issues of every issue that has some, by parent number.
  var subIssues: [Int: [Int]] = [:] {
    didSet { subIssueNumbers = Set(subIssues.values.joined()) }
  }
  /// Every issue some issue lists as a sub-issue: a change of one may move it in a tree.
  private(set) var subIssueNumbers: Set<Int> = []
  /// Parents whose sub-issues a person opened.
  var expandedParents: Set<Int> = []
  /// The sections in which sub-issues nest under their parents, as trees.
  var sectionTrees: [ListSection: SectionSnapshot<ListItem>] = [:]
  /// Sections with sub-issues nested in them whose trees are not built yet.
  ///
  /// They keep their entries as the snapshot had them: no parent in them is open, so their rows
  /// are the trees' top level, found without building a tree. ``ensureTree(of:)`` builds one the
  /// first time it is needed (a row of it drawn, an edit placed in it, a parent opened).
  var unbuiltTrees: [ListSection: [IssueListEntry]] = [:]
  /// Whether sub-issues nest anywhere in the list, in trees built or not.
  var hasTrees: Bool { !sectionTrees.isEmpty || !unbuiltTrees.isEmpty }
  /// The numbers of the parents and sub-issues listed, by key, and their keys by number:
  /// sub-issue lists name issues by number, the list's rows by key.
  var treeNumbers: [IssueKey: Int] = [:]
  var treeKeys: [Int: IssueKey] = [:]
  /// The item count of each section, for the headers, and of the whole list.
  var sectionCounts: [ListSection: Int] = [:]
  var totalShown = 0
  /// How many columns the issue numbers take.
  var numberWidth = 4
  /// Why the cache could not be read, shown in place of the list.
  var loadError: String?
  /// The row the person last acted on from the list, until they move the focus: the focus
  /// follows it through the optimistic change, the re-sort, GitHub's answer and a rollback.
  var actedOn: ListItem? { acted?.item }
  /// The row acted on with its issue's number, known when the action was planned: a message
  /// about a row that left the list names it without reading it again.
  var acted: ActedOnRow?

  // MARK: Milestones and labels

  /// Takes milestones (in chip order) and labels read from the cache.
  mutating func useMetadata(milestones order: [GitHubMilestone], labels: [GitHubLabel]) {
    milestoneOrder = order
    milestones = Dictionary(order.map { ($0.number, $0) }) { first, _ in first }
    self.labels = labels
    labelNames = labels.map(\.name)
    labelColors = Dictionary(
      labels.compactMap { label in label.color.flatMap(Color.init(hex:)).map { (label.name, $0) } }
    ) { first, _ in first }
  }

  /// Whether milestones or labels differ from those in use.
  func metadataDiffers(milestones: [GitHubMilestone], labels: [GitHubLabel]) -> Bool {
    milestones != milestoneOrder || labels != self.labels
  }

  /// A chip's title: "All", "No milestone", or its milestone's.
  func title(of chip: MilestoneFilter) -> String {
    switch chip {
    case .all: "All"
    case .withMilestone: "Any milestone"
    case .withoutMilestone: "No milestone"
    case .number(let number): milestones[number]?.title ?? "Milestone \(number)"
    }
  }

  // MARK: Chips

  /// How many entries each chip selects, from the counts of a list across every milestone.
  static func chipCounts(_ counts: EntryCounts) -> [MilestoneFilter: Int] {
    var chips: [MilestoneFilter: Int] = [.all: counts.all, .withoutMilestone: counts.noMilestone]
    for (number, count) in counts.byMilestone { chips[.number(number)] = count }
    return chips
  }

  /// Takes the chips' counts: "All", "No milestone", then every milestone in chip order.
  mutating func useChips(counts: [MilestoneFilter: Int]) {
    var order: [MilestoneFilter] = [.all, .withoutMilestone]
    order += milestoneOrder.map { .number($0.number) }
    chipCounts = Dictionary(uniqueKeysWithValues: order.map { ($0, counts[$0] ?? 0) })
    if order != chipOrder {
      chipOrder = order
      chipIndex = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    }
  }

  /// Under "All" the sections are the milestones: their counts are the chips'.
  var sectionCountsFromChips: [ListSection: Int] {
    Dictionary(
      uniqueKeysWithValues: chipCounts.compactMap { chip, count in
        switch chip {
        case .all, .withMilestone: nil
        case .withoutMilestone: count > 0 ? (ListSection.noMilestone, count) : nil
        case .number(let number): count > 0 ? (.milestone(number: number), count) : nil
        }
      })
  }

  // MARK: Sections

  /// The section an entry is listed in: its milestone when the chip spans milestones, its state
  /// when it selects one (or none).
  static func section(of entry: IssueListEntry, under chip: MilestoneFilter) -> ListSection {
    switch chip {
    case .all, .withMilestone:
      entry.milestoneNumber.map { .milestone(number: $0) } ?? .noMilestone
    case .withoutMilestone, .number: entry.isOpen ? .open : .closed
    }
  }

  /// The entries a chip shows, in order.
  func entries(under chip: MilestoneFilter) -> [IssueListEntry] {
    chip == .all ? entries : entries.filter { chip.matches(milestoneNumber: $0.milestoneNumber) }
  }

  /// The row a chip's list most likely starts with, to render its preview before the chip is
  /// chosen: the first entry of its first section that is not collapsed (a sub-issue tree may
  /// put another row first).
  func likelyFirstItem(under chip: MilestoneFilter) -> ListItem? {
    var best: (rank: (Int, Int), entry: IssueListEntry)?
    for entry in entries where chip.matches(milestoneNumber: entry.milestoneNumber) {
      let section = Self.section(of: entry, under: chip)
      guard !collapsedSections.contains(section) else { continue }
      let rank = rank(of: section)
      if best.map({ rank < $0.rank }) ?? true { best = (rank, entry) }
      // Nothing ranks before the first section.
      if rank == (0, 0) { break }
    }
    return best.map { .issue($0.entry.key) }
  }

  /// The order of sections: milestones in chip order, then milestones the cache does not list
  /// (deleted since) by number, then no milestone; or open, then closed.
  func rank(of section: ListSection) -> (Int, Int) {
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
  func sectioned(_ entries: [IssueListEntry], under chip: MilestoneFilter) -> [(
    ListSection, [IssueListEntry]
  )] {
    var sections: [ListSection] = []
    var buckets: [[IssueListEntry]] = []
    // The bucket of each section, found without hashing for all but the odd entry (a list of
    // 100,000 is grouped on every chip chosen): states and small milestone numbers index
    // tables, anything else a dictionary.
    var byNumber: [Int32] = []
    var byState: (open: Int32, closed: Int32, none: Int32) = (-1, -1, -1)
    var others: [ListSection: Int] = [:]
    func newBucket(_ section: ListSection) -> Int32 {
      sections.append(section)
      buckets.append([])
      return Int32(buckets.count - 1)
    }
    for entry in entries {
      let bucket: Int
      switch Self.section(of: entry, under: chip) {
      case .milestone(let number) where (0..<Self.milestoneTableSize).contains(number):
        if number >= byNumber.count {
          byNumber += repeatElement(-1, count: number + 1 - byNumber.count)
        }
        if byNumber[number] < 0 { byNumber[number] = newBucket(.milestone(number: number)) }
        bucket = Int(byNumber[number])
      case .open:
        if byState.open < 0 { byState.open = newBucket(.open) }
        bucket = Int(byState.open)
      case .closed:
        if byState.closed < 0 { byState.closed = newBucket(.closed) }
        bucket = Int(byState.closed)
      case .noMilestone:
        if byState.none < 0 { byState.none = newBucket(.noMilestone) }
        bucket = Int(byState.none)
      case let section:
        if let known = others[section] {
          bucket = known
        } else {
          bucket = Int(newBucket(section))
          others[section] = bucket
        }
      }
      buckets[bucket].append(entry)
    }
    return zip(sections, buckets).sorted { rank(of: $0.0) < rank(of: $1.0) }
  }

  /// Milestone numbers below this are grouped through a table rather than a dictionary.
  private static let milestoneTableSize = 1 << 16

  /// The list's snapshot for the entries a chip shows.
  ///
  /// Sections come in order, sub-issues nested under their parents, collapsed sections empty
  /// under their header. The counts, the number width and the trees the rows and headers are
  /// drawn with are kept.
  mutating func snapshot(of entries: [IssueListEntry], under chip: MilestoneFilter) -> Snapshot<
    ListSection, ListItem
  > {
    let sections = sectioned(entries, under: chip)
    sectionCounts = Dictionary(uniqueKeysWithValues: sections.map { ($0.0, $0.1.count) })
    totalShown = entries.count
    numberWidth = max(3, String(entries.map(\.number).max() ?? 0).count)
    sectionTrees = [:]
    unbuiltTrees = [:]
    treeNumbers = [:]
    treeKeys = [:]
    if !subIssues.isEmpty {
      for entry in entries where isInTree(entry.number) {
        treeNumbers[entry.key] = entry.number
        treeKeys[entry.number] = entry.key
      }
    }
    return Snapshot(
      sections: sections.map { section, items in
        // A collapsed section shows no row; opening it builds its tree.
        guard !collapsedSections.contains(section) else { return (section, []) }
        guard let shape = treeShape(of: items) else {
          return (section, items.map { ListItem.issue($0.key) })
        }
        if shape.parents.contains(where: { expandedParents.contains($0.number) }) {
          let tree = tree(of: items, shape: shape)
          sectionTrees[section] = tree
          return (section, tree.visibleItems)
        }
        // Every parent closed: the rows are those not nested under another.
        unbuiltTrees[section] = items
        return (
          section,
          items.lazy.filter { shape.parentOf[$0.number] == nil }.map { ListItem.issue($0.key) }
        )
      })
  }

  /// Whether an issue is a parent or a sub-issue: only those have a place in a tree that is not
  /// at its top level, or a disclosure marker.
  func isInTree(_ number: Int) -> Bool {
    subIssues[number] != nil || subIssueNumbers.contains(number)
  }

  /// Builds a section's tree if it was left for later (see ``unbuiltTrees``).
  mutating func ensureTree(of section: ListSection) {
    guard let items = unbuiltTrees.removeValue(forKey: section) else { return }
    if let tree = tree(of: items) { sectionTrees[section] = tree }
  }

  /// Builds every tree left for later.
  mutating func ensureAllTrees() {
    for section in Array(unbuiltTrees.keys) { ensureTree(of: section) }
  }

  /// The items of one section under a chip, in order (to expand it).
  func items(of section: ListSection, under chip: MilestoneFilter) -> [IssueListEntry] {
    entries(under: chip).filter { Self.section(of: $0, under: chip) == section }
  }

  /// The number of the issue a row shows, while the list holds it.
  ///
  /// - Complexity: O(1) for a sub-issue row or a row of a tree, O(*n*) otherwise (a key press,
  ///   not a drawn row, asks).
  func number(of item: ListItem) -> Int? {
    switch item {
    case .subIssue(let number, _): return number
    case .issue(let key):
      if let number = treeNumbers[key] { return number }
      return entries.first { $0.key == key }?.number
    }
  }

  /// The row of an issue by number, while the list holds it (see ``number(of:)``).
  func item(number: Int) -> ListItem? {
    if let key = treeKeys[number] { return .issue(key) }
    return entries.first { $0.number == number }.map { .issue($0.key) }
  }

  /// A section's header: its title and count, marked when collapsed.
  func header(of section: ListSection, state: IssueStateFilter) -> SectionHeaderCell {
    let count = sectionCounts[section] ?? 0
    var header: SectionHeaderCell
    switch section {
    case .milestone(let number):
      let milestone = milestones[number]
      var detail =
        "\(count) \(state == .all ? "" : state.name + " ")issue\(count == 1 ? "" : "s")"
      if let due = milestone?.dueOn { detail += " · due \(LocalTime.day(due))" }
      if milestone?.state == .closed { detail += " · closed" }
      header = SectionHeaderCell(title: milestone?.title ?? "Milestone \(number)", detail: detail)
    case .noMilestone: header = SectionHeaderCell(title: "No milestone", detail: "\(count)")
    case .open: header = SectionHeaderCell(title: "Open", detail: "\(count)")
    case .closed: header = SectionHeaderCell(title: "Closed", detail: "\(count)")
    }
    if collapsedSections.contains(section) {
      header.title = "▸ " + header.title
      header.detail += " · collapsed (z: expand all, or click)"
    }
    return header
  }

  /// Where a section of the list is said to be, for a message: "in 1.0", "among the open".
  func whereabouts(of section: ListSection) -> String {
    switch section {
    case .milestone(let number): "in \(milestones[number]?.title ?? "milestone \(number)")"
    case .noMilestone: "without a milestone"
    case .open: "among the open"
    case .closed: "among the closed"
    }
  }

  /// The milestone an issue is in, by title, for a sub-issue row shown away from its place.
  func milestoneName(of issue: CachedIssue) -> String {
    guard let number = issue.milestoneNumber else { return "no milestone" }
    return milestones[number]?.title ?? "milestone \(number)"
  }

  // MARK: Collapsed sections, as the cache keeps them

  /// The key a section is remembered by in the cache.
  static func storageKey(of section: ListSection) -> String {
    switch section {
    case .milestone(let number): "milestone:\(number)"
    case .noMilestone: "no-milestone"
    case .open: "open"
    case .closed: "closed"
    }
  }

  /// The sections stored keys name; keys this version does not know are skipped.
  static func sections(fromStorageKeys keys: some Sequence<String>) -> Set<ListSection> {
    Set(
      keys.compactMap { key in
        switch key {
        case "no-milestone": .noMilestone
        case "open": .open
        case "closed": .closed
        default:
          key.hasPrefix("milestone:")
            ? Int(key.dropFirst("milestone:".count)).map { .milestone(number: $0) } : nil
        }
      })
  }
}

/// The row a person acted on, and its issue's number.
struct ActedOnRow: Equatable {
  var item: ListItem
  var number: Int
}
