import GitHubIssues
import Testing
import TrellisTestSupport

@Suite struct HelpTextTests {
  /// Property: wrapping keeps every word, in order, and no line passes the width unless one
  /// word alone does; each line carries the indent.
  @Test func wrappingKeepsEveryWordWithinTheWidth() {
    let seed: UInt64 = 76
    var random = SplitMix64(seed: seed)
    let words = [
      "a", "the", "milestone", "→", "sub-issues", "é", "👍🏽", String(repeating: "x", count: 90),
    ]
    for _ in 0..<500 {
      let text = (0..<Int.random(in: 0...60, using: &random)).map { _ in
        words.randomElement(using: &random)!
      }.joined(separator: " ")
      let indent = Int.random(in: 0...30, using: &random)
      let lines = HelpText.wrapped(text, indent: indent)
      let margin = String(repeating: " ", count: indent)
      #expect(lines.allSatisfy { $0.hasPrefix(margin) }, "seed \(seed): \(text)")
      let wrappedWords: [Substring] = lines.flatMap { $0.split(separator: " ") }
      let textWords: [Substring] = text.split(separator: " ")
      #expect(wrappedWords == textWords, "seed \(seed)")
      for line in lines where line.count > HelpText.width {
        #expect(line.dropFirst(indent).split(separator: " ").count == 1, "seed \(seed): \(line)")
      }
      // Greedy: the next line's first word did not fit on this one.
      for (line, next) in zip(lines, lines.dropFirst()) {
        let word = next.dropFirst(indent).split(separator: " ").first ?? ""
        #expect(line.count + 1 + word.count > HelpText.width, "seed \(seed): \(line)")
      }
    }
  }

  @Test func anEntrySitsBesideItsTermOrUnderIt() {
    #expect(HelpText.entry("x", "close it", column: 8) == ["  x     close it"])
    #expect(
      HelpText.entry("a-long-term", "what it means", column: 8) == [
        "  a-long-term", "        what it means",
      ])
  }
}
