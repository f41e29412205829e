import Foundation
import GitHubIssues
import Testing

/// The README's list of qualifiers is the table the parser reads, so the two cannot drift.
@Suite struct SearchLanguageReadmeTests {
  @Test func theReadmeListIsTheQualifierTable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("README.md")
    let readme = try String(contentsOf: url, encoding: .utf8)
    let begin = try #require(readme.range(of: "<!-- search:begin -->\n"))
    let end = try #require(
      readme.range(of: "<!-- search:end -->", range: begin.upperBound..<readme.endIndex))
    let listed = String(readme[begin.upperBound..<end.lowerBound])
    let generated = SearchQualifier.markdownTable
    if listed != generated {
      if ProcessInfo.processInfo.environment["TRELLIS_UPDATE_README"] == "1" {
        try (readme[..<begin.upperBound] + generated + readme[end.lowerBound...])
          .write(to: url, atomically: true, encoding: .utf8)
      } else {
        print(
          "README's qualifier list is stale (TRELLIS_UPDATE_README=1 rewrites it):\n\(generated)")
      }
    }
    #expect(listed == generated)
  }
}
