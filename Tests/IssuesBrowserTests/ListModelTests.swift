import Foundation
import GitHubIssues
@testable import IssuesBrowser
import Testing
import Trellis
import TrellisTestSupport

/// The list's value model: sections, their order, and a sync's changes applied item by item,
/// without a view or a cache.
@Suite struct ListModelTests {
  static let milestones = (1...4).map {
    GitHubMilestone(id: Int64($0), number: $0, title: "M\($0)", state: $0 == 4 ? .closed : .open)
  }

  static func model() -> ListModel {
    var model = ListModel()
    model.useMetadata(milestones: milestones, labels: [])
    model.useChips(counts: [:])
    return model
  }

  @Test func sectionsFollowTheChip() {
    let entry = IssueListEntry(
      key: IssueKey(rawValue: Int64(7)), number: 7, milestoneNumber: 2, isOpen: false)
    #expect(ListModel.section(of: entry, under: .all) == .milestone(number: 2))
    #expect(ListModel.section(of: entry, under: .number(2)) == .closed)
    let loose = IssueListEntry(
      key: IssueKey(rawValue: Int64(8)), number: 8, milestoneNumber: nil, isOpen: true)
    #expect(ListModel.section(of: loose, under: .all) == .noMilestone)
    #expect(ListModel.section(of: loose, under: .withoutMilestone) == .open)
  }

  @Test func sectionsComeInChipOrderThenUnknownMilestonesThenNone() {
    let model = Self.model()
    let entries = [
      IssueListEntry(
        key: IssueKey(rawValue: Int64(1)), number: 1, milestoneNumber: nil, isOpen: true),
      IssueListEntry(
        key: IssueKey(rawValue: Int64(2)), number: 2, milestoneNumber: 9, isOpen: true),
      IssueListEntry(
        key: IssueKey(rawValue: Int64(3)), number: 3, milestoneNumber: 3, isOpen: true),
      IssueListEntry(
        key: IssueKey(rawValue: Int64(4)), number: 4, milestoneNumber: 1, isOpen: true),
      IssueListEntry(
        key: IssueKey(rawValue: Int64(5)), number: 5, milestoneNumber: 3, isOpen: true),
    ]
    let sections = model.sectioned(entries, under: .all)
    #expect(
      sections.map(\.0) == [
        .milestone(number: 1), .milestone(number: 3), .milestone(number: 9), .noMilestone,
      ])
    #expect(sections[1].1.map(\.number) == [3, 5], "each section keeps the entries' order")
  }

  /// Grouping and counting go through tables for states and small milestone numbers: random
  /// lists (numbers in the table, past it, negative, none) group and count as a dictionary
  /// would.
  @Test func sectionsGroupAsADictionaryWould() {
    let seed: UInt64 = 0x5EC7_1075
    print("ListModelTests sections seed \(seed)")
    var rng = SplitMix64(seed: seed)
    let model = Self.model()
    let numbers: [Int?] = [nil, 1, 2, 3, 4, 9, 70_000, -3, 65_535, 65_536]
    for _ in 0..<200 {
      let entries = (0..<Int.random(in: 0...60, using: &rng)).map { index in
        IssueListEntry(
          key: IssueKey(rawValue: Int64(index)), number: index,
          milestoneNumber: numbers.randomElement(using: &rng)!, isOpen: Bool.random(using: &rng))
      }
      var counted = EntryCounts()
      for entry in entries { counted.add(entry) }
      #expect(EntryCounts(entries) == counted, "counted in one pass as one by one")
      for chip in [MilestoneFilter.all, .withMilestone, .withoutMilestone, .number(3)] {
        var expected: [ListSection: [Int]] = [:]
        for entry in entries {
          expected[ListModel.section(of: entry, under: chip), default: []].append(entry.number)
        }
        let sections = model.sectioned(entries, under: chip)
        #expect(
          sections.map(\.0)
            == expected.keys.sorted { model.rank(of: $0) < model.rank(of: $1) })
        #expect(
          Dictionary(uniqueKeysWithValues: sections.map { ($0.0, $0.1.map(\.number)) })
            == expected)
      }
    }
  }

  @Test func aCollapsedSectionShowsItsHeaderAloneAndSaysSo() {
    var model = Self.model()
    model.collapsedSections = [.milestone(number: 1)]
    let entries = [1, 2, 3].map {
      IssueListEntry(
        key: IssueKey(rawValue: Int64($0)), number: $0, milestoneNumber: 1, isOpen: true)
    }
    let snapshot = model.snapshot(of: entries, under: .all)
    #expect(snapshot.sectionIdentifiers == [.milestone(number: 1)])
    #expect(snapshot.numberOfItems == 0)
    let header = model.header(of: .milestone(number: 1), state: .open)
    #expect(header.title == "▸ M1")
    #expect(header.detail.hasPrefix("3 open issues"))
  }

  @Test func storageKeysRoundTripAndUnknownOnesAreSkipped() {
    let sections: Set<ListSection> = [.milestone(number: 12), .noMilestone, .open, .closed]
    let keys = sections.map(ListModel.storageKey(of:)) + ["milestone:x", "future-kind"]
    #expect(ListModel.sections(fromStorageKeys: keys) == sections)
  }

  /// A sync's changes applied item by item give the snapshot that building the list anew gives:
  /// random lists, random edits (moves within and across milestones, additions, removals),
  /// under every kind of chip.
  @Test func editingTheSnapshotMatchesRebuildingIt() {
    let seed: UInt64 = 0x7E11_15
    print("ListModelTests.editingTheSnapshotMatchesRebuildingIt seed: \(seed)")
    var rng = SplitMix64(seed: seed)
    let chips: [MilestoneFilter] = [.all, .withoutMilestone, .number(2)]
    for round in 0..<300 {
      let chip = chips[round % chips.count]
      var entries = (1...Int.random(in: 1...40, using: &rng)).map {
        Self.randomEntry($0, using: &rng)
      }
      var model = Self.model()
      if Bool.random(using: &rng) { model.collapsedSections = [.milestone(number: 3), .closed] }
      let before = entries.filter { chip.matches(milestoneNumber: $0.milestoneNumber) }
      var snapshot = model.snapshot(of: before, under: chip)
      let changed = Self.randomEdit(of: &entries, edits: 1...6, numbers: 1...50, using: &rng)
      let after = entries.filter { chip.matches(milestoneNumber: $0.milestoneNumber) }
      _ = model.edit(
        &snapshot, changed: Set(changed.map { IssueKey(rawValue: Int64($0)) }), shown: after,
        under: chip, sectionCounts: nil)
      var fresh = Self.model()
      fresh.collapsedSections = model.collapsedSections
      let expected = fresh.snapshot(of: after, under: chip)
      #expect(
        snapshot.sectionIdentifiers == expected.sectionIdentifiers, "round \(round), seed \(seed)")
      #expect(snapshot.itemIdentifiers == expected.itemIdentifiers, "round \(round), seed \(seed)")
      #expect(model.sectionCounts == fresh.sectionCounts, "round \(round), seed \(seed)")
      #expect(model.totalShown == after.count)
    }
  }

  /// With sub-issue trees, items that are neither parents nor sub-issues are edited in place,
  /// in the list and at the top level of the trees, to what a rebuild gives.
  @Test func editingAroundTreesMatchesRebuildingThem() {
    let seed: UInt64 = 0x7_2EE5
    print("ListModelTests.editingAroundTreesMatchesRebuildingThem seed: \(seed)")
    var rng = SplitMix64(seed: seed)
    // Parents 1–5, their sub-issues 6–15; 16–50 are plain.
    let relations = Dictionary(uniqueKeysWithValues: (1...5).map { ($0, [$0 + 5, $0 + 10]) })
    let chips: [MilestoneFilter] = [.all, .withoutMilestone, .number(2)]
    var edited = 0
    for round in 0..<300 {
      let chip = chips[round % chips.count]
      var entries = (1...50).filter { _ in Int.random(in: 0..<4, using: &rng) > 0 }.map {
        Self.randomEntry($0, using: &rng)
      }
      entries.shuffle(using: &rng)
      var model = Self.model()
      model.subIssues = relations
      model.expandedParents = Set((1...5).filter { _ in Bool.random(using: &rng) })
      if Bool.random(using: &rng) { model.collapsedSections = [.milestone(number: 3)] }
      let before = entries.filter { chip.matches(milestoneNumber: $0.milestoneNumber) }
      model.entries = entries
      var snapshot = model.snapshot(of: before, under: chip)
      let changed = Self.randomEdit(of: &entries, edits: 1...4, numbers: 16...50, using: &rng)
      let keys = Set(changed.map { IssueKey(rawValue: Int64($0)) })
      model.entries = entries
      #expect(model.treesTakeEdits(of: keys), "round \(round), seed \(seed)")
      // A listed parent or sub-issue among the changes rebuilds instead.
      if model.hasTrees, let nested = entries.first(where: { $0.number <= 15 }) {
        let refused = !model.treesTakeEdits(of: keys.union([nested.key]))
        #expect(refused, "round \(round)")
      }
      let after = entries.filter { chip.matches(milestoneNumber: $0.milestoneNumber) }
      _ = model.edit(&snapshot, changed: keys, shown: after, under: chip, sectionCounts: nil)
      var fresh = Self.model()
      fresh.subIssues = relations
      fresh.expandedParents = model.expandedParents
      fresh.collapsedSections = model.collapsedSections
      let expected = fresh.snapshot(of: after, under: chip)
      if fresh.hasTrees { edited += 1 }
      // Trees left for later are built as they would be when drawn.
      model.ensureAllTrees()
      fresh.ensureAllTrees()
      #expect(
        snapshot.sectionIdentifiers == expected.sectionIdentifiers, "round \(round), seed \(seed)")
      #expect(snapshot.itemIdentifiers == expected.itemIdentifiers, "round \(round), seed \(seed)")
      #expect(
        model.sectionTrees.mapValues(\.visibleItems)
          == fresh.sectionTrees.mapValues(\.visibleItems),
        "round \(round), seed \(seed)")
      #expect(
        model.sectionTrees.mapValues(\.items) == fresh.sectionTrees.mapValues(\.items),
        "round \(round), seed \(seed)")
      #expect(model.treeNumbers == fresh.treeNumbers, "round \(round), seed \(seed)")
      #expect(model.sectionCounts == fresh.sectionCounts, "round \(round), seed \(seed)")
    }
    #expect(edited > 100, "most rounds edit around a tree")
  }

  /// Property: a section whose tree is left for later shows the rows its tree shows once
  /// built, and the trees built later are those built at once.
  @Test func treesLeftForLaterShowWhatTheirTreesShow() {
    let seed: UInt64 = 0x1A2_7EE5
    print("ListModelTests.treesLeftForLaterShowWhatTheirTreesShow seed: \(seed)")
    var rng = SplitMix64(seed: seed)
    var leftForLater = 0
    for round in 0..<200 {
      // Parents 1–8 with two or three sub-issues among 9–40, some of them parents themselves.
      var relations: [Int: [Int]] = [:]
      for parent in 1...8 {
        relations[parent] = (0..<Int.random(in: 2...3, using: &rng)).map { _ in
          Int.random(in: 2...40, using: &rng)
        }
      }
      var entries = (1...40).filter { _ in Int.random(in: 0..<5, using: &rng) > 0 }.map {
        Self.randomEntry($0, using: &rng)
      }
      entries.shuffle(using: &rng)
      var model = Self.model()
      model.subIssues = relations
      model.expandedParents = Set((1...8).filter { _ in Int.random(in: 0..<4, using: &rng) == 0 })
      model.entries = entries
      let snapshot = model.snapshot(of: entries, under: .all)
      for (section, _) in model.unbuiltTrees {
        leftForLater += 1
        let shown = snapshot.itemIdentifiers(inSection: section)
        model.ensureTree(of: section)
        let tree = model.sectionTrees[section]
        #expect(tree?.visibleItems == shown, "round \(round), seed \(seed), \(section)")
      }
      #expect(model.unbuiltTrees.isEmpty)
      // Built at once, with every tree wanted.
      var eager = Self.model()
      eager.subIssues = relations
      eager.expandedParents = model.expandedParents
      eager.entries = entries
      for (section, items) in eager.sectioned(entries, under: .all) {
        #expect(
          eager.tree(of: items) == model.sectionTrees[section],
          "round \(round), seed \(seed), \(section)")
      }
    }
    #expect(leftForLater > 100, "most rounds leave trees for later")
  }

  /// An edit as a sync brings one: some entries change milestone or state, some leave, some
  /// arrive, and the order shuffles a little (as a re-sort by update time would).
  ///
  /// - Returns: The numbers changed.
  static func randomEdit(
    of entries: inout [IssueListEntry], edits: ClosedRange<Int>, numbers: ClosedRange<Int>,
    using rng: inout SplitMix64
  ) -> Set<Int> {
    var changed: Set<Int> = []
    for _ in 0..<Int.random(in: edits, using: &rng) {
      let number = Int.random(in: numbers, using: &rng)
      changed.insert(number)
      entries.removeAll { $0.number == number }
      if Int.random(in: 0..<4, using: &rng) > 0 {
        let at = Int.random(in: 0...entries.count, using: &rng)
        entries.insert(Self.randomEntry(number, using: &rng), at: at)
      }
    }
    return changed
  }

  static func randomEntry(_ number: Int, using rng: inout SplitMix64) -> IssueListEntry {
    let milestone = Int.random(in: 0...4, using: &rng)
    return IssueListEntry(
      key: IssueKey(rawValue: Int64(number)), number: number,
      milestoneNumber: milestone == 0 ? nil : milestone,
      isOpen: Bool.random(using: &rng))
  }
}
