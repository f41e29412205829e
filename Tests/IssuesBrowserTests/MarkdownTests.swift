import IssuesBrowser
import Testing
import TrellisTerminal
import TrellisTestSupport

@Suite struct MarkdownTests {
  private func text(_ lines: [StyledLine]) -> [String] {
    lines.map { line in line.map { $0.text }.joined() }
  }

  @Test func windowsLineEndingsKeepTheirLines() {
    let lines = text(
      Markdown.render("preserved.\r\nA few options:\r\n1. Fake it\r\n2. Drop it", width: 60))
    #expect(lines == ["preserved.", "A few options:", "1. Fake it", "2. Drop it"])
  }

  @Test func headingsListsTasksQuotesAndRules() {
    let source = """
      ## Steps
      - one
      * two
      - [ ] todo
      - [x] done
      > quoted
      ---
      """
    #expect(
      text(Markdown.render(source, width: 30)) == [
        "Steps", "• one", "• two", "☐ todo", "☑ done", "│ quoted",
        String(repeating: "─", count: 30),
      ])
    let heading = Markdown.render("# Title", width: 30)
    #expect(heading[0][0].style.attributes.contains(.bold))
  }

  @Test func inlineEmphasisCodeAndLinks() {
    let lines = Markdown.render("Use **bold**, *it*, `code` and [docs](https://x.y/z).", width: 80)
    let runs = lines[0]
    #expect(runs.map(\.text).joined() == "Use bold, it, code and docs (https://x.y/z).")
    #expect(runs.first { $0.text == "bold" }?.style.attributes.contains(.bold) == true)
    #expect(runs.first { $0.text == "it" }?.style.attributes.contains(.italic) == true)
    #expect(runs.first { $0.text == "code" }?.style.foreground == .cyan)
    #expect(runs.first { $0.text == "docs" }?.style.attributes.contains(.underline) == true)
  }

  @Test func commentsAndTagsAreDroppedAndCodeKeepsItsSpacing() {
    let source = """
      <!-- Please describe the bug -->
      It <b>breaks</b>.
      ```swift
      let  x = 1
      ```
      """
    #expect(text(Markdown.render(source, width: 40)) == ["It breaks.", "  swift", "  let  x = 1"])
  }

  @Test func linesOfOnlyTagsSeparateLikeBlankOnes() {
    let source = "First.\r\n\r\n<bountysource-plugin>\r\n\r\n---\r\nLast."
    #expect(
      text(Markdown.render(source, width: 20)) == [
        "First.", "", String(repeating: "─", count: 20), "Last.",
      ])
  }

  @Test func snake_case_words_are_not_emphasis() {
    #expect(text(Markdown.render("call set_up_view now", width: 40)) == ["call set_up_view now"])
  }

  /// Property: whatever the text and width, no line is wider than the width, and every word of
  /// the source survives (wrapping only moves words between lines).
  @Test func wrappedLinesNeverExceedTheWidth() {
    let seed: UInt64 = 2026
    var rng = SplitMix64(seed: seed)
    let words = [
      "마일스톤", "필터", "emoji😃", "a", "supercalifragilisticexpialidocious", "新版本", "**bold**", "`x`",
      "-",
    ]
    for _ in 0..<300 {
      let width = Int.random(in: 8...50, using: &rng)
      let count = Int.random(in: 1...40, using: &rng)
      // Starting with a word, not "-", keeps it a paragraph rather than a list item.
      let source =
        "x "
        + (0..<count).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }
        .joined(separator: " ")
      let lines = Markdown.render(source, width: width)
      for line in lines {
        let columns = DisplayWidth.of(line.map { $0.text }.joined())
        #expect(columns <= width, "seed \(seed): \(columns) > \(width) for \(source)")
      }
      let joined = text(lines).joined().filter { !$0.isWhitespace }
      let expected = source.replacingOccurrences(of: "**", with: "")
        .replacingOccurrences(of: "`", with: "").filter { !$0.isWhitespace }
      #expect(joined == expected, "seed \(seed): \(source)")
    }
  }
}
