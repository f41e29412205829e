import Foundation
import GitHubIssues
import IssuesBrowser
import Testing
import TrellisTerminal
import TrellisTestSupport

@Suite struct IssueTableTests {
  private func issues() throws -> ([CachedIssue], [Int: GitHubMilestone]) {
    let cache = try IssueCache()
    try cache.apply(BundledDataset.load())
    let milestones = Dictionary(try cache.milestones().map { ($0.number, $0) }) { a, _ in a }
    return (try cache.issues(IssueFilter(state: .all)), milestones)
  }

  /// Property: at any width from 50 to 200 columns, every line fits and the columns line up.
  @Test func everyLineFitsTheTerminal() throws {
    let (issues, milestones) = try issues()
    let seed: UInt64 = 11
    var rng = SplitMix64(seed: seed)
    for _ in 0..<40 {
      let width = Int.random(in: 50...200, using: &rng)
      let table = IssueTable.table(issues, milestones: milestones, width: width, now: Date())
      let lines = table.split(separator: "\n").map(String.init)
      #expect(lines.count == issues.count + 1)
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "seed \(seed), width \(width)")
      #expect(lines[0].hasPrefix("NUMBER  TITLE"))
      // The title column starts at the same display column on every line.
      let titleColumn = DisplayWidth.of(String(lines[0].prefix { $0 != "T" }))
      #expect(
        lines.dropFirst().allSatisfy { line in
          DisplayWidth.of(String(line.prefix(titleColumn))) == titleColumn
        })
    }
  }

  @Test func jsonHasTheFieldsScriptsNeed() throws {
    let (issues, milestones) = try issues()
    let json = try IssueTable.json(Array(issues.prefix(3)), milestones: milestones)
    let decoded = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    #expect(decoded.count == 3)
    #expect(
      Set(decoded[0].keys).isSuperset(of: [
        "number", "title", "state", "labels", "updatedAt", "url",
      ]))
  }

  @Test func tabSeparatedHasOneLinePerIssue() throws {
    let (issues, milestones) = try issues()
    let tsv = IssueTable.tabSeparated(issues, milestones: milestones)
    #expect(tsv.split(separator: "\n").count == issues.count)
  }

  @Test func theProgressBarFitsItsWidth() {
    let line = ProgressLine.line(
      SyncProgress(phase: .issues, pages: 3, items: 300), expected: 600, width: 60)
    #expect(DisplayWidth.of(line) <= 60)
    #expect(line.contains("3 pages · 300 items"))
  }
}
