import Testing

@testable import Trellis

/// The diff's steps on their own: section matching and its stages, the windows between common
/// prefixes and suffixes, and the slots the lookup finds.
@Suite struct DiffStepTests {
  @Test func sectionsAreMatchedByIdentifierAndMovesAreOffTheLongestRun() {
    let source = ["a", "b", "c", "d"]
    let target = ["d", "a", "e", "c"]
    let matching = SectionMatching(
      sourceCount: source.count, targetSections: target,
      sourceSectionIndex: { source.firstIndex(of: $0) })
    #expect(matching.sourceToTarget == [1, -1, 3, 0])
    #expect(matching.targetToSource == [3, 0, -1, 2])
    let (deletes, changes) = matching.sectionStages()
    #expect(deletes.sectionDeletes == [1])
    #expect(changes.sectionInserts == [2])
    // After the delete: a 0, c 1, d 2. The run a, c stays; d moves to the front.
    #expect(changes.sectionMoves == [Move(source: 2, target: 0)])
  }

  @Test func windowsSkipTheCommonPrefixAndSuffixAndLieEndToEnd() {
    let sourceItems = [[1, 2, 3, 4, 5], [6, 7], [8]]
    let targetItems = [[1, 2, 9, 4, 5], [7, 6]]
    let matching = SectionMatching(
      sourceCount: 3, targetSections: [0, 1], sourceSectionIndex: { $0 })
    let windows = DiffWindows(
      sourceItems: sourceItems, targetItems: targetItems, matching: matching)
    #expect(windows.prefix == [2, 0, 0])
    #expect(windows.suffix == [2, 0, 0])
    #expect(windows.sourceWindows == [2..<3, 0..<2, 0..<0])
    #expect(windows.sourceWindowStart == [0, 1, 3, 3])
    #expect(windows.targetWindowStart == [0, 1, 3])
    #expect(windows.slotCount == 3)
    #expect((0..<3).map(windows.sourceSection(ofSlot:)) == [0, 1, 1])
  }

  @Test func theLookupFindsEachTargetItemsSlotAndMarksIt() {
    let sourceItems = [[1, 2, 3, 4, 5], [6, 7]]
    let targetItems = [[1, 2, 9, 4, 5], [7, 6, 3]]
    let matching = SectionMatching(
      sourceCount: 2, targetSections: [0, 1], sourceSectionIndex: { $0 })
    let windows = DiffWindows(
      sourceItems: sourceItems, targetItems: targetItems, matching: matching)
    let source = Snapshot(sections: [(0, sourceItems[0]), (1, sourceItems[1])])
    var locator = SnapshotItemLocator(source)
    locator.prepare(sourceItems: sourceItems, windows: windows.sourceWindows)
    let (slots, matched) = locateTargetItems(
      sourceItems: sourceItems, targetItems: targetItems, matching: matching, windows: windows,
      locator: &locator, targetHashes: nil)
    // Target windows: [9] in section 0; [7, 6, 3] in section 1. Source slots: 3 → 0, 6 → 1,
    // 7 → 2.
    #expect(slots == [-1, 2, 1, 0])
    #expect((0..<3).allSatisfy { matched.contains($0) })
  }
}
